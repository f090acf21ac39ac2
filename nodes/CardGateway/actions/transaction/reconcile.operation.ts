import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { withMoneyEffect } from '../../../shared/moneyEffect';
import { amountUnits, formatUnits, parseAmount, parseCurrency, sameAmount } from '../../../shared/protocol/amount';
import { GatewayInputError } from '../../../shared/protocol/errors';
import { comparableName } from '../../../shared/protocol/names';
import { replyRecord } from '../../../shared/protocol/reply';
import type { ReportTransaction } from '../../../shared/protocol/report';
import { merchantCredentials, withInputErrors } from '../../../shared/transport';
import { learnStatus } from '../common/send/delivery';
import { sameForEveryItem } from '../common/read/oncePerRun';
import { defineOperation } from '../common/define/operation';

import {
	createdRangeParameters,
	reportOptions,
	reportQuery,
	reportTimeout,
	reportTransactions,
} from './getMany.operation';

/** What one difference is, in the order the output lists an order's differences. */
export const DIFFERENCES = [
	'missingAtGateway',
	'unknownToYou',
	'duplicateInYourRecords',
	'severalGatewayOrders',
	'createdBeforePeriod',
	'amountDiffers',
	'currencyDiffers',
	'statusDiffers',
	'heldNotCaptured',
	'checkedNotPaid',
	'voidedSince',
	'holdReleased',
	'refundedSince',
	'chargedBackSince',
	'disputedSince',
] as const;
type Difference = (typeof DIFFERENCES)[number];

/** How each difference reads in an item's message. */
const DIFFERENCE_WORDS: Record<Difference, string> = {
	missingAtGateway: 'missing at the gateway',
	unknownToYou: 'unknown to you',
	duplicateInYourRecords: 'twice in your records',
	severalGatewayOrders: 'several gateway orders under one merchant order ID',
	createdBeforePeriod: 'created before the period',
	amountDiffers: 'amount differs',
	currencyDiffers: 'currency differs',
	statusDiffers: 'status differs',
	heldNotCaptured: 'held, not captured',
	checkedNotPaid: 'payout checked, never paid',
	voidedSince: 'voided since',
	holdReleased: 'hold released since',
	refundedSince: 'refunded since',
	chargedBackSince: 'charged back since',
	disputedSince: 'disputed since',
};

/** What a transaction does to its order, by type (compared without case or separators). */
type Role =
	| 'sale'
	| 'preauth'
	| 'payout'
	| 'payoutCheck'
	| 'transfer'
	| 'verification'
	| 'capture'
	| 'void'
	| 'cancel'
	| 'refund'
	| 'chargeback'
	| 'dispute';

// The docs' transaction types (sale, reversal, preauth, capture, cancel, fraud, chargeback, retrieval, dispute,
// refund), the interface's "return", and what the gateway's orders also make (void, payouts, transfers,
// verifications). A type not here cannot be placed: the run stops rather than guess what it did to money.
const ROLES: Record<string, Role> = {
	sale: 'sale',
	preauth: 'preauth',
	payout: 'payout',
	payoutcheck: 'payoutCheck',
	transfer: 'transfer',
	accountverification: 'verification',
	paneligibility: 'verification',
	capture: 'capture',
	void: 'void',
	cancel: 'cancel',
	reversal: 'refund',
	refund: 'refund',
	return: 'refund',
	chargeback: 'chargeback',
	dispute: 'dispute',
	retrieval: 'dispute',
	fraud: 'dispute',
};

/** What kind of order a transaction starts (the others follow an order). */
const STARTS: Partial<Record<Role, OrderKind>> = {
	sale: 'sale',
	preauth: 'preauth',
	payout: 'payout',
	payoutCheck: 'payout',
	transfer: 'transfer',
	verification: 'verification',
};
const ORDER_KINDS = ['sale', 'preauth', 'payout', 'transfer', 'verification'] as const;
type OrderKind = (typeof ORDER_KINDS)[number];

const ORDER_STATUSES = ['approved', 'declined', 'filtered', 'processing', 'error', 'unknown'] as const;

/** One of the user's records, checked. */
interface YourRecord {
	itemIndex: number;
	merchantOrderId: string;
	amount: string;
	currency: string;
	status: string;
}

