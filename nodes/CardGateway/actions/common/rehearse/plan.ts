// The plan of a money-moving run (issues 26, 30): what every item would send and move, and one ID
// for the whole run that an approver can sign off and a real run can be bound to. Pure: it reads
// the money facts (facts.ts / money.ts) and what the gateway reported, never a table of its own.
//
// A plan ID is "plan-", a nonce the dry run drew, "-" and a keyed digest (HMAC-SHA256 with the
// credential's control key) of the nonce and every item: what it sends in full (URL, credential,
// every field, card and account numbers unmasked) and the order state it relies on. The nonce fixes
// the order IDs the node generates (orderIds.ts), so every run under one approval sends the same
// order IDs, and a new dry run gives a new plan ID. Letters only: no run of digits that masking
// could read as a card number.
import { createHmac, randomBytes } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { amountUnits, formatUnits } from '../../../../shared/protocol/amount';
import type { OperationId } from '../../../../shared/protocol/catalogue';
import { replyRecord } from '../../../../shared/protocol/reply';
import { STATUS } from '../../../../shared/protocol/statusWords';

import type { StatusKnowledge } from '../core/delivery';
import { factsOf } from '../core/facts';
import { destinationOf } from '../read/destination';
import { lettersOf } from '../read/orderIds';
import { DIGEST_LETTERS, NONCE_LETTERS, PLAN_ID_PATTERN } from '../read/planId';
import { stakeOf } from '../guard/limits';
import { followUpRefusals } from './dryRun';

/** What one item would do to money, and the order state that relies on. Every field is part of the plan ID. */
export interface PlanItem {
	/** The catalogue operation, e.g. "return". */
	operation: OperationId;
	/** The merchant order ID, also one the node generates (the plan fixes it). */
	merchantOrderId: string | null;
	gatewayOrderId: string | null;
	/** Decimal string: the amount sent, or for a full return or capture the amount the gateway reported on the order. */
	amount: string | null;
	currency: string | null;
	/** Where a payout or transfer goes, masked. */
	destination: string | null;
	/** What a request without an order acts on (a recurring payment, a card reference). */
	target: string | null;
	/** The order as the gateway reported it before: what the plan relies on. */
	orderState: string;
	/** Keyed digest of the request in full (URL, credential, every field): what the masked values cannot show. */
	requestDigest: string;
	/** Why the item would move nothing (the order ID is taken, nothing is left on the order). */
	movesNothing?: string;
	/** Why an approval could not make this item run once (then the run has no plan ID). */
	notApprovable?: string;
}

/** A plan item with the input item it came from (numbered from 1, as n8n numbers items): not part of the plan ID. */
export interface PlanEntry extends PlanItem {
	item: number;
}

/** What planItemOf needs from one prepared item. */
export interface PlannedRequest {
	operation: OperationId;
	values: Readonly<Record<string, string>>;
	clientOrderId?: string;
	generatedOrderId?: boolean;
	target?: string;
	order?: StatusKnowledge;
	/** requestDigestOf the request the item sends. */
	requestDigest: string;
}

/** The request an item sends, in full, as the transport builds it (no signature). */
export interface SentRequest {
	method: string;
	url: string;
	auth: string;
	login: string;
	fields: ReadonlyArray<readonly [string, string]>;
}

const REQUEST_DIGEST_LETTERS = 16;

const NO_SUCH_ORDER = 'no such order yet';

/** The nonce of a plan ID (as PLAN_ID_PATTERN reads it). */
export function planNonceOf(planId: string): string | undefined {
	return PLAN_ID_PATTERN.exec(planId)?.[1];
}

/** A dry run's nonce: the plan and the order IDs it generates are this run's, never an earlier one's. */
export function newPlanNonce(): string {
	return lettersOf(randomBytes(NONCE_LETTERS), NONCE_LETTERS);
}

const keyedLetters = (key: string, text: string, count: number) =>
	lettersOf(createHmac('sha256', key).update(text).digest(), count);

