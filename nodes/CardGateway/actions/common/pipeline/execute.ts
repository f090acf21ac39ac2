// The only composer: an item of a money-moving run goes through the approval plan (planRun.ts) when
// the run rehearses or is bound to one, else straight through the item pipeline (item.ts).
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { movesMoney } from '../core/facts';
import type { OperationSpec } from '../core/operation';
import { prepareItem, runItem } from './item';
import { planOfRun, planRecord, rehearsePlanned, runBound } from './planRun';

export async function executeOperation(
	ctx: IExecuteFunctions,
	spec: OperationSpec,
	itemIndex: number,
): Promise<IDataObject> {
	if (!movesMoney(spec)) return await runItem(ctx, spec, await prepareItem(ctx, spec, itemIndex));
	// A dry run, and a real run bound to an approved plan, plan the whole run before any item is sent.
	const runPlan = await planOfRun(ctx, spec, itemIndex);
	if (runPlan?.dryRun) return await rehearsePlanned(ctx, spec, runPlan, itemIndex);
	if (runPlan)
		return await runBound(ctx, spec, runPlan, itemIndex, async (prepared) => await runItem(ctx, spec, prepared));
	return {
		...(await runItem(ctx, spec, await prepareItem(ctx, spec, itemIndex))),
		...planRecord(undefined, itemIndex),
	};
}
