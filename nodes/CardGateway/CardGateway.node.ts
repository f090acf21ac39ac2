import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import * as cardReference from './actions/cardReference';
import * as hostedForm from './actions/hostedForm';
import * as payment from './actions/payment';
import * as payout from './actions/payout';
import * as recurringPayment from './actions/recurringPayment';
import { router } from './actions/router';
import * as threeDSecure from './actions/threeDSecure';
import * as transaction from './actions/transaction';
import * as transfer from './actions/transfer';

export class CardGateway implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Card Gateway',
		name: 'cardGateway',
		icon: { light: 'file:../../icons/cardGateway.svg', dark: 'file:../../icons/cardGateway.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Charge cards, refund, capture and void payments, send payouts and check order status on a PaynetEasy card gateway',
		defaults: { name: 'Card Gateway' },
		// Deliberate: agents may read statuses and card info; money-moving operations refuse to run
		// as a tool unless the user turns on "Allow AI Agents to Move Money" (README, "AI agents").
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'cardGatewayApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				// Everyday work first, not A–Z: n8n lists the actions in the node panel in this order,
				// and "3-D Secure" would otherwise head the list above Payment.
				// eslint-disable-next-line n8n-nodes-base/node-param-options-type-unsorted-items
				options: [
					{ name: 'Payment', value: 'payment' },
					{ name: 'Transaction', value: 'transaction' },
					{ name: 'Payout', value: 'payout' },
					{ name: 'Card Reference', value: 'cardReference' },
					{ name: 'Recurring Payment', value: 'recurringPayment' },
					{ name: 'Transfer', value: 'transfer' },
					{ name: 'Hosted Form', value: 'hostedForm' },
					{ name: '3-D Secure', value: 'threeDSecure' },
				],
				default: 'payment',
			},
			...cardReference.description,
			...hostedForm.description,
			...payment.description,
			...payout.description,
			...recurringPayment.description,
			...threeDSecure.description,
			...transaction.description,
			...transfer.description,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
