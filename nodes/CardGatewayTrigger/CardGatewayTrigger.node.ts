import {
	NodeConnectionTypes,
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { CALLBACK_WEBHOOK, RETURN_WEBHOOK, properties, webhooks } from './description';
import { eventOf, handleCustomerReturn, handleServerCallback } from './handle';
import { maskText } from '../shared/protocol/masking';
import { OUTPUT_NAMES } from './rejected';
import { GATEWAY_CALLBACK_PORTS, effectivePort, sendFixed, type ResponseWriter } from './respond';

export class CardGatewayTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Card Gateway Trigger',
		name: 'cardGatewayTrigger',
		icon: { light: 'file:../../icons/cardGateway.svg', dark: 'file:../../icons/cardGateway.dark.svg' },
		group: ['trigger'],
		// Both versions behave the same. n8n 2.x evaluates a Webhook-v1 expression
		// (`$parameter.options.binaryData`) for every request to a version-1 start node, in its
		// expression isolate (~12 ms per callback); version 2 skips it, and n8n then leaves bodies of
		// unknown content types unparsed, which handle.ts reads raw.
		version: [1, 2],
		// Saved workflows keep this type; the node panel offers cardGatewayEventTrigger instead
		// (same behaviour, under a type name n8n does not fold into the Card Gateway entry).
		hidden: true,
		subtitle:
			'={{ $parameter["confirm"] === "off" ? "Verified callbacks" : "Verified callbacks, confirmed by status query" }}',
		description:
			'Starts the workflow when the card gateway reports a payment outcome (server callback) or a customer returns from 3-D Secure or a hosted form',
		defaults: { name: 'Card Gateway Trigger' },
		inputs: [],
		// A refused callback's item goes to the second output only, so no branch of the first runs on it.
		outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
		outputNames: OUTPUT_NAMES,
		credentials: [{ name: 'cardGatewayApi', required: true }],
		webhooks,
		properties,
	};

	// The gateway has no API to register callback URLs: the URL goes into each payment request
	// (server_callback_url / notify_url) or into the endpoint settings. So nothing is registered;
	// checkExists answers false so that create() runs on every activation and logs the URL to use.
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return false;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				const callbackUrl = this.getNodeWebhookUrl(CALLBACK_WEBHOOK);
				this.logger.info(
					`Card Gateway Trigger: give the gateway ${callbackUrl ?? '(no URL)'} as server_callback_url or notify_url; nothing is registered automatically`,
				);
				const port = effectivePort(callbackUrl);
				if (!port || !(GATEWAY_CALLBACK_PORTS as readonly string[]).includes(port)) {
					this.logger.warn(
						`Card Gateway Trigger: the callback URL uses port ${port ?? 'unknown'}; the gateway only calls ports ${GATEWAY_CALLBACK_PORTS.join(', ')}`,
					);
				}
				if (this.getNodeParameter('customerReturn', false) === true) {
					this.logger.info(
						`Card Gateway Trigger: give the gateway ${this.getNodeWebhookUrl(RETURN_WEBHOOK) ?? '(no URL)'} as redirect_url`,
					);
				}
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				this.logger.info(
					'Card Gateway Trigger: deactivated; the gateway keeps calling the old URL until it is removed from its requests',
				);
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		try {
			return eventOf(this.getWebhookName(), RETURN_WEBHOOK) === 'customerReturn'
				? await handleCustomerReturn(this)
				: await handleServerCallback(this);
		} catch (error) {
			// Nothing starts and nothing is stored; a 500 makes the gateway send the callback again later.
			this.logger.error(
				`Card Gateway Trigger: could not handle a request (HTTP 500): ${maskText(String((error as Error).message ?? error))}`,
			);
			const res = this.getResponseObject() as unknown as ResponseWriter;
			if (!res.headersSent) sendFixed(res, 500);
			return { noWebhookResponse: true };
		}
	}
}
