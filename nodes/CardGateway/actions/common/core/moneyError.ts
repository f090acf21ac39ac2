// An error that says what became of the money (its mark travels with it), and an order's status in words.
import { NodeApiError, type IExecuteFunctions, type JsonObject } from 'n8n-workflow';

import { withMoneyEffect, type MoneyEffect } from '../../../../shared/moneyEffect';
import { replyRecord, type GatewayReply } from '../../../../shared/protocol/reply';
import { STATUS } from '../../../../shared/protocol/statusWords';

import type { Delivery } from './delivery';

export function describeStatus(reply: GatewayReply): string {
	const fields = replyRecord(reply);
	const parts = [`status "${fields.status || STATUS.unknown}"`];
	if (fields.transactionType) parts.push(`last transaction "${fields.transactionType}"`);
	if (fields.amount) parts.push(`amount ${fields.amount} ${fields.currency ?? ''}`.trim());
	return parts.join(', ');
}

export function moneyError(
	ctx: IExecuteFunctions,
	delivery: Delivery,
	effect: MoneyEffect,
	cause: string,
	message: string,
	description: string,
): NodeApiError {
	return withMoneyEffect(
		new NodeApiError(ctx.getNode(), { message: cause } as JsonObject, {
			message,
			description,
			itemIndex: delivery.itemIndex,
		}),
		effect,
	);
}
