// The only composer: an item of a money-moving run goes through the approval plan (planRun.ts) when
// the run rehearses or is bound to one, else straight through the item pipeline (item.ts), with the
// status queries of the items after it asked ahead (issue 34).
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { movesMoney, ordersOnce } from '../core/facts';
import type { OperationSpec } from '../core/operation';
import { hasLimits } from '../guard/limits';
import { askAhead, asksFirst, prepareItem, runItem, type AskedAhead, type PreparedItem } from './item';
import { planOfRun, planRecord, rehearsePlanned, runBound } from './planRun';

export async function executeOperation(
	ctx: IExecuteFunctions,
	spec: OperationSpec,
	itemIndex: number,
): Promise<IDataObject> {
	if (!ordersOnce(spec)) return await runItem(ctx, spec, await prepareItem(ctx, spec, itemIndex));
	const moves = movesMoney(spec);
	// A dry run, and a real run bound to an approved plan, plan the whole run before any item is sent.
	const runPlan = moves ? await planOfRun(ctx, spec, itemIndex) : undefined;
	if (runPlan?.dryRun) return await rehearsePlanned(ctx, spec, runPlan, itemIndex);
	if (runPlan)
		return await runBound(ctx, spec, runPlan, itemIndex, async (prepared) => await runItem(ctx, spec, prepared));
	const { prepared, ahead } = await itemAhead(ctx, spec, itemIndex);
	const output = await runItem(ctx, spec, prepared, ahead);
	return moves ? { ...output, ...planRecord(undefined, itemIndex) } : output;
}

/**
 * Status queries asked ahead of the sends. "Is this order new?" (and a follow-up's "is it done?") is
 * read-only, so while items are sent at the run's Concurrency, the items after them are read, checked
 * and asked about, up to this many items past the last one started, or twice the Concurrency: an
 * item's answer is then in before the item starts, one send's round trip later (about Concurrency
 * queries are in flight). A run costs about the round trips of its sends instead of twice that. Each
 * answer still decides its own item's send, in the item's turn (item.ts, runItem). Not under spending
 * limits: they are counted item by item before the order is asked about.
 */
const ASKED_AHEAD = 16;

interface ItemAhead {
	prepared: PreparedItem;
	ahead?: AskedAhead;
}

interface RunAhead {
	width: number;
	/** Every item started or read ahead; an item's entry is emptied when it starts. */
	items: Map<number, Promise<ItemAhead | undefined> | undefined>;
	/**
	 * Whether every item started or read ahead so far was read and checked without an error (or the run
	 * goes on after one: Continue On Fail). An item after a failed one is not read ahead: the run stops
	 * there, and nothing is asked about the items it does not start.
	 */
	goesOn: Promise<boolean>;
}

/** Each run's items read ahead, by the run's own context object: they go with the run. */
const runsAhead = new WeakMap<IExecuteFunctions, RunAhead>();

/** Whether the item was read ahead here already: the router's own read-ahead then leaves it alone. */
export function readAheadAlready(ctx: IExecuteFunctions, itemIndex: number): boolean {
	return runsAhead.get(ctx)?.items.has(itemIndex) ?? false;
}

/**
 * Item `itemIndex` read, checked and asked about (ahead, or in its turn), and the items after it read
 * and asked about ahead. Items are read ahead only when an item starts, so a run stopped at a failed
 * item (the router then starts nothing new) reads nothing more ahead.
 */
async function itemAhead(ctx: IExecuteFunctions, spec: OperationSpec, itemIndex: number): Promise<ItemAhead> {
	let run = runsAhead.get(ctx);
	if (!run) runsAhead.set(ctx, (run = { width: 0, items: new Map(), goesOn: Promise.resolve(true) }));
	const taken = run.items.get(itemIndex);
	run.items.set(itemIndex, undefined);
	const item = (await taken) ?? (await counted(ctx, run, readItem(ctx, spec, itemIndex, false)));
	const { prepared } = item;
	if (prepared.run.dryRun || hasLimits(prepared.run) || !asksFirst(ctx, spec, prepared.request, prepared.delivery))
		return item;
	run.width ||= Math.max(ASKED_AHEAD, 2 * prepared.options.concurrency);
	const last = Math.min(itemIndex + run.width, ctx.getInputData().length - 1);
	for (let next = itemIndex + 1; next <= last; next++) {
		if (run.items.has(next)) continue;
		const later = run.goesOn.then(async (go) => (go ? await readItem(ctx, spec, next, true) : undefined));
		run.items.set(next, counted(ctx, run, later));
	}
	return item;
}

/** Counts an item's reading in the run's `goesOn` (an item not read counts as failed). */
function counted<T extends ItemAhead | undefined>(ctx: IExecuteFunctions, run: RunAhead, read: Promise<T>): Promise<T> {
	const ok = read.then(
		(item) => item !== undefined,
		() => ctx.continueOnFail(),
	);
	const before = run.goesOn;
	run.goesOn = Promise.all([before, ok]).then(([earlier, own]) => earlier && own);
	// What it throws is the item's, thrown when the item starts (or dropped with a stopped run).
	read.catch(() => undefined);
	return read;
}

async function readItem(
	ctx: IExecuteFunctions,
	spec: OperationSpec,
	itemIndex: number,
	ask: boolean,
): Promise<ItemAhead> {
	const prepared = await prepareItem(ctx, spec, itemIndex);
	return { prepared, ahead: ask ? askAhead(ctx, spec, prepared) : undefined };
}