/** What an order's approved transactions moved, in thousandths (holds are not money). */
interface Money {
	/** Sales and captures: money taken. */
	taken: bigint;
	refunded: bigint;
	/** The money part of voids (what was taken and not yet given back). */
	voided: bigint;
	chargedBack: bigint;
	paid: bigint;
	transferred: bigint;
	held: bigint;
	released: bigint;
	voids: number;
	disputes: number;
	checked: boolean;
}

/** One gateway order: its own transaction (when the gateway's side shows it) and what followed. */
interface GatewayOrder {
	merchantOrderId: string;
	orderId?: string;
	/** Unknown when the order's own transaction is not in the report (created before the period). */
	kind?: OrderKind;
	type?: string;
	status?: string;
	amount?: string;
	currency?: string;
	/** Report side: what its transactions moved. */
	money?: Money;
	/** Status side: the order's latest transaction and the amount its status reply reports. */
	latest?: { type: string; status: string; role: Role; left?: string };
}

const noMoney = (): Money => ({
	taken: 0n,
	refunded: 0n,
	voided: 0n,
	chargedBack: 0n,
	paid: 0n,
	transferred: 0n,
	held: 0n,
	released: 0n,
	voids: 0,
	disputes: 0,
	checked: false,
});

const recordField = (name: string, displayName: string, field: string, description: string): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	default: `={{ $json.${field} }}`,
	description,
});

const RECORD_FIELDS = ['merchantOrderId', 'amount', 'currency', 'expectedStatus'];

const capitalised = (word: string) => word[0].toUpperCase() + word.slice(1);

const options: INodeProperties = {
	...reportOptions,
	options: [
		...(reportOptions.options ?? []),
		{
			displayName: 'Unknown to You: Kinds',
			name: 'unknownKinds',
			type: 'multiOptions',
			options: ORDER_KINDS.map((kind) => ({ name: capitalised(kind), value: kind })),
			default: [],
			description:
				'Report orders only the gateway has only when of these kinds (none chosen: all). They still count in the totals, and the summary says how many were left out.',
		},
		{
			displayName: 'Unknown to You: Statuses',
			name: 'unknownStatuses',
			type: 'multiOptions',
			options: ORDER_STATUSES.map((status) => ({ name: capitalised(status), value: status })),
			default: [],
			description:
				'Report orders only the gateway has only when their own transaction has one of these statuses (none chosen: all), e.g. Approved to leave out declines',
		},
	],
};

const parameters: INodeProperties[] = [
	{
		displayName: 'Gateway Side',
		name: 'gatewaySide',
		type: 'options',
		options: [
			{
				name: 'Transaction Report for a Period',
				value: 'report',
				description:
					"Read the gateway's transactions created in the period: also finds orders your records do not have, and several gateway orders under one ID",
			},
			{
				name: 'Status Query per Record',
				value: 'status',
				description:
					'Ask the status of each of your orders (no period needed; one request per record): sees the latest transaction of one order per ID',
			},
		],
		default: 'report',
	},
	...createdRangeParameters(true).map((property) => ({
		...property,
		displayOptions: { show: { gatewaySide: ['report'] } },
	})),
	recordField(
		'merchantOrderId',
		'Merchant Order ID',
		'merchantOrderId',
		"Your record's order ID, as sent to the gateway",
	),
	recordField('amount', 'Amount', 'amount', "Your record's amount, a decimal such as 10.50"),
	recordField('currency', 'Currency', 'currency', "Your record's currency (ISO 4217)"),
	recordField(
		'expectedStatus',
		'Expected Status',
		'status',
		'The status your record expects (approved, declined …); empty means approved',
	),
	options,
];

/** Every error of Reconcile says so: it compares, it moves nothing. */
const READS_ONLY = 'Reconcile reads only: it moves no money.';

