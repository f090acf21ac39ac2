import { NodeApiError, sleep, type IExecuteFunctions, type JsonObject } from 'n8n-workflow';

import { withMoneyEffect, type MoneyEffect } from '../../../shared/moneyEffect';
import { sameAmount } from '../../../shared/protocol/amount';
import { OPERATIONS, type OperationId } from '../../../shared/protocol/catalogue';
import { MONEY_ACTIONS } from '../../../shared/protocol/money';
import { isOrderNotFound, type GatewayReply } from '../../../shared/protocol/reply';
import type { GatewayFailure } from '../../../shared/protocol/reply';
import { gatewayError, gatewayRequest, type GatewayCall, type GatewayOutcome, type LostReply } from '../../../shared/transport';

import { isFinal, needsThreeDSecure, type DeliveryNotes } from './output';

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
	/** The operation sent: what it does to money and which status query finds it are read from the catalogue. */
	operation: OperationId;
	/** What the request acts on, for messages when it names no order (a recurring payment). */
	target?: string;
	/** What a new order was asked to move: a reply about a different amount is an older order. */
	requested?: { amounts: readonly string[]; currency?: string };
}

export interface Delivered {
	reply: GatewayReply;
	notes: DeliveryNotes;
	/** The serial number the gateway gave this request: a status reply naming it is about this very transaction. */
	serial?: string;
	/** The reply is the gateway's answer to this request itself, not a status of the order. */
	direct: boolean;
	/** The order's status once this request's own transaction was approved (what is left on it). */
	orderAfter?: GatewayReply;
}

/** What the catalogue says about the plan's operation. */
export function factsOf(plan: Pick<DeliveryPlan, 'operation'>) {
	const operation = OPERATIONS[plan.operation];
	const money = MONEY_ACTIONS[operation.money];
	return {
		money,
		statusQuery: operation.statusQuery,
		/** Never resent automatically: follow-ups, and operations whose result no status query finds. */
		neverResent: money.followUp || !operation.statusQuery,
	};
}

export type StatusKnowledge =
	| { kind: 'found'; reply: GatewayReply }
	| { kind: 'notFound'; reply: GatewayReply }
	/** `refusal`: the gateway itself refused the status query (its message and code). */
	| { kind: 'unknown'; reason: string; refusal?: GatewayFailure };

/**
 * Sends a request once and makes sure a lost reply never turns into a second charge: for
 * money-moving requests the gateway is asked about the order first; only when it does not know
 * the order is the request resent (once, with the same merchant order ID).
 */
export async function deliver(ctx: IExecuteFunctions, call: GatewayCall, plan: DeliveryPlan): Promise<Delivered> {
	const facts = factsOf(plan);
	const first = await send(ctx, call);
	if (first.kind !== 'lost' || first.nothingSent || !facts.money.moves) return answered(matchingOrder(ctx, plan, settle(ctx, first, plan)), {});

	const knowledge = await learnStatus(ctx, call, plan);
	if (facts.neverResent) throw followUpLost(ctx, plan, first, knowledge);
	if (knowledge.kind === 'found') return { reply: matchingOrder(ctx, plan, knowledge.reply), notes: { recoveredFromLostReply: true }, direct: false };
	if (knowledge.kind === 'unknown') throw moneyMayHaveMoved(ctx, plan, first, knowledge.reason);
	// A refusal of the signature will not change by resending; the gateway confirmed it has no order.
	if (isSignatureRefusal(first)) throw notReceived(ctx, plan, first, 'once');

	// The gateway has no such order: the request never arrived. Resend once, same order ID.
	const second = await send(ctx, call);
	if (second.kind !== 'lost') return answered(matchingOrder(ctx, plan, settle(ctx, second, plan)), { resentAfterLostReply: true });
	const after = await learnStatus(ctx, call, plan);
	if (after.kind === 'found') return { reply: matchingOrder(ctx, plan, after.reply), notes: { recoveredFromLostReply: true, resentAfterLostReply: true }, direct: false };
	if (after.kind === 'unknown') throw moneyMayHaveMoved(ctx, plan, second, after.reason);
	throw notReceived(ctx, plan, second, 'on two attempts');
}

