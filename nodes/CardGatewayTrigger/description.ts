import type { INodeProperties, IWebhookDescription } from 'n8n-workflow';

import { DEFAULT_CONFIRM_TIMEOUT_SECONDS, MAX_CONFIRM_TIMEOUT_SECONDS } from './confirm';
import { STATUS_OPTIONS, TRANSACTION_TYPE_OPTIONS } from './filters';
import { REJECTED_CALLBACKS } from './rejected';
import { FIXED_BODIES } from './respond';

/** Path (after …/webhook/<id>/) that the gateway's server callbacks call. */
export const CALLBACK_PATH = 'callback';
/** Path the customer's browser is sent back to after 3-D Secure or a hosted form. */
export const RETURN_PATH = 'return';

/**
 * n8n names webhooks `default` or `setup` only. `default` serves the server callbacks; `setup`
 * serves the customer return (nothing about it is a setup step: the name is just the other slot).
 */
export const CALLBACK_WEBHOOK = 'default';
export const RETURN_WEBHOOK = 'setup';

/** Answer the Gateway: when the callback is received (today's behaviour) or after the workflow finished. */
export const ANSWER_GATEWAY = { whenReceived: 'whenReceived', afterWorkflowFinished: 'afterWorkflowFinished' } as const;

/**
 * n8n 2.41 reads a webhook description's fields through a resolver of its own when the description
 * declares one under this registry symbol and the node's parameters hold no expression; otherwise
 * it evaluates the template in an expression isolate (under lazy isolates, one built for it on every
 * request). Older n8n ignores the symbol and evaluates the template: same answer.
 */
const WEBHOOK_RESOLVERS = Symbol.for('n8n.webhookDescriptionResolvers');

/** A description field that depends on Answer the Gateway: its template and the resolver that gives the same value. */
function byAnswerGateway(whenReceived: string, afterWorkflowFinished: string) {
	const after = ANSWER_GATEWAY.afterWorkflowFinished;
	return {
		template: `={{ $parameter["answerGateway"] === ${JSON.stringify(after)} ? ${JSON.stringify(afterWorkflowFinished)} : ${JSON.stringify(whenReceived)} }}`,
		resolve: (parameters: Record<string, unknown>) =>
			parameters.answerGateway === after ? afterWorkflowFinished : whenReceived,
	};
}

// When received: n8n answers `OK` once it has stored the execution (responseData must be set, or n8n
// answers the literal text "firstEntryJson"). After the workflow finished ('lastNode'): n8n answers
// when the execution ended, 200 with an empty body ('noData', never the last node's items), or 500
// when it failed or its worker died, so the gateway resends.
const responseFields = {
	responseMode: byAnswerGateway('onReceived', 'lastNode'),
	responseData: byAnswerGateway(FIXED_BODIES[200], 'noData'),
};
const callback = {
	path: CALLBACK_PATH,
	isFullPath: false,
	responseMode: responseFields.responseMode.template,
	responseData: responseFields.responseData.template,
	[WEBHOOK_RESOLVERS]: responseFields,
};
// The customer return writes every answer itself, hence 'noData'.
const customerReturn = {
	path: RETURN_PATH,
	responseMode: 'onReceived',
	responseData: 'noData',
	isFullPath: false,
} as const;

// The panel's "Webhook URLs" list shows each URL once, without the method (the gateway may use
// GET or POST on the same URL), and the /return URL only while Handle Customer Return is on.
const RETURN_OFF = '={{ !$parameter["customerReturn"] }}';
export const webhooks: IWebhookDescription[] = [
	{ name: CALLBACK_WEBHOOK, httpMethod: 'GET', ...callback, ndvHideMethod: true },
	{ name: CALLBACK_WEBHOOK, httpMethod: 'POST', ...callback, ndvHideUrl: true },
	{ name: RETURN_WEBHOOK, httpMethod: 'POST', ...customerReturn, ndvHideUrl: true },
	{ name: RETURN_WEBHOOK, httpMethod: 'GET', ...customerReturn, ndvHideMethod: true, ndvHideUrl: RETURN_OFF },
];

