// Every error a delivery raises, worded in one place: what happened, what became of the money (its
// mark travels with the error), and what to check before running the item again.
import type { IExecuteFunctions, NodeApiError } from 'n8n-workflow';

import { withMoneyEffect } from '../../../../shared/moneyEffect';
import { replyRecord, type GatewayFailure, type GatewayReply } from '../../../../shared/protocol/reply';
import { gatewayError, type LostReply } from '../../../../shared/transport';
import { STATUS } from '../../../../shared/protocol/statusWords';

import type { Delivery, StatusKnowledge } from '../core/delivery';
import { factsOf } from '../core/facts';
import { describeStatus, moneyError } from '../core/moneyError';

/** A 401/403 that is not a gateway reply: how gateways refuse a request signature. */
export const isSignatureRefusal = (lost: LostReply) => lost.httpStatus === 401 || lost.httpStatus === 403;

/** No gateway reply to a request that moves no money (or nothing could be sent at all). */
export function lostReplyError(ctx: IExecuteFunctions, delivery: Delivery, lost: LostReply): NodeApiError {
	const target = targetOf(delivery);
	const order = target ? ` for ${target}` : '';
	const { nothingSent } = lost;
	return moneyError(
		ctx,
		delivery,
		// A request that moves no money moves nothing whatever became of it.
		nothingSent ? 'notSent' : 'noMoneyMoved',
		lost.message,
		nothingSent
			? `${delivery.label}: could not connect to the gateway (${lost.what}); nothing was sent`
			: `${delivery.label}: no gateway reply${order} (${lost.what})`,
		nothingSent
			? `Code ${lost.code}. Check the base URL in the credential and that the gateway is reachable from n8n. Nothing was sent${order}, so no money moved.`
			: `Code ${lost.code}: ${lost.message}. ${delivery.label} moves no money. The request may have reached the gateway${target ? `; look up ${target} before running it again` : ''}.${signatureHint(lost)}`,
	);
}

/** The gateway refused the request: its message and code; nothing was carried out. */
export function refusedError(ctx: IExecuteFunctions, delivery: Delivery, failure: GatewayFailure): NodeApiError {
	const target = targetOf(delivery);
	const error = gatewayError(ctx, failure, delivery.itemIndex, `${delivery.label}: `);
	// Name the order and say what became of the money (reliability campaign 1).
	error.description = [
		error.description,
		`The gateway refused the request${target ? ` for ${target}` : ''}: it was not carried out and no money moved.`,
	]
		.filter(Boolean)
		.join('. ');
	return withMoneyEffect(error, 'noMoneyMoved');
}

/** The gateway answered about an order under this ID with another amount or currency: an older order. */
export function otherOrderError(
	ctx: IExecuteFunctions,
	delivery: Delivery,
	reply: GatewayReply,
	requested: NonNullable<Delivery['requested']>,
): NodeApiError {
	const asked = `${requested.amounts.join(' or ')} ${requested.currency ?? ''}`.trim();
	const { amount, currency, status } = replyRecord(reply);
	const found = `${amount ?? '?'} ${currency ?? ''}`.trim();
	return moneyError(
		ctx,
		delivery,
		'mayHaveMoved',
		'amount or currency differs from the request',
		`${delivery.label} for order "${delivery.clientOrderId}": the gateway reports this order with ${found}, not the ${asked} requested; the order ID was used before`,
		`The gateway answered about an existing order "${delivery.clientOrderId}" (status "${status || STATUS.processing}"), not about a new payment of ${asked}. Do not treat it as approved: look the order up (Transaction → Get Status or the gateway back office), and use a new order ID for a new payment.`,
	);
}

export function finalStatusUnknown(
	ctx: IExecuteFunctions,
	delivery: Delivery,
	clientOrderId: string | undefined,
	last: GatewayReply,
	reason: string,
): NodeApiError {
	const order = `order "${clientOrderId ?? ''}"`;
	const moves = factsOf(delivery).money.moves;
	const money = moves ? 'money MAY have moved' : `${delivery.label} moves no money`;
	return moneyError(
		ctx,
		delivery,
		moves ? 'mayHaveMoved' : 'noMoneyMoved',
		reason,
		`${delivery.label} for ${order}: the gateway accepted the request, but its final status could not be learned; ${money}`,
		`While waiting for the final status: ${reason}. The gateway last reported ${replyRecord(last).status ? describeStatus(last) : 'that it accepted the request (processing)'}. Do not run this item again with a new order ID: look up ${order} (Transaction → Get Status or the gateway back office) first.`,
	);
}

