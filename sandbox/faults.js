// @ts-check
'use strict';
// Fault injection registry. Request faults are taken when an API request arrives; callback faults
// when a callback is queued; stay-processing when an order is created; report faults when a
// transaction report is about to be served (../report-reply.js).

const KINDS = new Set([
	'latency',
	'http500',
	'reset',
	'timeout',
	'apply-then-drop',
	'duplicate-callback',
	'out-of-order-callbacks',
	'wrong-control-callback',
	'stay-processing',
	'report-cut-mid-row',
	'report-cut-at-row',
	'report-empty',
]);
/** @type {Record<string, number>} */
const DEFAULT_LATENCY = { latency: 1000, timeout: 10000, 'out-of-order-callbacks': 2000 };

/**
 * @typedef {object} Fault
 * @property {string} id          'f1', 'f2'…
 * @property {string} kind
 * @property {string} op          a command name, a command key or '*'
 * @property {number} count       -1: unlimited
 * @property {number} remaining
 * @property {number} latencyMs
 * @property {number} used
 */

class Faults {
	constructor() {
		/** @type {Fault[]} */
		this.items = [];
		this.nextId = 1;
		/** Called with the faults removed (server.js lets the orders a stay-processing fault held go on). */
		this.onRemove = /** @type {(removed: Fault[]) => void} */ (() => {});
	}

	/**
	 * spec: { kind, op?: command name or '*', count?: N (default 1, -1 = unlimited), latencyMs? }
	 * @param {import('./engine/types').FaultSpec} spec
	 * @returns {Fault}
	 */
	add(spec) {
		if (!spec || !KINDS.has(spec.kind)) {
			throw new Error(`Unknown fault kind '${spec && spec.kind}'; one of: ${[...KINDS].join(', ')}`);
		}
		const count = spec.count === undefined ? 1 : Number(spec.count);
		if (!Number.isInteger(count) || count === 0 || count < -1)
			throw new Error('count must be a positive integer or -1');
		/** @type {Fault} */
		const fault = {
			id: `f${this.nextId++}`,
			kind: spec.kind,
			op: spec.op ? String(spec.op) : '*',
			count,
			remaining: count,
			latencyMs: spec.latencyMs !== undefined ? Number(spec.latencyMs) : DEFAULT_LATENCY[spec.kind] || 0,
			used: 0,
		};
		this.items.push(fault);
		return fault;
	}

	/**
	 * op matches the bare command name ('sale') or its versioned key ('v4/payout').
	 * @param {Fault} fault
	 * @param {import('./engine/types').CommandName | null} definition
	 */
	matches(fault, definition) {
		if (fault.op === '*') return true;
		const op = fault.op.replace(/^\/+/, '');
		return definition && (op === definition.name || op === definition.key || (definition.op && op === definition.op));
	}

	/**
	 * Consume one matching fault of `kind` (or null). definition: the command definition (or { name }).
	 * @param {string} kind
	 * @param {import('./engine/types').CommandName | null} definition
	 * @returns {Fault | null}
	 */
	take(kind, definition) {
		for (const f of this.items) {
			if (f.kind !== kind || f.remaining === 0 || !this.matches(f, definition)) continue;
			if (f.remaining > 0) f.remaining--;
			f.used++;
			return f;
		}
		return null;
	}

	list() {
		return this.items.map((f) => ({ ...f }));
	}

	/** @param {string} id */
	remove(id) {
		const i = this.items.findIndex((f) => f.id === id);
		if (i < 0) return false;
		const [f] = this.items.splice(i, 1);
		this.onRemove([f]);
		return true;
	}

	clear() {
		const removed = this.items;
		this.items = [];
		if (removed.length) this.onRemove(removed);
	}
}

module.exports = { Faults, FAULT_KINDS: KINDS };
