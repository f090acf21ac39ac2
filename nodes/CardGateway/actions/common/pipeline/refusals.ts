// What the pipeline refuses before sending, from what the gateway reports about the order: an order ID
// that could not be checked, a step that may repeat on one order.
import { NodeOperationError, type IExecuteFunctions, type NodeApiError } from 'n8n-workflow';

import { withMoneyEffect } from '../../../../shared/moneyEffect';
import type { MoneyActionFacts } from '../../../../shared/protocol/money';
import { replyRecord, type GatewayReply } from '../../../../shared/protocol/reply';
import { gatewayError } from '../../../../shared/transport';

import type { Delivery, StatusKnowledge } from '../core/delivery';
import { factsOf } from '../core/facts';
import { describeStatus, moneyError } from '../core/moneyError';

/** Before a new order: the gateway could not be asked whether it already has this order ID, so nothing was sent. */
export function orderCheckFailed(
	ctx: IExecuteFunctions,
	delivery: Delivery,
	order: Extract<StatusKnowledge, { kind: 'unknown' }>,
): NodeApiError {
	if (order.refusal) {
		// The gateway's own refusal (a wrong control key, say): its message and code, as for any request.
		const error = gatewayError(ctx, order.refusal, delivery.itemIndex, `${delivery.label}: `);
		error.description = [
			error.description,
			'The gateway refused the status query that checks whether this order ID is new; nothing that moves money was sent',
		]
			.filter(Boolean)
			.join('. ');
		return withMoneyEffect(error, 'notSent');
	}
	return moneyError(
		ctx,
		delivery,
		'notSent',
		order.reason,
		`${delivery.label} for order "${delivery.clientOrderId}": could not check whether the gateway already has this order (${order.reason}); nothing was sent`,
		'Before a payment under an order ID that may have been used, the node asks the gateway about it, so that a repeated order ID never moves money twice. Run the item again when the gateway answers.',
	);
}

/** Where another capture or return on one order is made intended: a key of its own for each. */
const ANOTHER_ONE =
	'give each one a key of its own under Options → Act Once per Key (for example refund-{{ $json.ticketId }}; it needs the Card Gateway Claims Store API credential): a key is sent once, ever, by any execution';

/**
 * A step that may repeat on one order (a partial capture or return), refused because the order's latest
 * transaction may be the same step made before (or the status names none) and no key says that another
 * one is intended.
 */
export function repeatRefused(
	ctx: IExecuteFunctions,
	delivery: Delivery,
	facts: MoneyActionFacts,
	reply: GatewayReply,
): NodeOperationError {
	const noun = facts.noun.toLowerCase();
	const latest = replyRecord(reply).transactionType;
	const why = latest
		? `the order's latest transaction is "${latest}" (the gateway reports ${describeStatus(reply)}), so this ${noun} may be one made before, run again`
		: `the gateway's status names no latest transaction (it reports ${describeStatus(reply)}), so whether this ${noun} was made before cannot be read`;
	return new NodeOperationError(
		ctx.getNode(),
		`${delivery.label} on order "${delivery.clientOrderId}": ${why}; nothing was sent`,
		{
			itemIndex: delivery.itemIndex,
			description: `A ${noun} with an amount may be made more than once on one order: run again, it would ${facts.verb} twice. So it is sent without a key only while the order's latest transaction is not one like it. If that earlier transaction was this step, there is nothing left to do. If another ${noun} on this order is intended, ${ANOTHER_ONE}. Check the order first (Transaction → Get Status or the gateway back office).`,
		},
	);
}

/** A step that may repeat on one order, not sent because the order's status could not be learned. */
export function repeatUnreadable(ctx: IExecuteFunctions, delivery: Delivery, reason: string): NodeOperationError {
	const noun = factsOf(delivery).money.noun.toLowerCase();
	return new NodeOperationError(
		ctx.getNode(),
		`${delivery.label} on order "${delivery.clientOrderId}": could not check whether this ${noun} was made before (${reason}); nothing was sent`,
		{
			itemIndex: delivery.itemIndex,
			description: `A ${noun} with an amount may repeat on one order, so it is sent only when the gateway's status shows none on it yet, or under a key of its own (Options → Act Once per Key). Run the item again when the gateway answers.`,
		},
	);
}
