import { createHash, randomBytes } from 'node:crypto';

import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

/**
 * Generated merchant order IDs are derived, not drawn: from a random seed kept in the node's
 * execution context, n8n's run index of the node and the item index. n8n saves the context with
 * the execution (also when the node throws) and hands it to a Retry of that execution, whose node
 * runs again under the same run index: a retried execution generates the IDs the failed one sent,
 * so the gateway can tell that an item was already sent. A fresh execution starts with an empty
 * context and gets a new seed.
 *
 * A plan fixes them instead (issue 30): a dry run draws a nonce, which becomes part of the plan ID,
 * and derives its items' order IDs from it; a run bound to that plan derives the same IDs from the
 * approved plan ID. Every run under one approval therefore sends the same order IDs, and the
 * gateway's "is this order new?" answer tells a second run from the first.
 */
const SEED_KEY = 'generatedOrderIdSeed';
const SEED = /^[0-9a-f]{32}$/;
/** Stored instead of a seed when the IDs of a run could not be derived (drawn at random instead). */
const NOT_REPRODUCIBLE = 'not-reproducible';

/** How the IDs of one run of the node (one execute context) are made. */
type Derivation =
	| { seed: string; runIndex: number }
	/** From a plan's nonce: `bound` when the run is bound to the plan (an earlier run may have sent them). */
	| { planNonce: string; bound: boolean }
	| 'random';

const derivations = new WeakMap<object, Derivation>();

/** The execution is n8n's Retry of a failed one: items may have been sent by the execution it retries. */
export function isExecutionRetry(ctx: IExecuteFunctions): boolean {
	return ctx.getMode() === 'retry';
}

/**
 * The order IDs this run generates may have been sent before: by the execution an n8n Retry
 * retries, or by an earlier run under the same approved plan. Each such ID is looked up first.
 */
export function generatedIdsMayRepeat(ctx: IExecuteFunctions): boolean {
	const known = derivations.get(ctx);
	if (known && known !== 'random' && 'planNonce' in known) return known.bound;
	return isExecutionRetry(ctx);
}

/**
 * This run's generated order IDs come from a plan's nonce (set before any item is read): a dry
 * run's fresh nonce, or the nonce of the approved plan a run is bound to.
 */
export function deriveOrderIdsFromPlan(ctx: IExecuteFunctions, planNonce: string, bound: boolean): void {
	derivations.set(ctx, { planNonce, bound });
}

/**
 * A merchant order ID for an item whose Merchant Order ID was left empty: the same for the same
 * item of the same run in the execution and in its retries, another in every other execution.
 * Throws (for the item) in a retry whose first attempt's IDs cannot be derived again.
 */
export function generatedOrderId(ctx: IExecuteFunctions, itemIndex: number): string {
	const derivation = derivationOf(ctx, itemIndex);
	const bytes =
		derivation === 'random'
			? randomBytes(ID_LETTERS)
			: 'planNonce' in derivation
				? createHash('sha256').update(`plan:${derivation.planNonce}:${itemIndex}`).digest()
				: createHash('sha256').update(`${derivation.seed}:${derivation.runIndex}:${itemIndex}`).digest();
	return `n8n-${lettersOf(bytes, ID_LETTERS)}`;
}

/** Letters only (26^14, about 2^66): a run of digits could read as a card number and be masked in every output. */
const ID_LETTERS = 14;

/**
 * `count` lowercase letters, one from each of the first `count` bytes: identifiers we mint hold no
 * digits, so no masking of card numbers ever touches them. (Unchanged since IDs were first derived
 * this way: a Retry must derive the IDs its first attempt sent.)
 */
export function lettersOf(bytes: Uint8Array, count: number): string {
	let letters = '';
	for (let index = 0; index < count; index++) letters += String.fromCharCode(97 + (bytes[index] % 26));
	return letters;
}

function derivationOf(ctx: IExecuteFunctions, itemIndex: number): Derivation {
	const known = derivations.get(ctx);
	if (known) return known;
	const context = nodeContext(ctx);
	const stored: unknown = context?.[SEED_KEY];
	const runIndex = runIndexOf(ctx, itemIndex);
	let derivation: Derivation;
	if (isExecutionRetry(ctx)) {
		if (typeof stored !== 'string' || !SEED.test(stored) || runIndex === undefined)
			throw firstAttemptUnknown(ctx, itemIndex);
		derivation = { seed: stored, runIndex };
	} else if (!context || runIndex === undefined || stored === NOT_REPRODUCIBLE) {
		// Not expected in n8n. Drawn at random, and marked so that a retry refuses rather than guesses.
		if (context) context[SEED_KEY] = NOT_REPRODUCIBLE;
		derivation = 'random';
	} else {
		let seed = typeof stored === 'string' && SEED.test(stored) ? stored : undefined;
		if (!seed) {
			seed = randomBytes(16).toString('hex');
			context[SEED_KEY] = seed;
		}
		derivation = { seed, runIndex };
	}
	derivations.set(ctx, derivation);
	return derivation;
}

/** The node's own context in the execution data (n8n always has one; undefined if not). */
function nodeContext(ctx: IExecuteFunctions): IDataObject | undefined {
	try {
		return ctx.getContext('node') as IDataObject;
	} catch {
		return undefined;
	}
}

/** n8n's run index of this run of the node ($runIndex): Loop Over Items runs a node several times. */
function runIndexOf(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	try {
		const runIndex: unknown = ctx.getWorkflowDataProxy(itemIndex).$runIndex;
		return typeof runIndex === 'number' && Number.isSafeInteger(runIndex) && runIndex >= 0 ? runIndex : undefined;
	} catch {
		return undefined;
	}
}

function firstAttemptUnknown(ctx: IExecuteFunctions, itemIndex: number): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		'"Merchant Order ID" is empty, and this retried execution cannot generate the order IDs its first attempt sent; nothing was sent',
		{
			itemIndex,
			description:
				'This execution is a Retry of a failed one. Order IDs the node generates are derived from what the first attempt kept in its execution data, and that is missing here: the first attempt generated none in this node (it stopped before the node, or ran an older version of it), or stopped before its data was saved. With a new ID an item the first attempt charged would be charged again. Set "Merchant Order ID" explicitly (for example from your order number), or run the workflow fresh after checking what the first attempt did.',
		},
	);
}
