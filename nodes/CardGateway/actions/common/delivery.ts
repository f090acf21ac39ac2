import { NodeApiError, sleep, type IExecuteFunctions, type JsonObject } from 'n8n-workflow';

import { gatewayError, gatewayRequest, type GatewayCall, type GatewayOutcome } from '../../../shared/transport';
import { isOrderNotFound, type GatewayFailure, type GatewayReply } from '../../../shared/protocol/reply';

import { isFinal, needsThreeDSecure, type DeliveryNotes } from './output';

/** Connection errors that happen before a single byte of the request left: nothing was sent. */
const NOTHING_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/** Pauses between status queries that learn what became of a request whose reply was lost. */
const STATUS_RETRY_DELAYS_MS = [500, 1000, 2000];
const MAX_POLL_PAUSE_MS = 30_000;

export interface DeliveryPlan {
	itemIndex: number;
	/** Operation name for messages, e.g. "Payment → Sale". */
	label: string;
	login: string;
	/** The merchant order ID sent (the key for status queries). */
	clientOrderId?: string;
	/** The gateway order ID sent (follow-ups). */
	orderId?: string;
	movesMoney: boolean;
	/** Acts on an existing order (capture, void, return, payout pay): never resent automatically. */
	followUp: boolean;
}

export interface Delivered {
	reply: GatewayReply;
	notes: DeliveryNotes;
}

/** A lost reply: `what` in words for messages (n8n replaces messages that contain error codes). */
type Lost = { code: string; what: string; message: string };

const CODE_WORDS: Record<string, string> = {
	ECONNABORTED: 'the reply timed out',
	ETIMEDOUT: 'the reply timed out',
	ESOCKETTIMEDOUT: 'the reply timed out',
	ECONNRESET: 'the connection was reset',
	EPIPE: 'the connection broke',
	ECONNREFUSED: 'the connection was refused',
	ENOTFOUND: 'the host name is unknown',
	EAI_AGAIN: 'the host name could not be resolved',
	EHOSTUNREACH: 'the host is unreachable',
	ENETUNREACH: 'the network is unreachable',
};

function inWords(code: string): string {
	return CODE_WORDS[code] ?? (code.startsWith('HTTP ') ? `the gateway answered ${code}` : 'the connection failed');
}

type StatusKnowledge =
	| { kind: 'found'; reply: GatewayReply }
	| { kind: 'notFound'; reply: GatewayReply }
	| { kind: 'unknown'; reason: string };

/**
 * Sends a request once and makes sure a lost reply never turns into a second charge: for
 * money-moving requests the gateway is asked about the order first; only when it does not know
 * the order is the request resent (once, with the same merchant order ID).
 */
export async function deliver(ctx: IExecuteFunctions, call: GatewayCall, plan: DeliveryPlan): Promise<Delivered> {
	const first = await gatewayRequest(ctx, call);
	const lost = lostReply(first);
	if (!lost || !plan.movesMoney) return { reply: settle(ctx, first, plan), notes: {} };

	const knowledge = await learnStatus(ctx, call, plan);
	if (plan.followUp) throw followUpLost(ctx, plan, lost, knowledge);
	if (knowledge.kind === 'found') return { reply: knowledge.reply, notes: { recoveredFromLostReply: true } };
	if (knowledge.kind === 'unknown') throw moneyMayHaveMoved(ctx, plan, lost, knowledge.reason);

	// The gateway has no such order: the request never arrived. Resend once, same order ID.
	const second = await gatewayRequest(ctx, call);
	const lostAgain = lostReply(second);
	if (!lostAgain) return { reply: settle(ctx, second, plan), notes: { resentAfterLostReply: true } };
	const after = await learnStatus(ctx, call, plan);
	if (after.kind === 'found') return { reply: after.reply, notes: { recoveredFromLostReply: true, resentAfterLostReply: true } };
	if (after.kind === 'unknown') throw moneyMayHaveMoved(ctx, plan, lostAgain, after.reason);
	throw new NodeApiError(ctx.getNode(), { message: lostAgain.message } as JsonObject, {
		message: `${plan.label}: the gateway did not receive order "${plan.clientOrderId}" on two attempts (${lostAgain.what}); nothing was charged`,
		description: `Code ${lostAgain.code}. The gateway confirmed it has no order "${plan.clientOrderId}". It is safe to run this item again with the same order ID.`,
		itemIndex: plan.itemIndex,
	});
}

