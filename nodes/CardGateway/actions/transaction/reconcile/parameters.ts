// Reconcile's parameters: the gateway side, the period, where each record's fields are, and which orders
// only the gateway has are reported.
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { GATEWAY_STATUSES } from '../../../../shared/protocol/statusWords';
import { createdRangeParameters, reportOptions } from '../getMany.operation';

import { ORDER_KINDS, type GatewayOrder } from './orders';

const recordField = (
	name: string,
	displayName: string,
	field: string,
	description: string,
	required = true,
): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	required,
	default: `={{ $json.${field} }}`,
	description,
});

export const RECORD_FIELDS = ['merchantOrderId', 'amount', 'currency', 'expectedStatus'];

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
			options: GATEWAY_STATUSES.map((status) => ({ name: capitalised(status), value: status })),
			default: [],
			description:
				'Report orders only the gateway has only when their own transaction has one of these statuses (none chosen: all), e.g. Approved to leave out declines',
		},
	],
};

export const parameters: INodeProperties[] = [
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
		false,
	),
	options,
];

/** Which orders only the gateway has are reported: an order whose kind or status is not known always is. */
export interface UnknownFilter {
	kinds: Set<string>;
	statuses: Set<string>;
}

export function unknownFilter(ctx: IExecuteFunctions): UnknownFilter {
	const chosen = ctx.getNodeParameter('options', 0, {}) as IDataObject;
	const set = (value: unknown) => new Set(Array.isArray(value) ? value.map(String) : []);
	return { kinds: set(chosen.unknownKinds), statuses: set(chosen.unknownStatuses) };
}

export const passes = (filter: UnknownFilter, order: GatewayOrder) =>
	(!filter.kinds.size || !order.kind || filter.kinds.has(order.kind)) &&
	(!filter.statuses.size || !order.status || filter.statuses.has(order.status));