function answered(reply: GatewayReply, notes: DeliveryNotes): Delivered {
	return { reply, notes, direct: true, serial: reply.fields['serial-number'] || undefined };
}

const isSignatureRefusal = (lost: LostReply) => lost.httpStatus === 401 || lost.httpStatus === 403;

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
	plan: DeliveryPlan,
	delivered: Delivered,
	limits: { maxWaitSeconds: number; pollIntervalSeconds: number },
): Promise<Delivered> {
	let { reply, direct } = delivered;
	const notes = { ...delivered.notes };
	const ids = {
		...plan,
		clientOrderId: reply.fields['merchant-order-id'] || plan.clientOrderId,
		orderId: reply.fields['paynet-order-id'] || reply.fields.orderid || plan.orderId,
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
			throw finalStatusUnknown(ctx, plan, ids.clientOrderId, reply, knowledge.kind === 'unknown' ? knowledge.reason : 'the gateway did not find the order');
		}
		reply = matchingOrder(ctx, plan, knowledge.reply);
		direct = false;
	}
	const ownApproved = reply.fields.status === 'approved' && !!delivered.serial && reply.fields['by-request-sn'] === delivered.serial;
	if (ownApproved && factsOf(plan).money.reportsRemaining) {
		// The status of this transaction names its own amount; what is left is the order's.
		const order = await learnStatus(ctx, call, ids);
		if (order.kind === 'found') return { ...delivered, reply, notes, direct, orderAfter: order.reply };
	}
	return { ...delivered, reply, notes, direct };
}

/**
 * Asks the gateway for the order (by merchant order ID, plus the gateway ID when known) with the
 * status query that finds what the plan's operation made (v2 or v4), retrying the query itself
 * while no gateway reply comes back. With `serial`, the v2 query asks about that very transaction.
 */
export async function learnStatus(
	ctx: IExecuteFunctions,
	call: Pick<GatewayCall, 'endpoint' | 'timeoutMs'>,
	plan: Pick<DeliveryPlan, 'operation' | 'itemIndex' | 'login' | 'clientOrderId' | 'orderId'>,
	serial?: string,
): Promise<StatusKnowledge> {
	const { statusQuery } = factsOf(plan);
	if (!statusQuery) return { kind: 'unknown', reason: 'no status query finds what this operation makes' };
	if (!plan.clientOrderId) return { kind: 'unknown', reason: 'no merchant order ID to ask about' };
	// The v4 status finds an order by its gateway ID only (the vendor's emulator answers "Unknown order"
	// without it, which must never read as "no such order"): without that ID, ask the v2 status, which
	// looks an order up by the merchant order ID (the interface's Status).
	const operation = statusQuery === 'statusV4' && plan.orderId ? 'statusV4' : 'status';
	const query: GatewayCall = {
		operation,
		fields: [
			['login', plan.login],
			['client_orderid', plan.clientOrderId],
			['orderid', plan.orderId ?? ''],
			...(serial && operation === 'status' ? [['by-request-sn', serial] as const] : []),
		],
		endpoint: call.endpoint,
		timeoutMs: call.timeoutMs,
		itemIndex: plan.itemIndex,
	};
	let reason = '';
	for (let attempt = 0; attempt <= STATUS_RETRY_DELAYS_MS.length; attempt++) {
		if (attempt > 0) await sleep(STATUS_RETRY_DELAYS_MS[attempt - 1]);
		const outcome = await gatewayRequest(ctx, query);
		if (outcome.kind === 'lost' && isSignatureRefusal(outcome)) {
			// Asking again with the same key is refused the same way.
			return { kind: 'unknown', reason: `the gateway refused the signature of the status query (HTTP ${outcome.httpStatus}): check the credential's private key, control key and login` };
		}
		if (outcome.kind === 'lost') {
			reason = `the status query got no gateway reply either (${outcome.what})`;
			continue;
		}
		if (outcome.failure) return { kind: 'unknown', reason: `the gateway refused the status query (${outcome.failure.message})`, refusal: outcome.failure };
		if (isOrderNotFound(outcome.reply)) return { kind: 'notFound', reply: outcome.reply };
		return { kind: 'found', reply: outcome.reply };
	}
	return { kind: 'unknown', reason };
}