/**
 * Polls the order status (with growing pauses) until it is final, needs 3-D Secure, or the
 * wait runs out. Problems while polling do not hide the answer already obtained.
 */
export async function waitForFinalStatus(
	ctx: IExecuteFunctions,
	call: GatewayCall,
	plan: DeliveryPlan,
	delivered: Delivered,
	limits: { maxWaitSeconds: number; pollIntervalSeconds: number },
): Promise<Delivered> {
	let { reply } = delivered;
	const notes = { ...delivered.notes };
	const ids = {
		...plan,
		clientOrderId: reply.fields['merchant-order-id'] || plan.clientOrderId,
		orderId: reply.fields['paynet-order-id'] || reply.fields.orderid || plan.orderId,
	};
	const deadline = Date.now() + limits.maxWaitSeconds * 1000;
	let pause = limits.pollIntervalSeconds * 1000;
	while (!isFinal(reply) && !needsThreeDSecure(reply)) {
		if (Date.now() + pause > deadline) {
			notes.waitTimedOut = true;
			break;
		}
		await sleep(pause);
		pause = Math.min(Math.max(pause * 1.5, 100), MAX_POLL_PAUSE_MS);
		const knowledge = await learnStatus(ctx, call, ids);
		if (knowledge.kind !== 'found') {
			// The user asked for the final status: a non-final answer with a note is easy to misroute
			// (reliability campaign 1), so say plainly that the outcome is unknown and whether money may have moved.
			throw finalStatusUnknown(ctx, plan, ids.clientOrderId, reply, knowledge.kind === 'unknown' ? knowledge.reason : 'the gateway did not find the order');
		}
		reply = knowledge.reply;
	}
	return { reply, notes };
}

/**
 * Asks the gateway for the order (by merchant order ID, plus the gateway ID when known),
 * retrying the query itself while the gateway stays unreachable.
 */
export async function learnStatus(ctx: IExecuteFunctions, call: GatewayCall, plan: DeliveryPlan): Promise<StatusKnowledge> {
	if (!plan.clientOrderId) return { kind: 'unknown', reason: 'no merchant order ID to ask about' };
	const query: GatewayCall = {
		operation: 'status',
		fields: [
			['login', plan.login],
			['client_orderid', plan.clientOrderId],
			['orderid', plan.orderId ?? ''],
		],
		endpoint: call.endpoint,
		timeoutMs: call.timeoutMs,
		itemIndex: plan.itemIndex,
	};
	let reason = '';
	for (let attempt = 0; attempt <= STATUS_RETRY_DELAYS_MS.length; attempt++) {
		if (attempt > 0) await sleep(STATUS_RETRY_DELAYS_MS[attempt - 1]);
		const outcome = await gatewayRequest(ctx, query);
		if (outcome.kind === 'unreachable') {
			reason = `the status query failed too (${outcome.code})`;
			continue;
		}
		if (outcome.failure?.kind === 'server') {
			reason = `the status query failed too (${outcome.failure.message})`;
			continue;
		}
		if (outcome.failure) return { kind: 'unknown', reason: `the gateway refused the status query (${outcome.failure.message})` };
		if (isOrderNotFound(outcome.reply)) return { kind: 'notFound', reply: outcome.reply };
		return { kind: 'found', reply: outcome.reply };
	}
	return { kind: 'unknown', reason };
}

/** No usable reply although the request may have arrived: timeouts, resets, HTTP 5xx. */
function lostReply(outcome: GatewayOutcome): Lost | undefined {
	if (outcome.kind === 'unreachable') {
		return NOTHING_SENT.has(outcome.code) ? undefined : { code: outcome.code, what: inWords(outcome.code), message: outcome.message };
	}
	if (outcome.failure?.kind === 'server') {
		const code = `HTTP ${outcome.failure.httpStatus}`;
		return { code, what: inWords(code), message: outcome.failure.message };
	}
	return undefined;
}