/** Where the URLs are, in words every notice uses: the panel lists them collapsed, and n8n cannot open that list by itself. */
const URL_SHAPE = (path: string) =>
	`the Production URL ending in <b>/${path}</b> (<code>https://&lt;your n8n address&gt;/webhook/&lt;this trigger's ID&gt;/${path}</code>), listed ready to copy under "Webhook URLs" at the top of this panel (click the heading to open the list)`;

export const properties: INodeProperties[] = [
	{
		displayName: `URL to give the gateway: ${URL_SHAPE(CALLBACK_PATH)}. Send it as <code>server_callback_url</code> in each payment request, or as <code>notify_url</code> to also hear about later reversals and chargebacks. The gateway only calls ports 80, 443, 8080 and 8443, so n8n must be reachable on one of them. Nothing is registered at the gateway automatically.`,
		name: 'callbackUrlNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Verify Signature',
		name: 'verifySignature',
		type: 'boolean',
		default: true,
		description:
			'Whether to refuse (HTTP 403) any callback whose control signature does not match the merchant control key of the credential. A refused callback comes out of the Rejected output (see Rejected Callbacks), never the Accepted one. Warning: turning this off lets anyone who knows the URL start the workflow with made-up payment results.',
	},
	{
		displayName: 'Rejected Callbacks',
		name: 'rejectedCallbacks',
		type: 'options',
		default: 'startExecution',
		options: [
			{
				name: 'Start an Execution on the Rejected Output',
				value: REJECTED_CALLBACKS.startExecution,
				description:
					'Answer 403 and start an execution with one item on the Rejected output saying why (nothing on Accepted). It shows here while listening for a test event and in the Executions list; connect an alert to it.',
			},
			{
				name: 'Only Answer 403 and Log',
				value: REJECTED_CALLBACKS.logOnly,
				description:
					"Answer 403 and write a warning to n8n's log; nothing is stored. For a URL that gets a flood of forged requests.",
			},
		],
		description:
			"What a callback refused for its signature does besides the 403. A genuine callback refused with reason signatureMismatch means this trigger's credential is not the one the gateway signs with.",
		displayOptions: { show: { verifySignature: [true] } },
	},
	{
		displayName:
			'Signature verification is off: anyone who knows this URL can start the workflow with a made-up status or amount. Use this only while debugging.',
		name: 'verificationOffNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { verifySignature: [false] } },
	},
	{
		displayName: 'Statuses',
		name: 'statuses',
		type: 'multiOptions',
		options: STATUS_OPTIONS,
		default: [],
		description:
			'Only these statuses start the workflow; leave empty for all. Other callbacks are still acknowledged so the gateway does not resend them.',
	},
	{
		displayName: 'Transaction Types',
		name: 'transactionTypes',
		type: 'multiOptions',
		options: TRANSACTION_TYPE_OPTIONS,
		default: [],
		description:
			'Only these transaction types start the workflow; leave empty (or choose Any) for all. Other callbacks are still acknowledged. Customer returns carry no type and are not filtered by it.',
	},
	{
		displayName:
			'The gateway signs only the status, the order ID and the merchant order ID. A callback whose <b>amount</b>, currency or type was altered still passes the signature check. If this workflow acts on amounts (fulfils orders, books payments), set Confirm With Status Query below.',
		name: 'amountNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Confirm With Status Query',
		name: 'confirm',
		type: 'options',
		default: 'off',
		options: [
			{
				name: 'Off',
				value: 'off',
				description: 'Trust the signed callback as it is; amount and type are not checked',
			},
			{
				name: 'Emit Only When Confirmed (Recommended When Acting on Amounts)',
				value: 'emitOnlyWhenConfirmed',
				description:
					'Ask the gateway for the order status; start the workflow only when it agrees with the callback (status, type, amount) and the callback is about the order’s latest transaction',
			},
			{
				name: 'Emit With Confirmed Flag',
				value: 'emitWithConfirmedFlag',
				description: 'Ask the gateway for the order status and always start the workflow, with confirmed true or false',
			},
		],
		description:
			'Whether to check each verified callback against a signed status query before starting the workflow. If the gateway cannot be asked (unreachable, timeout, server error, order still processing), the callback is answered 503 and nothing starts: the gateway sends it again later.',
	},
	{
		displayName:
			'Every transaction type can be confirmed, refunds included. For a <b>follow-up</b> (capture, void, hold released, refund, chargeback) the status query attests status and type but not the follow-up’s own amount: the gateway reports what remains of the order. A confirmed follow-up therefore carries no <code>amount</code> (it stays in <code>raw</code>); <code>confirmation.amount</code> is what remains. A callback about an earlier transaction of an order that has moved on is not confirmed.',
		name: 'confirmScopeNotice',
		type: 'notice',
		default: '',
		displayOptions: { hide: { confirm: ['off'] } },
	},
	{
		displayName: 'Confirmation Timeout (Seconds)',
		name: 'confirmTimeout',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_CONFIRM_TIMEOUT_SECONDS },
		default: DEFAULT_CONFIRM_TIMEOUT_SECONDS,
		description:
			'How long to wait for the status query. The callback is answered only after it, so keep this short; on timeout the gateway is asked to retry.',
		displayOptions: { hide: { confirm: ['off'] } },
	},
	{
		displayName: 'Answer the Gateway',
		name: 'answerGateway',
		type: 'options',
		default: 'whenReceived',
		options: [
			{
				name: 'When Received',
				value: ANSWER_GATEWAY.whenReceived,
				description:
					'Answer 200 as soon as n8n has stored the execution. Fast; an execution lost afterwards (e.g. a queue-mode worker killed mid-run) is not resent by the gateway.',
			},
			{
				name: 'After the Workflow Finished',
				value: ANSWER_GATEWAY.afterWorkflowFinished,
				description:
					'Answer 200 (empty body) only when the workflow finished, or 500 when it failed or its worker died, so the gateway resends the callback. Holds one connection per callback while the workflow runs. Warning: a resend runs the whole workflow again. Without Act Once per Key (keyed on the item’s eventKey) on the node that moves money, a later node failing makes the gateway resend and the refund, capture or payout run again.',
			},
		],
		description:
			'When the gateway is told the callback arrived. Refused, filtered and unconfirmed callbacks are always answered at once. The gateway’s own time limit for an answer is not published: a slow workflow may turn into resends.',
	},
	{
		displayName: 'Handle Customer Return',
		name: 'customerReturn',
		type: 'boolean',
		default: false,
		description:
			'Whether to also receive the customer’s browser after 3-D Secure or a hosted payment form (the URL ending in /return, given as redirect_url), redirect it to your success or failure page and start the workflow',
	},
	{
		displayName: `Customer return URL: ${URL_SHAPE(RETURN_PATH)}. Send it as <code>redirect_url</code>. The browser is sent to the success page only when the signed status is approved; forged or unreadable returns go to the failure page and start nothing. Treat the server callback, not the return, as the final word on a payment.`,
		name: 'returnNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { customerReturn: [true] } },
	},
	{
		displayName: 'Success URL',
		name: 'successUrl',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. https://shop.example.com/thank-you',
		description: 'Where the customer’s browser goes when the signed status is approved',
		displayOptions: { show: { customerReturn: [true] } },
	},
	{
		displayName: 'Failure URL',
		name: 'failureUrl',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. https://shop.example.com/payment-failed',
		description:
			'Where the customer’s browser goes for any other status, and for a return that fails the signature check',
		displayOptions: { show: { customerReturn: [true] } },
	},
];
