// Every error a delivery raises, worded in one place: what happened, what became of the money (its
// mark travels with the error), and what to check before running the item again.
import { NodeApiError, NodeOperationError, type IExecuteFunctions, type JsonObject } from 'n8n-workflow';

import { withMoneyEffect, type MoneyEffect } from '../../../../shared/moneyEffect';
import { replyRecord, type GatewayFailure, type GatewayReply } from '../../../../shared/protocol/reply';
import { gatewayError, type LostReply } from '../../../../shared/transport';

import type { DeliveryPlan, StatusKnowledge } from './delivery';
import type { MoneyActionFacts } from '../../../../shared/protocol/money';
import { factsOf } from '../core/facts';
import { approvalRefusal, describePlanEntry, planDifferences, type PlanEntry } from '../rehearse/plan';

/** A 401/403 that is not a gateway reply: how gateways refuse a request signature. */
export const isSignatureRefusal = (lost: LostReply) => lost.httpStatus === 401 || lost.httpStatus === 403;

/** No gateway reply to a request that moves no money (or nothing could be sent at all). */
export function lostReplyError(ctx: IExecuteFunctions, plan: DeliveryPlan, lost: LostReply): NodeApiError {
	const target = targetOf(plan);
	const order = target ? ` for ${target}` : '';
	const { nothingSent } = lost;
	return moneyError(
		ctx,
		plan,
		// A request that moves no money moves nothing whatever became of it.
		nothingSent ? 'notSent' : 'noMoneyMoved',
		lost.message,
		nothingSent
			? `${plan.label}: could not connect to the gateway (${lost.what}); nothing was sent`
			: `${plan.label}: no gateway reply${order} (${lost.what})`,
		nothingSent
			? `Code ${lost.code}. Check the base URL in the credential and that the gateway is reachable from n8n. Nothing was sent${order}, so no money moved.`
			: `Code ${lost.code}: ${lost.message}. ${plan.label} moves no money. The request may have reached the gateway${target ? `; look up ${target} before running it again` : ''}.${signatureHint(lost)}`,
	);
}

/** The gateway refused the request: its message and code; nothing was carried out. */
export function refusedError(ctx: IExecuteFunctions, plan: DeliveryPlan, failure: GatewayFailure): NodeApiError {
	const target = targetOf(plan);
	const error = gatewayError(ctx, failure, plan.itemIndex, `${plan.label}: `);
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
	plan: DeliveryPlan,
	reply: GatewayReply,
	requested: NonNullable<DeliveryPlan['requested']>,
): NodeApiError {
	const asked = `${requested.amounts.join(' or ')} ${requested.currency ?? ''}`.trim();
	const { amount, currency, status } = replyRecord(reply);
	const found = `${amount ?? '?'} ${currency ?? ''}`.trim();
	return moneyError(
		ctx,
		plan,
		'mayHaveMoved',
		'amount or currency differs from the request',
		`${plan.label} for order "${plan.clientOrderId}": the gateway reports this order with ${found}, not the ${asked} requested; the order ID was used before`,
		`The gateway answered about an existing order "${plan.clientOrderId}" (status "${status || 'processing'}"), not about a new payment of ${asked}. Do not treat it as approved: look the order up (Transaction → Get Status or the gateway back office), and use a new order ID for a new payment.`,
	);
}

function describeStatus(reply: GatewayReply): string {
	const fields = replyRecord(reply);
	const parts = [`status "${fields.status || 'unknown'}"`];
	if (fields.transactionType) parts.push(`last transaction "${fields.transactionType}"`);
	if (fields.amount) parts.push(`amount ${fields.amount} ${fields.currency ?? ''}`.trim());
	return parts.join(', ');
}

function moneyError(
	ctx: IExecuteFunctions,
	plan: DeliveryPlan,
	effect: MoneyEffect,
	cause: string,
	message: string,
	description: string,
): NodeApiError {
	return withMoneyEffect(
		new NodeApiError(ctx.getNode(), { message: cause } as JsonObject, {
			message,
			description,
			itemIndex: plan.itemIndex,
		}),
		effect,
	);
}

export function finalStatusUnknown(
	ctx: IExecuteFunctions,
	plan: DeliveryPlan,
	clientOrderId: string | undefined,
	last: GatewayReply,
	reason: string,
): NodeApiError {
	const order = `order "${clientOrderId ?? ''}"`;
	const moves = factsOf(plan).money.moves;
	const money = moves ? 'money MAY have moved' : `${plan.label} moves no money`;
	return moneyError(
		ctx,
		plan,
		moves ? 'mayHaveMoved' : 'noMoneyMoved',
		reason,
		`${plan.label} for ${order}: the gateway accepted the request, but its final status could not be learned; ${money}`,
		`While waiting for the final status: ${reason}. The gateway last reported ${replyRecord(last).status ? describeStatus(last) : 'that it accepted the request (processing)'}. Do not run this item again with a new order ID: look up ${order} (Transaction → Get Status or the gateway back office) first.`,
	);
}