/** A reply the caller can use, or the error n8n shows. */
function settle(ctx: IExecuteFunctions, outcome: GatewayOutcome, plan: DeliveryPlan): GatewayReply {
	const order = plan.clientOrderId ? ` for order "${plan.clientOrderId}"` : '';
	if (outcome.kind === 'unreachable') {
		const nothingSent = NOTHING_SENT.has(outcome.code);
		return fail(
			new NodeApiError(ctx.getNode(), { message: outcome.message } as JsonObject, {
				message: nothingSent
					? `${plan.label}: could not connect to the gateway (${inWords(outcome.code)}); nothing was sent`
					: `${plan.label}: no reply from the gateway${order} (${inWords(outcome.code)})`,
				description: nothingSent
					? `Code ${outcome.code}. Check the base URL in the credential and that the gateway is reachable from n8n.${order ? ` Nothing was sent${order}, so no money moved.` : ''}`
					: `Code ${outcome.code}: ${outcome.message}. ${plan.label} moves no money. The request may have reached the gateway; check the order${order} before running it again.`,
				itemIndex: plan.itemIndex,
			}),
		);
	}
	const { reply, failure } = outcome;
	if (!failure || isStatusOutcome(reply, failure)) return reply;
	const error = gatewayError(ctx, failure, plan.itemIndex, `${plan.label}: `);
	// Name the order and say what became of the money (reliability campaign 1): a refusal changes nothing.
	const consequence =
		failure.kind === 'server'
			? `${plan.label} moves no money; check the order${order} before running it again.`
			: `The gateway refused the request${order}: it was not carried out and no money moved.`;
	error.description = [error.description, consequence].filter(Boolean).join('. ');
	return fail(error);
}

/** A refused request that still reports an order status (a decline in JSON mode) is an outcome. */
function isStatusOutcome(reply: GatewayReply, failure: GatewayFailure): boolean {
	const type = reply.fields.type ?? '';
	return !!reply.fields.status && failure.kind !== 'authentication' && failure.kind !== 'server' && type !== 'error' && type !== 'validation-error';
}

function fail(error: Error): never {
	throw error;
}

function describeStatus(reply: GatewayReply): string {
	const { fields } = reply;
	const parts = [`status "${fields.status || 'unknown'}"`];
	if (fields['transaction-type']) parts.push(`last transaction "${fields['transaction-type']}"`);
	if (fields.amount) parts.push(`amount ${fields.amount} ${fields.currency ?? ''}`.trim());
	return parts.join(', ');
}

function finalStatusUnknown(ctx: IExecuteFunctions, plan: DeliveryPlan, clientOrderId: string | undefined, last: GatewayReply, reason: string): NodeApiError {
	const order = `order "${clientOrderId ?? ''}"`;
	const money = plan.movesMoney ? 'money MAY have moved' : `${plan.label} moves no money`;
	return new NodeApiError(ctx.getNode(), { message: reason } as JsonObject, {
		message: `${plan.label} for ${order}: the gateway accepted the request, but its final status could not be learned; ${money}`,
		description: `While waiting for the final status: ${reason}. The gateway last reported ${last.fields.status ? describeStatus(last) : 'that it accepted the request (processing)'}. Do not run this item again with a new order ID: look up ${order} (Transaction → Get Status or the gateway back office) first.`,
		itemIndex: plan.itemIndex,
	});
}

function followUpLost(ctx: IExecuteFunctions, plan: DeliveryPlan, lost: Lost, knowledge: StatusKnowledge): NodeApiError {
	const order = plan.orderId ? `order ${plan.orderId} ("${plan.clientOrderId}")` : `order "${plan.clientOrderId}"`;
	const now =
		knowledge.kind === 'found'
			? `The gateway reports the order now as ${describeStatus(knowledge.reply)}.`
			: knowledge.kind === 'notFound'
				? 'The gateway does not find the order.'
				: `Its status could not be learned (${knowledge.reason}).`;
	return new NodeApiError(ctx.getNode(), { message: lost.message } as JsonObject, {
		message: `${plan.label} on ${order}: the reply was lost (${lost.what}); the operation may have been applied`,
		description: `Code ${lost.code}. ${now} Follow-up operations are never resent automatically. Check the order (Transaction → Get Status or the gateway back office) before running this item again.`,
		itemIndex: plan.itemIndex,
	});
}

function moneyMayHaveMoved(ctx: IExecuteFunctions, plan: DeliveryPlan, lost: Lost, reason: string): NodeApiError {
	return new NodeApiError(ctx.getNode(), { message: lost.message } as JsonObject, {
		message: `${plan.label} for order "${plan.clientOrderId}": the reply was lost (${lost.what}) and the order status could not be learned; money MAY have moved`,
		description: `Code ${lost.code}; ${reason}. Do not run this item again with a new order ID. When the gateway is reachable, look up order "${plan.clientOrderId}" (Transaction → Get Status or the gateway back office); if the gateway does not know it, run the item again with the SAME order ID.`,
		itemIndex: plan.itemIndex,
	});
}
