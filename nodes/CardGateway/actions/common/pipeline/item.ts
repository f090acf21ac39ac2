// One item through the pipeline: read and checked (read/), guarded (guard/), asked about its order,
// sent (send/) and reported (outcome/).
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { OPERATIONS, type AuthScheme } from '../../../../shared/protocol/catalogue';
import { replyRecord, type GatewayReply } from '../../../../shared/protocol/reply';
import { withMoneyEffect } from '../../../../shared/moneyEffect';
import {
	buildGatewayRequest,
	merchantCredentials,
	withInputErrors,
	type GatewayCall,
} from '../../../../shared/transport';

import type { Delivery, StatusKnowledge } from '../core/delivery';
import { factsOf, moneyFactsOf, ordersOnce } from '../core/facts';
import type { BuiltRequest, OperationSpec } from '../core/operation';
import { itemOptions, type RunOptions } from '../read/options';
import { generatedIdsMayRepeat } from '../read/orderIds';
import { amountsAsked, buildRequest, endpointChoice } from '../read/request';
import { runSettings, type RunSettings } from '../read/runSettings';
import { alreadyClaimedOutput, claimKey, settlingClaim } from '../guard/claims';
import { guardAiAgent, guardRetryOnFail } from '../guard/guards';
import { hasLimits, reserveSpending } from '../guard/limits';
import { oneAtATime, quietMark, type QuietMark } from '../guard/oneAtATime';
import { deliver, learnStatus, matchingOrder, waitForFinalStatus } from '../send/delivery';
import { alreadyDoneOutcome, alreadyExistedOutcome } from '../outcome/messages';
import { moneyOutcome } from '../outcome/moneyOutcome';
import { summarise } from '../outcome/output';
import { orderCheckFailed, repeatRefused, repeatUnreadable } from './refusals';

/** One item, ready to send: its options, run settings, checked request and how it is sent. */
export interface PreparedItem {
	options: RunOptions;
	run: RunSettings;
	request: BuiltRequest;
	call: GatewayCall;
	delivery: Delivery;
}

/** Reads and checks one item and builds its call; sends nothing (at most an operation's own status query). */
export async function prepareItem(
	ctx: IExecuteFunctions,
	spec: OperationSpec,
	itemIndex: number,
): Promise<PreparedItem> {
	const facts = moneyFactsOf(spec);
	const { options, auth, login, request, run } = await beforeSending(ctx, spec, itemIndex).catch((error: Error) => {
		throw withMoneyEffect(error, 'notSent');
	});
	const call: GatewayCall = {
		operation: spec.gateway,
		fields: request.fields,
		endpoint: endpointChoice(options),
		auth: spec.schemeChoice ? auth : undefined,
		timeoutMs: Math.round(options.timeoutSeconds * 1000),
		itemIndex,
	};
	const delivery: Delivery = {
		itemIndex,
		label: spec.label,
		login,
		clientOrderId: request.clientOrderId,
		orderId: request.values.gatewayOrderId,
		operation: spec.gateway,
		target: request.clientOrderId ? undefined : targetOf(spec, request.values),
		requested:
			ordersOnce(spec) && !facts.followUp && request.values.amount ? requestedMoney(request.values) : undefined,
	};
	return { options, run, request, call, delivery };
}

/** The status query about an item's order, asked ahead of its turn (ahead.ts), and when it was asked. */
export interface AskedAhead {
	mark: QuietMark;
	answer: Promise<StatusKnowledge | undefined>;
}

/** The turn an item's money step takes: its order at its merchant account. */
function turnOf(spec: OperationSpec, delivery: Delivery): string | undefined {
	return ordersOnce(spec) && delivery.clientOrderId ? `${delivery.login}\u0000${delivery.clientOrderId}` : undefined;
}

/**
 * Asks the gateway about an item's order now, outside its turn, when no step on the order is under
 * way; undefined when one is (the item then asks in its turn, as without asking ahead).
 */
export function askAhead(ctx: IExecuteFunctions, spec: OperationSpec, prepared: PreparedItem): AskedAhead | undefined {
	const { request, run, call, delivery } = prepared;
	const mark = quietMark(turnOf(spec, delivery));
	if (!mark) return undefined;
	const answer = orderBefore(ctx, spec, request, run, call, delivery);
	// What it throws is the item's, thrown when the item takes the answer (or dropped with an unused one).
	answer.catch(() => undefined);
	return { mark, answer };
}

/**
 * Sends one prepared item for real (a dry run never gets here) and reports what it did to the money.
 * Items that move money on the same order take turns (oneAtATime): a second execution acting on it
 * asks the gateway only once the first is done, and finds what the first did. An answer asked ahead
 * decides only when no other step on the order queued since it was asked; otherwise the item asks again
 * in its turn.
 */
