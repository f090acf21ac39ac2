import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../common/operation';
import type { OperationOf } from '../node.type';

import * as getStatus from './getStatus.operation';

export const operations: Record<OperationOf<'transaction'>, OperationModule> = { getStatus };

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
		],
		default: 'getStatus',
	},
	...getStatus.description,
];
