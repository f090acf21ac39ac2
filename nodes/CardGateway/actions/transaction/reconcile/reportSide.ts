// The report side: the gateway's transactions of the period, placed into orders, with what each moved.
import type { IExecuteFunctions } from 'n8n-workflow';

import { amountUnits, sameAmount } from '../../../../shared/protocol/amount';
import { comparableName } from '../../../../shared/protocol/names';
import { STATUS } from '../../../../shared/protocol/statusWords';
import type { ReportTransaction } from '../../../../shared/protocol/report';
import { reportTransactions, type ReportQuery } from '../getMany.operation';

import { noMoney, ROLES, STARTS, type GatewayOrder, type Money, type Role } from './orders';
import { notReadWhole, partialRead } from './readWhole';

/** The gateway's orders in the period, by merchant order ID (the gateway order ID where it names none). */
export async function ordersOfReport(ctx: IExecuteFunctions, query: ReportQuery): Promise<Map<string, GatewayOrder[]>> {
	const orders = new Map<string, GatewayOrder[]>();
	try {
		for await (const transaction of reportTransactions(ctx, query)) place(ctx, orders, transaction);
	} catch (error) {
		throw partialRead(ctx, error as Error);
	}
	return orders;
}

/**
 * Adds one report row to its order: by the gateway order ID when the report has one; otherwise (a layout
 * without it) an order's own transaction starts an order and what follows joins the latest order under the
 * same merchant order ID. A row that follows no order of the period belongs to one created before it.
 */
function place(ctx: IExecuteFunctions, orders: Map<string, GatewayOrder[]>, row: ReportTransaction): void {
	const merchantOrderId = row.merchantOrderId || row.orderId || '';
	if (!merchantOrderId) throw notReadWhole(ctx, 'a report row names no merchant order ID and no gateway order ID');
	const role = ROLES[comparableName(row.type)];
	if (!role)
		throw notReadWhole(
			ctx,
			`order "${merchantOrderId}" has a transaction of type "${row.type ?? ''}", which Reconcile cannot place`,
			'It cannot tell what that transaction did to money.',
		);
	const units = rowUnits(ctx, row, merchantOrderId);
	const list = orders.get(merchantOrderId) ?? [];
	orders.set(merchantOrderId, list);
	let order = row.orderId ? list.find((candidate) => candidate.orderId === row.orderId) : list.at(-1);
	const kind = STARTS[role];
	const paysCheck = role === 'payout' && !!order && paysCheckOf(order, row);
	if (kind && !paysCheck && (!order || !row.orderId)) {
		list.push({
			merchantOrderId,
			orderId: row.orderId || undefined,
			kind,
			type: comparableName(row.type) === 'payoutcheck' ? 'payout-check' : (row.type ?? ''),
			status: row.status,
			amount: row.amount,
			currency: row.currency,
			money: noMoney(),
		});
		start(list[list.length - 1].money!, role, row.status === STATUS.approved, units);
		return;
	}
	if (kind && !paysCheck)
		throw notReadWhole(ctx, `order "${merchantOrderId}" (${row.orderId}) has two transactions of its own`);
	if (!order) {
		order = { merchantOrderId, orderId: row.orderId || undefined, currency: row.currency, money: noMoney() };
		list.push(order);
	}
	if (row.status === STATUS.approved) follow(order, role, units);
}

/**
 * Whether a payout row is the pay of the order's check: of that very order when the report names
 * gateway orders, else of the latest check under the ID that is unpaid and of the same amount and currency.
 */
function paysCheckOf(order: GatewayOrder, row: ReportTransaction): boolean {
	if (!order.money?.checked || order.money.paid !== 0n) return false;
	return !!row.orderId || (sameAmount(order.amount ?? '', row.amount ?? '') && order.currency === row.currency);
}

/** A row's amount in thousandths (a refund may carry a sign); a row without a readable amount stops the run. */
function rowUnits(ctx: IExecuteFunctions, row: ReportTransaction, merchantOrderId: string): bigint {
	try {
		return amountUnits((row.amount ?? '').replace(/^-/, ''));
	} catch {
		throw notReadWhole(
			ctx,
			`order "${merchantOrderId}" has a ${row.type ?? ''} transaction whose amount "${String(row.amount ?? '').slice(0, 20)}" is not a decimal`,
		);
	}
}

/** The money of an order's own transaction, once approved. */
function start(money: Money, role: Role, approved: boolean, units: bigint): void {
	if (!approved) return;
	if (role === 'sale') money.taken += units;
	else if (role === 'preauth') money.held += units;
	else if (role === 'payout') money.paid += units;
	else if (role === 'payoutCheck') money.checked = true;
	else if (role === 'transfer') money.transferred += units;
}

/** An approved transaction that follows the order's own. */
function follow(order: GatewayOrder, role: Role, units: bigint): void {
	const money = order.money!;
	const release = (amount: bigint) => {
		money.released += amount;
		money.held = money.held > amount ? money.held - amount : 0n;
	};
	if (role === 'capture') {
		money.taken += units;
		money.held = money.held > units ? money.held - units : 0n;
	} else if (role === 'void') {
		// A void gives back what the order took and kept; the rest of its amount releases a hold. Of an
		// order created before the period that is not known: a void undoes a charge (docs), so all is money.
		const kept = money.taken - money.refunded - money.voided - money.chargedBack;
		const back = order.kind === undefined || units < kept ? units : kept > 0n ? kept : 0n;
		money.voided += back;
		money.voids++;
		release(units - back);
	} else if (role === 'cancel') release(units);
	else if (role === 'refund') money.refunded += units;
	else if (role === 'chargeback') money.chargedBack += units;
	else if (role === 'dispute') money.disputes++;
	else if (role === 'payout') money.paid += units;
}
