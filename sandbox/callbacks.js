// @ts-check
'use strict';
// Server callbacks (gateway → merchant): HTTP GET with the outcome in the query string (the
// documented way; `callbackMethod: 'POST'` sends the same fields as a form body instead), retried on
// a compressed schedule until the merchant answers 200. Every attempt is recorded for the admin API.
const { Agent, request } = require('undici');

/**
 * A callback the engine queues (engine/callbacks.js).
 * @typedef {object} CallbackToSend
 * @property {string} orderid
 * @property {string} clientOrderId
 * @property {string | undefined} type
 * @property {string[]} urls
 * @property {Record<string, string>} params        without control
 * @property {(params: Record<string, string>, wrong: boolean) => string} sign   → control
 * @property {import('./engine/types').CommandName} [definition]
 */

/**
 * @typedef {object} Attempt
 * @property {number} n
 * @property {string} at
 * @property {string} method
 * @property {number} [httpStatus]
 * @property {string} [error]
 * @property {number} [ms]
 */

/**
 * One delivery to one URL, with its attempts (the admin API lists them).
 * @typedef {object} Delivery
 * @property {string} id
 * @property {string} orderid
 * @property {string} client_orderid
 * @property {string | undefined} type
 * @property {string} status
 * @property {string} url
 * @property {Record<string, string>} params
 * @property {string} state        pending, held, delivered, failed
 * @property {boolean} delivered
 * @property {Attempt[]} attempts
 * @property {string} createdAt
 * @property {boolean} [duplicate]
 * @property {boolean} [wrongControl]
 * @property {string} [replayOf]
 */

class Callbacks {
	/**
	 * @param {{ retry: { attempts: number, delaysMs: number[] }, timeoutMs: number,
	 *   faults: import('./faults').Faults, method: string }} opts   method: 'GET' (default) or 'POST'
	 */
	constructor(opts) {
		this.retry = opts.retry;
		/** @type {'GET' | 'POST'} */
		this.method = opts.method === 'POST' ? 'POST' : 'GET';
		this.timeoutMs = opts.timeoutMs;
		this.faults = opts.faults;
		this.agent = new Agent({ connections: 16, headersTimeout: opts.timeoutMs, bodyTimeout: opts.timeoutMs });
		this.timers = new Set();
		this.closed = false;
		this.seq = 0;
		/** @type {Delivery[]} */
		this.deliveries = [];
		/** @type {Map<string, { release: () => void, deliveries: Delivery[] }>} orderid → held deliveries (out-of-order fault) */
		this.held = new Map();
		/** @type {WeakMap<Delivery, Promise<void>>} settles once a delivery's first attempt is done */
		this.firstAttempts = new WeakMap();
	}

	reset() {
		for (const t of this.timers) clearTimeout(t);
		this.timers.clear();
		this.deliveries = [];
		this.held.clear();
	}

	/**
	 * Queue a callback for each URL.
	 * @param {CallbackToSend} cb
	 * @returns {Delivery[]}
	 */
	enqueue(cb) {
		const urls = [...new Set(cb.urls.filter(Boolean))];
		if (!urls.length) return [];
		const definition = cb.definition || { name: cb.type };
		const duplicate = this.faults.take('duplicate-callback', definition);
		const wrong = this.faults.take('wrong-control-callback', definition);
		const outOfOrder = this.faults.take('out-of-order-callbacks', definition);
		const params = { ...cb.params, control: cb.sign(cb.params, Boolean(wrong)) };
		/** @type {Delivery[]} */
		const created = [];
		for (const url of urls) {
			const copies = duplicate ? 2 : 1;
			for (let i = 0; i < copies; i++) {
				const d = this.create(cb, url, params, { duplicate: i > 0, wrongControl: Boolean(wrong) });
				created.push(d);
			}
		}
		const previouslyHeld = this.held.get(cb.orderid);
		if (outOfOrder) {
			// Hold these until a later callback of the same order went out (or a safety timeout).
			for (const d of created) d.state = 'held';
			const release = () => {
				if (this.held.get(cb.orderid) !== entry) return;
				this.held.delete(cb.orderid);
				for (const d of created) this.start(d);
			};
			const entry = { release, deliveries: created };
			this.held.set(cb.orderid, entry);
			this.later(release, outOfOrder.latencyMs || 2000);
		} else {
			const first = created.map((d) => this.start(d));
			if (previouslyHeld) {
				// The later callback's first attempt goes out before the held, earlier one.
				Promise.allSettled(first).then(() => previouslyHeld.release());
			}
		}
		return created;
	}

