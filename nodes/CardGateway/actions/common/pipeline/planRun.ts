// A run's plan in the node (issues 26, 30): a dry run plans every item before any item is reported,
// so that each output carries the plan ID of the whole run; a real run with "Approved Plan ID" plans
// every item the same way before anything is sent, and runs only if the plan is the approved one.
// The approved plan's nonce fixes the order IDs the node generates (orderIds.ts), so a second run
// under one approval finds its orders at the gateway; a follow-up finds its order changed.
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { withMoneyEffect } from '../../../../shared/moneyEffect';
import { perRun } from '../../../../shared/perRun';
import { buildGatewayRequest, merchantCredentials } from '../../../../shared/transport';

import type { StatusKnowledge } from '../core/delivery';
import { rehearse } from '../rehearse/dryRun';
import { factsOf } from '../core/facts';
import { runSettings } from '../read/runSettings';
import { planDiffers, planItemMissing, planOrderMoved } from './planMessages';
import { oneAtATime } from '../guard/oneAtATime';
import { orderBefore, prepareItem, type PreparedItem } from './item';
import type { OperationSpec } from '../core/operation';
import { runOptions, storedOptions } from '../read/options';
import { deriveOrderIdsFromPlan } from '../read/orderIds';
import { nodeParameter } from '../read/parameters';
import {
	approvalRefusal,
	isPlanEntry,
	newPlanNonce,
	orderStateOf,
	planIdOf,
	planItemOf,
	planNonceOf,
	planSummary,
	requestDigestOf,
	type PlanEntry,
} from '../rehearse/plan';

/** One item as planned: ready to rehearse or send, or the error it failed with (nothing was sent). */
type PlannedItem = { prepared: PreparedItem; before?: StatusKnowledge; entry: PlanEntry } | { error: Error };

export interface RunPlan {
	dryRun: boolean;
	/** The plan ID the run is bound to (a real run only). */
	approvedPlanId?: string;
	items: PlannedItem[];
	/** Null when an item could not be planned, or the plan is not offered for approval (rehearse/plan.ts, approvalRefusal). */
	planId: string | null;
	summary: IDataObject;
}

/**
 * The run's plan, made once (the first item to ask waits for it, the others share it), when the run
 * is a dry run or bound to an approved plan; undefined otherwise.
 */
export async function planOfRun(
	ctx: IExecuteFunctions,
	spec: OperationSpec,
	itemIndex: number,
): Promise<RunPlan | undefined> {
	return await perRun(ctx, 'plan', () =>
		makeRunPlan(ctx, spec, itemIndex).catch((error: Error) => {
			throw withMoneyEffect(error, 'notSent');
		}),
	);
}

async function makeRunPlan(
	ctx: IExecuteFunctions,
	spec: OperationSpec,
	itemIndex: number,
): Promise<RunPlan | undefined> {
	{
		// Dry Run and Approved Plan ID hold for the whole run: read strictly from the first item.
		const { dryRun } = runSettings(ctx, itemIndex);
		const first = runOptions(nodeParameter(ctx, 'options', 0, {}) as IDataObject, storedOptions(ctx));
		if (!dryRun && !first.approvedPlanId) return undefined;
		// A dry run draws its nonce; a bound run takes the approved plan's (read/planId.ts spells its format).
		const nonce = dryRun ? newPlanNonce() : (planNonceOf(first.approvedPlanId) ?? '');
		deriveOrderIdsFromPlan(ctx, nonce, !dryRun);
		const count = ctx.getInputData().length;
		const items = await inTurns(count, first.concurrency, async (index) => await planItem(ctx, spec, index));
		const entries = items.flatMap((item) => ('entry' in item ? [item.entry] : []));
		const notPlanned = items.flatMap((item, index) => ('error' in item ? [index] : []));
		const { controlKey } = await merchantCredentials(ctx);
		const planId = notPlanned.length || approvalRefusal(entries) ? null : planIdOf(controlKey, nonce, entries);
		return {
			dryRun,
			approvedPlanId: dryRun ? undefined : first.approvedPlanId,
			items,
			planId,
			summary: planSummary(planId, entries, first, notPlanned),
		};
	}
}

/** One item planned with a dry run's reads: the status query about its order, nothing that moves money. */
async function planItem(ctx: IExecuteFunctions, spec: OperationSpec, itemIndex: number): Promise<PlannedItem> {
	try {
		const prepared = await prepareItem(ctx, spec, itemIndex);
		const { request, run, call, delivery } = prepared;
		const before = await orderBefore(ctx, spec, request, { ...run, dryRun: true }, call, delivery);
		const built = await buildGatewayRequest(ctx, call);
		const { controlKey, login } = built.credentials;
		const requestDigest = requestDigestOf(controlKey, {
			method: built.request.method ?? 'POST',
			url: built.request.url,
			auth: built.auth,
			login,
			fields: built.fields,
		});
		const entry: PlanEntry = {
			item: itemIndex + 1,
			...planItemOf({
				operation: spec.gateway,
				values: request.values,
				clientOrderId: request.clientOrderId,
				generatedOrderId: request.generatedOrderId,
				target: delivery.target,
				order: before,
				requestDigest,
			}),
		};
		return { prepared, before, entry };
	} catch (error) {
		return { error: withMoneyEffect(error as Error, 'notSent') };
	}
}