/** The keyed digest of a request in full: no one without the control key can tell a card number from it. */
export function requestDigestOf(key: string, request: SentRequest): string {
	const { method, url, auth, login, fields } = request;
	return keyedLetters(key, JSON.stringify({ method, url, auth, login, fields }), REQUEST_DIGEST_LETTERS);
}

/** One item's plan, from its checked values, its request and the status the gateway gave before (a dry run's reads). */
export function planItemOf(request: PlannedRequest): PlanItem {
	const { money } = factsOf(request);
	const { values, order } = request;
	// A full follow-up moves what the order holds: the amount learned from the gateway is what is approved.
	const stake = stakeOf(values as Record<string, string>, money.followUp ? order : undefined);
	const known = 'amount' in stake;
	const orderState = orderStateOf(order, !!request.generatedOrderId);
	const movesNothing = nothingMoved(request, known ? stake.amount : null);
	const notApprovable = onceProblem(request, orderState, movesNothing);
	return {
		operation: request.operation,
		merchantOrderId: request.clientOrderId ?? null,
		gatewayOrderId:
			values.gatewayOrderId || (order?.kind === 'found' ? replyRecord(order.reply).orderId || null : null),
		amount: known ? stake.amount : null,
		currency: known ? stake.currency : values.currency || null,
		destination: money.destinationKey ? (destinationOf(values) ?? null) : null,
		target: request.target ?? null,
		orderState,
		requestDigest: request.requestDigest,
		...(movesNothing ? { movesNothing } : {}),
		...(notApprovable ? { notApprovable } : {}),
	};
}

/**
 * The order state a plan relies on. A generated order ID is the plan's own (drawn with its nonce): new
 * by construction in the dry run, and what a bound run must find again.
 */
export function orderStateOf(order: StatusKnowledge | undefined, generated: boolean): string {
	if (!order) return generated ? NO_SUCH_ORDER : 'not checked';
	if (order.kind === 'notFound') return NO_SUCH_ORDER;
	if (order.kind === 'unknown') return 'could not be learned';
	const { status, amount, currency, transactionType } = replyRecord(order.reply);
	const figure = amount ? `, ${amount} ${currency ?? ''}`.trimEnd() : '';
	return `${status || STATUS.processing}${figure}${transactionType ? `, last transaction ${transactionType}` : ''}`;
}

function nothingMoved(request: PlannedRequest, amount: string | null): string | undefined {
	const { money } = factsOf(request);
	if (!money.followUp)
		return request.order?.kind === 'found'
			? 'the gateway already has this order ID: a real run reports that order and sends nothing'
			: undefined;
	return amount !== null && amountUnits(amount) === 0n ? 'nothing is left on the order' : undefined;
}

const NOT_TOLD_APART = 'so a second run under the same approval could not be told from the first';

/**
 * Why approving the item could not make it run once, if so. A plan runs once because the gateway's
 * answer about the order changes when the item has run: a new order ID is then taken, and a follow-up
 * makes its own transaction the order's latest. The plan relies on what the gateway said; where that
 * could read the same after the item (the latest transaction is of the item's own type already, or
 * not named), or the gateway says nothing, an approval could be spent twice.
 */
function onceProblem(
	request: PlannedRequest,
	orderState: string,
	movesNothing: string | undefined,
): string | undefined {
	const { money, statusQuery } = factsOf(request);
	const { order } = request;
	if (!statusQuery || !request.clientOrderId)
		return `the gateway has no status query that finds what it makes, ${NOT_TOLD_APART}`;
	if (order?.kind === 'unknown') return `the order's state could not be learned (${order.reason})`;
	if (!money.followUp) return undefined;
	if (order?.kind !== 'found') return 'the gateway does not know the order it acts on';
	if (movesNothing) return `it would move nothing: ${movesNothing}`;
	const stake = stakeOf(request.values as Record<string, string>, order);
	const refusals = followUpRefusals(money, request.values, stake, order.reply);
	if (refusals.length) return `the gateway would refuse it: ${refusals.join('; ')}`;
	const { transactionType } = replyRecord(order.reply);
	if (transactionType && !money.ownTypes.includes(transactionType)) return undefined;
	return `the gateway's answer about the order need not change when it has run (it reports ${orderState}), ${NOT_TOLD_APART}`;
}