	/**
	 * @param {{ orderid: string, clientOrderId: string, type: string | undefined }} cb
	 * @param {string} url
	 * @param {Record<string, string>} params
	 * @param {{ duplicate?: boolean, wrongControl?: boolean, replayOf?: string }} flags
	 * @returns {Delivery}
	 */
	create(cb, url, params, flags) {
		/** @type {Delivery} */
		const d = {
			id: String(++this.seq),
			orderid: cb.orderid,
			client_orderid: cb.clientOrderId,
			type: cb.type,
			status: params.status,
			url,
			params,
			state: 'pending',
			delivered: false,
			attempts: [],
			createdAt: new Date().toISOString(),
			...flags,
		};
		this.deliveries.push(d);
		return d;
	}

	/**
	 * Re-send a recorded delivery as a new delivery (same parameters).
	 * @param {string} id
	 */
	replay(id) {
		const orig = this.deliveries.find((d) => d.id === String(id));
		if (!orig) return null;
		const d = this.create(
			{ orderid: orig.orderid, clientOrderId: orig.client_orderid, type: orig.type },
			orig.url,
			orig.params,
			{
				replayOf: orig.id,
			},
		);
		this.start(d);
		return d;
	}

	/**
	 * @param {() => void} fn
	 * @param {number} ms
	 */
	later(fn, ms) {
		if (this.closed) return;
		const t = setTimeout(() => {
			this.timers.delete(t);
			fn();
		}, ms);
		this.timers.add(t);
	}

	/**
	 * Runs the attempts; resolves after the first attempt (so ordering faults can chain on it).
	 * @param {Delivery} d
	 * @returns {Promise<void>}
	 */
	start(d) {
		d.state = 'pending';
		/** @type {Promise<void>} */
		const first = new Promise((resolveFirst) => {
			/** @param {number} n */
			const attempt = async (n) => {
				if (this.closed) return resolveFirst();
				const url = new URL(d.url);
				const form = new URLSearchParams(d.params);
				/** @type {{ method: 'GET' | 'POST', dispatcher: Agent, body?: string, headers?: Record<string, string> }} */
				const init = { method: this.method, dispatcher: this.agent };
				if (this.method === 'POST') {
					init.body = form.toString();
					init.headers = { 'content-type': 'application/x-www-form-urlencoded' };
				} else {
					for (const [k, v] of form) url.searchParams.append(k, v);
				}
				const started = Date.now();
				/** @type {Attempt} */
				const rec = { n, at: new Date(started).toISOString(), method: this.method };
				try {
					const r = await request(url, init);
					await r.body.dump();
					rec.httpStatus = r.statusCode;
				} catch (/** @type {any} */ e) {
					rec.error = e.code || e.message;
				}
				rec.ms = Date.now() - started;
				d.attempts.push(rec);
				if (rec.httpStatus === 200) {
					d.delivered = true;
					d.state = 'delivered';
				} else if (n >= this.retry.attempts) {
					d.state = 'failed';
				} else {
					const delays = this.retry.delaysMs || [];
					const wait = delays.length ? delays[Math.min(n - 1, delays.length - 1)] : 1000;
					this.later(() => attempt(n + 1), wait);
				}
				if (n === 1) resolveFirst();
			};
			setImmediate(() => attempt(1));
		});
		this.firstAttempts.set(d, first);
		return first;
	}

	/**
	 * Settles once the delivery's first attempt is done (at once for one not started: held back by a fault).
	 * @param {Delivery} d
	 * @returns {Promise<void>}
	 */
	firstAttempt(d) {
		return this.firstAttempts.get(d) || Promise.resolve();
	}

	list() {
		return this.deliveries;
	}

	async close() {
		this.closed = true;
		for (const t of this.timers) clearTimeout(t);
		this.timers.clear();
		await this.agent.destroy().catch(() => {});
	}
}

module.exports = { Callbacks };