/** `count` tasks, at most `width` at a time, results in input order. */
async function inTurns<T>(count: number, width: number, task: (index: number) => Promise<T>): Promise<T[]> {
	const results: T[] = new Array(count);
	let next = 0;
	const worker = async () => {
		while (next < count) {
			const index = next++;
			results[index] = await task(index);
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(width, count)) }, worker));
	return results;
}

/** A dry run's output of one item: the rehearsal, its plan entry and the whole run's plan ID and summary. */
export async function rehearsePlanned(
	ctx: IExecuteFunctions,
	spec: OperationSpec,
	runPlan: RunPlan,
	itemIndex: number,
): Promise<IDataObject> {
	const item = runPlan.items[itemIndex];
	if ('error' in item) throw item.error;
	const { request, call, delivery } = item.prepared;
	const rehearsal = await rehearse(
		ctx,
		{ label: spec.label, gateway: spec.gateway, values: request.values, generatedOrderId: request.generatedOrderId },
		call,
		delivery,
		item.before,
	);
	return { ...rehearsal, planId: runPlan.planId, planned: { ...item.entry }, planSummary: runPlan.summary };
}

/**
 * An item of a run bound to an approved plan, sent by `send` once the whole run's plan is the
 * approved one; otherwise every item is refused before anything is sent (the auditor's rule: an
 * approval covers the run as approved, not whatever part of it still matches).
 *
 * Two runs under one approval at once (Execute clicked twice) both find the plan unchanged. Their
 * items on one order then take turns in this n8n process: a new order's second turn finds the order
 * at the gateway (item.ts asks before sending), a follow-up's second turn finds its order no
 * longer as planned and is refused here, nothing sent.
 */
export async function runBound(
	ctx: IExecuteFunctions,
	spec: OperationSpec,
	runPlan: RunPlan,
	itemIndex: number,
	send: (prepared: PreparedItem) => Promise<IDataObject>,
): Promise<IDataObject> {
	const prepared = boundItem(ctx, spec, runPlan, itemIndex);
	const { request, run, call, delivery } = prepared;
	const record = planRecord(runPlan, itemIndex);
	if (!factsOf(delivery).money.followUp) return { ...(await send(prepared)), ...record };
	// Its own turn, around item.ts's (which a run without a plan takes too): the check and the send in one.
	return await oneAtATime(
		`plan\u0000${delivery.login}\u0000${delivery.clientOrderId ?? delivery.target ?? ''}`,
		async () => {
			const entry = record.planned as PlanEntry;
			const now = orderStateOf(await orderBefore(ctx, spec, request, { ...run, dryRun: true }, call, delivery), false);
			if (now !== entry.orderState)
				throw planOrderMoved(ctx, spec.label, itemIndex, runPlan.approvedPlanId ?? '', entry, now);
			return { ...(await send(prepared)), ...record };
		},
	);
}

function boundItem(ctx: IExecuteFunctions, spec: OperationSpec, runPlan: RunPlan, itemIndex: number): PreparedItem {
	const item = runPlan.items[itemIndex];
	if ('error' in item) throw item.error;
	const approved = runPlan.approvedPlanId ?? '';
	const failed = runPlan.items.flatMap((other, index) => ('error' in other ? [index + 1] : []));
	if (failed.length) throw planItemMissing(ctx, spec.label, itemIndex, approved, failed);
	if (runPlan.planId === approved) return item.prepared;
	const current = runPlan.items.flatMap((other) => ('entry' in other ? [other.entry] : []));
	throw planDiffers(ctx, spec.label, itemIndex, approved, runPlan.planId, current, approvedEntries(ctx, approved));
}

/**
 * The approved plan's items, when a dry run that gave it ran earlier in this execution (its output
 * items carry `planId` and `planned`, also after a Wait or Form node passed them on): the differences
 * can then be named item by item.
 */
function approvedEntries(ctx: IExecuteFunctions, planId: string): PlanEntry[] | undefined {
	let proxy: ReturnType<IExecuteFunctions['getWorkflowDataProxy']>;
	let parents: ReturnType<IExecuteFunctions['getParentNodes']>;
	try {
		proxy = ctx.getWorkflowDataProxy(0);
		parents = ctx.getParentNodes(ctx.getNode().name);
	} catch {
		return undefined; // no workflow around the node (an agent's tool call): the current plan is listed instead
	}
	for (const parent of parents) {
		let items: Array<{ json: IDataObject }>;
		try {
			items = proxy.$items(parent.name) as Array<{ json: IDataObject }>;
		} catch {
			continue; // a node that did not run in this execution
		}
		const entries = items.flatMap(({ json }) =>
			json.planId === planId && isPlanEntry(json.planned) ? [json.planned] : [],
		);
		if (entries.length) return entries;
	}
	return undefined;
}

/** The audit trail of a real run: the plan it executed under and this item's approved entry, or that there was none. */
export function planRecord(runPlan: RunPlan | undefined, itemIndex: number): IDataObject {
	const item = runPlan?.items[itemIndex];
	if (!runPlan || !item || !('entry' in item))
		return { planId: null, planned: 'no plan: this run was not bound to an approved plan (Approved Plan ID not set)' };
	return { planId: runPlan.planId, planned: { ...item.entry } };
}
