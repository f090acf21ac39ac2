import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../common/operation';
import type { OperationOf } from '../node.type';

import * as create from './create.operation';
import * as update from './update.operation';

export const operations: Record<OperationOf<'recurringPayment'>, OperationModule> = { create, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['recurringPayment'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a subscription that charges a card on a schedule',
				action: 'Create a recurring payment',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Change the schedule, amount or card of a subscription',
				action: 'Update a recurring payment',
			},
		],
		default: 'create',
	},
	...create.description,
	...update.description,
];
