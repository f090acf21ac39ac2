import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { withMoneyEffect } from '../../../shared/moneyEffect';
import { currencyDigits, parseAmount, parseCurrency, sameAmount } from '../../../shared/protocol/amount';
import { formatSignedUnits, signedUnits } from '../../../shared/protocol/balance';
import { GatewayInputError } from '../../../shared/protocol/errors';
import { comparableName } from '../../../shared/protocol/names';
import { replyRecord } from '../../../shared/protocol/reply';
import type { ReportTransaction } from '../../../shared/protocol/report';
import { merchantCredentials, withInputErrors } from '../../../shared/transport';
import { learnStatus } from '../common/delivery';
import { defineOperation } from '../common/operation';

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
	'amountDiffers',
	'currencyDiffers',
	'statusDiffers',
	'refundedSince',
	'chargedBackSince',
] as const;
type Difference = (typeof DIFFERENCES)[number];

/** One of the user's records, checked. */
interface YourRecord {
	itemIndex: number;
	merchantOrderId: string;
	amount: string;
	currency: string;
	status: string;
}

/** The gateway's side of one order: its first transaction, and what followed it. */
interface GatewayOrder {
	merchantOrderId: string;
	orderId?: string;
	type?: string;
	status?: string;
	amount?: string;
	currency?: string;
	refunded: boolean;
	/** What approved refunds and reversals in the report add up to, in thousandths. */
	refundedUnits: bigint;
	chargedBack: boolean;
}

// What follows a payment in the docs' list of transaction types (plus "return", the interface's word).
const REFUND_TYPES = new Set(['reversal', 'refund', 'return']);
const CHARGEBACK_TYPES = new Set(['chargeback', 'dispute', 'retrieval']);

const recordField = (name: string, displayName: string, field: string, description: string): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	default: `={{ $json.${field} }}`,
	description,
});

const RECORD_FIELDS = ['merchantOrderId', 'amount', 'currency', 'expectedStatus'];

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
					"Read the gateway's transactions created in the period: also finds orders your records do not have",
			},
			{
				name: 'Status Query per Record',
				value: 'status',
				description: 'Ask the status of each of your orders (no period needed; one request per record)',
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
	reportOptions,
];

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
			const records = readRecords(ctx);
			const side = ctx.getNodeParameter('gatewaySide', 0, 'report') as 'report' | 'status';
			const gateway = side === 'report' ? await ordersOfReport(ctx) : await ordersByStatus(ctx, records);
			return compare(records, gateway, side === 'report');
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

/** The gateway's orders in the period, by merchant order ID (the gateway order ID where it names none). */
async function ordersOfReport(ctx: IExecuteFunctions): Promise<Map<string, GatewayOrder>> {
	const orders = new Map<string, GatewayOrder>();
	for await (const transaction of reportTransactions(ctx, reportQuery(ctx, 0), 0)) {
		const key = transaction.merchantOrderId || transaction.orderId || transaction.transactionId || '';
		let order = orders.get(key);
		if (!order)
			orders.set(key, (order = { merchantOrderId: key, refunded: false, refundedUnits: 0n, chargedBack: false }));
		follow(order, transaction);
	}
	return orders;
}

/** Adds one transaction to its order: the first one that is not a refund or chargeback is the order's own. */
function follow(order: GatewayOrder, transaction: ReportTransaction): void {
	const type = comparableName(transaction.type);
	const approved = transaction.status === 'approved';
	if (REFUND_TYPES.has(type)) {
		order.refunded ||= approved;
		if (approved && transaction.amount) order.refundedUnits += magnitude(transaction.amount);
	} else if (CHARGEBACK_TYPES.has(type)) {
		order.chargedBack ||= approved;
	} else if (order.type === undefined) {
		Object.assign(order, {
			orderId: transaction.orderId,
			type,
			status: transaction.status,
			amount: transaction.amount,
			currency: transaction.currency,
		});
	}
}

/** A gateway amount's size in thousandths (refund rows may carry a sign); 0 when it is not a decimal. */
function magnitude(amount: string): bigint {
	try {
		const units = signedUnits(amount, 'amount');
		return units < 0n ? -units : units;
	} catch {
		return 0n;
	}
}

