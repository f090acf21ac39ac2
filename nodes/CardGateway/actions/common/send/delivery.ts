import { sleep, type IExecuteFunctions } from 'n8n-workflow';

import { withMoneyEffect } from '../../../../shared/moneyEffect';
import { sameAmount } from '../../../../shared/protocol/amount';
import { STATUS_QUERIES } from '../../../../shared/protocol/catalogue';
import {
	isOrderNotFound,
	refusalSaysNoSuchOrder,
	replyRecord,
	type GatewayReply,
} from '../../../../shared/protocol/reply';
import { gatewayRequest, type GatewayCall, type GatewayOutcome } from '../../../../shared/transport';

import type { Delivered, DeliveryNotes, Delivery, StatusKnowledge } from '../core/delivery';
import { factsOf } from '../core/facts';
import { isFinal, needsThreeDSecure } from '../core/statuses';
import {
	finalStatusUnknown,
	followUpLost,
	isSignatureRefusal,
	lostReplyError,
	moneyMayHaveMoved,
	notReceived,
	notResent,
	otherOrderError,
	refusedError,
} from './errors';

/** Pauses between status queries that learn what became of a request whose reply was lost. */
const STATUS_RETRY_DELAYS_MS = [500, 1000, 2000];

const MAX_POLL_PAUSE_MS = 30_000;

/**
 * Sends a request once and makes sure a lost reply never turns into a second charge: for
 * money-moving requests the gateway is asked about the order first; only when it does not know
 * the order is the request resent (once, with the same merchant order ID), unless it is never resent
 * (facts.ts): then its outcome is reported as unknown.
 */
export async function deliver(ctx: IExecuteFunctions, call: GatewayCall, delivery: Delivery): Promise<Delivered> {
	const facts = factsOf(delivery);
	const first = await send(ctx, call);
	if (first.kind !== 'lost' || first.nothingSent || !facts.money.moves)
		return answered(matchingOrder(ctx, delivery, settle(ctx, first, delivery)), {});

	const knowledge = await learnStatus(ctx, call, delivery);
	if (!facts.statusConfirms) throw followUpLost(ctx, delivery, first, knowledge);
	if (knowledge.kind === 'found')
		return {
			reply: matchingOrder(ctx, delivery, knowledge.reply),
			notes: { recoveredFromLostReply: true },
			direct: false,
		};
	if (knowledge.kind === 'unknown') throw moneyMayHaveMoved(ctx, delivery, first, knowledge.reason);
	if (facts.neverResent) throw notResent(ctx, delivery, first);
	// A refusal of the signature will not change by resending; the gateway confirmed it has no order.
	if (isSignatureRefusal(first)) throw notReceived(ctx, delivery, first, 'once');

	// The gateway has no such order: the request never arrived. Resend once, same order ID.
	const second = await send(ctx, call);
	if (second.kind !== 'lost')
		return answered(matchingOrder(ctx, delivery, settle(ctx, second, delivery)), { resentAfterLostReply: true });
	const after = await learnStatus(ctx, call, delivery);
	if (after.kind === 'found')
		return {
			reply: matchingOrder(ctx, delivery, after.reply),
			notes: { recoveredFromLostReply: true, resentAfterLostReply: true },
			direct: false,
		};
	if (after.kind === 'unknown') throw moneyMayHaveMoved(ctx, delivery, second, after.reason);
	throw notReceived(ctx, delivery, second, 'on two attempts');
}

function answered(reply: GatewayReply, notes: DeliveryNotes): Delivered {
	return { reply, notes, direct: true, serial: replyRecord(reply).serialNumber || undefined };
}

/** One request; whatever it throws was thrown before sending (transport's promise). */
async function send(ctx: IExecuteFunctions, call: GatewayCall): Promise<GatewayOutcome> {
	try {
		return await gatewayRequest(ctx, call);
	} catch (error) {
		throw withMoneyEffect(error as Error, 'notSent');
	}
}

/**
 * Polls the order status (with growing pauses) until it is final, needs 3-D Secure, or the
 * wait runs out. Problems while polling do not hide the answer already obtained.
 */
export async function waitForFinalStatus(
	ctx: IExecuteFunctions,
	call: GatewayCall,
	delivery: Delivery,
	delivered: Delivered,
	limits: { maxWaitSeconds: number; pollIntervalSeconds: number },
): Promise<Delivered> {
	let { reply, direct } = delivered;
	const notes = { ...delivered.notes };
	const named = replyRecord(reply);
	const ids = {
		...delivery,
		clientOrderId: named.clientOrderId || delivery.clientOrderId,
		orderId: named.orderId || delivery.orderId,
	};
	const deadline = Date.now() + limits.maxWaitSeconds * 1000;
	let pause = Math.min(limits.pollIntervalSeconds * 1000, MAX_POLL_PAUSE_MS);
	while (!isFinal(reply) && !needsThreeDSecure(reply)) {
		if (Date.now() + pause > deadline) {
			notes.waitTimedOut = true;
			break;
		}
		await sleep(pause);
		pause = Math.min(Math.max(pause * 1.5, 100), MAX_POLL_PAUSE_MS);
		const knowledge = await learnStatus(ctx, call, ids, delivered.serial);
		if (knowledge.kind !== 'found') {
			// The user asked for the final status: a non-final answer with a note is easy to misroute
			// (reliability campaign 1), so say plainly that the outcome is unknown and whether money may have moved.
			throw finalStatusUnknown(
				ctx,
				delivery,
				ids.clientOrderId,
				reply,
				knowledge.kind === 'unknown' ? knowledge.reason : 'the gateway did not find the order',
			);
		}
		reply = matchingOrder(ctx, delivery, knowledge.reply);
		direct = false;
	}
	// A status about this request's own transaction (by its serial number) names that transaction's amount;
	// the order's own status (what the output summarises, what is left on it) is one more query away.
	const ownTransaction = !!delivered.serial && replyRecord(reply).requestSerialNumber === delivered.serial;
	if (ownTransaction && factsOf(delivery).money.confirmation === 'serial') {
		const order = await learnStatus(ctx, call, ids);
		if (order.kind === 'found') return { ...delivered, reply, notes, direct, orderAfter: order.reply };
	}
	return { ...delivered, reply, notes, direct };
}

