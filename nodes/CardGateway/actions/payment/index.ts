import type { INodeProperties } from 'n8n-workflow';

import type { OperationModule } from '../common/operation';
import type { OperationOf } from '../node.type';

import * as capture from './capture.operation';
import * as preauth from './preauth.operation';
import * as returnPayment from './return.operation';
import * as sale from './sale.operation';
import * as saleWithToken from './saleWithToken.operation';
import * as verifyAccount from './verifyAccount.operation';
import * as verifyAccountSync from './verifyAccountSync.operation';
import * as voidPayment from './void.operation';

export const operations: Record<OperationOf<'payment'>, OperationModule> = {
	capture,
	preauth,
	return: returnPayment,
	sale,
	saleWithToken,
	verifyAccount,
	verifyAccountSync,
	void: voidPayment,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['payment'] } },
		options: [
			{
				name: 'Capture',
				value: 'capture',
				description: 'Settle a preauthorized amount, in full or in part',
				action: 'Capture a preauthorized payment',
			},
			{
				name: 'Preauth',
				value: 'preauth',
				description: 'Hold an amount on a card until it is captured or voided',
				action: 'Preauthorize a card payment',
			},
			{
				name: 'Return',
				value: 'return',
				description: 'Refund a sale or capture (in full or in part), or cancel a preauth',
				action: 'Return a payment',
			},
			{
				name: 'Sale',
				value: 'sale',
				description: 'Charge a card in one step',
				action: 'Charge a card',
			},
			{
				name: 'Sale with Hosted Fields Token (V4)',
				value: 'saleWithToken',
				description: "Charge the card the payer typed into the gateway's hosted fields, by its payment ticket (card data never touches n8n)",
				action: 'Charge a card by hosted fields token',
			},
			{
				name: 'Verify Account',
				value: 'verifyAccount',
				description: 'Check with a zero-amount authorization that a card is in good standing',
				action: 'Verify a card account',
			},
			{
				name: 'Verify Account (Synchronous)',
				value: 'verifyAccountSync',
				description: 'Verify a card and get the final result (and a card reference) in the same call',
				action: 'Verify a card account synchronously',
			},
			{
				name: 'Void',
				value: 'void',
				description: 'Cancel an approved payment that is not settled yet (full amount only)',
				action: 'Void a payment',
			},
		],
		default: 'sale',
	},
	...Object.values(operations).flatMap((operation) => operation.description),
];
