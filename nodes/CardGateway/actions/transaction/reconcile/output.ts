// What Reconcile outputs for an order: its differences in words and as fields, its money, and the totals.
import type { IDataObject } from 'n8n-workflow';

import { formatUnits } from '../../../../shared/protocol/amount';

import { DIFFERENCE_WORDS, type Difference } from './differences';
import { noMoney, type GatewayOrder, type GatewaySide, type Money, type YourRecord } from './orders';

/** One output item: what differs, in words and as fields a workflow can test. */
export function differenceItem(
	differences: Difference[],
	yours: YourRecord | undefined,
	orders: GatewayOrder[],
	side: GatewaySide,
): IDataObject {
	const sides = orders.map((order) => gatewaySide(order));
	const yoursText = yours ? `${yours.amount} ${yours.currency} ${yours.status}` : '—';
	const gatewayText = orders.length ? orders.map((order) => describe(order)).join('; ') : '—';
	const nets = side === 'report' && orders.length ? `; net ${netText(orders)}` : '';
	const several = orders.length > 1 ? `${orders.length} orders: ` : '';
	return {
		difference: differences[0],
		differences,
		merchantOrderId: yours?.merchantOrderId ?? orders[0]?.merchantOrderId,
		message: `${differences.map((kind) => DIFFERENCE_WORDS[kind]).join(', ')}: yours ${yoursText}, gateway ${several}${gatewayText}${nets}`,
		yours: yours ? { amount: yours.amount, currency: yours.currency, status: yours.status } : null,
		gateway: orders.length === 1 ? sides[0] : null,
		...(orders.length > 1 ? { gatewayOrderList: sides } : {}),
	};
}

/** An order's side as fields: each present only when the gateway's side shows it. */
function gatewaySide(order: GatewayOrder): IDataObject {
	const side: IDataObject = {};
	const put = (name: string, value: unknown) => {
		if (value !== undefined && value !== '') side[name] = value;
	};
	put('orderId', order.orderId);
	put('kind', order.kind);
	put('type', order.type);
	put('status', order.status);
	put('amount', order.amount);
	put('currency', order.currency);
	const { money, latest, currency } = order;
	if (money) {
		const amount = (units: bigint) => formatUnits(units, currency);
		side.net = formatNet(net(money), currency);
		if (!order.kind) side.createdBeforePeriod = true;
		if (order.kind === 'preauth' || (!order.kind && money.taken)) side.captured = amount(money.taken);
		if (money.held) side.held = amount(money.held);
		if (money.released) side.holdReleased = amount(money.released);
		if (money.voids) side.voided = amount(money.voided);
		if (money.refunded) side.refunded = amount(money.refunded);
		if (money.chargedBack) side.chargedBack = amount(money.chargedBack);
		if (order.kind === 'payout' || money.paid) side.paid = amount(money.paid);
		if (money.transferred) side.transferred = amount(money.transferred);
		if (money.disputes) side.disputes = money.disputes;
	}
	if (latest) side.latest = { type: latest.type, status: latest.status, amount: latest.left };
	return side;
}

/** An order in words, e.g. "sale 1234 40.00 USD approved, refunded 3.00". */
function describe(order: GatewayOrder): string {
	const side = gatewaySide(order);
	const own = order.type
		? `${order.type}${order.orderId ? ` ${order.orderId}` : ''} ${order.amount ?? '?'} ${order.currency ?? ''} ${order.status ?? ''}`
		: `order${order.orderId ? ` ${order.orderId}` : ''} (created before the period) ${order.currency ?? ''}`;
	const details: string[] = [];
	if (order.money) {
		if (order.kind === 'preauth') details.push(`captured ${side.captured}`);
		if (side.held) details.push(`still held ${side.held}`);
		if (side.holdReleased) details.push(`hold released ${side.holdReleased}`);
		if (side.voided) details.push(`voided ${side.voided}`);
		if (side.refunded) details.push(`refunded ${side.refunded}`);
		if (side.chargedBack) details.push(`charged back ${side.chargedBack}`);
		if (order.kind === 'payout') details.push(order.money.paid ? `paid ${side.paid}` : 'checked, not paid');
		if (side.transferred) details.push(`transferred ${side.transferred}`);
		if (side.disputes) details.push(`disputes ${side.disputes}`);
	} else if (order.latest && !order.type) {
		details.push(`latest ${order.latest.type} ${order.latest.status}, ${order.latest.left ?? '?'} left on the order`);
	}
	return [own.replace(/\s+/g, ' ').trim(), ...details].join(', ');
}

/** What the order moved: money taken less what went back or out (payouts are money out). */
const net = (money: Money) => money.taken - money.refunded - money.voided - money.chargedBack - money.paid;

function formatNet(units: bigint, currency: string | undefined): string {
	return units < 0n ? `-${formatUnits(-units, currency)}` : formatUnits(units, currency);
}

/** The nets of several orders, per currency: "20.00 USD" or "10.00 USD + 5.00 EUR". */
function netText(orders: GatewayOrder[]): string {
	const byCurrency = new Map<string, bigint>();
	for (const order of orders) {
		const currency = order.currency ?? '';
		byCurrency.set(currency, (byCurrency.get(currency) ?? 0n) + net(order.money ?? noMoney()));
	}
	return [...byCurrency].map(([currency, units]) => `${formatNet(units, currency)} ${currency}`.trim()).join(' + ');
}

/** The money of every order read, per currency and kind (exact decimal strings); net = in less out. */
export function moneyTotals(orders: GatewayOrder[]): IDataObject {
	const sums = new Map<string, Money>();
	for (const order of orders) {
		if (!order.money || !order.currency) continue;
		const sum = sums.get(order.currency) ?? noMoney();
		sums.set(order.currency, sum);
		sum.taken += order.money.taken;
		sum.refunded += order.money.refunded;
		sum.voided += order.money.voided;
		sum.chargedBack += order.money.chargedBack;
		sum.paid += order.money.paid;
		sum.transferred += order.money.transferred;
	}
	return Object.fromEntries(
		[...sums].map(([currency, sum]) => {
			const amount = (units: bigint) => formatUnits(units, currency);
			return [
				currency,
				{
					sales: amount(sum.taken),
					refunds: amount(sum.refunded),
					voids: amount(sum.voided),
					chargebacks: amount(sum.chargedBack),
					payouts: amount(sum.paid),
					transfers: amount(sum.transferred),
					net: formatNet(net(sum), currency),
				},
			];
		}),
	);
}
