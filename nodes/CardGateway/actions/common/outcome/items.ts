// What leaves the node as items: output masked, and a failure under Continue On Fail as an error item
// in the place of the item that failed.
import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

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
 * output ("Continue (using error output)") and carries what became of the money.
 */
export function errorItem(
	ctx: IExecuteFunctions,
	error: Error,
	itemIndex: number,
	described: boolean,
): INodeExecutionData {
	const description = (error as { description?: unknown }).description;
	return {
		json: {
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
