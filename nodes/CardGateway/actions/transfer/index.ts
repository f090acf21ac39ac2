import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../common/operation';
import type { OperationOf } from '../node.type';

import * as checkPanEligibility from './checkPanEligibility.operation';
import * as send from './send.operation';
import * as sendByReference from './sendByReference.operation';
import * as sendByReferenceV2 from './sendByReferenceV2.operation';

export const operations: Record<OperationOf<'transfer'>, OperationModule> = { checkPanEligibility, send, sendByReference, sendByReferenceV2 };

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
			{
				name: 'Send by Reference (V2)',
				value: 'sendByReferenceV2',
				description: 'Move money between stored cards with the v2 API (SHA-1 control), as the vendor\'s PHP library does',
				action: 'Send a transfer between stored cards with the v2 API',
			},
		],
		default: 'send',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