export async function runItem(
	ctx: IExecuteFunctions,
	spec: OperationSpec,
	prepared: PreparedItem,
	ahead?: AskedAhead,
): Promise<IDataObject> {
	return await oneAtATime(
		turnOf(spec, prepared.delivery),
		async (quiet) => await sendItem(ctx, spec, prepared, quiet ? ahead?.answer : undefined),
		ahead?.mark,
	);
}

async function sendItem(
	ctx: IExecuteFunctions,
	spec: OperationSpec,
	prepared: PreparedItem,
	askedAhead: Promise<StatusKnowledge | undefined> | undefined,
): Promise<IDataObject> {
	const facts = moneyFactsOf(spec);
	const { options, run, request, call, delivery } = prepared;
	const { itemIndex } = delivery;
	// Limits are checked before anything is sent, the order-ID check included, unless the amount is the order's.
	const limited = facts.moves && !run.dryRun && hasLimits(run);
	const amountFromOrder = facts.followUp && !request.values.amount;
	let unreserve =
		limited && !amountFromOrder ? reserveSpending(ctx, spec.label, delivery, request.values, undefined) : undefined;
	// A step after the count: what it throws before anything left gives the count back.
	const counted = <T>(step: () => T | Promise<T>): Promise<T> =>
		Promise.resolve()
			.then(step)
			.catch((error: Error) => {
				unreserve?.(error);
				throw error;
			});
	const before = await counted(async () => await (askedAhead ?? orderBefore(ctx, spec, request, run, call, delivery)));
	if (limited && amountFromOrder) unreserve = reserveSpending(ctx, spec.label, delivery, request.values, before);
	const existing = await counted(() => (before && !facts.followUp ? existingOrder(ctx, delivery, before) : undefined));
	if (existing) {
		unreserve?.();
		return summarise(
			existing,
			request,
			{ alreadyExisted: true },
			options.includeRawReply,
			alreadyExistedOutcome(facts, delivery, existing),
		);
	}
	const done = await counted(() => (facts.followUp ? followUpDone(ctx, prepared, before) : undefined));
	if (done) {
		unreserve?.();
		return done;
	}
	// The claim records the order as it is now; a later delivery that finds the claim never settled asks again.
	const watch = { before, now: async () => await orderBefore(ctx, spec, request, run, call, delivery) };
	const claim = options.actOncePerKey
		? await counted(async () => await claimKey(ctx, itemIndex, options.actOncePerKey, watch))
		: undefined;
	if (claim?.kind === 'taken') {
		unreserve?.();
		return alreadyClaimedOutput(claim);
	}
	const send = async () => {
		let delivered = await counted(async () => await deliver(ctx, call, delivery));
		if (spec.waitable && options.waitForFinalStatus) {
			delivered = await waitForFinalStatus(ctx, call, delivery, delivered, options);
		}
		// The order as the gateway reports it now; what this operation moved is moneyOutcome's.
		return summarise(
			delivered.orderAfter ?? delivered.reply,
			request,
			delivered.notes,
			options.includeRawReply,
			moneyOutcome(spec.gateway, delivered, request.values, before),
		);
	};
	return claim ? await settlingClaim(claim, send) : await send();
}

/**
 * A follow-up run again, read from the order's status before it is sent (facts.ts, RERUN_RULES): when
 * the order shows this step made already, the item says so and nothing is sent; a step that may repeat
 * on one order (a partial capture or return) is refused, nothing sent, once something of its kind is on
 * the order, unless Act Once per Key names this step (the claim then fences it).
 */
function followUpDone(
	ctx: IExecuteFunctions,
	{ options, request, delivery }: PreparedItem,
	before: StatusKnowledge | undefined,
): IDataObject | undefined {
	const { rerun, money } = factsOf(delivery);
	if (!rerun) return undefined;
	const repeats = !!rerun.repeatsAfter && !!request.values.amount && !options.actOncePerKey;
	if (before?.kind !== 'found') {
		// Whether this step is on the order already cannot be read: a repeatable step is not sent.
		if (repeats && before?.kind === 'unknown')
			throw withMoneyEffect(repeatUnreadable(ctx, delivery, before.reason), 'notSent');
		return undefined;
	}
	const order = replyRecord(before.reply);
	const done = rerun.done?.(order, request.values);
	if (done)
		return summarise(
			before.reply,
			request,
			{},
			options.includeRawReply,
			alreadyDoneOutcome(money, delivery, before.reply, done),
		);
	const latest = order.transactionType;
	if (repeats && (!latest || rerun.repeatsAfter!.includes(latest)))
		throw withMoneyEffect(repeatRefused(ctx, delivery, money, before.reply), 'notSent');
	return undefined;
}