/** Each record's order as the gateway's status query reports it; a record the gateway does not know is left out. */
async function ordersByStatus(ctx: IExecuteFunctions, records: YourRecord[]): Promise<Map<string, GatewayOrder>> {
	const { login } = await merchantCredentials(ctx);
	const options = ctx.getNodeParameter('options', 0, {}) as IDataObject;
	const timeoutMs = Math.round(Number(options.timeoutSeconds ?? reportTimeout.default) * 1000);
	const orders = new Map<string, GatewayOrder>();
	for (const record of records) {
		if (orders.has(record.merchantOrderId)) continue;
		const known = await learnStatus(
			ctx,
			{ timeoutMs },
			{ operation: 'status', itemIndex: record.itemIndex, login, clientOrderId: record.merchantOrderId },
		);
		if (known.kind === 'notFound') continue;
		if (known.kind === 'unknown') {
			throw withMoneyEffect(
				new NodeOperationError(
					ctx.getNode(),
					`Order "${record.merchantOrderId}" could not be looked up: ${known.reason}`,
					{
						itemIndex: record.itemIndex,
						description: 'Reconcile reads only: it moves no money.',
					},
				),
				'notSent',
			);
		}
		const reply = replyRecord(known.reply);
		const type = comparableName(reply.transactionType);
		// A status reply names the order's latest transaction: a refund or chargeback says what followed.
		orders.set(record.merchantOrderId, {
			merchantOrderId: record.merchantOrderId,
			orderId: reply.orderId,
			type,
			status: reply.status?.toLowerCase(),
			amount: reply.amount,
			currency: reply.currency?.toUpperCase(),
			refunded: REFUND_TYPES.has(type) && reply.status === 'approved',
			refundedUnits: 0n,
			chargedBack: CHARGEBACK_TYPES.has(type),
		});
	}
	return orders;
}

/** The differences, one item per order that has any, and the summary item last. */
function compare(
	records: YourRecord[],
	gateway: Map<string, GatewayOrder>,
	gatewayListsAll: boolean,
): INodeExecutionData[] {
	const output: INodeExecutionData[] = [];
	const counts = Object.fromEntries(DIFFERENCES.map((kind) => [kind, 0])) as Record<Difference, number>;
	const yourTotals = new Totals();
	const gatewayTotals = new Totals();
	const seen = new Set<string>();
	let matching = 0;
	const emit = (differences: Difference[], yours: YourRecord | undefined, order: GatewayOrder | undefined) => {
		for (const kind of differences) counts[kind]++;
		output.push({
			json: {
				difference: differences[0],
				differences,
				merchantOrderId: yours?.merchantOrderId ?? order?.merchantOrderId,
				yours: yours ? { amount: yours.amount, currency: yours.currency, status: yours.status } : null,
				gateway: order ? gatewaySide(order) : null,
			},
			...(yours ? { pairedItem: { item: yours.itemIndex } } : {}),
		});
	};
	for (const record of records) {
		yourTotals.add(record.currency, record.amount);
		if (seen.has(record.merchantOrderId)) {
			emit(['duplicateInYourRecords'], record, gateway.get(record.merchantOrderId));
			continue;
		}
		seen.add(record.merchantOrderId);
		const order = gateway.get(record.merchantOrderId);
		const differences = order ? differencesOf(record, order) : (['missingAtGateway'] as Difference[]);
		if (differences.length) emit(differences, record, order);
		else matching++;
	}
	for (const order of gateway.values()) {
		if (order.status === 'approved' && order.currency && order.amount) gatewayTotals.add(order.currency, order.amount);
		if (gatewayListsAll && !seen.has(order.merchantOrderId)) emit(['unknownToYou'], undefined, order);
	}
	output.push({
		json: {
			summary: true,
			gatewaySide: gatewayListsAll ? 'report' : 'status',
			yourRecords: records.length,
			gatewayOrders: gateway.size,
			matching,
			differences: counts,
			totals: { yours: yourTotals.toJson(), gatewayApproved: gatewayTotals.toJson() },
		},
		pairedItem: records.map((record) => ({ item: record.itemIndex })),
	});
	return output;
}

function differencesOf(record: YourRecord, order: GatewayOrder): Difference[] {
	const differences: Difference[] = [];
	if (!order.amount || !sameAmount(record.amount, order.amount)) differences.push('amountDiffers');
	if (record.currency !== order.currency) differences.push('currencyDiffers');
	if (record.status !== order.status) differences.push('statusDiffers');
	if (order.refunded) differences.push('refundedSince');
	if (order.chargedBack) differences.push('chargedBackSince');
	return differences;
}

function gatewaySide(order: GatewayOrder): IDataObject {
	const side: IDataObject = {
		orderId: order.orderId,
		type: order.type,
		status: order.status,
		amount: order.amount,
		currency: order.currency,
	};
	if (order.refunded) side.refunded = true;
	if (order.refundedUnits > 0n)
		side.refundedAmount = formatSignedUnits(order.refundedUnits, currencyDigits(order.currency));
	if (order.chargedBack) side.chargedBack = true;
	return side;
}

/** Sums of decimal strings per currency, exact (thousandths as whole numbers). */
class Totals {
	private readonly units = new Map<string, bigint>();

	add(currency: string, amount: string): void {
		this.units.set(currency, (this.units.get(currency) ?? 0n) + magnitude(amount));
	}

	toJson(): IDataObject {
		return Object.fromEntries(
			[...this.units].map(([currency, units]) => [currency, formatSignedUnits(units, currencyDigits(currency))]),
		);
	}
}
