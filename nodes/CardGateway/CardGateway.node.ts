import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { toolDescriptionProperty } from './actions/common/define/toolDescription';
import { movesMoney } from './actions/common/core/facts';
import { CLAIMS_CREDENTIAL_LABEL, CLAIMS_CREDENTIAL_SHOWN } from './actions/common/guard/claimStore';
import type { Operation } from './actions/common/core/operation';
import { RESOURCES } from './actions/resources';
import { router } from './actions/router';

/**
 * One "Tool Description" per operation, shown only when the node is an AI agent's tool (n8n then
 * adds none of its own): for a money-moving operation it tells the model whether calls will be
 * refused, rehearsed or run.
 */
function toolDescriptions(): INodeProperties[] {
	return Object.entries(RESOURCES).flatMap(([resource, module]) => {
		const operations = module.operations as Record<string, Operation>;
		const selector = module.description.find((property) => property.name === 'operation');
		return ((selector?.options ?? []) as INodePropertyOptions[]).map((option) => {
			const operation = String(option.value);
			return toolDescriptionProperty(
				resource,
				operation,
				option.action ?? option.name,
				movesMoney(operations[operation].spec),
			);
		});
	});
}

export class CardGateway implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Card Gateway',
		name: 'cardGateway',
		icon: { light: 'file:../../icons/cardGateway.svg', dark: 'file:../../icons/cardGateway.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Charge cards, refund, capture and void payments, send payouts and check order status on a PaynetEasy card gateway',
		defaults: { name: 'Card Gateway' },
		// Deliberate: agents may read statuses and card info; money-moving operations refuse to run
		// as a tool unless the user turns on "Allow AI Agents to Move Money" (README, "AI agents"),
		// and their "Tool Description" tells the model so (see toolDescriptions).
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		// The claims credential is used only by the option "Act Once per Key" and shown only once it is set (claimStore.ts).
		credentials: [
			{ name: 'cardGatewayApi', required: true },
			{
				name: 'cardGatewayClaimsApi',
				displayName: CLAIMS_CREDENTIAL_LABEL,
				required: false,
				displayOptions: CLAIMS_CREDENTIAL_SHOWN,
			},
		],
		properties: [
			...toolDescriptions(),
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				// n8n's scanner requires A–Z (inline disables do not count there); the 3-D Secure uploads are
				// named so that they sort after the everyday resources instead of heading the list.
				options: [
					{ name: 'Balance', value: 'balance' },
					{ name: 'Card Reference', value: 'cardReference' },
					{ name: 'Hosted Form', value: 'hostedForm' },
					{ name: 'Payment', value: 'payment' },
					{ name: 'Payout', value: 'payout' },
					{ name: 'Recurring Payment', value: 'recurringPayment' },
					{ name: 'Transaction', value: 'transaction' },
					{ name: 'Transfer', value: 'transfer' },
					{ name: 'Upload 3-D Secure Result', value: 'threeDSecure' },
				],
				default: 'payment',
			},
			...Object.values(RESOURCES).flatMap((resource) => resource.description),
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