export function followUpLost(
	ctx: IExecuteFunctions,
	delivery: Delivery,
	lost: LostReply,
	knowledge: StatusKnowledge,
): NodeApiError {
	const target = targetOf(delivery) ?? 'its target';
	const now =
		knowledge.kind === 'found'
			? `The gateway reports the order now as ${describeStatus(knowledge.reply)}.`
			: knowledge.kind === 'notFound'
				? 'The gateway does not find the order.'
				: `Its status could not be learned (${knowledge.reason}).`;
	const lookUp = factsOf(delivery).statusQuery
		? 'Transaction → Get Status or the gateway back office'
		: 'the gateway back office';
	return moneyError(
		ctx,
		delivery,
		'mayHaveMoved',
		lost.message,
		`${delivery.label} on ${target}: no gateway reply (${lost.what}); it may have been applied, so money MAY have moved`,
		`Code ${lost.code}. ${now} ${delivery.label} is never resent automatically. Check ${target} (${lookUp}) before running this item again.${signatureHint(lost)}`,
	);
}

/** What a request acts on, in words: its order, or what the operation names instead. */
function targetOf(delivery: Delivery): string | undefined {
	if (delivery.target) return delivery.target;
	if (delivery.orderId) return `order ${delivery.orderId} ("${delivery.clientOrderId ?? ''}")`;
	return delivery.clientOrderId ? `order "${delivery.clientOrderId}"` : undefined;
}

/** A 401/403 that is not a gateway reply is most likely the gateway refusing the signature. */
function signatureHint(lost: LostReply): string {
	return isSignatureRefusal(lost)
		? ` The answer was HTTP ${lost.httpStatus}, which is how the gateway refuses a request signature: check the credential's private key (for V4 operations, the key whose public half the gateway registered), control key and login.`
		: '';
}

export function moneyMayHaveMoved(
	ctx: IExecuteFunctions,
	delivery: Delivery,
	lost: LostReply,
	reason: string,
): NodeApiError {
	return moneyError(
		ctx,
		delivery,
		'mayHaveMoved',
		lost.message,
		`${delivery.label} for order "${delivery.clientOrderId}": ${isSignatureRefusal(lost) ? `the gateway refused the request signature (HTTP ${lost.httpStatus})` : `no gateway reply (${lost.what})`} and the order status could not be learned; money MAY have moved`,
		`Code ${lost.code}; ${reason}.${signatureHint(lost)} Do not run this item again with a new order ID. When the gateway is reachable, look up order "${delivery.clientOrderId}" (Transaction → Get Status or the gateway back office); if the gateway does not know it, run the item again with the SAME order ID.`,
	);
}

/** The gateway itself confirmed it has no such order after the request: nothing was charged. */
export function notReceived(
	ctx: IExecuteFunctions,
	delivery: Delivery,
	lost: LostReply,
	attempts: string,
): NodeApiError {
	return moneyError(
		ctx,
		delivery,
		'noMoneyMoved',
		lost.message,
		`${delivery.label}: the gateway did not take order "${delivery.clientOrderId}" ${attempts} (${lost.what}); nothing was charged`,
		`Code ${lost.code}. The gateway confirmed by a status query that it has no order "${delivery.clientOrderId}". It is safe to run this item again with the same order ID once the cause is fixed.${signatureHint(lost)}`,
	);
}

/**
 * A new order that is never resent (facts.ts, NEVER_RESENT) lost its reply and the gateway does not show
 * it (yet): its outcome is unknown.
 */
export function notResent(ctx: IExecuteFunctions, delivery: Delivery, lost: LostReply): NodeApiError {
	const order = `order "${delivery.clientOrderId}"`;
	return moneyError(
		ctx,
		delivery,
		'mayHaveMoved',
		lost.message,
		`${delivery.label} for ${order}: no gateway reply (${lost.what}) and the gateway does not show the order yet; it is never resent, so its outcome is unknown: money MAY have moved`,
		`Code ${lost.code}.${signatureHint(lost)} ${delivery.label} is never resent automatically: the gateway takes the request and charges in the background, so an order it does not show yet may still appear. Look up ${order} later (Transaction → Get Status (V4) or the gateway back office) before running this item again; if the gateway still does not know it, run the item again with the SAME order ID (the node asks the gateway first, so one order ID is never charged twice).`,
	);
}
