// Reading ahead, one mechanism for the run's items: while the items started are in flight, the items
// after them are read ahead, so the CPU n8n spends on their expressions (and, where an order is asked
// about first, the status query's round trip) is not added to every item. Two depths: an item's fields
// (every operation), or the item read, checked and its order asked about (issue 34).
import { sleep, type IExecuteFunctions } from 'n8n-workflow';

import { perRun } from '../../../../shared/perRun';

import type { OperationSpec } from '../core/operation';
import { readItemAhead } from '../read/request';
import { hasLimits } from '../guard/limits';
import { askAhead, asksFirst, prepareItem, type AskedAhead, type PreparedItem } from './item';

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

export interface ItemAhead {
	prepared: PreparedItem;
	ahead?: AskedAhead;
}

/** Where the run's item loop is (pipeline/items.ts): the next item to start, and whether the run stopped. */
export interface ItemLoop {
	count: number;
	next: number;
	failed: boolean;
}

interface RunAhead {
	/** Items whose fields were read ahead, up to (not including) this one. */
	fieldsUpTo: number;
	width: number;
	/** Every item started or asked about ahead; an item's entry is emptied when it starts. */
	items: Map<number, Promise<ItemAhead | undefined> | undefined>;
	/**
	 * Whether every item started or asked about ahead so far was read and checked without an error (or
	 * the run goes on after one: Continue On Fail). An item after a failed one is not asked about: the
	 * run stops there, and nothing is asked about the items it does not start.
	 */
	goesOn: Promise<boolean>;
}

const runAhead = (ctx: IExecuteFunctions): RunAhead =>
	perRun(ctx, 'ahead', () => ({ fieldsUpTo: 0, width: 0, items: new Map(), goesOn: Promise.resolve(true) }));

/**
 * Once an item's request has left, the fields of the next item not read ahead yet are read while it is
 * in flight; the item's own reads then get these values. An item asked about ahead was read whole already.
 */
export async function readFieldsAhead(
	ctx: IExecuteFunctions,
	spec: OperationSpec,
	loop: Readonly<ItemLoop>,
): Promise<void> {
	await sleep(0);
	const run = runAhead(ctx);
	const index = Math.max(loop.next, run.fieldsUpTo);
	if (loop.failed || index >= loop.count) return;
	run.fieldsUpTo = index + 1;
	if (run.items.has(index)) return;
	readItemAhead(ctx, spec, index);
}

/**
 * Item `itemIndex` read, checked and asked about (ahead, or in its turn), and the items after it read
 * and asked about ahead. Items are asked about ahead only when an item starts, so a run stopped at a
 * failed item (the item loop then starts nothing new) asks nothing more.
 */
export async function itemAhead(ctx: IExecuteFunctions, spec: OperationSpec, itemIndex: number): Promise<ItemAhead> {
	const run = runAhead(ctx);
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