/** The plan item without its position: what the digest covers. */
function planned(entry: PlanItem): PlanItem {
	const { operation, merchantOrderId, gatewayOrderId, amount, currency, destination, target, orderState } = entry;
	return {
		operation,
		merchantOrderId,
		gatewayOrderId,
		amount,
		currency,
		destination,
		target,
		orderState,
		requestDigest: entry.requestDigest,
	};
}

/** Canonical text of one item: fixed key order, amounts in one spelling. */
function canonical(entry: PlanItem): string {
	const item = planned(entry);
	if (item.amount && item.currency) item.amount = formatUnits(amountUnits(item.amount), item.currency);
	return JSON.stringify(item);
}

/**
 * The plan ID: the nonce and a keyed digest over it and the canonical items, sorted, so that the
 * input's order and the item's position do not change it (what each item sends does).
 */
export function planIdOf(key: string, nonce: string, items: readonly PlanItem[]): string {
	const digest = keyedLetters(key, JSON.stringify({ nonce, items: items.map(canonical).sort() }), DIGEST_LETTERS);
	return `plan-${nonce}-${digest}`;
}

const movesNothing = (entries: readonly PlanEntry[]) =>
	entries.length > 0 && entries.every((entry) => entry.movesNothing);

/**
 * Why the run as planned cannot be approved, in words, if so: no item would move money, or some item
 * could not be made to run once.
 */
export function approvalRefusal(entries: readonly PlanEntry[]): string | undefined {
	if (movesNothing(entries))
		return `nothing to approve: no item would move money (${[...new Set(entries.map((entry) => entry.movesNothing))].join('; ')})`;
	const once = entries.filter((entry) => entry.notApprovable);
	if (once.length)
		return `an approval could not make ${once.length === 1 ? 'one item' : `${once.length} items`} run once: ${once.map((entry) => `item ${entry.item}: ${entry.notApprovable}`).join('; ')}`;
	return undefined;
}

/** Counts and totals per currency (decimal strings), for an approval message. */
export function planSummary(
	planId: string | null,
	entries: readonly PlanEntry[],
	limits: { maxAmountPerItem: string; maxTotalPerRun: string },
	notPlanned: readonly number[],
): IDataObject {
	const totals = new Map<string, bigint>();
	const byOperation: Record<string, number> = {};
	let amountUnknown = 0;
	for (const entry of entries) {
		byOperation[entry.operation] = (byOperation[entry.operation] ?? 0) + 1;
		if (!entry.amount || !entry.currency) amountUnknown++;
		else totals.set(entry.currency, (totals.get(entry.currency) ?? 0n) + amountUnits(entry.amount));
	}
	const refusal = notPlanned.length ? undefined : approvalRefusal(entries);
	const notApprovable = movesNothing(entries)
		? []
		: entries.flatMap((entry) => (entry.notApprovable ? [{ item: entry.item, reason: entry.notApprovable }] : []));
	return {
		planId,
		items: entries.length,
		byOperation,
		totals: Object.fromEntries(
			[...totals]
				.sort(([a], [b]) => a.localeCompare(b))
				.map(([currency, units]) => [currency, formatUnits(units, currency)]),
		),
		...(amountUnknown ? { itemsWithUnknownAmount: amountUnknown } : {}),
		limits: {
			maxAmountPerItem: limits.maxAmountPerItem || 'none',
			maxTotalPerRun: limits.maxTotalPerRun || 'none',
		},
		...(notPlanned.length
			? {
					notPlanned: notPlanned.map((index) => index + 1),
					note: 'No plan ID: the items listed under notPlanned failed in this dry run; fix them and rehearse again',
				}
			: {}),
		...(refusal && notApprovable.length
			? {
					notApprovable,
					note: 'No plan ID: an approval could not make the items listed under notApprovable run once (each says why); leave them out or settle them, and rehearse again',
				}
			: {}),
		...(refusal && !notApprovable.length
			? { note: `No plan ID, ${refusal}; a run bound to an earlier plan of these items sends nothing` }
			: {}),
	};
}

