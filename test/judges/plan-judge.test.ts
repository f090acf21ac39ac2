// The plan judge (issue 30): a run bound to an approved plan sends exactly the requests the approver
// was shown, or nothing, and each approved request at most once, ever. Every money-moving operation the
// node's description offers (read as the ledger judge reads it), with the fixtures of
// test/support/operation-fixtures.ts, is rehearsed (Dry Run) through a recording proxy; what the dry run
// showed is what was approved. Then, seeded, something changes before the real run, which is bound to
// the plan ID the dry run gave:
// - a destination or a card with the same mask, another card, another bank account (same last 4 digits,
//   another bank and routing number), the amount, its spelling, the currency, any text sent, an
//   expression that evaluates differently, an Extra Field added or changed;
// - the endpoint, the endpoint group, the credential (another merchant, another control key, another
//   base URL);
// - items added, removed or reordered;
// or nothing changes, and the approved run is run again: three times in a row, or twice at once and
// once more.
// The truth is the wire: every request the node sent, in full (body fields, URL, OAuth consumer key),
// as the proxy between the node and the sandbox saw it, and the sandbox's answer to its signature. What
// the approver approved is the dry run's output (its request URL and fields, card numbers masked): a
// masked value stands for the full value the judge itself gave at approval time, nothing else. Every
// request other than a status query, sent by a bound run, must be one of the approved requests, and no
// approved request may be sent twice. A plan the node does not offer for approval (it says why) binds
// nothing: a run bound to a plan ID then sends nothing at all.
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject, INodeParameters, INodePropertyOptions, NodeParameterValueType } from 'n8n-workflow';

import { CardGateway } from '../../nodes/CardGateway/CardGateway.node';
import { movesMoney } from '../../nodes/CardGateway/actions/common/core/facts';
import type { Operation } from '../../nodes/CardGateway/actions/common/core/operation';
import { RESOURCES } from '../../nodes/CardGateway/actions/resources';
import { FIXTURES, type Fixture } from '../support/operation-fixtures';

import { MERCHANT, OTHER_MERCHANT, PAN, PAN2, Sandbox, readKey, runNode, type NodeRun } from '../support/harness';
import { scaled } from '../support/time-scale';
import { seeded } from '../support/seeded';

const SEED = Number(process.env.PLAN_JUDGE_SEED ?? 20261201);
const CONCURRENCY = 12;
const TIMEOUT_SECONDS = 2;

// ---------------------------------------------------------------------------------------------
// The money-moving operations, from the node's description.

const MODULES: Record<string, { operations: Record<string, Operation> }> = RESOURCES;
const { properties } = new CardGateway().description;

