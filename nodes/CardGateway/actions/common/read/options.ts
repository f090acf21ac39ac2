import { NodeOperationError, type IDataObject, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { GatewayInputError } from '../../../../shared/protocol/errors';
import { maskText } from '../../../../shared/protocol/masking';

import { nodeOf, nodeParameter } from './parameters';
import { PLAN_ID_PATTERN, planIdHint } from './planId';

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
		displayName: 'Act Once per Key',
		name: 'actOncePerKey',
		type: 'string',
		default: '',
		placeholder: 'e.g. {{ $json.eventKey }}',
		description:
			'A key that names what this item acts on, e.g. the callback that started the workflow. The node claims the key before sending; a key claimed before (by any execution, in any n8n process) sends nothing. A key that names nothing (empty, or only separators such as "::" when the fields it reads are missing) stops the item, nothing sent. Needs the "Card Gateway Claims Store API" credential. A claim whose request moved nothing is given back.',
	},
	{
		displayName: 'Allow AI Agents to Move Money',
		name: 'allowAiMoneyMovement',
		type: 'boolean',
		default: false,
		description:
			'Whether an AI agent using this node as a tool may run this money-moving operation. Off by default: an agent could be talked into paying out or refunding.',
	},
	{
		displayName: 'Approved Plan ID',
		name: 'approvedPlanId',
		type: 'string',
		default: '',
		placeholder: 'e.g. plan-qhtzkvbeoyadmwru-…',
		description:
			'Run only the plan someone approved, once: the plan ID a dry run of the same items gave. Before anything is sent the node rebuilds the plan from the current items and the orders as the gateway reports them now; if anything differs (an item added or removed, a value sent, compared in full, or an order state changed, also by an earlier run of this plan) the whole run is refused and nothing is sent. Read from the first item.',
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
		hint: 'Per workflow execution, not per day: every execution (each trigger, schedule tick or manual run) starts again from zero',
		description:
			'What this node may move in total in one workflow execution, per currency: items in flight count, and so do earlier runs of the node in the same execution (every batch of a loop). Once an item would pass it, that item and every item after it are refused before anything is sent for them. It is not a daily or account-wide cap: the next execution may move the same total again. Read from the first item.',
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
		description:
			'How the request is signed; the gateway documentation leaves it open for this form, so use what your gateway account expects',
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
	},
	{
		displayName: 'Wait Limit (Seconds)',
		name: 'maxWaitSeconds',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 120,
		description: 'With Wait for Final Status: how long to keep asking before returning the order as still processing',
	},
	{
		displayName: 'Wait Poll Interval (Seconds)',
		name: 'pollIntervalSeconds',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 2 },
		default: 3,
		description:
			'With Wait for Final Status: the first pause between status queries; later pauses grow by half each time, up to 30 seconds',
	},
];

const WAIT_OPTIONS = new Set(['waitForFinalStatus', 'maxWaitSeconds', 'pollIntervalSeconds']);

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
	/** The key claimed before sending ("" only when the option is not set: no claim). */
	actOncePerKey: string;
	allowAiMoneyMovement: boolean;
	/** "Approved Plan ID": empty when the run is not bound to a plan. */
	approvedPlanId: string;
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
	/**
	 * Options that are set but cannot be read with certainty, one error each (naming the option):
	 * the run must stop before anything is sent. Their fields above hold the cautious reading
	 * (Dry Run on, the AI switch off, the defaults), never a guess.
	 */
	unreadable: readonly GatewayInputError[];
}

/**
 * The safety options: never from an AI model (see read/asTool.ts); all but Act Once per Key hold for the
 * whole run and are read from the first item.
 */
export const SAFETY_OPTIONS = [
	'actOncePerKey',
	'allowAiMoneyMovement',
	'approvedPlanId',
	'dryRun',
	'maxAmountPerItem',
	'maxTotalPerRun',
] as const;

/** Offered only where money moves: the safety options. */
const MONEY_OPTIONS: ReadonlySet<string> = new Set(SAFETY_OPTIONS);

/** An option's name as the user sees it. */
export function optionLabel(name: string): string {
	return ALL_OPTIONS.find((option) => option.name === name)?.displayName ?? name;
}

/** How a switch may be spelled (text trimmed, in any case); anything else cannot be read. */
interface Spellings {
	on: readonly string[];
	off: readonly string[];
	hint: string;
}

