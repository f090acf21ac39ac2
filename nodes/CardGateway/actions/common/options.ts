import type { IDataObject, INodeProperties } from 'n8n-workflow';

export const RETRY_ON_FAIL_WARNING =
	'The node setting "Retry On Fail" must stay off for this operation (the node refuses to run with it): a blind resend can move money twice. The node already retries safely (it asks the gateway for the order status first).';

/** Items in flight at once, at most: more than any gateway contract we know of allows. */
export const MAX_CONCURRENCY = 100;

/** Which of the options below an operation offers. */
export interface OptionSet {
	/** Moves money: the AI-agent switch, Dry Run and the spending limits are shown. */
	movesMoney: boolean;
	/** Offers "Wait for Final Status". */
	waitable: boolean;
	/** The user may pick the signature scheme (payment and payout forms). */
	schemeChoice: boolean;
	/** The scheme used when the user picks none. */
	defaultScheme: string;
}

// n8n lists collection options A–Z (and lint demands it): the two settings of Wait for Final Status
// are named "Wait …" so that the three stand together.
const ALL_OPTIONS: INodeProperties[] = [
	{
		displayName: 'Allow AI Agents to Move Money',
		name: 'allowAiMoneyMovement',
		type: 'boolean',
		default: false,
		description:
			'Whether an AI agent using this node as a tool may run this money-moving operation. Off by default: an agent could be talked into paying out or refunding.',
	},
	{
		displayName: 'Concurrency',
		name: 'concurrency',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
		default: 1,
		description:
			'How many input items are sent to the gateway at the same time (read from the first item). Output order and item pairing stay as in the input.',
	},
	{
		displayName: 'Dry Run',
		name: 'dryRun',
		type: 'boolean',
		default: false,
		description:
			'Whether to rehearse instead of running: every item is checked and its request built and signed as for a real run, but nothing that moves money is sent. Each item outputs the request (masked), the order it targets, what the gateway reports about that order (a status query) and what a real run would change. Read from the first item; applies to the whole run.',
	},
	{
		displayName: 'Endpoint Group ID',
		name: 'endpointGroupId',
		type: 'string',
		default: '',
		description: "Use this multi-currency endpoint group instead of the credential's",
	},
	{
		displayName: 'Endpoint ID',
		name: 'endpointId',
		type: 'string',
		default: '',
		description: "Use this endpoint instead of the credential's (and no endpoint group unless one is set here)",
	},
	{
		displayName: 'Include Raw Reply',
		name: 'includeRawReply',
		type: 'boolean',
		default: false,
		description: 'Whether to add every field of the gateway reply under "raw" (card numbers masked)',
	},
	{
		displayName: 'Max Amount per Item',
		name: 'maxAmountPerItem',
		type: 'string',
		default: '',
		placeholder: 'e.g. 500.00 or 500 USD, 450 EUR',
		description:
			'An item that would move more than this is refused before anything is sent. A bare amount applies to every currency; with currencies listed, an item in another currency is refused. A full capture, return, void or payout pay counts the amount the gateway reports on the order. Read from the first item.',
	},
	{
		displayName: 'Max Total per Run',
		name: 'maxTotalPerRun',
		type: 'string',
		default: '',
		placeholder: 'e.g. 5000.00 or 5000 USD, 4500 EUR',
		description:
			'What this node may move in total in one workflow execution, per currency: items in flight count, and so do earlier runs of the node in the same execution (every batch of a loop). Once an item would pass it, that item and every item after it are refused before anything is sent for them. Read from the first item.',
	},
	{
		displayName: 'Signature Scheme',
		name: 'signatureScheme',
		type: 'options',
		options: [
			{ name: 'Control (SHA-1)', value: 'control' },
			{ name: 'None', value: 'none' },
			{ name: 'OAuth HMAC-SHA1', value: 'oauth-hmac-sha1' },
			{ name: 'OAuth RSA-SHA256', value: 'oauth-rsa-sha256' },
		],
		default: 'control',
		description: 'How the request is signed; the gateway documentation leaves it open for this form, so use what your gateway account expects',
	},
	{
		displayName: 'Timeout (Seconds)',
		name: 'timeoutSeconds',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 30,
		description:
			'How long to wait for each gateway reply. A lost reply of a money-moving request is never resent blindly: the node asks for the order status first. Keep "Retry On Fail" off.',
	},
	{
		displayName: 'Wait for Final Status',
		name: 'waitForFinalStatus',
		type: 'boolean',
		default: false,
		description:
			'Whether to keep asking for the order status until it is final (approved, declined, filtered, error, unknown). A 3-D Secure redirect is returned at once, with status processing.',
	},	{
		displayName: 'Wait Limit (Seconds)',
		name: 'maxWaitSeconds',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 120,
		description: 'With Wait for Final Status: how long to keep asking before returning the order as still processing',
	},	{
		displayName: 'Wait Poll Interval (Seconds)',
		name: 'pollIntervalSeconds',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 2 },
		default: 3,
		description: 'With Wait for Final Status: the first pause between status queries; later pauses grow by half each time, up to 30 seconds',
	},
];