const DESCRIBED = ((properties.find((p) => p.name === 'resource')?.options ?? []) as INodePropertyOptions[]).flatMap(
	(option) =>
		properties
			.filter((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(String(option.value)))
			.flatMap((selector) =>
				(selector.options as INodePropertyOptions[]).map((choice) => `${String(option.value)}.${String(choice.value)}`),
			),
);

const MONEY_MOVING = DESCRIBED.filter((key) => {
	const [resource, operation] = key.split('.');
	const spec = MODULES[resource]?.operations[operation]?.spec;
	return !!spec && !spec.readMany && movesMoney(spec);
});

const newOrderOf = (key: string) => {
	const [resource, operation] = key.split('.');
	const spec = MODULES[resource].operations[operation].spec;
	return [...(spec.required ?? []), ...(spec.main ?? [])].some((field) => field.merchantOrderId === 'new');
};

// ---------------------------------------------------------------------------------------------
// The wire: a proxy that forwards every request to the sandbox (the Host header kept, so OAuth
// signatures, which cover the URL, still verify) and records it in full with the answer.

interface WireRequest {
	seq: number;
	/** The origin the node sent it to (which proxy, i.e. which base URL). */
	origin: string;
	path: string;
	fields: Array<[string, string]>;
	/** The OAuth consumer key (the merchant login) of an OAuth-signed request. */
	consumerKey?: string;
	status: number;
	reply: string;
}

interface Wire {
	log: WireRequest[];
	seq: number;
}

const readAll = (stream: IncomingMessage) =>
	new Promise<Buffer>((resolve, reject) => {
		const chunks: Buffer[] = [];
		stream.on('data', (chunk: Buffer) => chunks.push(chunk));
		stream.on('end', () => resolve(Buffer.concat(chunks)));
		stream.on('error', reject);
	});

async function recorder(target: string, wire: Wire): Promise<{ origin: string; close(): Promise<void> }> {
	const { hostname, port } = new URL(target);
	const server: Server = createServer((req, res) => {
		void (async () => {
			const body = await readAll(req);
			const forwarded = httpRequest(
				{ hostname, port, method: req.method, path: req.url, headers: req.headers },
				(answer) => {
					void readAll(answer).then((reply) => {
						const consumerKey = /oauth_consumer_key="([^"]*)"/.exec(String(req.headers.authorization ?? ''))?.[1];
						wire.log.push({
							seq: ++wire.seq,
							origin,
							path: String(req.url).split('?')[0],
							fields: [...new URLSearchParams(body.toString('utf8'))],
							consumerKey: consumerKey === undefined ? undefined : decodeURIComponent(consumerKey),
							status: answer.statusCode ?? 0,
							reply: reply.toString('utf8'),
						});
						res.writeHead(answer.statusCode ?? 502, answer.headers);
						res.end(reply);
					});
				},
			);
			forwarded.on('error', () => res.destroy());
			forwarded.end(body);
		})();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		origin,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

const STATUS_QUERY = /\/api\/v\d\/status\//;
const isStatusQuery = (request: WireRequest) => STATUS_QUERY.test(request.path);

// ---------------------------------------------------------------------------------------------
// What was approved, and the judge.

/** One request as the dry run showed it: its URL and its fields, card numbers masked. */
export interface ShownRequest {
	url: string;
	fields: Record<string, string>;
}

/** What the judge itself gave at approval time: every value, the CVVs apart, and the merchant login. */
export interface ApprovalTime {
	values: ReadonlySet<string>;
	secrets: ReadonlySet<string>;
	login: string;
}

/** A masked value ("555555******4444") stands for a value the judge gave that fits it, character by character. */
function fits(value: string, shown: string, approval: ApprovalTime): boolean {
	if (value === shown) return true;
	if (!shown.includes('*') || value.length !== shown.length || !approval.values.has(value)) return false;
	return [...shown].every((char, index) => char === '*' || char === value[index]);
}

/** Why `sent` is not the shown request `shown`, or undefined when it is. */
export function mismatch(sent: WireRequest, shown: ShownRequest, approval: ApprovalTime): string | undefined {
	const url = new URL(shown.url);
	if (sent.origin !== url.origin || sent.path !== url.pathname)
		return `sent to ${sent.origin}${sent.path}, approved ${url.origin}${url.pathname}`;
	if (sent.consumerKey !== undefined && sent.consumerKey !== approval.login)
		return `signed for merchant "${sent.consumerKey}", approved "${approval.login}"`;
	const named = new Set<string>();
	for (const [name, value] of sent.fields) {
		named.add(name);
		if (name === 'control') continue;
		if (name in shown.fields) {
			if (!fits(value, shown.fields[name], approval))
				return `field ${name} is "${value}", approved "${shown.fields[name]}"`;
		} else if (!approval.secrets.has(value)) return `field ${name} was not approved`;
	}
	const missing = Object.keys(shown.fields).filter((name) => !named.has(name));
	if (missing.length) return `approved field(s) ${missing.join(', ')} not sent`;
	return undefined;
}

/** The gateway refused the request's signature: it was signed with another key than the approved credential's. */
const signatureRefused = (sent: WireRequest) =>
	sent.status === 401 || sent.status === 403 || /signature mismatch/i.test(sent.reply);

const describeSent = (sent: WireRequest) =>
	`${sent.origin}${sent.path} ${sent.fields
		.filter(([name]) => name !== 'control')
		.map(([name, value]) => `${name}=${value}`)
		.join('&')}`;

/**
 * Every violation: a request other than a status query that is not one of the approved requests, an
 * approved request sent twice, one signed with another key. `everyApprovedOnce`: the approved run
 * unchanged, whose first run must send every approved request (a judge that any refusal passes tests nothing).
 */
export function judgeWire(
	approved: readonly ShownRequest[],
	sent: readonly WireRequest[],
	approval: ApprovalTime,
	everyApprovedOnce?: readonly WireRequest[],
): string[] {
	const violations: string[] = [];
	const used = new Set<number>();
	for (const request of sent.filter((candidate) => !isStatusQuery(candidate))) {
		const reasons = approved.map((shown) => mismatch(request, shown, approval));
		const matching = reasons.flatMap((reason, index) => (reason === undefined ? [index] : []));
		if (!matching.length) {
			violations.push(
				`sent a request that was not approved: ${describeSent(request)}${approved.length ? ` (nearest: ${reasons[0]})` : ' (nothing was approved)'}`,
			);
			continue;
		}
		const free = matching.find((index) => !used.has(index));
		if (free === undefined) violations.push(`sent an approved request again: ${describeSent(request)}`);
		else used.add(free);
		if (signatureRefused(request))
			violations.push(`sent an approved request signed with another key: ${describeSent(request)}`);
	}
	if (everyApprovedOnce) {
		const first = everyApprovedOnce.filter((candidate) => !isStatusQuery(candidate));
		const missed = approved.filter((shown) => !first.some((request) => !mismatch(request, shown, approval)));
		if (missed.length)
			violations.push(
				`the approved run, unchanged, did not send ${missed.length} of ${approved.length} approved request(s)`,
			);
	}
	return violations;
}

// ---------------------------------------------------------------------------------------------
// Cases, seeded.

const MUTATIONS = [
	'sameMaskCard',
	'otherCard',
	'otherBankAccount',
	'amount',
	'amountSpelling',
	'currency',
	'text',
	'expression',
	'extraFieldAdded',
	'extraFieldChanged',
	'endpoint',
	'endpointGroup',
	'otherCredential',
	'otherControlKey',
	'otherBaseUrl',
	'itemAdded',
	'itemRemoved',
	'itemsReordered',
] as const;
type Mutation = 'none' | (typeof MUTATIONS)[number];
/** How often the bound run runs: once; three times in a row; twice at once and once more. */
type Runs = 'once' | 'inTurn' | 'atOnce';

interface Case {
	index: number;
	key: string;
	fixture: Fixture;
	/** One of the fixture's variants (a partial amount, a hold, a declined card …), or undefined. */
	variant?: string;
	mutation: Mutation;
	runs: Runs;
	generated: boolean;
	/** For the seeded choices inside the case. */
	seed: number;
	name: string;
}

/** The same cases for the same seed. */
const random = seeded;

/** Parameter paths of a fixture's parameters: ["amount"], ["additionalFields", "cardNumber"] … */
type Path = readonly string[];
const CARD_KEYS = /^(cardNumber|destinationCardNumber)$/;
const FIXED = new Set(['resource', 'operation', 'options', 'extraFields']);

function leaves(parameters: INodeParameters, prefix: Path = []): Array<{ path: Path; value: unknown }> {
	return Object.entries(parameters).flatMap(([name, value]) => {
		if (!prefix.length && FIXED.has(name)) return [];
		if (value && typeof value === 'object' && !Array.isArray(value))
			return leaves(value as INodeParameters, [...prefix, name]);
		return [{ path: [...prefix, name], value }];
	});
}

const pathOf = (parameters: INodeParameters, test: (name: string, value: unknown) => boolean) =>
	leaves(parameters).find(({ path, value }) => test(path[path.length - 1], value))?.path;

const textPaths = (parameters: INodeParameters) =>
	leaves(parameters)
		.filter(({ path, value }) => typeof value === 'string' && value !== '' && !CARD_KEYS.test(path[path.length - 1]))
		.map(({ path }) => path);

/** Whether a mutation changes anything of these parameters (the fixture's shape). */
function applies(mutation: Mutation, parameters: INodeParameters): boolean {
	switch (mutation) {
		case 'sameMaskCard':
		case 'otherCard':
			return !!pathOf(parameters, (name) => CARD_KEYS.test(name));
		case 'otherBankAccount':
			return !!pathOf(parameters, (name) => name === 'accountNumber');
		case 'amount':
		case 'amountSpelling':
			return !!pathOf(parameters, (name) => name === 'amount');
		case 'currency':
			return !!pathOf(parameters, (name) => name === 'currency');
		case 'text':
		case 'expression':
			return textPaths(parameters).length > 0;
		default:
			return true;
	}
}

/** The shape of an operation's parameters (which changes apply), per fixture variant ('' for none). */
type Shapes = Record<string, INodeParameters>;
const shapeKey = (key: string, variant?: string) => `${key}/${variant ?? ''}`;

function buildCases(shapes: Shapes): Case[] {
	const next = random(SEED);
	const cases: Case[] = [];
	const add = (key: string, variant: string | undefined, mutation: Mutation, runs: Runs, generated: boolean) => {
		const name = [key, variant, mutation, runs, generated ? 'generated ID' : 'typed ID'].filter(Boolean).join(' | ');
		const seed = Math.floor(next() * 2 ** 31);
		cases.push({ index: cases.length, key, fixture: FIXTURES[key], variant, mutation, runs, generated, seed, name });
	};
	for (const key of MONEY_MOVING) {
		const newOrder = newOrderOf(key);
		for (const runs of ['inTurn', 'atOnce'] as const) {
			add(key, undefined, 'none', runs, false);
			if (newOrder) add(key, undefined, 'none', runs, true);
		}
		for (const mutation of MUTATIONS)
			if (applies(mutation, shapes[shapeKey(key)])) add(key, undefined, mutation, 'once', newOrder && next() < 0.5);
		// Each variant: run again in turn, and two changes drawn from those that apply.
		for (const variant of FIXTURES[key].variants ?? []) {
			add(key, variant, 'none', 'inTurn', false);
			const changes = MUTATIONS.filter((mutation) => applies(mutation, shapes[shapeKey(key, variant)]));
			for (let draw = 0; draw < 2; draw++)
				add(key, variant, changes[Math.floor(next() * changes.length)], 'once', false);
		}
	}
	return cases;
}

// ---------------------------------------------------------------------------------------------
// Running a case.

/** The item's values, as the input item carries them; the parameters read them with expressions. */
const expressionOf = (path: Path) => `={{ $json.p${path.map((name) => `[${JSON.stringify(name)}]`).join('')} }}`;

function template(parameters: INodeParameters, prefix: Path = []): INodeParameters {
	return Object.fromEntries(
		Object.entries(parameters).map(([name, value]): [string, NodeParameterValueType | INodeParameters] => {
			if (!prefix.length && FIXED.has(name)) return [name, value];
			if (value && typeof value === 'object' && !Array.isArray(value))
				return [name, template(value as INodeParameters, [...prefix, name])];
			return [name, expressionOf([...prefix, name])];
		}),
	) as INodeParameters;
}

const get = (data: IDataObject, path: Path): unknown =>
	path.reduce<unknown>((at, name) => (at as IDataObject | undefined)?.[name], data);

function set(data: IDataObject, path: Path, value: unknown): void {
	const parent = path.slice(0, -1).reduce<IDataObject>((at, name) => (at[name] ??= {}) as IDataObject, data);
	parent[path[path.length - 1]] = value as IDataObject[string];
}

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Luhn check, written here. */
const luhn = (digits: string) =>
	[...digits].reverse().reduce((sum, char, index) => {
		const digit = Number(char) * (index % 2 ? 2 : 1);
		return sum + (digit > 9 ? digit - 9 : digit);
	}, 0) %
		10 ===
	0;

/** Another valid card number with the same first 6 and last 4 digits. */
function sameMask(pan: string, pick: () => number): string {
	const start = Math.floor(pick() * 900_000);
	for (let step = 0; step < 1_000_000; step++) {
		const middle = String((start + step) % 1_000_000).padStart(pan.length - 10, '0');
		const candidate = pan.slice(0, 6) + middle + pan.slice(-4);
		if (candidate !== pan && luhn(candidate)) return candidate;
	}
	throw new Error(`no other card number with the mask of ${pan.slice(0, 6)}…${pan.slice(-4)}`);
}

/** 12.34 → 13.34 (decimal text, no floats). */
function plusOne(amount: string): string {
	const [whole, fraction = ''] = amount.split('.');
	return `${BigInt(whole) + 1n}${fraction ? `.${fraction}` : ''}`;
}

interface Run {
	parameters: INodeParameters;
	input: IDataObject[];
	credentials: IDataObject;
}

const MADE_UP_PLAN_ID = `plan-${'m'.repeat(16)}-${'n'.repeat(24)}`;
const PLAN_ID = /^plan-[a-z]{16}-[a-z]{24}$/;

/** What changes between approval and the run: the run's parameters, input items and credential. */
function mutate(c: Case, approved: Run, items: IDataObject[], second: string, pick: () => number): Run {
	const run: Run = clone(approved);
	const first = run.input[0].p as IDataObject;
	const shape = items[0] as INodeParameters;
	const choose = <T>(choices: readonly T[]) => choices[Math.floor(pick() * choices.length)];
	const options = run.parameters.options as INodeParameters;
	switch (c.mutation) {
		case 'none':
			break;
		case 'sameMaskCard': {
			const path = pathOf(shape, (name) => CARD_KEYS.test(name))!;
			set(first, path, sameMask(String(get(first, path)), pick));
			break;
		}
		case 'otherCard': {
			const path = pathOf(shape, (name) => CARD_KEYS.test(name))!;
			set(first, path, get(first, path) === PAN ? PAN2 : PAN);
			break;
		}
		case 'otherBankAccount': {
			const path = pathOf(shape, (name) => name === 'accountNumber')!;
			const account = String(get(first, path));
			set(first, path, `DE89370400440532${account.slice(-6)}`);
			set(first, [...path.slice(0, -1), 'bankName'], 'Other Bank');
			set(first, [...path.slice(0, -1), 'routingNumber'], '026009593');
			break;
		}
		case 'amount':
		case 'amountSpelling': {
			const path = pathOf(shape, (name) => name === 'amount')!;
			const amount = String(get(first, path));
			set(first, path, c.mutation === 'amount' ? plusOne(amount) : amount.replace(/0$/, '') || `${amount}0`);
			break;
		}
		case 'currency': {
			const path = pathOf(shape, (name) => name === 'currency')!;
			set(first, path, get(first, path) === 'EUR' ? 'USD' : 'EUR');
			break;
		}
		case 'text': {
			const path = choose(textPaths(shape));
			set(first, path, `${String(get(first, path))}x`);
			break;
		}
		case 'expression': {
			const path = choose(textPaths(shape));
			set(run.parameters as IDataObject, path, `={{ String(${expressionOf(path).slice(4, -3)}) + "x" }}`);
			break;
		}
		case 'extraFieldAdded':
			run.parameters.extraFields = { field: [{ name: 'destination_account', value: 'GB94BARC10201530093459' }] };
			break;
		case 'extraFieldChanged':
			run.input = run.input.map((item) => ({ ...item, note: 'changed' }));
			break;
		case 'endpoint':
			options.endpointId = '1002';
			break;
		case 'endpointGroup':
			options.endpointGroupId = '2001';
			break;
		case 'otherCredential':
			run.credentials = {
				...run.credentials,
				login: OTHER_MERCHANT.login,
				controlKey: OTHER_MERCHANT.controlKey,
				privateKey: readKey('other-merchant-2048.key.pem'),
				endpointId: '3001',
			};
			break;
		case 'otherControlKey':
			run.credentials = { ...run.credentials, controlKey: OTHER_MERCHANT.controlKey };
			break;
		case 'otherBaseUrl':
			run.credentials = { ...run.credentials, baseUrl: `${second}/paynet` };
			break;
		case 'itemAdded':
			run.input = items.map((p) => ({ p }));
			break;
		case 'itemRemoved':
			run.input = run.input.slice(0, 1);
			break;
		case 'itemsReordered':
			run.input = [...run.input].reverse();
			break;
	}
	return run;
}

/** How many items a case prepares, and how many of them are approved. */
const itemCounts = (mutation: Mutation) =>
	mutation === 'itemAdded'
		? { prepared: 3, approved: 2 }
		: mutation === 'itemRemoved' || mutation === 'itemsReordered'
			? { prepared: 2, approved: 2 }
			: { prepared: 1, approved: 1 };

interface Verdict {
	case: Case;
	offered: boolean;
	sent: number;
	violations: string[];
}

/** Every value of an approval-time input, as text. */
function valuesOf(value: unknown, into: Set<string>, secrets: Set<string>, key = ''): void {
	if (value && typeof value === 'object') {
		for (const [name, inner] of Object.entries(value as IDataObject)) valuesOf(inner, into, secrets, name);
		return;
	}
	if (value === undefined || value === null || value === '') return;
	into.add(String(value));
	if (/cvv|cvc/i.test(key)) secrets.add(String(value));
}

const nodeError = (run: NodeRun) => (run.error ? ` (${run.error.message})` : '');

async function runCase(c: Case): Promise<Verdict> {
	const sb = await Sandbox.start();
	const wire: Wire = { log: [], seq: 0 };
	const proxies = [await recorder(sb.url, wire), await recorder(sb.url, wire)];
	try {
		const pick = random(c.seed);
		const counts = itemCounts(c.mutation);
		const items: IDataObject[] = [];
		let fixed: INodeParameters = {};
		for (let index = 0; index < counts.prepared; index++) {
			const { parameters } = await c.fixture.prepare(sb, c.generated ? '' : `pj${c.index}-${index}`, c.variant);
			fixed = parameters;
			const values = clone(parameters) as IDataObject;
			// A bank account with its routing number, so that another bank's can be tried
			const account = pathOf(values as INodeParameters, (name) => name === 'accountNumber');
			if (account) set(values, [...account.slice(0, -1), 'routingNumber'], '021000021');
			for (const name of FIXED) delete values[name];
			items.push(values);
		}
		const parameters: INodeParameters = {
			resource: fixed.resource,
			operation: fixed.operation,
			...template(items[0] as INodeParameters),
			...(c.mutation === 'extraFieldChanged'
				? { extraFields: { field: [{ name: 'merchant_note', value: '={{ $json.note }}' }] } }
				: {}),
			options: { timeoutSeconds: TIMEOUT_SECONDS },
		};
		const approvedRun: Run = {
			parameters,
			input: items.slice(0, counts.approved).map((p) => ({ p, note: 'approved' })),
			credentials: { baseUrl: `${proxies[0].origin}/paynet` },
		};
		const values = new Set<string>();
		const secrets = new Set<string>();
		valuesOf(approvedRun.input, values, secrets);
		const approval: ApprovalTime = { values, secrets, login: MERCHANT.login };

		// The rehearsal the approver saw.
		const dry = await runNode(
			sb,
			{ ...parameters, options: { ...(parameters.options as INodeParameters), dryRun: true } },
			{ input: approvedRun.input, credentials: approvedRun.credentials },
		);
		const violations: string[] = [];
		const rehearsal = dry.items.map((item) => item.json);
		const planId = String(rehearsal[0]?.planId ?? '');
		const offered = PLAN_ID.test(planId);
		const said = String((rehearsal[0]?.planSummary as IDataObject | undefined)?.note ?? '');
		if (!offered && !said.startsWith('No plan ID'))
			violations.push(`the dry run offered no plan and did not say why${nodeError(dry)}`);
		if (offered && new Set(rehearsal.map((item) => item.planId)).size !== 1)
			violations.push('the dry run gave its items different plan IDs');
		for (const request of wire.log.filter((candidate) => !isStatusQuery(candidate)))
			violations.push(`the dry run sent ${describeSent(request)}`);
		const approved: ShownRequest[] = offered
			? rehearsal.map((item) => {
					const shown = item.request as IDataObject;
					return { url: String(shown.url), fields: shown.fields as Record<string, string> };
				})
			: [];

		// The real run, bound to the approved plan ID (or, when none was offered, to a plan ID no dry run gave).
		const run = mutate(c, approvedRun, items, proxies[1].origin, pick);
		const bound = {
			...run.parameters,
			options: { ...(run.parameters.options as INodeParameters), approvedPlanId: offered ? planId : MADE_UP_PLAN_ID },
		};
		const execute = () => runNode(sb, bound, { input: run.input, credentials: run.credentials });
		const mark = wire.seq;
		await (c.runs === 'atOnce' ? Promise.all([execute(), execute()]) : execute());
		const afterFirst = wire.log.filter((request) => request.seq > mark);
		if (c.runs !== 'once') await execute();
		if (c.runs === 'inTurn') await execute();
		const sent = wire.log.filter((request) => request.seq > mark);
		violations.push(...judgeWire(approved, sent, approval, c.mutation === 'none' && offered ? afterFirst : undefined));
		return {
			case: c,
			offered,
			sent: sent.filter((request) => !isStatusQuery(request)).length,
			violations,
		};
	} catch (error) {
		return { case: c, offered: false, sent: 0, violations: [`the case could not run: ${(error as Error).message}`] };
	} finally {
		await Promise.all(proxies.map((proxy) => proxy.close()));
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

// ---------------------------------------------------------------------------------------------

let cases: Case[] = [];
let verdicts: Verdict[] = [];
let elapsed = 0;

beforeAll(async () => {
	const started = Date.now();
	// The shape of each operation's parameters (which mutations apply), from its fixture.
	const probe = await Sandbox.start();
	const shapes: Shapes = {};
	try {
		for (const key of MONEY_MOVING)
			for (const variant of [undefined, ...(FIXTURES[key].variants ?? [])])
				shapes[shapeKey(key, variant)] = (
					await FIXTURES[key].prepare(probe, `probe-${key}-${variant}`, variant)
				).parameters;
	} finally {
		await probe.close();
	}
	cases = buildCases(shapes);
	verdicts = await pool(cases, CONCURRENCY, runCase);
	elapsed = Date.now() - started;
}, scaled(300_000));
afterAll(() => {
	const failed = verdicts.filter((verdict) => verdict.violations.length);
	const count = (key: (verdict: Verdict) => string) => {
		const counts = new Map<string, number>();
		for (const verdict of verdicts) counts.set(key(verdict), (counts.get(key(verdict)) ?? 0) + 1);
		return [...counts].map(([name, n]) => `${name} ${n}`).join(', ');
	};
	console.log(
		[
			`plan judge: ${verdicts.length} cases on ${MONEY_MOVING.length} money-moving operations (seed ${SEED}) in ${(elapsed / 1000).toFixed(1)} s; ${failed.length} with violations`,
			`plans offered for approval: ${count((verdict) => (verdict.offered ? 'yes' : 'no'))}; requests sent by bound runs: ${verdicts.reduce((sum, verdict) => sum + verdict.sent, 0)}`,
			`not offered: ${[...new Set(verdicts.filter((verdict) => !verdict.offered).map((verdict) => verdict.case.key))].join(', ') || 'none'}`,
			`by change: ${count((verdict) => verdict.case.mutation)}`,
			...failed.map((verdict) =>
				[`✗ ${verdict.case.name}`, ...verdict.violations.map((violation) => `    → ${violation}`)].join('\n'),
			),
		].join('\n'),
	);
});

describe('the judge itself', () => {
	const approval: ApprovalTime = {
		values: new Set(['5555555555554444', '3.00']),
		secrets: new Set(['123']),
		login: 'merchant',
	};
	const shown: ShownRequest = {
		url: 'http://127.0.0.1:1/paynet/api/v2/sale/1001',
		fields: { login: 'merchant', amount: '3.00', credit_card_number: '555555******4444' },
	};
	const sent = (fields: Array<[string, string]>, change: Partial<WireRequest> = {}): WireRequest => ({
		seq: 1,
		origin: 'http://127.0.0.1:1',
		path: '/paynet/api/v2/sale/1001',
		fields,
		status: 200,
		reply: '{}',
		...change,
	});
	const exact: Array<[string, string]> = [
		['login', 'merchant'],
		['amount', '3.00'],
		['credit_card_number', '5555555555554444'],
		['cvv2', '123'],
		['control', 'abc'],
	];

	it('acquits the approved request, sent once', () => {
		expect(judgeWire([shown], [sent(exact)], approval, [sent(exact)])).toEqual([]);
	});

	it.each([
		[
			'another card with the same mask',
			[sent(exact.map(([n, v]) => [n, n === 'credit_card_number' ? '5555551234564444' : v]))],
		],
		['another amount', [sent(exact.map(([n, v]) => [n, n === 'amount' ? '4.00' : v]))]],
		['a field that was not approved', [sent([...exact, ['destination_account', 'X']])]],
		['an approved field left out', [sent(exact.filter(([n]) => n !== 'amount'))]],
		['another endpoint', [sent(exact, { path: '/paynet/api/v2/sale/1002' })]],
		['another base URL', [sent(exact, { origin: 'http://127.0.0.1:2' })]],
		['another merchant (OAuth)', [sent(exact, { consumerKey: 'other' })]],
		['another key (the signature refused)', [sent(exact, { status: 403 })]],
		['the approved request twice', [sent(exact), sent(exact, { seq: 2 })]],
	] as Array<[string, WireRequest[]]>)('convicts %s', (_name, wireRequests) => {
		expect(judgeWire([shown], wireRequests, approval)).not.toEqual([]);
	});

	it('convicts anything sent when nothing was approved, and an unchanged approved run that sent nothing', () => {
		expect(judgeWire([], [sent(exact)], approval)).not.toEqual([]);
		expect(judgeWire([shown], [], approval, [])).not.toEqual([]);
		expect(judgeWire([shown], [sent(exact, { path: '/paynet/api/v2/status/1001' })], approval)).toEqual([]);
	});
});

describe('a run bound to an approved plan sends exactly the approved requests or nothing, each at most once', () => {
	it('covers every money-moving operation of the node', () => {
		expect(MONEY_MOVING.length).toBeGreaterThan(0);
		expect(MONEY_MOVING.filter((key) => !FIXTURES[key])).toEqual([]);
		expect(new Set(verdicts.map((verdict) => verdict.case.key))).toEqual(new Set(MONEY_MOVING));
	});

	it.each(MONEY_MOVING.map((key) => [key]))('%s: 0 violations', (key) => {
		const mine = verdicts.filter((verdict) => verdict.case.key === key);
		expect(mine.length).toBeGreaterThan(0);
		const failed = mine.filter((verdict) => verdict.violations.length);
		if (failed.length)
			throw new Error(
				`${failed.length} of ${mine.length} cases:\n${failed
					.map((verdict) => [`✗ ${verdict.case.name}`, ...verdict.violations.map((v) => `    → ${v}`)].join('\n'))
					.join('\n')}`,
			);
	});
});
