// The pipeline's one entry: the router hands every operation here. A per-item operation runs its
// items through the stages (items.ts); a read over many records runs once for the whole run: guarded
// (guard/sameForEveryItem.ts), its query read (read/oncePerRun.ts), sent by its own declaration, its
// items masked and its error marked (outcome/items.ts).
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { withMoneyEffect } from '../../../../shared/moneyEffect';

import type { OperationSpec, ReadMany } from '../core/operation';
import { scrub } from '../core/scrub';
import { queryOfRun } from '../read/oncePerRun';
import { sameForEveryItem } from '../guard/sameForEveryItem';
import { errorItem, maskedItems } from '../outcome/items';
import { runItems } from './items';

/** Runs the operation for the run's input items (at least one); everything that leaves is masked. */
export async function runOperation(
	ctx: IExecuteFunctions,
	spec: OperationSpec,
	secrets: readonly string[],
): Promise<INodeExecutionData[]> {
	return spec.readMany ? await runRead(ctx, spec.readMany, secrets) : await runItems(ctx, spec, secrets);
}

/** A read over many records, once for the run; with Continue On Fail its error is one error item. */
async function runRead(ctx: IExecuteFunctions, read: ReadMany, secrets: readonly string[]) {
	try {
		sameForEveryItem(ctx, read);
		return maskedItems(await read.send(ctx, queryOfRun(ctx, read)), secrets, read.mask);
	} catch (error) {
		// A read moves no money, whatever stopped it.
		const safe = withMoneyEffect(scrub(error as Error, secrets), 'notSent');
		if (!ctx.continueOnFail()) throw safe;
		return [errorItem(ctx, safe, 0, false)];
	}
}
