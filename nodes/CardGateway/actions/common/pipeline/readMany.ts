// A read operation over many records (Get Many, Reconcile, Balance → Get) runs once for the whole run:
// its items masked, its error (with Continue On Fail) one error item.
import { NodeApiError, NodeOperationError, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { maskSensitive } from '../../../../shared/protocol/masking';

import type { ReadMany } from '../core/operation';
import { scrub } from '../core/scrub';

/** A read-only operation over many records: its items masked; with Continue On Fail its error is one error item. */
export async function runReadMany(
	ctx: IExecuteFunctions,
	readMany: ReadMany,
	secrets: readonly string[],
): Promise<INodeExecutionData[]> {
	try {
		const mask = readMany.mask ?? maskSensitive;
		return (await readMany.run(ctx)).map((item) => ({ ...item, json: mask(item.json, secrets) }));
	} catch (error) {
		const safe = scrub(error as Error, secrets);
		if (!ctx.continueOnFail()) throw safe;
		const failure =
			safe instanceof NodeApiError || safe instanceof NodeOperationError
				? safe
				: new NodeOperationError(ctx.getNode(), safe);
		return [{ json: { error: safe.message }, error: failure, pairedItem: { item: 0 } }];
	}
}