/**
 * What the gateway knows about the order before anything that moves money is sent (one status
 * query), when something depends on it:
 * - a dry run describes the order it targets;
 * - a new order under an ID that may have been used already (typed by the user, or generated again
 *   by a retried execution) is not sent when the gateway has it: a repeated order ID must never
 *   move money twice, whatever the gateway does with it;
 * - a follow-up is not sent when the order shows it made already, or when it may repeat on one order
 *   and something of its kind is there (followUpDone);
 * - a full capture, return or void under spending limits counts what is on the order;
 * - a void or 3-D Secure completion is confirmed afterwards only against the order as it was before.
 */
export async function orderBefore(
	ctx: IExecuteFunctions,
	spec: OperationSpec,
	request: BuiltRequest,
	run: RunSettings,
	call: GatewayCall,
	delivery: Delivery,
): Promise<StatusKnowledge | undefined> {
	const facts = moneyFactsOf(spec);
	if (!asksFirst(ctx, spec, request, delivery)) return undefined;
	// What a real send would refuse (an unreadable key, a bad endpoint) is refused before the status query too.
	await buildGatewayRequest(ctx, call);
	// A follow-up is asked about with the status query that shows what its re-run rule reads (facts.ts).
	const asked = factsOf(delivery).rerun?.statusQuery;
	const order = await learnStatus(ctx, call, asked ? { ...delivery, operation: asked } : delivery);
	if (facts.followUp || run.dryRun) return order;
	if (order.kind === 'unknown') throw orderCheckFailed(ctx, delivery, order);
	// An answer that names no gateway order is not proof that the order exists (nor that it does not).
	if (order.kind === 'found' && !replyRecord(order.reply).orderId) {
		throw orderCheckFailed(ctx, delivery, {
			kind: 'unknown',
			reason: 'the gateway answered the status query without naming an order',
		});
	}
	return order;
}

/** Whether orderBefore asks the gateway about the item's order. */
export function asksFirst(
	ctx: IExecuteFunctions,
	spec: OperationSpec,
	request: BuiltRequest,
	delivery: Delivery,
): boolean {
	if (!ordersOnce(spec) || !delivery.clientOrderId || !OPERATIONS[spec.gateway].statusQuery) return false;
	return moneyFactsOf(spec).followUp || !request.generatedOrderId || generatedIdsMayRepeat(ctx);
}

/** The order the gateway already has under this ID, or an error when it is another payment than this one. */
function existingOrder(ctx: IExecuteFunctions, delivery: Delivery, before: StatusKnowledge): GatewayReply | undefined {
	if (before.kind !== 'found') return undefined;
	try {
		return matchingOrder(ctx, delivery, before.reply);
	} catch (error) {
		// Only a status query was sent.
		throw withMoneyEffect(error as Error, 'notSent');
	}
}

/** Names what a request without a merchant order ID acts on (a recurring payment, a card reference). */
function targetOf(spec: OperationSpec, values: Record<string, string>): string | undefined {
	const field = spec.required?.find((candidate) => values[candidate.property.name]);
	return field ? `${field.property.displayName} "${values[field.property.name]}"` : undefined;
}

/**
 * Everything that happens before the request is sent: options, guards, reading and checking the
 * item, and the operation's own preparation (at most a harmless status query). Nothing it throws
 * moved money.
 */
async function beforeSending(ctx: IExecuteFunctions, spec: OperationSpec, itemIndex: number) {
	const gateway = OPERATIONS[spec.gateway];
	// Dry Run and the spending limits hold for the whole run: read from the first item (a tool whose
	// safety options the model fills is refused there, before any option is read).
	const run = runSettings(ctx, itemIndex);
	const options = itemOptions(ctx, itemIndex);
	// A dry run sends nothing that moves money, so an agent may rehearse without the AI switch.
	if (!run.dryRun) guardAiAgent(ctx, spec, options, itemIndex);
	guardRetryOnFail(ctx, spec, itemIndex);
	const auth = (spec.schemeChoice && options.signatureScheme ? options.signatureScheme : gateway.auth) as AuthScheme;
	const { login } = await merchantCredentials(ctx);
	const request = withInputErrors(ctx, itemIndex, () => buildRequest(ctx, spec, itemIndex, auth, login));
	await spec.prepare?.(ctx, {
		itemIndex,
		label: spec.label,
		login,
		request,
		endpoint: endpointChoice(options),
		timeoutMs: Math.round(options.timeoutSeconds * 1000),
	});
	return { options, auth, login, request, run };
}

/** The amount a new order asks for: the amount, or any of the amounts a rebill may try in turn. */
function requestedMoney(values: Record<string, string>): Delivery['requested'] {
	return { amounts: amountsAsked(values), currency: values.currency };
}
