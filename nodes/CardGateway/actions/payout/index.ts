import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../common/operation';
import type { OperationOf } from '../node.type';

import * as check from './check.operation';
import * as pay from './pay.operation';
import * as send from './send.operation';
import * as sendV4 from './sendV4.operation';

export const operations: Record<OperationOf<'payout'>, OperationModule> = { check, pay, send, sendV4 };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['payout'] } },
		options: [
			{
				name: 'Check',
				value: 'check',
				description: 'Validate and register a payout without releasing funds (step one of two)',
				action: 'Check a payout',
			},
			{
				name: 'Pay',
				value: 'pay',
				description: 'Release a checked payout (step two of two)',
				action: 'Pay a checked payout',
			},
			{
				name: 'Send',
				value: 'send',
				description: 'Pay out to a card or bank account in one step (HMAC-signed v2 API)',
				action: 'Send a payout',
			},
			{
				name: 'Send (V4)',
				value: 'sendV4',
				description: 'Pay out to a card or bank account in one step (RSA-signed v4 API)',
				action: 'Send a payout with the v4 API',
			},
		],
		default: 'send',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