/**
 * Asks the gateway for the order (by merchant order ID, plus the gateway ID when known) with the
 * status query that finds what the delivery's operation made (v2 or v4), retrying the query itself
 * while no gateway reply comes back. With `serial`, the v2 query asks about that very transaction.
 */
export async function learnStatus(
	ctx: IExecuteFunctions,
	call: Pick<GatewayCall, 'endpoint' | 'timeoutMs'>,
	delivery: Pick<Delivery, 'operation' | 'itemIndex' | 'login' | 'clientOrderId' | 'orderId'>,
	serial?: string,
): Promise<StatusKnowledge> {
	const { statusQuery } = factsOf(delivery);
	if (!statusQuery) return { kind: 'unknown', reason: 'no status query finds what this operation makes' };
	if (!delivery.clientOrderId) return { kind: 'unknown', reason: 'no merchant order ID to ask about' };
	// Each status query finds an order by the merchant order ID alone (catalogue: STATUS_QUERIES).
	const { bySerial, noSuchOrderRefusal } = STATUS_QUERIES[statusQuery];
	const query: GatewayCall = {
		operation: statusQuery,
		fields: [
			['login', delivery.login],
			['client_orderid', delivery.clientOrderId],
			['orderid', delivery.orderId ?? ''],
			...(serial && bySerial ? [['by-request-sn', serial] as const] : []),
		],
		endpoint: call.endpoint,
		timeoutMs: call.timeoutMs,
		itemIndex: delivery.itemIndex,
	};
	let reason = '';
	for (let attempt = 0; attempt <= STATUS_RETRY_DELAYS_MS.length; attempt++) {
		if (attempt > 0) await sleep(STATUS_RETRY_DELAYS_MS[attempt - 1]);
		const outcome = await gatewayRequest(ctx, query);
		if (outcome.kind === 'lost' && isSignatureRefusal(outcome)) {
			// Asking again with the same key is refused the same way.
			return {
				kind: 'unknown',
				reason: `the gateway refused the signature of the status query (HTTP ${outcome.httpStatus}): check the credential's private key, control key and login`,
			};
		}
		if (outcome.kind === 'lost') {
			reason = `the status query got no gateway reply either (${outcome.what})`;
			continue;
		}
		if (outcome.failure && refusalSaysNoSuchOrder(outcome.reply, noSuchOrderRefusal, delivery.orderId))
			return { kind: 'notFound', reply: outcome.reply };
		if (outcome.failure)
			return {
				kind: 'unknown',
				reason: `the gateway refused the status query (${outcome.failure.message})`,
				refusal: outcome.failure,
			};
		if (isOrderNotFound(outcome.reply)) return { kind: 'notFound', reply: outcome.reply };
		return { kind: 'found', reply: outcome.reply };
	}
	return { kind: 'unknown', reason };
}

/** A reply the caller can use, or the error n8n shows (marked with what it means for the money). */
function settle(ctx: IExecuteFunctions, outcome: GatewayOutcome, delivery: Delivery): GatewayReply {
	if (outcome.kind === 'lost') throw lostReplyError(ctx, delivery, outcome);
	const { reply, failure } = outcome;
	if (!failure || isStatusOutcome(reply, failure.kind)) return reply;
	throw refusedError(ctx, delivery, failure);
}

/** A refused request that still reports an order status (a decline in JSON mode) is an outcome. */
function isStatusOutcome(reply: GatewayReply, kind: string): boolean {
	const { status, replyType = '' } = replyRecord(reply);
	return !!status && kind !== 'authentication' && replyType !== 'error' && replyType !== 'validation-error';
}

/**
 * A reply about the same order ID but another amount or currency is an older order under that ID
 * (a replay), never the approval of this request.
 */
export function matchingOrder(ctx: IExecuteFunctions, delivery: Delivery, reply: GatewayReply): GatewayReply {
	const { requested } = delivery;
	if (!requested) return reply;
	const { amount, currency } = replyRecord(reply);
	const otherAmount = !!amount && !requested.amounts.some((sent) => sameAmount(sent, amount));
	const otherCurrency = !!currency && !!requested.currency && currency.trim().toUpperCase() !== requested.currency;
	if (!otherAmount && !otherCurrency) return reply;
	throw otherOrderError(ctx, delivery, reply, requested);
}
