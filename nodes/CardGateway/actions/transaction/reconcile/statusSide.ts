// The status side: each record's order as the gateway's status query reports it.
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { comparableName } from '../../../../shared/protocol/names';
import { replyRecord } from '../../../../shared/protocol/reply';
import { merchantCredentials } from '../../../../shared/transport';
import { learnStatus } from '../../common/send/delivery';
import { reportTimeout } from '../getMany.operation';

import { ROLES, STARTS, type GatewayOrder, type YourRecord } from './orders';
import { notReadWhole } from './readWhole';

/** Each record's order as the gateway's status query reports it; a record the gateway does not know is left out. */
export async function ordersByStatus(
	ctx: IExecuteFunctions,
	records: YourRecord[],
	timeoutMs: number,
): Promise<Map<string, GatewayOrder[]>> {
	const { login } = await merchantCredentials(ctx);
	const orders = new Map<string, GatewayOrder[]>();
	const asked = new Set<string>();
	for (const record of records) {
		if (asked.has(record.merchantOrderId)) continue;
		asked.add(record.merchantOrderId);
		const known = await learnStatus(
			ctx,
			{ timeoutMs },
			{ operation: 'status', itemIndex: record.itemIndex, login, clientOrderId: record.merchantOrderId },
		);
		if (known.kind === 'notFound') continue;
		if (known.kind === 'unknown')
			throw notReadWhole(ctx, `order "${record.merchantOrderId}" could not be looked up: ${known.reason}`);
		const reply = replyRecord(known.reply);
		const type = (reply.transactionType ?? '').toLowerCase();
		const role = ROLES[comparableName(type)];
		if (!role)
			throw notReadWhole(
				ctx,
				`order "${record.merchantOrderId}" reports a latest transaction of type "${type}", which Reconcile cannot place`,
			);
		const status = (reply.status ?? '').toLowerCase();
		const own = STARTS[role];
		// A status reply names the order's latest transaction: its own, or what followed (then the order's
		// amount and status are not in the reply, and its kind only when the follower tells it).
		orders.set(record.merchantOrderId, [
			{
				merchantOrderId: record.merchantOrderId,
				orderId: reply.orderId,
				kind: own ?? (role === 'capture' || role === 'cancel' ? 'preauth' : undefined),
				...(own ? { type, status, amount: reply.amount } : {}),
				currency: reply.currency?.toUpperCase(),
				latest: { type, status, role, left: reply.amount },
			},
		]);
	}
	return orders;
}

/** How long each status query may take: the Timeout option, as for the report. */
export function statusTimeoutMs(ctx: IExecuteFunctions): number {
	const chosen = ctx.getNodeParameter('options', 0, {}) as IDataObject;
	return Math.round(Number(chosen.timeoutSeconds ?? reportTimeout.default) * 1000);
}
