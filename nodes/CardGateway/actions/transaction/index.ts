import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../common/operation';
import type { OperationOf } from '../node.type';

import * as getStatus from './getStatus.operation';
import * as getStatusV4 from './getStatusV4.operation';

export const operations: Record<OperationOf<'transaction'>, OperationModule> = { getStatus, getStatusV4 };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['transaction'] } },
		options: [
			{
				name: 'Get Status',
				value: 'getStatus',
				description: 'Get the current status of an order: final or not, 3-D Secure data, amounts',
				action: 'Get the status of a transaction',
			},
			{
				name: 'Get Status (V4)',
				value: 'getStatusV4',
				description: 'Get the status of an order with the v4 API (RSA-signed, JSON), as hosted-fields integrations do',
				action: 'Get the status of a transaction with the v4 API',
			},
		],
		default: 'getStatus',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