/** A reply the caller can use, or the error n8n shows (marked with what it means for the money). */
function settle(ctx: IExecuteFunctions, outcome: GatewayOutcome, plan: DeliveryPlan): GatewayReply {
	const target = targetOf(plan);
	const order = target ? ` for ${target}` : '';
	if (outcome.kind === 'lost') {
		const { nothingSent } = outcome;
		const error = new NodeApiError(ctx.getNode(), { message: outcome.message } as JsonObject, {
			message: nothingSent
				? `${plan.label}: could not connect to the gateway (${outcome.what}); nothing was sent`
				: `${plan.label}: no gateway reply${order} (${outcome.what})`,
			description: nothingSent
				? `Code ${outcome.code}. Check the base URL in the credential and that the gateway is reachable from n8n. Nothing was sent${order}, so no money moved.`
				: `Code ${outcome.code}: ${outcome.message}. ${plan.label} moves no money. The request may have reached the gateway${target ? `; look up ${target} before running it again` : ''}.${signatureHint(outcome)}`,
			itemIndex: plan.itemIndex,
		});
		// A non-money request moves nothing whatever became of it.
		throw withMoneyEffect(error, nothingSent ? 'notSent' : 'noMoneyMoved');
	}
	const { reply, failure } = outcome;
	if (!failure || isStatusOutcome(reply, failure.kind)) return reply;
	const error = gatewayError(ctx, failure, plan.itemIndex, `${plan.label}: `);
	// Name the order and say what became of the money (reliability campaign 1): the gateway's refusal changes nothing.
	error.description = [error.description, `The gateway refused the request${order}: it was not carried out and no money moved.`].filter(Boolean).join('. ');
	throw withMoneyEffect(error, 'noMoneyMoved');
}

/** A refused request that still reports an order status (a decline in JSON mode) is an outcome. */
function isStatusOutcome(reply: GatewayReply, kind: string): boolean {
	const type = reply.fields.type ?? '';
	return !!reply.fields.status && kind !== 'authentication' && type !== 'error' && type !== 'validation-error';
}

/**
 * A reply about the same order ID but another amount or currency is an older order under that ID
 * (a replay), never the approval of this request.
 */
export function matchingOrder(ctx: IExecuteFunctions, plan: DeliveryPlan, reply: GatewayReply): GatewayReply {
	const { requested } = plan;
	if (!requested) return reply;
	const { amount, currency } = reply.fields;
	const otherAmount = !!amount && !requested.amounts.some((sent) => sameAmount(sent, amount));
	const otherCurrency = !!currency && !!requested.currency && currency.trim().toUpperCase() !== requested.currency;
	if (!otherAmount && !otherCurrency) return reply;
	const asked = `${requested.amounts.join(' or ')} ${requested.currency ?? ''}`.trim();
	const found = `${amount ?? '?'} ${currency ?? ''}`.trim();
	const error = new NodeApiError(ctx.getNode(), { message: 'amount or currency differs from the request' } as JsonObject, {
		message: `${plan.label} for order "${plan.clientOrderId}": the gateway reports this order with ${found}, not the ${asked} requested; the order ID was used before`,
		description: `The gateway answered about an existing order "${plan.clientOrderId}" (status "${reply.fields.status || 'processing'}"), not about a new payment of ${asked}. Do not treat it as approved: look the order up (Transaction → Get Status or the gateway back office), and use a new order ID for a new payment.`,
		itemIndex: plan.itemIndex,
	});
	throw withMoneyEffect(error, 'mayHaveMoved');
}

function describeStatus(reply: GatewayReply): string {
	const { fields } = reply;
	const parts = [`status "${fields.status || 'unknown'}"`];
	if (fields['transaction-type']) parts.push(`last transaction "${fields['transaction-type']}"`);
	if (fields.amount) parts.push(`amount ${fields.amount} ${fields.currency ?? ''}`.trim());
	return parts.join(', ');
}

function moneyError(ctx: IExecuteFunctions, plan: DeliveryPlan, effect: MoneyEffect, cause: string, message: string, description: string): NodeApiError {
	return withMoneyEffect(new NodeApiError(ctx.getNode(), { message: cause } as JsonObject, { message, description, itemIndex: plan.itemIndex }), effect);
}

