// One item of a per-item operation: a money-moving run's item goes through the approval plan (planRun.ts)
// when the run rehearses or is bound to one, else straight through the item pipeline (item.ts), with the
// status queries of the items after it asked ahead (ahead.ts).
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { movesMoney, ordersOnce } from '../core/facts';
import type { OperationSpec } from '../core/operation';
import { itemAhead } from './ahead';
import { prepareItem, runItem } from './item';
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
