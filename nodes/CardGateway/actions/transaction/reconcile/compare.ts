// The comparison: what differs between each record and its gateway order, and the summary of the run.
import type { INodeExecutionData } from 'n8n-workflow';

import { amountUnits, formatUnits, sameAmount } from '../../../../shared/protocol/amount';
import { STATUS } from '../../../../shared/protocol/statusWords';

import { DIFFERENCES, type Difference } from './differences';
import type { GatewayOrder, GatewaySide, Role, YourRecord } from './orders';
import { differenceItem, moneyTotals } from './output';
import { passes, type UnknownFilter } from './parameters';

/** The differences, one item per merchant order ID that has any, and the summary item last. */
export function compare(
	records: YourRecord[],
	gateway: Map<string, GatewayOrder[]>,
	side: GatewaySide,
	filter: UnknownFilter,
): INodeExecutionData[] {
	const output: INodeExecutionData[] = [];
	const counts = Object.fromEntries(DIFFERENCES.map((kind) => [kind, 0])) as Record<Difference, number>;
	const yourTotals = new Map<string, bigint>();
	const seen = new Set<string>();
	let matching = 0;
	let leftOut = 0;
	const emit = (differences: Difference[], yours: YourRecord | undefined, orders: GatewayOrder[]) => {
		for (const kind of differences) counts[kind]++;
		output.push({
			json: differenceItem(differences, yours, orders, side),
			...(yours ? { pairedItem: { item: yours.itemIndex } } : {}),
		});
	};
	for (const record of records) {
		yourTotals.set(record.currency, (yourTotals.get(record.currency) ?? 0n) + amountUnits(record.amount));
		const orders = gateway.get(record.merchantOrderId) ?? [];
		if (seen.has(record.merchantOrderId)) {
			emit(['duplicateInYourRecords'], record, orders);
			continue;
		}
		seen.add(record.merchantOrderId);
		const differences: Difference[] =
			orders.length === 0
				? ['missingAtGateway']
				: orders.length > 1
					? ['severalGatewayOrders']
					: differencesOf(record, orders[0]);
		if (differences.length) emit(differences, record, orders);
		else matching++;
	}
	for (const [merchantOrderId, orders] of gateway) {
		if (seen.has(merchantOrderId)) continue;
		if (!orders.some((order) => passes(filter, order))) {
			leftOut++;
			continue;
		}
		const differences: Difference[] = ['unknownToYou'];
		if (orders.length > 1) differences.push('severalGatewayOrders');
		if (orders.length === 1 && orders[0].money && !orders[0].kind) differences.push('createdBeforePeriod');
		emit(differences, undefined, orders);
	}
	const all = [...gateway.values()].flat();
	output.push({
		json: {
			summary: true,
			gatewaySide: side,
			...(side === 'status'
				? {
						notSeen:
							'orders only the gateway has, other gateway orders under the same merchant order ID, and what preceded each order’s latest transaction: read the report side for them',
					}
				: {}),
			yourRecords: records.length,
			gatewayOrders: all.length,
			matching,
			differences: counts,
			unknownToYouLeftOut: leftOut,
			totals: {
				yours: Object.fromEntries([...yourTotals].map(([currency, units]) => [currency, formatUnits(units, currency)])),
				...(side === 'report' ? { gateway: moneyTotals(all) } : {}),
			},
		},
		pairedItem: records.map((record) => ({ item: record.itemIndex })),
	});
	return output;
}

/** What differs between a record and its one gateway order, in the order of DIFFERENCES. */
function differencesOf(record: YourRecord, order: GatewayOrder): Difference[] {
	const differences = new Set<Difference>();
	if (order.money && !order.kind) differences.add('createdBeforePeriod');
	if (order.type !== undefined) {
		if (!order.amount || !sameAmount(record.amount, order.amount)) differences.add('amountDiffers');
		if (record.status !== order.status) differences.add('statusDiffers');
	}
	if (record.currency !== order.currency) differences.add('currencyDiffers');
	for (const since of order.money ? sinceByReport(order) : sinceByStatus(order)) differences.add(since);
	return DIFFERENCES.filter((kind) => differences.has(kind));
}

function sinceByReport(order: GatewayOrder): Difference[] {
	const money = order.money!;
	const since: Difference[] = [];
	if (order.kind === 'preauth' && order.status === STATUS.approved && money.held > 0n) since.push('heldNotCaptured');
	if (order.kind === 'payout' && money.checked && money.paid === 0n) since.push('checkedNotPaid');
	if (money.voids) since.push('voidedSince');
	if (money.released) since.push('holdReleased');
	if (money.refunded) since.push('refundedSince');
	if (money.chargedBack) since.push('chargedBackSince');
	if (money.disputes) since.push('disputedSince');
	return since;
}

const SINCE_BY_LATEST: Partial<Record<Role, Difference>> = {
	void: 'voidedSince',
	cancel: 'holdReleased',
	refund: 'refundedSince',
	chargeback: 'chargedBackSince',
	dispute: 'disputedSince',
};

function sinceByStatus(order: GatewayOrder): Difference[] {
	const latest = order.latest!;
	if (latest.role === 'preauth' && latest.status === STATUS.approved) return ['heldNotCaptured'];
	const since = latest.status === STATUS.approved ? SINCE_BY_LATEST[latest.role] : undefined;
	return since ? [since] : [];
}