// Read-only: compares the user's records with the gateway's and outputs only what differs.
export default defineOperation({
	gateway: 'transactionReport',
	menu: {
		name: 'Reconcile',
		description:
			"Compare your records (the input items) with the gateway's and output only the differences, plus a summary",
		action: 'Reconcile records with the gateway',
	},
	readMany: {
		parameters,
		async run(ctx) {
			// The side, period and options are the run's (read at item 0); each item is one record.
			sameForEveryItem(
				ctx,
				parameters.filter((property) => !RECORD_FIELDS.includes(property.name)),
				'one gateway side',
			);
			const records = readRecords(ctx);
			const filter = unknownFilter(ctx);
			const side = ctx.getNodeParameter('gatewaySide', 0, 'report') as 'report' | 'status';
			const gateway = side === 'report' ? await ordersOfReport(ctx) : await ordersByStatus(ctx, records);
			return compare(records, gateway, side, filter);
		},
	},
});

/** Every input item as a record, checked before anything is sent; a bad one is refused naming its field. */
function readRecords(ctx: IExecuteFunctions): YourRecord[] {
	const items = ctx.getInputData();
	const fieldOf = plainFieldReads(ctx);
	return items.map((item, itemIndex) => {
		const read = (name: string) =>
			fieldOf[name] !== undefined
				? ownField(item.json, fieldOf[name])
				: (ctx.getNodeParameter(name, itemIndex, '') as unknown);
		try {
			return withInputErrors(ctx, itemIndex, () => {
				const merchantOrderId = String(read('merchantOrderId') ?? '').trim();
				if (!merchantOrderId) throw new GatewayInputError('Merchant Order ID', `"Merchant Order ID" is empty`);
				const currency = parseCurrency(read('currency'), 'Currency');
				const amount = parseAmount(read('amount'), currency, 'Amount');
				const status =
					String(read('expectedStatus') ?? '')
						.trim()
						.toLowerCase() || 'approved';
				return { itemIndex, merchantOrderId, amount, currency, status };
			});
		} catch (error) {
			throw withMoneyEffect(error as Error, 'notSent');
		}
	});
}

