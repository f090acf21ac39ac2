import { randomBytes } from 'node:crypto';

import type { IExecuteFunctions } from 'n8n-workflow';

/** A merchant order ID for an item whose Merchant Order ID was left empty. */
export function generatedOrderId(_ctx: IExecuteFunctions, _itemIndex: number): string {
	return `n8n-${randomBytes(6).toString('hex')}`;
}