/** Whether a value is a plan entry as a dry run outputs it (read back from an earlier node's output). */
export function isPlanEntry(value: unknown): value is PlanEntry {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
	const entry = value as Record<string, unknown>;
	return typeof entry.item === 'number' && typeof entry.operation === 'string' && typeof entry.orderState === 'string';
}

/** Which order an item acts on: how items of two plans are paired. */
function identity(entry: PlanItem): string {
	if (entry.merchantOrderId || entry.gatewayOrderId || entry.target)
		return JSON.stringify([entry.operation, entry.merchantOrderId, entry.gatewayOrderId, entry.target]);
	return JSON.stringify([entry.operation, entry.destination]);
}

/** One plan item in words: "return of 10.00 USD on order \"inv-1\"". */
export function describePlanEntry(entry: PlanEntry): string {
	const order = entry.merchantOrderId
		? `order "${entry.merchantOrderId}"`
		: entry.gatewayOrderId
			? `gateway order ${entry.gatewayOrderId}`
			: (entry.target ?? `a new order${entry.destination ? ` to ${entry.destination}` : ''}`);
	const money = entry.amount ? `${entry.amount} ${entry.currency ?? ''}`.trimEnd() : 'an unknown amount';
	return `${entry.operation} of ${money} on ${order}`;
}

const shownValue = (value: string | null) => (value === null ? 'none' : `"${value}"`);

const SHOWN_KEYS = ['amount', 'currency', 'destination', 'orderState'] as const;

/** One difference of a paired item, in words. */
function changeOf(key: (typeof SHOWN_KEYS)[number], before: PlanEntry, now: PlanEntry): string {
	if (key !== 'orderState') return `${key} changed from ${shownValue(before[key])} to ${shownValue(now[key])}`;
	if (before.orderState === NO_SUCH_ORDER && now.merchantOrderId)
		return `the gateway has order "${now.merchantOrderId}" now (${now.orderState}), which it did not have when the plan was made: an approved plan runs once`;
	return `the order changed since the plan: it was ${before.orderState}, it is now ${now.orderState}`;
}

/**
 * Every difference between the approved plan and the current one, in words: items added or removed,
 * amount, currency, destination or order state changed, or a value sent that differs only in full
 * (a card or account number with the same first and last digits, an Extra Field, the endpoint …).
 */
export function planDifferences(approved: readonly PlanEntry[], current: readonly PlanEntry[]): string[] {
	const waiting = new Map<string, PlanEntry[]>();
	for (const entry of approved) waiting.set(identity(entry), [...(waiting.get(identity(entry)) ?? []), entry]);
	const differences: string[] = [];
	for (const now of current) {
		const before = waiting.get(identity(now))?.shift();
		if (!before) {
			differences.push(`item ${now.item} was not in the approved plan: ${describePlanEntry(now)}`);
			continue;
		}
		const changed = SHOWN_KEYS.filter(
			(key) => canonical({ ...before, [key]: before[key] }) !== canonical({ ...before, [key]: now[key] }),
		).map((key) => changeOf(key, before, now));
		if (!changed.length && before.requestDigest !== now.requestDigest)
			changed.push(
				'a value it sends differs from the approved request, compared in full and not as shown: a card or account number (even with the same first and last digits), an Extra Field or another field, the endpoint or the credential',
			);
		if (changed.length) differences.push(`item ${now.item} (${describePlanEntry(before)}): ${changed.join('; ')}`);
	}
	for (const left of [...waiting.values()].flat())
		differences.push(`approved item ${left.item} is not in this run: ${describePlanEntry(left)}`);
	return differences;
}
