import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../common/operation';
import type { OperationOf } from '../node.type';

import * as checkPanEligibility from './checkPanEligibility.operation';
import * as send from './send.operation';
import * as sendByReference from './sendByReference.operation';

export const operations: Record<OperationOf<'transfer'>, OperationModule> = { checkPanEligibility, send, sendByReference };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['transfer'] } },
		options: [
			{
				name: 'Check PAN Eligibility',
				value: 'checkPanEligibility',
				description: 'Ask whether a card may send transfers (no money moves)',
				action: 'Check whether a card can send transfers',
			},
			{
				name: 'Send',
				value: 'send',
				description: 'Move money from one card to another',
				action: 'Send a transfer between cards',
			},
			{
				name: 'Send by Reference',
				value: 'sendByReference',
				description: 'Move money between stored cards (card references)',
				action: 'Send a transfer between stored cards',
			},
		],
		default: 'send',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
