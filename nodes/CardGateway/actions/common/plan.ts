// The plan of a money-moving run (issue 26): what every item would move, and one ID for the whole
// run that an approver can sign off and a real run can be bound to. Pure: it reads the money facts
// (facts.ts / money.ts) and what the gateway reported, never a table of its own.
import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { amountUnits, formatUnits } from '../../../shared/protocol/amount';
import type { OperationId } from '../../../shared/protocol/catalogue';
import { replyRecord } from '../../../shared/protocol/reply';

import type { StatusKnowledge } from './delivery';
import { factsOf } from './facts';
import { stakeOf } from './limits';
import { destinationOf } from './moneyOutcome';

/** What one item would do to money, and the order state that relies on. Every field is part of the plan ID. */
export interface PlanItem {
	/** The catalogue operation, e.g. "return". */
	operation: OperationId;
	/** The merchant order ID; null when the node generates one at run time (a dry run's is not the real run's). */
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
}

export const PLAN_ID_PATTERN = /^plan-[0-9a-f]{32}$/;

/** One item's plan, from its checked values and the status the gateway gave before (a dry run's reads). */
export function planItemOf(request: PlannedRequest): PlanItem {
	const { money } = factsOf({ operation: request.operation });
	const { values, order } = request;
	// A full follow-up moves what the order holds: the amount learned from the gateway is what is approved.
	const stake = stakeOf(values as Record<string, string>, money.followUp ? order : undefined);
	const known = 'amount' in stake;
	return {
		operation: request.operation,
		merchantOrderId: request.generatedOrderId ? null : (request.clientOrderId ?? null),
		gatewayOrderId:
			values.gatewayOrderId || (order?.kind === 'found' ? replyRecord(order.reply).orderId || null : null),
		amount: known ? stake.amount : null,
		currency: known ? stake.currency : values.currency || null,
		destination: money.destinationKey ? (destinationOf(values) ?? null) : null,
		target: request.target ?? null,
		orderState: orderStateOf(order, !!request.generatedOrderId),
	};
}

function orderStateOf(order: StatusKnowledge | undefined, generated: boolean): string {
	if (!order) return generated ? 'new order (ID generated at run time)' : 'not checked';
	if (order.kind === 'notFound') return 'no such order yet';
	if (order.kind === 'unknown') return 'could not be learned';
	const { status, amount, currency, transactionType } = replyRecord(order.reply);
	const figure = amount ? `, ${amount} ${currency ?? ''}`.trimEnd() : '';
	return `${status || 'processing'}${figure}${transactionType ? `, last transaction ${transactionType}` : ''}`;
}

/** The plan item without its position: what the hash covers. */
function planned(entry: PlanItem): PlanItem {
	const { operation, merchantOrderId, gatewayOrderId, amount, currency, destination, target, orderState } = entry;
	return { operation, merchantOrderId, gatewayOrderId, amount, currency, destination, target, orderState };
}

/** Canonical text of one item: fixed key order, amounts in one spelling. */
function canonical(entry: PlanItem): string {
	const item = planned(entry);
	if (item.amount && item.currency) item.amount = formatUnits(amountUnits(item.amount), item.currency);
	return JSON.stringify(item);
}

/**
 * The plan ID: SHA-256 over the merchant and the canonical items, sorted, so that neither the input's
 * order nor anything that does not change what moves (descriptions, emails, the item's position) changes it.
 */
export function planIdOf(merchant: string, items: readonly PlanItem[]): string {
	const hash = createHash('sha256');
	hash.update(JSON.stringify({ merchant, items: items.map(canonical).sort() }));
	return `plan-${hash.digest('hex').slice(0, 32)}`;
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
	// a new order under a generated ID: known by where the money goes
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

/**
 * Every difference between the approved plan and the current one, in words: items added or removed,
 * amount, currency, destination or order state changed.
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
		const changed = (['amount', 'currency', 'destination', 'orderState'] as const)
			.filter((key) => canonical({ ...before, [key]: before[key] }) !== canonical({ ...before, [key]: now[key] }))
			.map((key) =>
				key === 'orderState'
					? `the order changed since the plan: it was ${before.orderState}, it is now ${now.orderState}`
					: `${key} changed from ${shownValue(before[key])} to ${shownValue(now[key])}`,
			);
		if (changed.length) differences.push(`item ${now.item} (${describePlanEntry(before)}): ${changed.join('; ')}`);
	}
	for (const left of [...waiting.values()].flat())
		differences.push(`approved item ${left.item} is not in this run: ${describePlanEntry(left)}`);
	return differences;
}