function finalStatusUnknown(ctx: IExecuteFunctions, plan: DeliveryPlan, clientOrderId: string | undefined, last: GatewayReply, reason: string): NodeApiError {
	const order = `order "${clientOrderId ?? ''}"`;
	const moves = factsOf(plan).money.moves;
	const money = moves ? 'money MAY have moved' : `${plan.label} moves no money`;
	return moneyError(
		ctx,
		plan,
		moves ? 'mayHaveMoved' : 'noMoneyMoved',
		reason,
		`${plan.label} for ${order}: the gateway accepted the request, but its final status could not be learned; ${money}`,
		`While waiting for the final status: ${reason}. The gateway last reported ${last.fields.status ? describeStatus(last) : 'that it accepted the request (processing)'}. Do not run this item again with a new order ID: look up ${order} (Transaction → Get Status or the gateway back office) first.`,
	);
}

function followUpLost(ctx: IExecuteFunctions, plan: DeliveryPlan, lost: LostReply, knowledge: StatusKnowledge): NodeApiError {
	const target = targetOf(plan) ?? 'its target';
	const now =
		knowledge.kind === 'found'
			? `The gateway reports the order now as ${describeStatus(knowledge.reply)}.`
			: knowledge.kind === 'notFound'
				? 'The gateway does not find the order.'
				: `Its status could not be learned (${knowledge.reason}).`;
	const lookUp = factsOf(plan).statusQuery ? 'Transaction → Get Status or the gateway back office' : 'the gateway back office';
	return moneyError(
		ctx,
		plan,
		'mayHaveMoved',
		lost.message,
		`${plan.label} on ${target}: no gateway reply (${lost.what}); it may have been applied, so money MAY have moved`,
		`Code ${lost.code}. ${now} ${plan.label} is never resent automatically. Check ${target} (${lookUp}) before running this item again.${signatureHint(lost)}`,
	);
}

/** What a request acts on, in words: its order, or what the operation names instead. */
function targetOf(plan: DeliveryPlan): string | undefined {
	if (plan.target) return plan.target;
	if (plan.orderId) return `order ${plan.orderId} ("${plan.clientOrderId ?? ''}")`;
	return plan.clientOrderId ? `order "${plan.clientOrderId}"` : undefined;
}

/** A 401/403 that is not a gateway reply is most likely the gateway refusing the signature. */
function signatureHint(lost: LostReply): string {
	return isSignatureRefusal(lost)
		? ` The answer was HTTP ${lost.httpStatus}, which is how the gateway refuses a request signature: check the credential's private key (for V4 operations, the key whose public half the gateway registered), control key and login.`
		: '';
}

function moneyMayHaveMoved(ctx: IExecuteFunctions, plan: DeliveryPlan, lost: LostReply, reason: string): NodeApiError {
	return moneyError(
		ctx,
		plan,
		'mayHaveMoved',
		lost.message,
		`${plan.label} for order "${plan.clientOrderId}": ${isSignatureRefusal(lost) ? `the gateway refused the request signature (HTTP ${lost.httpStatus})` : `no gateway reply (${lost.what})`} and the order status could not be learned; money MAY have moved`,
		`Code ${lost.code}; ${reason}.${signatureHint(lost)} Do not run this item again with a new order ID. When the gateway is reachable, look up order "${plan.clientOrderId}" (Transaction → Get Status or the gateway back office); if the gateway does not know it, run the item again with the SAME order ID.`,
	);
}

/** The gateway itself confirmed it has no such order after the request: nothing was charged. */
function notReceived(ctx: IExecuteFunctions, plan: DeliveryPlan, lost: LostReply, attempts: string): NodeApiError {
	return moneyError(
		ctx,
		plan,
		'noMoneyMoved',
		lost.message,
		`${plan.label}: the gateway did not take order "${plan.clientOrderId}" ${attempts} (${lost.what}); nothing was charged`,
		`Code ${lost.code}. The gateway confirmed by a status query that it has no order "${plan.clientOrderId}". It is safe to run this item again with the same order ID once the cause is fixed.${signatureHint(lost)}`,
	);
}