/** Dry Run, Wait for Final Status, Include Raw Reply. */
const SWITCH: Spellings = {
	on: ['true', '1', 'yes'],
	off: ['false', '0', 'no'],
	hint: 'use true or false (the text "true"/"false", "yes"/"no" or 1/0 also work)',
};
/** Allow AI Agents to Move Money: only an explicit true turns it on. */
const AI_SWITCH: Spellings = {
	on: ['true'],
	off: ['false', '0'],
	hint: 'use true or false (the text "true" or "false" also works)',
};

/** Every switch and its spellings (define/toolDescription.ts spells the safety ones into its expression from here). */
export const SWITCHES = {
	allowAiMoneyMovement: AI_SWITCH,
	dryRun: SWITCH,
	includeRawReply: SWITCH,
	waitForFinalStatus: SWITCH,
} as const satisfies Record<string, Spellings>;

/**
 * The options of one item. `raw` is what n8n resolved; `stored` the options as saved in the node
 * (expressions unresolved): an option saved in the node counts as set even when its expression
 * gave nothing at all. An option that is not set means its default; one that is set is read
 * strictly, and one that cannot be read is listed in `unreadable` (nothing here throws).
 */
export function runOptions(raw: IDataObject, stored?: IDataObject): RunOptions {
	const values: IDataObject = raw !== null && typeof raw === 'object' ? raw : {};
	const saved: IDataObject = stored !== null && typeof stored === 'object' ? stored : {};
	const unreadable: GatewayInputError[] = [];
	/** The option's value read by `reader`; its default when not set; `cautious` when it cannot be read. */
	const read = <T>(name: string, reader: Reader<T>, fallback: T, cautious: T = fallback): T => {
		if (!hasOwn(values, name) && !hasOwn(saved, name)) return fallback;
		const value = reader(optionLabel(name), values[name]);
		if (!(value instanceof GatewayInputError)) return value;
		unreadable.push(value);
		return cautious;
	};
	const flag = (name: keyof typeof SWITCHES, cautious = false) =>
		read(name, (label, value) => readSwitch(label, value, SWITCHES[name]), false, cautious);
	const number = (name: string, fallback: number, min: number) =>
		read(name, (label, value) => readNumber(label, value, min), fallback);
	const text = (name: string) => read(name, readText, '');
	const limit = (name: string) => read(name, readLimit, '');
	const scheme = read('signatureScheme', readText, '');
	return {
		actOncePerKey: read('actOncePerKey', readKey, ''),
		allowAiMoneyMovement: flag('allowAiMoneyMovement'),
		approvedPlanId: read('approvedPlanId', readPlanId, ''),
		concurrency: Math.min(MAX_CONCURRENCY, Math.floor(number('concurrency', 1, 1))),
		// a Dry Run that cannot be read rehearses, should anything ignore `unreadable`
		dryRun: flag('dryRun', true),
		endpointId: text('endpointId'),
		endpointGroupId: text('endpointGroupId'),
		includeRawReply: flag('includeRawReply'),
		maxAmountPerItem: limit('maxAmountPerItem'),
		maxTotalPerRun: limit('maxTotalPerRun'),
		maxWaitSeconds: number('maxWaitSeconds', 120, 0),
		pollIntervalSeconds: number('pollIntervalSeconds', 3, 0),
		signatureScheme: scheme || undefined,
		timeoutSeconds: number('timeoutSeconds', 30, 0.1),
		waitForFinalStatus: flag('waitForFinalStatus'),
		unreadable,
	};
}

/**
 * The options of one item as `runOptions` reads them, from n8n (resolved) and from the saved node.
 * Throws, naming the option, when one cannot be read.
 */
export function itemOptions(ctx: IExecuteFunctions, itemIndex: number): RunOptions {
	const options = runOptions(nodeParameter(ctx, 'options', itemIndex, {}) as IDataObject, storedOptions(ctx));
	refuseUnreadable(ctx, options, itemIndex);
	return options;
}

/** The options as saved in the node: expressions unresolved, nothing filled in. */
export function storedOptions(ctx: IExecuteFunctions): IDataObject {
	const stored = nodeOf(ctx).parameters.options;
	return stored !== null && typeof stored === 'object' && !Array.isArray(stored) ? (stored as IDataObject) : {};
}