/** `={{ $json.name }}` and nothing else: the item's own field, read without n8n's expression evaluator. */
const PLAIN_FIELD = /^=\{\{\s*\$json\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/;

const ownField = (json: IDataObject, name: string): unknown =>
	Object.prototype.hasOwnProperty.call(json, name) ? json[name] : undefined;

/**
 * The record fields whose parameter only names a field of the item (as the defaults do), by
 * parameter: reading them directly gives what n8n would, and spares it four evaluations per record.
 */
function plainFieldReads(ctx: IExecuteFunctions): Record<string, string | undefined> {
	const { parameters } = ctx.getNode();
	return Object.fromEntries(RECORD_FIELDS.map((name) => [name, PLAIN_FIELD.exec(String(parameters[name] ?? ''))?.[1]]));
}

/** Which orders only the gateway has are reported: an order whose kind or status is not known always is. */
interface UnknownFilter {
	kinds: Set<string>;
	statuses: Set<string>;
}

function unknownFilter(ctx: IExecuteFunctions): UnknownFilter {
	const chosen = ctx.getNodeParameter('options', 0, {}) as IDataObject;
	const set = (value: unknown) => new Set(Array.isArray(value) ? value.map(String) : []);
	return { kinds: set(chosen.unknownKinds), statuses: set(chosen.unknownStatuses) };
}

const passes = (filter: UnknownFilter, order: GatewayOrder) =>
	(!filter.kinds.size || !order.kind || filter.kinds.has(order.kind)) &&
	(!filter.statuses.size || !order.status || filter.statuses.has(order.status));

const NOT_WHOLE = "The gateway's side could not be read whole: ";
const NO_CLAIM = `No differences are reported from a partial read. ${READS_ONLY}`;

/** The run stops: the gateway's side was not read whole, so no difference (and no "none") is claimed. */
function notReadWhole(ctx: IExecuteFunctions, why: string, description?: string): Error {
	return withMoneyEffect(
		new NodeOperationError(ctx.getNode(), `${NOT_WHOLE}${why}`, {
			itemIndex: 0,
			description: description ? `${description} ${NO_CLAIM}` : NO_CLAIM,
		}),
		'notSent',
	);
}

/** A report that failed part-way says so: a gateway error keeps its kind, code and message. */
function partialRead(ctx: IExecuteFunctions, error: Error): Error {
	if (error.message.startsWith(NOT_WHOLE)) return error;
	if (!(error instanceof NodeApiError || error instanceof NodeOperationError)) return notReadWhole(ctx, error.message);
	error.message = `${NOT_WHOLE}${error.message}`;
	error.description = error.description ? `${error.description} ${NO_CLAIM}` : NO_CLAIM;
	return withMoneyEffect(error, 'notSent');
}

/** The gateway's orders in the period, by merchant order ID (the gateway order ID where it names none). */
async function ordersOfReport(ctx: IExecuteFunctions): Promise<Map<string, GatewayOrder[]>> {
	const orders = new Map<string, GatewayOrder[]>();
	const query = reportQuery(ctx, 0);
	try {
		for await (const transaction of reportTransactions(ctx, query, 0)) place(ctx, orders, transaction);
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
		start(list[list.length - 1].money!, role, row.status === 'approved', units);
		return;
	}
	if (kind && !paysCheck)
		throw notReadWhole(ctx, `order "${merchantOrderId}" (${row.orderId}) has two transactions of its own`);
	if (!order) {
		order = { merchantOrderId, orderId: row.orderId || undefined, currency: row.currency, money: noMoney() };
		list.push(order);
	}
	if (row.status === 'approved') follow(order, role, units);
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

/** Each record's order as the gateway's status query reports it; a record the gateway does not know is left out. */
async function ordersByStatus(ctx: IExecuteFunctions, records: YourRecord[]): Promise<Map<string, GatewayOrder[]>> {
	const { login } = await merchantCredentials(ctx);
	const chosen = ctx.getNodeParameter('options', 0, {}) as IDataObject;
	const timeoutMs = Math.round(Number(chosen.timeoutSeconds ?? reportTimeout.default) * 1000);
	const orders = new Map<string, GatewayOrder[]>();
	const asked = new Set<string>();
	for (const record of records) {
		if (asked.has(record.merchantOrderId)) continue;
		asked.add(record.merchantOrderId);
		const known = await learnStatus(
			ctx,
			{ timeoutMs },
			{ operation: 'status', itemIndex: record.itemIndex, login, clientOrderId: record.merchantOrderId },
		);
		if (known.kind === 'notFound') continue;
		if (known.kind === 'unknown')
			throw notReadWhole(ctx, `order "${record.merchantOrderId}" could not be looked up: ${known.reason}`);
		const reply = replyRecord(known.reply);
		const type = (reply.transactionType ?? '').toLowerCase();
		const role = ROLES[comparableName(type)];
		if (!role)
			throw notReadWhole(
				ctx,
				`order "${record.merchantOrderId}" reports a latest transaction of type "${type}", which Reconcile cannot place`,
			);
		const status = (reply.status ?? '').toLowerCase();
		const own = STARTS[role];
		// A status reply names the order's latest transaction: its own, or what followed (then the order's
		// amount and status are not in the reply, and its kind only when the follower tells it).
		orders.set(record.merchantOrderId, [
			{
				merchantOrderId: record.merchantOrderId,
				orderId: reply.orderId,
				kind: own ?? (role === 'capture' || role === 'cancel' ? 'preauth' : undefined),
				...(own ? { type, status, amount: reply.amount } : {}),
				currency: reply.currency?.toUpperCase(),
				latest: { type, status, role, left: reply.amount },
			},
		]);
	}
	return orders;
}

/** The differences, one item per merchant order ID that has any, and the summary item last. */
function compare(
	records: YourRecord[],
	gateway: Map<string, GatewayOrder[]>,
	side: 'report' | 'status',
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
	if (order.kind === 'preauth' && order.status === 'approved' && money.held > 0n) since.push('heldNotCaptured');
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
	if (latest.role === 'preauth' && latest.status === 'approved') return ['heldNotCaptured'];
	const since = latest.status === 'approved' ? SINCE_BY_LATEST[latest.role] : undefined;
	return since ? [since] : [];
}

/** One output item: what differs, in words and as fields a workflow can test. */
function differenceItem(
	differences: Difference[],
	yours: YourRecord | undefined,
	orders: GatewayOrder[],
	side: 'report' | 'status',
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
function moneyTotals(orders: GatewayOrder[]): IDataObject {
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
