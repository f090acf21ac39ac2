import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../common/operation';
import type { OperationOf } from '../node.type';

import * as payment from './payment.operation';
import * as payout from './payout.operation';
import * as preauth from './preauth.operation';
import * as sale from './sale.operation';
import * as transfer from './transfer.operation';
import * as verifyAccount from './verifyAccount.operation';

export const operations: Record<OperationOf<'hostedForm'>, OperationModule> = { payment, payout, preauth, sale, transfer, verifyAccount };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['hostedForm'] } },
		options: [
			{
				name: 'Payment',
				value: 'payment',
				description: 'Get a hosted payment page where the customer picks how to pay',
				action: 'Create a hosted payment form',
			},
			{
				name: 'Payout',
				value: 'payout',
				description: 'Get a hosted page where the recipient enters the card that receives a payout',
				action: 'Create a hosted payout form',
			},
			{
				name: 'Preauth',
				value: 'preauth',
				description: 'Get a hosted card page that holds an amount',
				action: 'Create a hosted preauth form',
			},
			{
				name: 'Sale',
				value: 'sale',
				description: 'Get a hosted card page that charges the customer; the card data never touches n8n',
				action: 'Create a hosted sale form',
			},
			{
				name: 'Transfer',
				value: 'transfer',
				description: 'Get a hosted page where the payer sends money from their card',
				action: 'Create a hosted transfer form',
			},
			{
				name: 'Verify Account',
				value: 'verifyAccount',
				description: 'Get a hosted card page that verifies a card with a zero-amount authorization',
				action: 'Create a hosted account verification form',
			},
		],
		default: 'sale',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
