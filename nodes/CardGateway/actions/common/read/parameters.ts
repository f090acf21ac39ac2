import type { IExecuteFunctions, INode, NodeParameterValueType } from 'n8n-workflow';

import { perRun } from '../../../../shared/perRun';

/**
 * Parameter reads of one run of the node. n8n resolves a parameter on every read (expressions in an
 * isolate in n8n 2.x, collections copied and checked against the node's description), so:
 * - a parameter without any expression has one value for every item and is read once per run;
 * - a value read ahead for a check (the duplicate order ID check) is handed to the item's own read
 *   once, so that what was checked is what is sent.
 */
interface RunParameters {
	node: INode;
	constants: Map<string, unknown>;
	/** Names whose stored value holds an expression: read for every item. */
	expressions: Set<string>;
	readAhead: Map<string, unknown>;
}

const runParameters = (ctx: IExecuteFunctions): RunParameters =>
	// getNode() deep-copies the node on every call
	perRun(ctx, 'parameters', () => ({
		node: ctx.getNode(),
		constants: new Map(),
		expressions: new Set(),
		readAhead: new Map(),
	}));

/** The node as configured (one copy per run: read it, never change it). */
export function nodeOf(ctx: IExecuteFunctions): INode {
	return runParameters(ctx).node;
}

/**
 * `getNodeParameter`, once per run for a parameter without expressions. Every caller passes the
 * same fallback for a name (the parameter's own default).
 */
export function nodeParameter(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback: NodeParameterValueType | object,
): unknown {
	const run = runParameters(ctx);
	if (run.readAhead.size) {
		const key = itemKey(itemIndex, name);
		if (run.readAhead.has(key)) {
			const value = run.readAhead.get(key);
			run.readAhead.delete(key);
			return value;
		}
	}
	if (run.constants.has(name)) return run.constants.get(name);
	const value = ctx.getNodeParameter(name, itemIndex, fallback);
	if (run.expressions.has(name)) return value;
	if (hasExpression(rawParameter(run.node, name))) run.expressions.add(name);
	else run.constants.set(name, value);
	return value;
}

/** Reads an item's parameter ahead of the item; its own read later gets this same value. */
export function readAhead(
	ctx: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback: NodeParameterValueType | object,
): unknown {
	const value = nodeParameter(ctx, name, itemIndex, fallback);
	const run = runParameters(ctx);
	if (!run.constants.has(name)) run.readAhead.set(itemKey(itemIndex, name), value);
	return value;
}

const itemKey = (itemIndex: number, name: string) => `${itemIndex}\u0000${name}`;

/** The stored (unresolved) value of a parameter; `a.b` reaches into collections. */
function rawParameter(node: INode, path: string): unknown {
	let value: unknown = node.parameters;
	for (const part of path.split('.'))
		value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
	return value;
}

/** n8n treats a string that starts with "=" as an expression, wherever it sits. */
function hasExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (value !== null && typeof value === 'object')
		return Object.values(value as Record<string, unknown>).some(hasExpression);
	return false;
}
