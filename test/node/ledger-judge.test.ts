// "Money truth by construction" (issue 22): the sandbox's ledger judges what the node says, for
// every operation. The operations are read from the node's own description (the resource options and
// each resource's operation options); each one must have a fixture (test/support/operation-fixtures.ts),
// so that a new operation cannot be left out. Every money-moving operation runs under every fault of
// its own request (sandbox faults and a lying network), with and without Wait for Final Status, under
// typed and generated order IDs, replayed, in a dry run and under spending limits; the node's outputs
// and errors are then held against the ledger entries that appeared during the run. Operations that
// move no money run once under a lost reply: they must say so, and the ledger must not change.
// Each case has a sandbox of its own, so faults never cross cases and cases run concurrently.
import type { IDataObject, INodeParameters, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { CardGateway } from '../../nodes/CardGateway/CardGateway.node';
import { moneyFactsOf, movesMoney } from '../../nodes/CardGateway/actions/common/core/facts';
import type { Operation as NodeOperation, OperationSpec } from '../../nodes/CardGateway/actions/common/core/operation';
import { RESOURCES } from '../../nodes/CardGateway/actions/resources';
import { OPERATIONS } from '../../nodes/shared/protocol/catalogue';
import { FIXTURES, type Fixture, type Prepared } from '../support/operation-fixtures';

import { Sandbox, runNode, type LedgerEntry, type NodeRun, type SandboxRequest } from '../support/harness';

const { startHostileGateway } = require('../support/hostile-gateway') as {
	startHostileGateway(
		url: string,
		plan?: (request: { op: string | null }) => { forward?: boolean; answer?: string } | undefined,
	): Promise<{ url: string; log: Array<{ op: string | null; answer: string }>; close(): Promise<void> }>;
};

// ---------------------------------------------------------------------------------------------
// The operations, from the node's description. The resource modules only give each operation's
// spec (what it does to money); which operations exist is the description's word.

const MODULES: Record<string, { operations: Record<string, NodeOperation> }> = RESOURCES;

const { properties } = new CardGateway().description;

/** The parameters the node shows for one resource/operation. */
const shown = (resource: string, operation: string): INodeProperties[] =>
	properties.filter((p) => {
		const show = p.displayOptions?.show;
		return show?.resource?.includes(resource) && (p.name === 'operation' || show.operation?.includes(operation));
	});

const DESCRIBED: Array<{ resource: string; operation: string }> = (
	(properties.find((p) => p.name === 'resource')?.options ?? []) as INodePropertyOptions[]
).flatMap((option) => {
	const resource = String(option.value);
	return properties
		.filter((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource))
		.flatMap((selector) =>
			(selector.options as INodePropertyOptions[]).map((choice) => ({ resource, operation: String(choice.value) })),
		);
});

interface Operation {
	key: string;
	spec: OperationSpec;
	fixture: Fixture;
	moves: boolean;
	followUp: boolean;
	/** Creates an order under a merchant order ID that may be left empty (generated). */
	newOrder: boolean;
	/** Creates an order the gateway finalises itself (a stay-processing fault can hold it). */
	createsOrder: boolean;
	waitable: boolean;
	hasStatusQuery: boolean;
	/** The command as the sandbox names it (fault scope) and its path, e.g. "v2/sale". */
	command: string;
	/** The command as the hostile network sees it in the URL, e.g. "sale". */
	wireOp: string;
}

const MISSING: string[] = [];
const OPERATIONS_UNDER_TEST: Operation[] = DESCRIBED.flatMap(({ resource, operation }) => {
	const key = `${resource}.${operation}`;
	const spec = MODULES[resource]?.operations[operation]?.spec;
	const fixture = FIXTURES[key];
	if (!spec || !fixture) {
		MISSING.push(`${key}${spec ? '' : ' (no spec in the resource modules)'}${fixture ? '' : ' (no fixture)'}`);
		return [];
	}
	const facts = moneyFactsOf(spec);
	const fields = [...(spec.required ?? []), ...(spec.main ?? [])];
	const options = (shown(resource, operation).find((p) => p.name === 'options')?.options ?? []) as INodeProperties[];
	const command = OPERATIONS[spec.gateway].path.replace(/^\/api\//, '');
	return [
		{
			key,
			spec,
			fixture,
			moves: movesMoney(spec),
			followUp: facts.followUp,
			newOrder: fields.some((field) => field.merchantOrderId === 'new'),
			createsOrder: !facts.followUp && !facts.movesLater && !!OPERATIONS[spec.gateway].statusQuery,
			waitable: options.some((option) => option.name === 'waitForFinalStatus'),
			hasStatusQuery: !!OPERATIONS[spec.gateway].statusQuery,
			command,
			wireOp: command.replace(/^(v\d|3ds\/v1)\//, ''),
		},
	];
});

// ---------------------------------------------------------------------------------------------
// Faults on the operation's own request.

const SANDBOX_FAULTS = ['apply-then-drop', 'reset', 'http500', 'timeout', 'stay-processing'] as const;

/**
 * Every fault, with the options it runs under: Wait for Final Status off and on ('both') or only one
 * of them, and a typed order ID, or a typed and a generated one ('both'; a typed ID is checked at the
 * gateway before anything moves, a generated one is not). Lies of the network are answers to the
 * operation's own request after it was forwarded (applied), unless "dropped".
 */
const FAULT_MATRIX = {
	none: { waits: 'both', ids: 'both' },
	'apply-then-drop': { waits: 'both', ids: 'both' },
	reset: { waits: 'both', ids: 'both' },
	http500: { waits: 'both', ids: 'typed' },
	timeout: { waits: 'both', ids: 'both' },
	'stay-processing': { waits: 'both', ids: 'both' },
	html200: { waits: 'both', ids: 'both' },
	empty200: { waits: 'off', ids: 'typed' },
	truncated200: { waits: 'off', ids: 'typed' },
	redirect307: { waits: 'off', ids: 'both' },
	otherOrder: { waits: 'both', ids: 'both' },
	forbidden403: { waits: 'both', ids: 'typed' },
	// Not forwarded: the gateway never saw the request, the network answers anyway.
	'dropped+html200': { waits: 'off', ids: 'typed' },
	'dropped+forbidden403': { waits: 'off', ids: 'both' },
	// Answered "accepted" without being forwarded: nothing booked.
	acceptedUnbooked: { waits: 'both', ids: 'both' },
	// Status replies without transaction type and by-request-sn (a white label): alone (asked while waiting) and after a lost reply.
	untypedStatus: { waits: 'on', ids: 'both' },
	'apply-then-drop+untypedStatus': { waits: 'both', ids: 'both' },
} as const satisfies Record<string, { waits: 'both' | 'on' | 'off'; ids: 'both' | 'typed' }>;
type Fault = keyof typeof FAULT_MATRIX;
const FAULTS = Object.keys(FAULT_MATRIX) as Fault[];
/** Run against a slow gateway too. */
const SLOW_FAULTS: readonly Fault[] = [
	'none',
	'apply-then-drop',
	'acceptedUnbooked',
	'untypedStatus',
	'apply-then-drop+untypedStatus',
];

const relevant = (op: Operation, fault: Fault): boolean => {
	if (fault === 'stay-processing') return op.createsOrder;
	if (fault.includes('untypedStatus')) return op.hasStatusQuery;
	return true;
};

const TIMEOUT_SECONDS = 1;
/** 12 digits, Luhn-valid: an order number, not a card number. */
const NUMERIC_ORDER_ID = '202406150013';
const WAIT = { waitForFinalStatus: true, pollIntervalSeconds: 0.1, maxWaitSeconds: 2 };

interface Armed {
	credentials?: IDataObject;
	/** Whether the fault touched the operation's own request (undefined: nothing to touch). */
	hit(): Promise<boolean | undefined>;
	close(): Promise<void>;
}

async function arm(sb: Sandbox, op: Operation, fault: Fault): Promise<Armed> {
	const sandboxKind =
		fault === 'apply-then-drop+untypedStatus'
			? 'apply-then-drop'
			: (SANDBOX_FAULTS as readonly string[]).includes(fault)
				? fault
				: undefined;
	let faultId: string | undefined;
	if (sandboxKind) {
		const added = await sb.fault({
			kind: sandboxKind,
			op: op.command,
			count: 1,
			...(sandboxKind === 'timeout' ? { latencyMs: TIMEOUT_SECONDS * 1000 + 600 } : {}),
		});
		faultId = (added.faults as Array<{ id: string }>)[0].id;
	}
	const sandboxHit = async () => {
		if (!faultId) return undefined;
		const { faults } = await sb.admin<{ faults: Array<{ id: string; used: number }> }>('GET', 'faults');
		return (faults.find((candidate) => candidate.id === faultId)?.used ?? 0) > 0;
	};
	if (fault === 'none' || fault === sandboxKind) return { hit: sandboxHit, close: async () => {} };

	let tampered = 0;
	const proxy = await startHostileGateway(sb.url, (request) => {
		if (fault.endsWith('untypedStatus')) {
			if (request.op !== 'status') return undefined;
			tampered++;
			return { forward: true, answer: 'untypedStatus' };
		}
		if (request.op !== op.wireOp || tampered) return undefined;
		tampered++;
		if (fault === 'acceptedUnbooked') return { forward: false, answer: fault };
		if (fault.startsWith('dropped+')) return { forward: false, answer: fault.slice('dropped+'.length) };
		return { forward: true, answer: fault };
	});
	return {
		credentials: { baseUrl: `${proxy.url}/paynet` },
		async hit() {
			const own = sandboxKind ? await sandboxHit() : undefined;
			if (fault.endsWith('untypedStatus')) return own;
			return tampered > 0;
		},
		close: () => proxy.close(),
	};
}

// ---------------------------------------------------------------------------------------------
// Cases.

type Mode =
	| 'plain'
	| 'variant'
	| 'dryRun'
	| 'limitPerItemBelow'
	| 'limitPerRunBelow'
	| 'limitsAbove'
	| 'replay'
	| 'continueOnFail'
	| 'noMoney'
	| 'numericOrderId'
	/** A dry run gives the plan ID; the real run is bound to it, nothing changed in between (issue 26). */
	| 'planBound'
	/** A dry run gives the plan ID; the real run is bound to another plan than its own: refused, nothing sent. */
	| 'planChanged';

interface Case {
	index: number;
	op: Operation;
	mode: Mode;
	fault: Fault;
	wait: boolean;
	/** A typed order ID, one the node generates, or a typed one of digits only that reads like a card number. */
	idKind: 'typed' | 'generated' | 'numeric';
	/** A gateway that answers "processing" to the first status query of an order (pollsBeforeFinal 1). */
	slow: boolean;
	variant?: string;
	name: string;
}

function buildCases(): Case[] {
	const cases: Case[] = [];
	const add = (
		op: Operation,
		mode: Mode,
		fault: Fault,
		wait: boolean,
		idKind: Case['idKind'],
		variant?: string,
		slow = false,
	) => {
		const name = [op.key, mode, fault, wait ? 'wait' : 'no wait', `${idKind} ID`, slow && 'slow gateway', variant]
			.filter(Boolean)
			.join(' | ');
		cases.push({ index: cases.length, op, mode, fault, wait, idKind, slow, variant, name });
	};
	for (const op of OPERATIONS_UNDER_TEST) {
		if (!op.moves) {
			add(op, 'noMoney', 'apply-then-drop', false, 'typed');
			continue;
		}
		const waitsOf = (waits: 'both' | 'on' | 'off') =>
			!op.waitable ? [false] : waits === 'both' ? [false, true] : [waits === 'on'];
		const idsOf = (ids: 'both' | 'typed'): Array<Case['idKind']> =>
			op.newOrder && ids === 'both' ? ['typed', 'generated'] : ['typed'];
		for (const fault of FAULTS.filter((candidate) => relevant(op, candidate))) {
			for (const wait of waitsOf(FAULT_MATRIX[fault].waits))
				for (const idKind of idsOf(FAULT_MATRIX[fault].ids)) add(op, 'plain', fault, wait, idKind);
		}
		for (const variant of op.fixture.variants ?? []) {
			for (const [fault, waits] of [
				['none', 'both'],
				['apply-then-drop', 'both'],
				['acceptedUnbooked', 'on'],
				['untypedStatus', 'on'],
			] as const) {
				if (relevant(op, fault)) for (const wait of waitsOf(waits)) add(op, 'variant', fault, wait, 'typed', variant);
			}
			for (const fault of ['none', 'apply-then-drop'] as const)
				for (const wait of waitsOf('on')) add(op, 'replay', fault, wait, 'typed', variant);
		}
		// A dry run with a lost reply armed on the operation's own request: it must never be sent.
		for (const idKind of idsOf('both')) add(op, 'dryRun', 'apply-then-drop', op.waitable, idKind);
		add(op, 'limitPerItemBelow', 'apply-then-drop', false, 'typed');
		add(op, 'limitPerRunBelow', 'apply-then-drop', false, 'typed');
		for (const idKind of idsOf('both')) add(op, 'limitsAbove', 'apply-then-drop', false, idKind);
		for (const fault of ['none', 'apply-then-drop', 'reset'] as const)
			for (const wait of waitsOf('both')) add(op, 'replay', fault, wait, 'typed');
		// A gateway that is not final at once: Wait for Final Status polls, and a lost reply is recovered from "processing".
		for (const fault of SLOW_FAULTS.filter((candidate) => relevant(op, candidate)))
			for (const wait of waitsOf('both')) add(op, 'plain', fault, wait, 'typed', undefined, true);
		for (const fault of ['none', 'apply-then-drop'] as const)
			for (const wait of waitsOf('both')) add(op, 'replay', fault, wait, 'typed', undefined, true);
		for (const fault of ['apply-then-drop', 'timeout', 'forbidden403'] as const)
			add(op, 'continueOnFail', fault, op.waitable, 'typed');
		// Merchants number their orders: a new order ID of 12 digits that happens to pass the Luhn check reads as a
		// card number (every output would mask it), so the node refuses it before anything is sent.
		if (op.newOrder) add(op, 'numericOrderId', 'apply-then-drop', op.waitable, 'numeric');
		// Runs bound to a plan (issue 26): the plan of a dry run, then the real run under its ID.
		for (const idKind of idsOf('both')) add(op, 'planBound', 'none', op.waitable, idKind);
		add(op, 'planBound', 'apply-then-drop', op.waitable, 'typed');
		add(op, 'planChanged', 'apply-then-drop', op.waitable, 'typed');
	}
	return cases;
}

const CASES = buildCases();

const LIMITS: Partial<Record<Mode, IDataObject>> = {
	limitPerItemBelow: { maxAmountPerItem: '1.00' },
	limitPerRunBelow: { maxTotalPerRun: '1.00 USD' },
	limitsAbove: { maxAmountPerItem: '1000', maxTotalPerRun: '5000 USD' },
};

/** Modes in which the operation's own request must never reach the gateway. */
const NOTHING_SENT_MODES = new Set<Mode>([
	'dryRun',
	'limitPerItemBelow',
	'limitPerRunBelow',
	'numericOrderId',
	'planChanged',
]);

const PLAN_ID = /^plan-[a-z]{16}-[a-z]{24}$/;

/** Another plan ID than `planId`: the approved plan differs from the run's in one letter of its digest. */
const otherPlanId = (planId: string) => planId.replace(/.$/, (last) => (last === 'a' ? 'b' : 'a'));
/** A well-formed plan ID no dry run gave. */
const MADE_UP_PLAN_ID = `plan-${'m'.repeat(16)}-${'n'.repeat(24)}`;

// ---------------------------------------------------------------------------------------------
// What the node said, and the judge.

const AMOUNT_KEYS: Record<string, readonly string[]> = {
	amountCharged: ['sale', 'rebill'],
	amountHeld: [],
	amountCaptured: ['capture'],
	amountReturned: ['return'],
	amountPaidOut: ['payout'],
	amountTransferred: ['transfer'],
};
const FLAGS: Record<string, string> = { voided: 'void', holdReleased: 'cancel' };
const OUTPUT_EFFECTS = ['notSent', 'noMoneyMoved', 'pending', 'moved', 'mayHaveMoved'];
const ERROR_EFFECTS = ['notSent', 'noMoneyMoved', 'mayHaveMoved'];
const NOTHING_MOVED_WORDS = /no money moved|nothing was sent|nothing was charged|moved nothing/i;

interface Said {
	error: boolean;
	effect?: string;
	json: IDataObject;
	text: string;
	message: string;
}

function saidBy(run: NodeRun): Said[] {
	if (run.error) {
		const { message, description, context } = run.error;
		return [
			{
				error: true,
				effect: context?.moneyEffect as string | undefined,
				json: {},
				message,
				text: `${message} ${description ?? ''}`,
			},
		];
	}
	return run.items.map((item) => {
		if (item.error) {
			const error = item.error as unknown as { message: string; description?: string; context?: IDataObject };
			const message = String(item.json.error ?? error.message);
			return {
				error: true,
				effect: error.context?.moneyEffect as string | undefined,
				json: item.json,
				message,
				text: `${message} ${error.description ?? ''}`,
			};
		}
		return {
			error: false,
			effect: item.json.moneyEffect as string | undefined,
			json: item.json,
			message: String(item.json.outcome ?? ''),
			text: String(item.json.outcome ?? ''),
		};
	});
}

const cents = (amount: unknown) => Math.round(Number(amount) * 100);

interface OrderView {
	orderid: string;
	client_orderid: string;
	kind: string;
	status: string;
	amount: string;
	held: string;
	transactions: unknown[];
}

interface World {
	delta: LedgerEntry[];
	/**
	 * Entries that settle an order made before the run, while nothing of the run's own command reached
	 * the gateway (a slow gateway finalises an order when it is asked about it): money of that earlier
	 * request, not of this run.
	 */
	settledEarlier: LedgerEntry[];
	/** Requests of the operation's own command that reached the sandbox during the run. */
	sent: SandboxRequest[];
	/** Orders created during the run. */
	newOrders: OrderView[];
	/** Every order the gateway has after the run. */
	orders: OrderView[];
	prepared: Prepared;
}

/** Everything the node said in one run that the ledger contradicts. */
function judge(op: Operation, said: Said[], world: World): string[] {
	const violations: string[] = [];
	const { delta } = world;
	const describe = (entries: LedgerEntry[]) =>
		entries.map((entry) => `${entry.kind} ${entry.amount} on order ${entry.orderid}`).join(', ') || 'nothing';
	if (!said.length) violations.push('the node said nothing (no item, no error)');
	for (const item of said) {
		const where = item.error ? 'error' : 'output';
		if (!op.moves) {
			if (item.error && !/moves no money/.test(item.text))
				violations.push(`error does not say "moves no money": ${item.message}`);
			if (/MAY have moved/.test(item.text))
				violations.push(`an operation that moves no money says money MAY have moved`);
			if (item.effect === 'moved' || item.effect === 'mayHaveMoved' || item.effect === 'pending')
				violations.push(`${where} claims moneyEffect ${item.effect}`);
			for (const key of [...Object.keys(AMOUNT_KEYS), ...Object.keys(FLAGS)])
				if (item.json[key] !== undefined) violations.push(`${where} claims ${key}`);
			continue;
		}
		const effects = item.error ? ERROR_EFFECTS : OUTPUT_EFFECTS;
		if (!effects.includes(item.effect ?? '')) {
			violations.push(`${where} without a valid moneyEffect (${item.effect ?? 'none'})`);
			continue;
		}
		const amounts = Object.keys(AMOUNT_KEYS).filter((key) => item.json[key] !== undefined);
		const flags = Object.keys(FLAGS).filter((key) => item.json[key] === true);
		if (item.effect !== 'moved' && (amounts.length || flags.length))
			violations.push(`${where} says ${item.effect} but carries ${[...amounts, ...flags].join(', ')}`);
		if (item.json.alreadyExisted === true && item.effect !== 'noMoneyMoved')
			violations.push(`alreadyExisted with moneyEffect ${item.effect}`);
		if (item.json.dryRun === true && item.effect !== 'notSent')
			violations.push(`dryRun with moneyEffect ${item.effect}`);
		const nothing =
			item.effect === 'notSent' ||
			item.effect === 'noMoneyMoved' ||
			item.json.alreadyExisted === true ||
			item.json.dryRun === true;
		const ownDelta = delta.filter((entry) => !world.settledEarlier.includes(entry));
		if (nothing && ownDelta.length)
			violations.push(
				`${where} says ${item.effect}${item.json.alreadyExisted ? ' (alreadyExisted)' : ''}${item.json.dryRun ? ' (dryRun)' : ''}, the ledger shows ${describe(ownDelta)}`,
			);
		if (item.effect === 'notSent' && world.sent.length)
			violations.push(
				`${where} says notSent, but ${world.sent.length} request(s) of ${op.command} reached the gateway`,
			);
		if (item.effect === 'mayHaveMoved' && !/MAY have moved/.test(item.text))
			violations.push(`${where} says mayHaveMoved without the words "MAY have moved": ${item.message}`);
		// The words of an error must agree with its moneyEffect and the ledger. (An output's words are its
		// outcome: "Hold released: …, so nothing was charged to return" is true of a released hold.)
		if (item.error && NOTHING_MOVED_WORDS.test(item.text)) {
			if (ownDelta.length)
				violations.push(
					`${where} says "${item.text.match(NOTHING_MOVED_WORDS)![0]}", the ledger shows ${describe(ownDelta)}`,
				);
			if (item.effect === 'mayHaveMoved')
				violations.push(`${where} says mayHaveMoved and "${item.text.match(NOTHING_MOVED_WORDS)![0]}"`);
		}
		// The order an output names: the gateway's order ID, and the merchant order ID the gateway has for it.
		const named = item.json.orderid === undefined ? undefined : String(item.json.orderid);
		const onNamedOrder = (orderid: string) => named === undefined || orderid === named;
		if (!item.error && named !== undefined && item.json.client_orderid !== undefined) {
			const order = world.orders.find((candidate) => candidate.orderid === named);
			if (order && order.client_orderid !== item.json.client_orderid) {
				violations.push(
					`output names merchant order ID "${String(item.json.client_orderid)}" for gateway order ${named}; the gateway has "${order.client_orderid}"`,
				);
			}
		}
		if (item.effect === 'moved') {
			if (!amounts.length && !flags.length) violations.push('output says moved without an amount or flag');
			for (const key of amounts) {
				const amount = item.json[key];
				if (key === 'amountHeld') {
					const held = world.newOrders.some(
						(order) =>
							onNamedOrder(order.orderid) &&
							order.kind === 'preauth' &&
							order.status === 'approved' &&
							cents(order.held) === cents(amount),
					);
					if (!held)
						violations.push(
							`output says amountHeld ${String(amount)} on order ${named ?? '?'}, the sandbox holds nothing of that amount on a new order`,
						);
				} else if (
					!delta.some(
						(entry) =>
							onNamedOrder(entry.orderid) &&
							AMOUNT_KEYS[key].includes(entry.kind) &&
							cents(entry.amount) === cents(amount),
					)
				) {
					violations.push(
						`output says ${key} ${String(amount)} on order ${named ?? '?'}, the ledger shows ${describe(delta)}`,
					);
				}
			}
			for (const flag of flags) {
				if (!delta.some((entry) => onNamedOrder(entry.orderid) && entry.kind === FLAGS[flag]))
					violations.push(`output says ${flag} on order ${named ?? '?'}, the ledger shows ${describe(delta)}`);
			}
		}
	}
	if (!op.moves && delta.length)
		violations.push(`an operation that moves no money; the ledger shows ${describe(delta)}`);
	if (op.moves && !op.followUp && delta.length > 1)
		violations.push(`more than one money entry for a new order: ${describe(delta)}`);
	const cids = new Set(delta.map((entry) => entry.client_orderid));
	if (cids.size > 1) violations.push(`money moved on ${cids.size} orders: ${[...cids].join(', ')}`);
	if (op.followUp && world.prepared.orderId && delta.some((entry) => entry.client_orderid !== world.prepared.orderId))
		violations.push(`a follow-up moved money on another order than "${world.prepared.orderId}"`);
	if (op.followUp && world.prepared.left) {
		const moved = delta.reduce((sum, entry) => sum + cents(entry.amount), 0);
		if (moved > cents(world.prepared.left))
			violations.push(`a follow-up moved ${moved / 100} of ${world.prepared.left} left`);
	}
	return violations;
}

// ---------------------------------------------------------------------------------------------
// Running a case.

interface Verdict {
	case: Case;
	said: string;
	ledger: string;
	hit?: boolean;
	violations: string[];
	ms: number;
}

/** One line of what the node said. */
function summary(said: Said[]): string {
	return (
		said
			.map((item) => {
				if (item.error) return `error ${item.effect ?? '?'}: ${item.message.slice(0, 110)}`;
				const claims = [
					...Object.keys(AMOUNT_KEYS)
						.filter((key) => item.json[key] !== undefined)
						.map((key) => `${key} ${String(item.json[key])}`),
					...Object.keys(FLAGS).filter((key) => item.json[key] === true),
				];
				const notes = [
					'alreadyExisted',
					'dryRun',
					'recoveredFromLostReply',
					'resentAfterLostReply',
					'waitTimedOut',
				].filter((key) => item.json[key] === true);
				return [
					`${item.effect ?? 'no moneyEffect'}`,
					`status ${String(item.json.status ?? '-')}`,
					...claims,
					...notes,
				].join(' ');
			})
			.join(' / ') || 'nothing'
	);
}

async function snapshot(sb: Sandbox) {
	const [ledger, requests, { orders }] = await Promise.all([
		sb.ledger(),
		sb.requests(),
		sb.admin<{ orders: OrderView[] }>('GET', 'orders'),
	]);
	return { ledger, requests: requests as Array<SandboxRequest & { seq: number }>, orders };
}

function worldBetween(
	op: Operation,
	prepared: Prepared,
	before: Awaited<ReturnType<typeof snapshot>>,
	after: Awaited<ReturnType<typeof snapshot>>,
): World {
	const known = new Set(before.orders.map((order) => order.orderid));
	const seen = Math.max(0, ...before.requests.map((request) => request.seq));
	const sent = after.requests.filter((request) => request.seq > seen && request.path.includes(`/api/${op.command}/`));
	const delta = after.ledger.slice(before.ledger.length);
	const waiting = new Set(before.orders.filter((order) => order.status === 'processing').map((order) => order.orderid));
	const single = new Set(after.orders.filter((order) => order.transactions.length === 1).map((order) => order.orderid));
	return {
		delta,
		settledEarlier: sent.length ? [] : delta.filter((entry) => waiting.has(entry.orderid) && single.has(entry.orderid)),
		sent,
		newOrders: after.orders.filter((order) => !known.has(order.orderid)),
		orders: after.orders,
		prepared,
	};
}

/**
 * An error's message with its causes and the test code it came through: undici's "fetch failed"
 * names why (a refused or reset connection, a timeout) only in its cause.
 */
function described(error: unknown): string {
	const causes: string[] = [];
	for (
		let at = error as { message?: string; code?: string; cause?: unknown } | undefined;
		at;
		at = at.cause as typeof at
	)
		causes.push(at.code ? `${at.message} [${at.code}]` : String(at.message ?? at));
	const where = String((error as Error).stack ?? '')
		.split('\n')
		.find((line) => line.includes('/test/'));
	return `${causes.join(' ← ')}${where ? ` (${where.trim()})` : ''}`;
}

async function runCase(c: Case): Promise<Verdict> {
	const started = Date.now();
	const sb = await Sandbox.start({ pollsBeforeFinal: c.slow ? 1 : 0 });
	try {
		const id = { typed: `lj-${c.index}`, generated: '', numeric: NUMERIC_ORDER_ID }[c.idKind];
		// The preconditions under a typed ID; only the operation itself gets the numeric one.
		const prepared = await c.op.fixture.prepare(sb, c.idKind === 'numeric' ? `lj-${c.index}` : id, c.variant);
		if (c.idKind === 'numeric') prepared.parameters = { ...prepared.parameters, merchantOrderId: id };
		const options: IDataObject = {
			timeoutSeconds: TIMEOUT_SECONDS,
			...(c.wait ? WAIT : {}),
			...(c.mode === 'dryRun' ? { dryRun: true } : {}),
			...(LIMITS[c.mode] ?? {}),
		};
		const planViolations: string[] = [];
		/** The dry run offered no plan for approval (saying why): a run bound to any plan ID must send nothing. */
		let notOffered = false;
		if (c.mode === 'planBound' || c.mode === 'planChanged') {
			// The rehearsal an approver saw: its plan ID binds the real run.
			const rehearsal = await runNode(sb, {
				...prepared.parameters,
				options: { ...options, dryRun: true } as INodeParameters,
			});
			const planId = String(rehearsal.items[0]?.json.planId ?? '');
			const note = String((rehearsal.items[0]?.json.planSummary as IDataObject | undefined)?.note ?? '');
			notOffered = !PLAN_ID.test(planId);
			if (notOffered && !note.startsWith('No plan ID'))
				planViolations.push(`the dry run gave no plan ID: ${rehearsal.error?.message ?? planId}`);
			options.approvedPlanId =
				c.mode === 'planBound' && !notOffered ? planId : otherPlanId(notOffered ? MADE_UP_PLAN_ID : planId);
		}
		const parameters: INodeParameters = { ...prepared.parameters, options: options as INodeParameters };
		const before = await snapshot(sb);
		const armed = await arm(sb, c.op, c.fault);
		let hit: boolean | undefined;
		let first: NodeRun;
		try {
			first = await runNode(sb, parameters, {
				credentials: armed.credentials,
				continueOnFail: c.mode === 'continueOnFail',
			});
			hit = await armed.hit();
		} finally {
			await armed.close();
		}
		const middle = await snapshot(sb);
		const said = saidBy(first);
		const world = worldBetween(c.op, prepared, before, middle);
		const violations = [...planViolations, ...judge(c.op, said, world)];
		// A fault that touched nothing tests nothing, unless the node refused before sending (and the request log agrees).
		const refusedBeforeSending =
			said.length > 0 && said.every((item) => item.effect === 'notSent') && !world.sent.length;
		if (c.fault !== 'none' && hit === false && !NOTHING_SENT_MODES.has(c.mode) && !refusedBeforeSending)
			violations.push(`the fault ${c.fault} never touched ${c.op.command}: the case tests nothing`);
		if ((NOTHING_SENT_MODES.has(c.mode) || notOffered) && hit)
			violations.push(`${c.mode}: the operation's own request was sent`);
		if (c.mode === 'dryRun' && !said.every((item) => !item.error && item.json.dryRun === true))
			violations.push('a dry run that is not reported as one');
		if (
			(c.mode === 'limitPerItemBelow' || c.mode === 'limitPerRunBelow') &&
			!said.every((item) => item.error && item.effect === 'notSent')
		) {
			violations.push('a spending limit below the amount did not refuse the item before sending');
		}
		if (c.mode === 'continueOnFail' && first.error) violations.push('with Continue On Fail the run stopped');
		if (c.mode === 'planBound' && !said.every((item) => item.error || item.json.planId === options.approvedPlanId))
			violations.push('an output of a run bound to a plan does not name the plan it ran under');
		if (
			(c.mode === 'planChanged' || notOffered) &&
			!said.every((item) => item.error && item.effect === 'notSent' && /not the approved plan/.test(item.message))
		)
			violations.push('a run bound to another plan than its own was not refused before sending');
		if (
			c.mode === 'numericOrderId' &&
			!(
				first.error?.message.includes('"Order ID (Merchant)" reads as a card number') &&
				said.every((item) => item.effect === 'notSent')
			)
		) {
			violations.push(
				'a new order ID that reads as a card number was not refused before sending, naming "Order ID (Merchant)"',
			);
		}
		// An error must name the order as the gateway has it, so that it can be looked up.
		const masked = `"${'*'.repeat(Math.max(id.length - 4, 0))}${id.slice(-4)}"`;
		if (id && masked !== `"${id}"` && said.some((item) => item.error && item.text.includes(masked)))
			violations.push(`error names merchant order ID ${masked}; the gateway has "${id}"`);
		let saidText = summary(said);
		let ledgerText =
			world.delta.map((entry) => `${entry.kind} ${entry.amount} ${entry.client_orderid}`).join(', ') || '-';
		if (c.mode === 'replay') {
			// The same parameters again (a replayed order ID): never money twice.
			const again = await runNode(sb, parameters);
			const after = await snapshot(sb);
			const saidAgain = saidBy(again);
			const worldAgain = worldBetween(c.op, prepared, middle, after);
			violations.push(...judge(c.op, saidAgain, worldAgain).map((violation) => `replay: ${violation}`));
			const both = worldBetween(c.op, prepared, before, after);
			violations.push(
				...judge(c.op, [], both)
					.filter((violation) => !violation.startsWith('the node said nothing'))
					.map((violation) => `both runs: ${violation}`),
			);
			const existed = c.op.newOrder && middle.orders.some((order) => order.client_orderid === id);
			if (existed) {
				for (const item of saidAgain) {
					const nothing = item.error
						? item.effect === 'notSent' || item.effect === 'noMoneyMoved'
						: item.json.alreadyExisted === true && item.effect === 'noMoneyMoved';
					if (!nothing)
						violations.push(
							`replay of an order the gateway had: ${item.error ? `error ${item.effect}` : `output ${item.effect}${item.json.alreadyExisted ? '' : ' without alreadyExisted'}`}`,
						);
				}
			}
			saidText += ` ⟳ ${summary(saidAgain)}`;
			ledgerText += ` ⟳ ${worldAgain.delta.map((entry) => `${entry.kind} ${entry.amount}`).join(', ') || '-'}`;
		}
		return { case: c, said: saidText, ledger: ledgerText, hit, violations, ms: Date.now() - started };
	} catch (error) {
		return {
			case: c,
			said: `the case could not run: ${described(error)}`,
			ledger: '?',
			violations: [`the case could not run: ${described(error)}`],
			ms: Date.now() - started,
		};
	} finally {
		await sb.close();
	}
}

async function pool<T, R>(items: readonly T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
	const results: R[] = new Array(items.length);
	let next = 0;
	await Promise.all(
		Array.from({ length: Math.min(size, items.length) }, async () => {
			while (next < items.length) {
				const index = next++;
				results[index] = await work(items[index]);
			}
		}),
	);
	return results;
}

/** The compact table printed when cases fail. */
function table(verdicts: Verdict[]): string {
	return verdicts
		.map((verdict) =>
			[
				`✗ ${verdict.case.name}`,
				`    said:   ${verdict.said}`,
				`    ledger: ${verdict.ledger}`,
				...verdict.violations.map((violation) => `    → ${violation}`),
			].join('\n'),
		)
		.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Real violations the judge found, left for the node's owners to fix (the node is not changed here).
// A violation matching one of these does not fail its operation's test; each finding has an
// it.failing test instead, which starts to fail once the node is fixed: then remove it from here.

interface Finding {
	finding: string;
	violation: RegExp;
}

// Findings the judge made and the node fixed (on 2c4e19e): an output marked "mayHaveMoved" for a status
// "unknown" did not say "MAY have moved"; a new order ID that reads as a card number (12–19 digits passing
// the Luhn check, as "202406150013", or a generated "n8n-" + 12 hex that were all digits) was masked in every
// output. Generated IDs are letters now, and such a typed ID is refused before sending (mode numericOrderId).
// A finding the node has not fixed yet is listed here, with the violation it produces, until it is.
const KNOWN: Finding[] = [];

const isKnown = (violation: string) => KNOWN.some((known) => known.violation.test(violation));
const unknownViolations = (verdict: Verdict) => verdict.violations.filter((violation) => !isKnown(violation));

const CONCURRENCY = 32;
let verdicts: Verdict[] = [];
let elapsed = 0;
// The hook's budget bounds a hang (about 60 s idle on 2 cores): scaled for a loaded machine (test/support/time-scale.js).
const { scaled } = require('../support/time-scale') as typeof import('../support/time-scale');

beforeAll(async () => {
	const started = Date.now();
	verdicts = await pool(CASES, CONCURRENCY, runCase);
	elapsed = Date.now() - started;
}, scaled(240_000));

afterAll(() => {
	const failed = verdicts.filter((verdict) => unknownViolations(verdict).length);
	if (failed.length || process.env.LEDGER_JUDGE_REPORT) {
		const count = (key: (verdict: Verdict) => string) => {
			const counts = new Map<string, number>();
			for (const verdict of verdicts) counts.set(key(verdict), (counts.get(key(verdict)) ?? 0) + 1);
			return [...counts].map(([name, n]) => `${name} ${n}`).join(', ');
		};
		const known = verdicts.filter((verdict) => verdict.violations.length && !unknownViolations(verdict).length).length;
		console.log(
			[
				`ledger judge: ${verdicts.length} cases on ${OPERATIONS_UNDER_TEST.length} operations (${OPERATIONS_UNDER_TEST.filter((op) => op.moves).length} money-moving) in ${(elapsed / 1000).toFixed(1)} s; ${failed.length} with new violations, ${known} with known ones`,
				`by mode: ${count((verdict) => verdict.case.mode)}`,
				`by fault: ${count((verdict) => verdict.case.fault)}`,
				table(failed),
			].join('\n'),
		);
	}
});

describe('the judge itself', () => {
	const sale = OPERATIONS_UNDER_TEST.find((op) => op.key === 'payment.sale')!;
	const entry = (kind: string, amount: string, cid = 'o-1') => ({
		orderid: '1',
		client_orderid: cid,
		kind,
		amount,
		currency: 'USD',
	});
	const world = (delta: LedgerEntry[]): World => ({
		delta,
		settledEarlier: [],
		sent: [],
		newOrders: [],
		orders: [],
		prepared: { parameters: {} },
	});
	const output = (json: IDataObject): Said => ({
		error: false,
		effect: json.moneyEffect as string,
		json,
		message: String(json.outcome ?? ''),
		text: String(json.outcome ?? ''),
	});
	const error = (effect: string, message: string): Said => ({ error: true, effect, json: {}, message, text: message });

	it.each([
		['a charge the ledger does not show', [output({ moneyEffect: 'moved', amountCharged: '10.00' })], []],
		['a charge of another amount', [output({ moneyEffect: 'moved', amountCharged: '10.00' })], [entry('sale', '9.00')]],
		[
			'a charge on another order than the one named',
			[output({ moneyEffect: 'moved', orderid: '2', amountCharged: '10.00' })],
			[entry('sale', '10.00')],
		],
		['"no money moved" while the ledger moved', [output({ moneyEffect: 'noMoneyMoved' })], [entry('sale', '10.00')]],
		[
			'alreadyExisted while the ledger moved',
			[output({ moneyEffect: 'noMoneyMoved', alreadyExisted: true })],
			[entry('sale', '10.00')],
		],
		['a dry run while the ledger moved', [output({ moneyEffect: 'notSent', dryRun: true })], [entry('sale', '10.00')]],
		['pending with an amount', [output({ moneyEffect: 'pending', amountCharged: '10.00' })], []],
		['moved without saying what', [output({ moneyEffect: 'moved' })], [entry('sale', '10.00')]],
		['no moneyEffect', [output({ status: 'approved' })], []],
		[
			'an error that says nothing was sent while money moved',
			[error('mayHaveMoved', 'X: money MAY have moved; nothing was sent')],
			[entry('sale', '10.00')],
		],
		['mayHaveMoved without the words', [error('mayHaveMoved', 'X: no gateway reply')], []],
		[
			'an error marked noMoneyMoved while money moved',
			[error('noMoneyMoved', 'X: declined')],
			[entry('sale', '10.00')],
		],
		[
			'two charges for one new order',
			[error('mayHaveMoved', 'X: money MAY have moved')],
			[entry('sale', '10.00'), entry('sale', '10.00')],
		],
		[
			'money on another order',
			[output({ moneyEffect: 'moved', amountCharged: '10.00' })],
			[entry('sale', '10.00', 'o-2'), entry('sale', '10.00')],
		],
	] as Array<[string, Said[], LedgerEntry[]]>)('convicts %s', (_name, said, delta) => {
		expect(judge(sale, said, world(delta))).not.toEqual([]);
	});

	it('acquits what the ledger shows', () => {
		expect(
			judge(sale, [output({ moneyEffect: 'moved', amountCharged: '10.00' })], world([entry('sale', '10.00')])),
		).toEqual([]);
		expect(judge(sale, [output({ moneyEffect: 'pending' })], world([entry('sale', '10.00')]))).toEqual([]);
		expect(judge(sale, [error('mayHaveMoved', 'X: money MAY have moved')], world([entry('sale', '10.00')]))).toEqual(
			[],
		);
		expect(judge(sale, [error('notSent', 'X: nothing was sent')], world([]))).toEqual([]);
	});
});

it("every operation in the node's description has a fixture, and every fixture an operation", () => {
	expect(DESCRIBED.length).toBeGreaterThan(0);
	expect(MISSING).toEqual([]);
	const described = new Set(DESCRIBED.map(({ resource, operation }) => `${resource}.${operation}`));
	expect(Object.keys(FIXTURES).filter((key) => !described.has(key))).toEqual([]);
});

describe.each(OPERATIONS_UNDER_TEST.map((op) => [op.key, op] as const))('%s', (_key, op) => {
	it(
		op.moves
			? 'every fault and option: what the node says agrees with the ledger'
			: 'a lost reply: says it moves no money, and the ledger is unchanged',
		() => {
			const mine = verdicts.filter((verdict) => verdict.case.op === op);
			expect(mine.length).toBe(CASES.filter((c) => c.op === op).length);
			const failed = mine.filter((verdict) => unknownViolations(verdict).length);
			if (failed.length)
				throw new Error(`${failed.length} of ${mine.length} cases disagree with the ledger:\n${table(failed)}`);
		},
	);
});

for (const known of KNOWN) {
	it.failing(`KNOWN, left for the node (fails while the node still does it): ${known.finding}`, () => {
		const cases = verdicts.filter((verdict) => verdict.violations.some((violation) => known.violation.test(violation)));
		expect(cases.map((verdict) => verdict.case.name)).toEqual([]);
	});
}