export function followUpLost(
	ctx: IExecuteFunctions,
	plan: DeliveryPlan,
	lost: LostReply,
	knowledge: StatusKnowledge,
): NodeApiError {
	const target = targetOf(plan) ?? 'its target';
	const now =
		knowledge.kind === 'found'
			? `The gateway reports the order now as ${describeStatus(knowledge.reply)}.`
			: knowledge.kind === 'notFound'
				? 'The gateway does not find the order.'
				: `Its status could not be learned (${knowledge.reason}).`;
	const lookUp = factsOf(plan).statusQuery
		? 'Transaction → Get Status or the gateway back office'
		: 'the gateway back office';
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

export function moneyMayHaveMoved(
	ctx: IExecuteFunctions,
	plan: DeliveryPlan,
	lost: LostReply,
	reason: string,
): NodeApiError {
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
export function notReceived(
	ctx: IExecuteFunctions,
	plan: DeliveryPlan,
	lost: LostReply,
	attempts: string,
): NodeApiError {
	return moneyError(
		ctx,
		plan,
		'noMoneyMoved',
		lost.message,
		`${plan.label}: the gateway did not take order "${plan.clientOrderId}" ${attempts} (${lost.what}); nothing was charged`,
		`Code ${lost.code}. The gateway confirmed by a status query that it has no order "${plan.clientOrderId}". It is safe to run this item again with the same order ID once the cause is fixed.${signatureHint(lost)}`,
	);
}

/** Before a new order: the gateway could not be asked whether it already has this order ID, so nothing was sent. */
export function orderCheckFailed(
	ctx: IExecuteFunctions,
	plan: DeliveryPlan,
	order: Extract<StatusKnowledge, { kind: 'unknown' }>,
): NodeApiError {
	if (order.refusal) {
		// The gateway's own refusal (a wrong control key, say): its message and code, as for any request.
		const error = gatewayError(ctx, order.refusal, plan.itemIndex, `${plan.label}: `);
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
		plan,
		'notSent',
		order.reason,
		`${plan.label} for order "${plan.clientOrderId}": could not check whether the gateway already has this order (${order.reason}); nothing was sent`,
		'Before a payment under an order ID that may have been used, the node asks the gateway about it, so that a repeated order ID never moves money twice. Run the item again when the gateway answers.',
	);
}

/** The outcome of an item whose order the gateway already had: nothing was sent, nothing new moved. */
export function alreadyExistedOutcome(
	facts: MoneyActionFacts,
	plan: DeliveryPlan,
	reply: GatewayReply,
): { moneyEffect: MoneyEffect; outcome: string } {
	const { status, amount, currency } = replyRecord(reply);
	const was =
		status === 'approved' && facts.movedKey
			? `${facts.done.toLowerCase()} earlier`
			: `status "${status || 'processing'}"`;
	const figure = amount ? `, ${`${amount} ${currency ?? ''}`.trim()}` : '';
	return {
		moneyEffect: 'noMoneyMoved',
		outcome: `Order "${plan.clientOrderId}" already existed at the gateway (${was}${figure}): nothing was sent, and this run moved nothing new`,
	};
}

/** The outcome of a follow-up whose step the order shows made already: nothing was sent, nothing new moved. */
export function alreadyDoneOutcome(
	facts: MoneyActionFacts,
	plan: DeliveryPlan,
	reply: GatewayReply,
	done: string,
): { alreadyDone: true; moneyEffect: MoneyEffect; outcome: string } {
	return {
		alreadyDone: true,
		moneyEffect: 'noMoneyMoved',
		outcome: `${facts.noun} on order "${plan.clientOrderId}": ${done} (the gateway reports ${describeStatus(reply)}): nothing was sent, and this run moved nothing new`,
	};
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
	plan: DeliveryPlan,
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
		`${plan.label} on order "${plan.clientOrderId}": ${why}; nothing was sent`,
		{
			itemIndex: plan.itemIndex,
			description: `A ${noun} with an amount may be made more than once on one order: run again, it would ${facts.verb} twice. So it is sent without a key only while the order's latest transaction is not one like it. If that earlier transaction was this step, there is nothing left to do. If another ${noun} on this order is intended, ${ANOTHER_ONE}. Check the order first (Transaction → Get Status or the gateway back office).`,
		},
	);
}

/** A step that may repeat on one order, not sent because the order's status could not be learned. */
export function repeatUnreadable(ctx: IExecuteFunctions, plan: DeliveryPlan, reason: string): NodeOperationError {
	const noun = factsOf(plan).money.noun.toLowerCase();
	return new NodeOperationError(
		ctx.getNode(),
		`${plan.label} on order "${plan.clientOrderId}": could not check whether this ${noun} was made before (${reason}); nothing was sent`,
		{
			itemIndex: plan.itemIndex,
			description: `A ${noun} with an amount may repeat on one order, so it is sent only when the gateway's status shows none on it yet, or under a key of its own (Options → Act Once per Key). Run the item again when the gateway answers.`,
		},
	);
}

/**
 * A new order that is never resent (facts.ts, NEVER_RESENT) lost its reply and the gateway does not show
 * it (yet): its outcome is unknown.
 */
export function notResent(ctx: IExecuteFunctions, plan: DeliveryPlan, lost: LostReply): NodeApiError {
	const order = `order "${plan.clientOrderId}"`;
	return moneyError(
		ctx,
		plan,
		'mayHaveMoved',
		lost.message,
		`${plan.label} for ${order}: no gateway reply (${lost.what}) and the gateway does not show the order yet; it is never resent, so its outcome is unknown: money MAY have moved`,
		`Code ${lost.code}.${signatureHint(lost)} ${plan.label} is never resent automatically: the gateway takes the request and charges in the background, so an order it does not show yet may still appear. Look up ${order} later (Transaction → Get Status (V4) or the gateway back office) before running this item again; if the gateway still does not know it, run the item again with the SAME order ID (the node asks the gateway first, so one order ID is never charged twice).`,
	);
}

const PLAN_RULE =
	'A run bound to an approved plan runs only as approved, and once: the whole run is refused when anything differs (a run of the plan before changed its orders too), and nothing was sent for any item. Rehearse again (Dry Run) and have the new plan approved, or fix what changed.';

/** A run bound to a plan whose items could not all be planned: nothing was sent for any item. */
export function planItemMissing(
	ctx: IExecuteFunctions,
	label: string,
	itemIndex: number,
	approved: string,
	failed: readonly number[],
): NodeOperationError {
	return withMoneyEffect(
		new NodeOperationError(
			ctx.getNode(),
			`${label}: item(s) ${failed.join(', ')} failed before the run could be checked against the approved plan ${approved}; nothing was sent for any item`,
			{ itemIndex, description: `Each of those items fails with its own error. ${PLAN_RULE}` },
		),
		'notSent',
	);
}

/** The run is not the approved plan: every difference named, nothing sent. */
export function planDiffers(
	ctx: IExecuteFunctions,
	label: string,
	itemIndex: number,
	approved: string,
	current: string | null,
	now: readonly PlanEntry[],
	approvedItems: readonly PlanEntry[] | undefined,
): NodeOperationError {
	const which = current ? `it is ${current}` : `as it is now it has no plan ID: ${approvalRefusal(now) ?? ''}`;
	const differences = approvedItems
		? planDifferences(approvedItems, now)
		: [
				`the approved plan's items are not in this execution (no earlier node output carries planId ${approved}), so the differences cannot be named one by one; this run's plan:`,
				...now.map((entry) => `item ${entry.item}: ${describePlanEntry(entry)}`),
			];
	const shown = differences.slice(0, MAX_DIFFERENCES);
	if (differences.length > MAX_DIFFERENCES) shown.push(`… and ${differences.length - MAX_DIFFERENCES} more`);
	return withMoneyEffect(
		new NodeOperationError(
			ctx.getNode(),
			`${label}: this run is not the approved plan ${approved} (${which}); nothing was sent${approvedItems ? `. ${differences.length} difference(s): ${inMessage(differences)}` : ''}`,
			{ itemIndex, description: [PLAN_RULE, ...shown.map((line) => `• ${line}`)].join('<br>\n') },
		),
		'notSent',
	);
}

/**
 * An item of a run that matched its approved plan, whose order changed before its turn came: another
 * run under the same approval (or someone else) acted on it meanwhile. Nothing was sent for it.
 */
export function planOrderMoved(
	ctx: IExecuteFunctions,
	label: string,
	itemIndex: number,
	approved: string,
	entry: PlanEntry,
	now: string,
): NodeOperationError {
	return withMoneyEffect(
		new NodeOperationError(
			ctx.getNode(),
			`${label} (${describePlanEntry(entry)}): the order changed after this run was checked against the approved plan ${approved}: it was ${entry.orderState}, it is now ${now}; nothing was sent for this item`,
			{
				itemIndex,
				description:
					'Another run under the same approval, or someone else, acted on this order at the same time. An approved plan runs once: look the order up before anything else, and rehearse again for what is left.',
			},
		),
		'notSent',
	);
}

const MAX_DIFFERENCES = 50;
/** The message names the first differences too: an error's message is what notifications and error workflows show. */
const DIFFERENCES_IN_MESSAGE = 5;

function inMessage(differences: readonly string[]): string {
	const more = differences.length - DIFFERENCES_IN_MESSAGE;
	return [
		...differences.slice(0, DIFFERENCES_IN_MESSAGE),
		...(more > 0 ? [`… and ${more} more (see the details)`] : []),
	].join('; ');
}
