// The spending limits: what an item would move, checked and counted into the run before it is sent.
import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

import { moneyEffectOf, withMoneyEffect } from '../../../../shared/moneyEffect';
import { amountUnits, formatUnits } from '../../../../shared/protocol/amount';
import { replyRecord } from '../../../../shared/protocol/reply';

import type { Delivery, StatusKnowledge } from '../core/delivery';
import { amountsAsked } from '../read/request';
import { PER_ITEM, PER_RUN, runState, type Limit, type RunSettings } from '../read/runSettings';

/** What one item would move. */
export interface Stake {
	amount: string;
	currency: string;
}

export function hasLimits(settings: RunSettings): boolean {
	return !!(settings.perItem || settings.perRun);
}

function limitFor(limit: Limit, currency: string): bigint | undefined {
	return limit.every ?? limit.byCurrency.get(currency);
}

/**
 * What the item would move: the amount it asks for (a rebill trying several: the largest), or,
 * for a follow-up without an amount, the amount the gateway reports on the order, which is at
 * least what a full capture, return, void or payout pay can move.
 */
export function stakeOf(
	values: Record<string, string>,
	order: StatusKnowledge | undefined,
): Stake | { unknown: string } {
	if (values.amount && values.currency) {
		const amounts = amountsAsked(values);
		try {
			const largest = amounts.reduce((a, b) => (amountUnits(b) > amountUnits(a) ? b : a));
			return { amount: largest, currency: values.currency };
		} catch {
			return { unknown: `the amounts "${amounts.join(', ')}" are not plain decimals` };
		}
	}
	if (!order) return { unknown: 'it sets no amount, and the gateway cannot be asked about this order' };
	if (order.kind === 'unknown') return { unknown: `the order status could not be learned (${order.reason})` };
	if (order.kind === 'notFound') return { unknown: 'the gateway does not find the order' };
	const { amount, currency } = replyRecord(order.reply);
	if (!amount || !currency) return { unknown: 'the gateway reports no amount for the order' };
	return { amount, currency: currency.trim().toUpperCase() };
}

export type Admission = { admitted: true; release(): void } | { admitted: false; message: string; description: string };

/**
 * Checks the item against both limits and, if it passes, counts it into the run's total at once:
 * check and count happen without an await between them, so items in flight are always counted.
 */
export function admit(
	ctx: IExecuteFunctions,
	label: string,
	itemIndex: number,
	stake: Stake | { unknown: string },
): Admission {
	const state = runState(ctx, itemIndex);
	const { perItem, perRun } = state.settings;
	if (!perItem && !perRun) return { admitted: true, release: () => undefined };
	if ('unknown' in stake) {
		return refusal(
			`${label}: the amount it would move is unknown, so the spending limits cannot be checked`,
			`The amount could not be learned: ${stake.unknown}. With "${PER_ITEM}" or "${PER_RUN}" set, such an item is not sent.`,
		);
	}
	const { currency } = stake;
	const units = amountUnits(stake.amount);
	const money = (value: bigint) => `${formatUnits(value, currency)} ${currency}`;
	for (const limit of [perItem, perRun]) {
		if (limit && limitFor(limit, currency) === undefined) {
			return refusal(
				`${label}: "${limit.option}" sets no limit for ${currency}`,
				`"${limit.option}" lists only ${[...limit.byCurrency.keys()].join(', ')}: add ${currency} to it to send items in ${currency}.`,
			);
		}
	}
	const perItemMax = perItem && limitFor(perItem, currency)!;
	if (perItemMax !== undefined && units > perItemMax) {
		return refusal(
			`${label} of ${money(units)} is above "${PER_ITEM}" (${money(perItemMax)})`,
			`Items above "${PER_ITEM}" are refused before sending.`,
		);
	}
	if (!perRun) return { admitted: true, release: () => undefined };
	const { spending } = state;
	if (spending.stoppedBy) {
		return refusal(
			`${label}: "${PER_RUN}" was reached earlier in this run; no further item is sent`,
			spending.stoppedBy,
		);
	}
	const perRunMax = limitFor(perRun, currency)!;
	const committed = () => BigInt(spending.committed[currency] ?? '0');
	const before = committed();
	if (before + units > perRunMax) {
		spending.stoppedBy = `Item ${itemIndex + 1} (${money(units)}) would have taken the run to ${money(before + units)}, above "${PER_RUN}" (${money(perRunMax)}); sent or in flight before it: ${money(before)}. Items after that point are not sent.`;
		return refusal(
			`${label} of ${money(units)} would pass "${PER_RUN}" (${money(perRunMax)}); this and every further item of the run are not sent`,
			spending.stoppedBy,
		);
	}
	spending.committed[currency] = String(before + units);
	let released = false;
	return {
		admitted: true,
		release: () => {
			if (!released) spending.committed[currency] = String(committed() - units);
			released = true;
		},
	};
}

function refusal(message: string, description: string): Admission {
	return { admitted: false, message, description };
}

/**
 * Before a real send under spending limits: counts what the item would move into the run (for a
 * follow-up without an amount, what the gateway reported on the order before) and returns what
 * undoes the count when nothing was sent. Throws (nothing sent) when refused.
 */
export function reserveSpending(
	ctx: IExecuteFunctions,
	label: string,
	delivery: Delivery,
	values: Record<string, string>,
	order: StatusKnowledge | undefined,
): (error?: Error) => void {
	const admission = admit(ctx, label, delivery.itemIndex, stakeOf(values, order));
	if (!admission.admitted) {
		throw withMoneyEffect(
			new NodeOperationError(ctx.getNode(), `${admission.message}; nothing was sent`, {
				itemIndex: delivery.itemIndex,
				description: admission.description,
			}),
			'notSent',
		);
	}
	// An item counts once sent (declined or not); one that never left the machine (or was not sent at all) does not.
	return (error) => {
		if (!error || moneyEffectOf(error) === 'notSent') admission.release();
	};
}