/** Stops the item, before anything is sent, when one of its options cannot be read. */
export function refuseUnreadable(ctx: IExecuteFunctions, options: RunOptions, itemIndex: number): void {
	const [first] = options.unreadable;
	if (!first) return;
	const others = options.unreadable.slice(1).map((error) => `"${error.field}"`);
	throw new NodeOperationError(ctx.getNode(), `${first.message}; nothing was sent`, {
		itemIndex,
		description: [
			`An option that is set is read strictly: a value that cannot be read with certainty stops the run before anything is sent. Set "${first.field}" to a value named above, or remove it from Options.`,
			others.length ? `Also unreadable: ${others.join(', ')}.` : '',
		]
			.filter(Boolean)
			.join(' '),
	});
}

/** Reads an option that is set: its value, or why it cannot be read. */
type Reader<T> = (label: string, value: unknown) => T | GatewayInputError;

function hasOwn(object: IDataObject, key: string): boolean {
	return Object.prototype.hasOwnProperty.call(object, key);
}

/** A switch: a boolean, 1/0, or text spelling one of `spellings`. */
function readSwitch(label: string, value: unknown, spellings: Spellings): boolean | GatewayInputError {
	const word =
		typeof value === 'boolean' || typeof value === 'number'
			? String(value)
			: typeof value === 'string'
				? value.trim().toLowerCase()
				: undefined;
	if (word !== undefined && spellings.on.includes(word)) return true;
	if (word !== undefined && spellings.off.includes(word)) return false;
	return unreadableValue(label, value, spellings.hint);
}

const DECIMAL = /^\+?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** A number, or text holding one (n8n hands over what an expression gave, unconverted). */
function readNumber(label: string, value: unknown, min: number): number | GatewayInputError {
	const number =
		typeof value === 'number'
			? value
			: typeof value === 'string' && DECIMAL.test(value.trim())
				? Number(value.trim())
				: NaN;
	if (!Number.isFinite(number)) return unreadableValue(label, value, 'use a number');
	if (number < min) return unreadableValue(label, value, `use a number of at least ${min}`);
	return number;
}

/** Text (a number counts as its digits); nothing at all is empty. */
function readText(label: string, value: unknown): string | GatewayInputError {
	if (value === undefined || value === null) return '';
	if (typeof value === 'string' || typeof value === 'number') return String(value).trim();
	return unreadableValue(label, value, 'use text');
}

/** What makes a key name something: a letter or a digit, in any script. */
const NAMES_SOMETHING = /[\p{L}\p{N}]/u;

/**
 * Act Once per Key that is set: text (a number counts as its digits) with a letter or digit in it. An
 * empty key would turn the guard off unseen, and one of separators only (":" or "::" from a template
 * whose fields the item lacks) would be one key for every item: both are refused.
 */
function readKey(label: string, value: unknown): string | GatewayInputError {
	const key =
		typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))
			? String(value).trim()
			: undefined;
	if (key !== undefined && NAMES_SOMETHING.test(key)) return key;
	return unreadableValue(
		label,
		value,
		'a key needs a letter or digit: check that every field its expression reads exists on the item (names are case-sensitive), or remove the option',
	);
}

/**
 * A plan ID as a dry run gives it (read/planId.ts: letters, any case). Set but empty is refused too: an
 * approval step that lost its plan ID must not turn into a run bound to nothing.
 */
function readPlanId(label: string, value: unknown): string | GatewayInputError {
	const id = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
	if (id !== undefined && PLAN_ID_PATTERN.test(id)) return id;
	return unreadableValue(label, value, planIdHint(id));
}

/** A spending limit that is set: text such as "500.00" or "500 USD, 450 EUR", or a positive number. */
function readLimit(label: string, value: unknown): string | GatewayInputError {
	if (typeof value === 'number' && Number.isFinite(value) && value > 0) return String(value);
	if (typeof value === 'string' && value.trim()) return value.trim();
	return unreadableValue(label, value, 'set a limit such as 500.00 or "500 USD, 450 EUR", or remove the option');
}

const SHOWN_CHARS = 40;

function unreadableValue(label: string, value: unknown, hint: string): GatewayInputError {
	return new GatewayInputError(label, `"${label}" cannot be read: it is ${describeValue(value)}; ${hint}`);
}

/** What a value is, short, with card numbers masked: option values may come from any item data. */
export function describeValue(value: unknown): string {
	if (value === undefined) return 'nothing (undefined)';
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'string') {
		if (!value.trim()) return 'an empty text';
		const masked = maskText(value);
		return `the text ${JSON.stringify(masked.length > SHOWN_CHARS ? `${masked.slice(0, SHOWN_CHARS)}…` : masked)}`;
	}
	if (typeof value === 'number') return maskText(String(value));
	if (typeof value === 'boolean') return String(value);
	return `a ${typeof value}`;
}
