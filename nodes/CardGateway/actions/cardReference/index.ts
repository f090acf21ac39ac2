import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../common/operation';
import type { OperationOf } from '../node.type';

import * as create from './create.operation';
import * as createV4 from './createV4.operation';
import * as getInfo from './getInfo.operation';
import * as rebill from './rebill.operation';
import * as rebillPreauth from './rebillPreauth.operation';
import * as rebillSale from './rebillSale.operation';

export const operations: Record<OperationOf<'cardReference'>, OperationModule> = { create, createV4, getInfo, rebill, rebillPreauth, rebillSale };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['cardReference'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Store the card of an approved payment as a card reference for later charges',
				action: 'Create a card reference',
			},
			{
				name: 'Create (V4)',
				value: 'createV4',
				description: 'Store the card of an approved payment (RSA-signed API; also returns a recurring payment ID)',
				action: 'Create a card reference with the v4 API',
			},
			{
				name: 'Get Info',
				value: 'getInfo',
				description: 'Get the masked card number, brand and expiry behind a card reference',
				action: 'Get card reference info',
			},
			{
				name: 'Rebill',
				value: 'rebill',
				description: 'Charge a stored card without the cardholder',
				action: 'Charge a stored card',
			},
			{
				name: 'Rebill (Preauth)',
				value: 'rebillPreauth',
				description: 'Hold an amount on a stored card',
				action: 'Preauthorize a stored card',
			},
			{
				name: 'Rebill (Sale)',
				value: 'rebillSale',
				description: 'Charge a stored card (the make-rebill-sale command)',
				action: 'Charge a stored card with a rebill sale',
			},
		],
		default: 'rebill',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