const WAIT_OPTIONS = new Set(['waitForFinalStatus', 'maxWaitSeconds', 'pollIntervalSeconds']);
/** Offered only where money moves. */
const MONEY_OPTIONS = new Set(['allowAiMoneyMovement', 'dryRun', 'maxAmountPerItem', 'maxTotalPerRun']);

export function optionsCollection(set: OptionSet): INodeProperties {
	const options = ALL_OPTIONS.filter(
		(option) =>
			(!MONEY_OPTIONS.has(option.name) || set.movesMoney) &&
			(!WAIT_OPTIONS.has(option.name) || set.waitable) &&
			(option.name !== 'signatureScheme' || set.schemeChoice),
	).map((option) => (option.name === 'signatureScheme' ? { ...option, default: set.defaultScheme } : option));
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options,
	};
}

export const extraFields: INodeProperties = {
	displayName: 'Extra Fields',
	name: 'extraFields',
	type: 'fixedCollection',
	placeholder: 'Add Extra Field',
	typeOptions: { multipleValues: true },
	default: {},
	description:
		'Gateway fields this node has no parameter for, sent exactly as named. They are part of the request body, so OAuth signs them like every other field.',
	options: [
		{
			displayName: 'Field',
			name: 'field',
			values: [
				{
					displayName: 'Name',
					name: 'name',
					type: 'string',
					default: '',
					placeholder: 'e.g. preferred_language',
					description: 'The field name as the gateway spells it',
				},
				{
					displayName: 'Value',
					name: 'value',
					type: 'string',
					default: '',
					description: 'The value sent',
				},
			],
		},
	],
};

/** The options of one item, with defaults applied. */
export interface RunOptions {
	allowAiMoneyMovement: boolean;
	concurrency: number;
	dryRun: boolean;
	endpointId: string;
	endpointGroupId: string;
	includeRawReply: boolean;
	maxAmountPerItem: string;
	maxTotalPerRun: string;
	maxWaitSeconds: number;
	pollIntervalSeconds: number;
	signatureScheme?: string;
	timeoutSeconds: number;
	waitForFinalStatus: boolean;
}

export function runOptions(raw: IDataObject): RunOptions {
	const number = (value: unknown, fallback: number, min: number) => (typeof value === 'number' && Number.isFinite(value) && value >= min ? value : fallback);
	const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '');
	return {
		allowAiMoneyMovement: raw.allowAiMoneyMovement === true,
		concurrency: Math.min(MAX_CONCURRENCY, Math.floor(number(raw.concurrency, 1, 1))),
		dryRun: raw.dryRun === true,
		endpointId: text(raw.endpointId),
		endpointGroupId: text(raw.endpointGroupId),
		includeRawReply: raw.includeRawReply === true,
		maxAmountPerItem: text(raw.maxAmountPerItem),
		maxTotalPerRun: text(raw.maxTotalPerRun),
		maxWaitSeconds: number(raw.maxWaitSeconds, 120, 0),
		pollIntervalSeconds: number(raw.pollIntervalSeconds, 3, 0),
		signatureScheme: typeof raw.signatureScheme === 'string' ? raw.signatureScheme : undefined,
		timeoutSeconds: number(raw.timeoutSeconds, 30, 0.1),
		waitForFinalStatus: raw.waitForFinalStatus === true,
	};
}
