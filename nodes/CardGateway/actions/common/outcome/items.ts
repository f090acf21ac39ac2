// What leaves the node as items: output masked, and a failure under Continue On Fail as an error item
// in the place of the item that failed.
import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { MONEY_EFFECT_WORDS, moneyEffectOf } from '../../../../shared/moneyEffect';
import { maskSensitive } from '../../../../shared/protocol/masking';

/** Masks a field-aware read's items with its own mask; without one every text is masked as free text. */
export function maskedItems(
	items: INodeExecutionData[],
	secrets: readonly string[],
	mask: (json: IDataObject, secrets: readonly string[]) => IDataObject = maskSensitive,
): INodeExecutionData[] {
	return items.map((item) => ({ ...item, json: mask(item.json, secrets) }));
}

/**
 * The error item of a failed (and scrubbed) item: its message (and, when `described`, its description)
 * as the item's json; n8n's own errors are kept as the item's `error`, which routes it to the error
 * output ("Continue (using error output)") and carries what became of the money. An item of a
 * money-moving operation leads, as its other items do, with `moneyEffect` and `outcome`.
 */
export function errorItem(
	ctx: IExecuteFunctions,
	error: Error,
	itemIndex: number,
	described: boolean,
	movesMoney = false,
): INodeExecutionData {
	const description = (error as { description?: unknown }).description;
	const effect = movesMoney ? moneyEffectOf(error) : undefined;
	return {
		json: {
			...(effect ? { moneyEffect: effect, outcome: `Failed: ${MONEY_EFFECT_WORDS[effect]}` } : {}),
			error: error.message,
			...(described && typeof description === 'string' && description ? { description } : {}),
		},
		error:
			error instanceof NodeApiError || error instanceof NodeOperationError
				? error
				: new NodeOperationError(ctx.getNode(), error, { itemIndex }),
		pairedItem: { item: itemIndex },
	};
}
