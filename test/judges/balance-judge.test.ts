// The balance judge (issue 30): Balance → Get says "sufficient: true" only when the money truly
// available in the run's currency covers the run. Generated balance states in the sandbox (opening
// balance and adjustments, short-term hold, rolling reserve, payouts still pending, fields the reply
// leaves out, four balances in two merchants and three currencies), read by endpoint, merchant (all
// or one named) and manager, for one to three input items, through a network that passes the reply,
// re-encodes it in the legacy form, or lies (validation errors, error and status replies with an
// amount, HTTP 4xx/5xx with a balance in the body, fields cut out, another currency, an inflated live
// amount, a negative hold, a body without any amount), against Required Amounts around the truth in
// every currency. The truth is the judge's own: what it set (the configuration's opening balances,
// its adjustments, holds and pending payouts), cross-checked with the sandbox's view of its state;
// nothing here reads the node's code. Cases run on a few sandboxes at once.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import { Sandbox, runNode, type NodeRun } from '../support/harness';
import { scaled } from '../support/time-scale';
import { seeded } from '../support/seeded';

const { Client, MERCHANT, OTHER, CARD } = require('../support/sandbox-client') as {
	Client: new (sb: { url: string }) => {
		cid(prefix: string): string;
		oauth(
			pathUnderApi: string,
			params: Record<string, string>,
			o: { merchant: unknown },
		): Promise<{ status: number; data: IDataObject | null }>;
	};
	MERCHANT: { login: string };
	OTHER: { login: string };
	CARD: string;
};

interface Upstream {
	status: number;
	headers: Record<string, string | undefined>;
	body: Buffer;
}
interface OwnReply {
	status: number;
	type: string;
	body: string;
}
const { startHostileGateway } = require('../support/hostile-gateway') as {
	startHostileGateway(
		url: string,
		plan: (request: { url: string }) => { forward: true; reply?: (upstream?: Upstream) => OwnReply | undefined },
	): Promise<{ url: string; close(): Promise<void> }>;
};

const SEED = Number(process.env.BALANCE_JUDGE_SEED ?? 20261127);
const CASE_COUNT = 360;
const SANDBOXES = 4;

// ---------------------------------------------------------------------------------------------
// What the sandbox was set up with: its configuration file (merchants, endpoints, opening balances).

const CONFIG = JSON.parse(
	readFileSync(path.join(__dirname, '..', '..', 'sandbox', 'config', 'default.json'), 'utf8'),
) as {
	merchants: Array<{
		login: string;
		controlKey: string;
		endpoints: Array<{ id: number; currency: string }>;
		openingBalances?: Record<string, string>;
	}>;
	managers: Array<{ login: string; controlKey: string; merchants: string[] }>;
};
const MANAGER = CONFIG.managers[0];
const SIGNERS: Record<string, unknown> = { [MERCHANT.login]: MERCHANT, [OTHER.login]: OTHER };

const DIGITS: Record<string, number> = { USD: 2, EUR: 2, GBP: 2, JPY: 0 };
const CURRENCIES = Object.keys(DIGITS);

/** A decimal string as minor units of the currency (the judge's own reading: digits, never floats). */
function minorOf(text: string, currency: string): bigint {
	const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text.trim());
	if (!match) throw new Error(`not a decimal: ${text}`);
	const fraction = (match[3] ?? '').padEnd(DIGITS[currency], '0');
	if (fraction.length > DIGITS[currency] && /[1-9]/.test(fraction.slice(DIGITS[currency])))
		throw new Error(`${text} has more decimals than ${currency}`);
	const units = BigInt(match[2] + fraction.slice(0, DIGITS[currency]));
	return match[1] ? -units : units;
}

/** What the node output as an amount, in minor units; undefined when it is not one. */
function saidMinor(value: unknown, currency: string): bigint | undefined {
	try {
		return typeof value === 'string' ? minorOf(value, currency) : undefined;
	} catch {
		return undefined;
	}
}

function decimalOf(minor: bigint, currency: string): string {
	const digits = DIGITS[currency];
	const sign = minor < 0n ? '-' : '';
	const text = (minor < 0n ? -minor : minor).toString().padStart(digits + 1, '0');
	return digits ? `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}` : `${sign}${text}`;
}

// ---------------------------------------------------------------------------------------------
// Generated cases.

/** The reply fields the sandbox can leave out (name stays: it identifies the balance). */
const OMITTABLE = [
	'online-balance-live-amount',
	'total-short-term-hold-amount',
	'total-rolling-reserve-amount',
	'amount-buffer-hold',
	'amount',
	'currency',
] as const;
type Field = (typeof OMITTABLE)[number];

interface BalanceSetup {
	login: string;
	currency: string;
	endpointId: number;
	openingMinor: bigint;
	adjustMinor: bigint;
	holdMinor: bigint;
	reserveMinor: bigint;
	pendingMinors: bigint[];
	omit: Field[];
}

type Read =
	| { kind: 'endpoint'; endpointId: number }
	| { kind: 'merchant'; login: string; balanceName?: string }
	| { kind: 'manager' };

/** Replies that are not a balance: the run must stop with the gateway's error, outputting nothing. */
const NOT_BALANCES = [
	'validation400',
	'validation200',
	'validationJson400',
	'errorType200',
	'statusReply',
	'untypedStatusJson',
	'asyncResponse',
	'httpErrorWithBalance',
	'html200',
	'empty200',
	'noAmount',
] as const;
/** Replies that carry balances: each item is judged. */
const BALANCE_REPLIES = [
	'genuine',
	'legacy',
	'missingFields',
	'wrongCurrency',
	'inflatedLive',
	'negativeHold',
] as const;
type ReplyKind = (typeof NOT_BALANCES)[number] | (typeof BALANCE_REPLIES)[number];

interface Case {
	index: number;
	setups: BalanceSetup[];
	read: Read;
	/** As typed; `currency` and `minor` unless it is one the node must refuse. */
	required: { text: string; currency?: string; minor?: bigint };
	inputs: number;
	reply: ReplyKind;
	/** missingFields: what the network cuts out; wrongCurrency: the currency it names instead. */
	cut: Field[];
	relabel: string;
	httpStatus: number;
}

function random(seed: number) {
	const next = seeded(seed);
	const int = (below: number) => Math.floor(next() * below);
	return {
		int,
		chance: (p: number) => next() < p,
		pick: <T>(list: readonly T[]): T => list[int(list.length)],
		subset: <T>(list: readonly T[], p: number): T[] => list.filter(() => next() < p),
	};
}

const BALANCES = CONFIG.merchants.flatMap((merchant) =>
	merchant.endpoints
		.filter((endpoint, i, all) => all.findIndex((other) => other.currency === endpoint.currency) === i)
		.map((endpoint) => ({
			login: merchant.login,
			currency: endpoint.currency,
			endpointId: endpoint.id,
			openingMinor: minorOf(merchant.openingBalances?.[endpoint.currency] ?? '0', endpoint.currency),
		})),
);
const nameOf = (login: string, currency: string) => `${login}-${currency}`;

function buildCase(index: number): Case {
	const r = random(SEED + index * 7919);
	const scale = (currency: string) => BigInt(10 ** DIGITS[currency]);
	const amountUpTo = (currency: string, major: number) =>
		BigInt(r.int(major + 1)) * scale(currency) + BigInt(r.int(Number(scale(currency))));
	const setups: BalanceSetup[] = BALANCES.map((balance) => {
		const major = balance.currency === 'JPY' ? 2_000_000 : 20_000;
		const adjustMinor = r.chance(0.4) ? 0n : amountUpTo(balance.currency, major) - amountUpTo(balance.currency, major);
		return {
			...balance,
			adjustMinor,
			holdMinor: r.chance(0.4) ? 0n : amountUpTo(balance.currency, major / 2),
			reserveMinor: r.chance(0.4) ? 0n : amountUpTo(balance.currency, major / 4),
			pendingMinors: Array.from(
				{ length: r.chance(0.6) ? 0 : 1 + r.int(2) },
				() => 1n + amountUpTo(balance.currency, major / 4),
			),
			omit: r.chance(0.5) ? [] : r.subset(OMITTABLE, 0.3),
		};
	});
	const merchantLogin = r.pick(CONFIG.merchants).login;
	const ofMerchant = setups.filter((setup) => setup.login === merchantLogin);
	const read: Read = r.pick<() => Read>([
		() => ({ kind: 'endpoint', endpointId: r.pick(ofMerchant).endpointId }),
		() => ({ kind: 'merchant', login: merchantLogin }),
		() => {
			const named = r.pick(ofMerchant);
			return { kind: 'merchant', login: merchantLogin, balanceName: nameOf(named.login, named.currency) };
		},
		() => ({ kind: 'manager' }),
	])();
	const inScope = scopeOf({ setups, read } as Case);
	// Most runs need a currency the read has, around what is truly there; some another currency.
	const target = r.pick(inScope);
	const currency = r.chance(0.8) ? target.currency : r.pick(CURRENCIES);
	const truth = target.currency === currency ? availableMinor(target) : 0n;
	let minor = r.pick([
		truth,
		truth + 1n,
		truth - 1n,
		truth / 2n,
		truth + amountUpTo(currency, 100),
		amountUpTo(currency, 30_000),
	]);
	if (minor <= 0n) minor = 1n + amountUpTo(currency, 500);
	const required = { text: requiredText(r, minor, currency), currency, minor };
	const invalid = r.chance(0.04)
		? r.pick([
				decimalOf(minor, currency),
				`${decimalOf(minor, currency)} ${currency} + 1 ${currency === 'EUR' ? 'USD' : 'EUR'}`,
			])
		: undefined;
	const reply: ReplyKind = r.chance(0.3) ? r.pick(NOT_BALANCES) : r.pick(BALANCE_REPLIES);
	return {
		index,
		setups,
		read,
		required: invalid ? { text: invalid } : required,
		inputs: 1 + r.int(3),
		reply,
		cut: r.subset(OMITTABLE, 0.4),
		relabel: r.pick(CURRENCIES.filter((other) => other !== currency)),
		httpStatus: r.pick([400, 401, 403, 404, 429, 500, 502, 503]),
	};
}

/** "500.00 USD", or the same total as two or three terms joined with "+", the currency in either case. */
function requiredText(r: ReturnType<typeof random>, minor: bigint, currency: string): string {
	const terms: bigint[] = [];
	let left = minor;
	for (let parts = 1 + r.int(3); parts > 1 && left > 1n; parts--) {
		const part = 1n + BigInt(r.int(Number(left < 1_000_000n ? left - 1n : 1_000_000n)));
		terms.push(part);
		left -= part;
	}
	terms.push(left);
	return terms
		.map((term) => `${decimalOf(term, currency)} ${r.chance(0.2) ? currency.toLowerCase() : currency}`)
		.join(' + ');
}

/** The balances the read asks about. */
function scopeOf(c: Pick<Case, 'setups' | 'read'>): BalanceSetup[] {
	const { read } = c;
	if (read.kind === 'manager') return c.setups.filter((setup) => MANAGER.merchants.includes(setup.login));
	if (read.kind === 'endpoint') {
		const merchant = CONFIG.merchants.find((m) => m.endpoints.some((endpoint) => endpoint.id === read.endpointId))!;
		const currency = merchant.endpoints.find((endpoint) => endpoint.id === read.endpointId)!.currency;
		return c.setups.filter((setup) => setup.login === merchant.login && setup.currency === currency);
	}
	return c.setups.filter(
		(setup) =>
			setup.login === read.login && (!read.balanceName || nameOf(setup.login, setup.currency) === read.balanceName),
	);
}

// ---------------------------------------------------------------------------------------------
// The truth: what the judge set.

const grossMinor = (setup: BalanceSetup) => setup.openingMinor + setup.adjustMinor;
const pendingMinor = (setup: BalanceSetup) => setup.pendingMinors.reduce((sum, minor) => sum + minor, 0n);
/** Free for payouts: the balance less what is held, reserved and already on its way out. */
const availableMinor = (setup: BalanceSetup) =>
	grossMinor(setup) - setup.holdMinor - setup.reserveMinor - pendingMinor(setup);

/** Sets one balance up in the sandbox: adjustment, hold and reserve, payouts left pending. */
async function arrange(sb: Sandbox, client: InstanceType<typeof Client>, setup: BalanceSetup) {
	const body = { merchant: setup.login, currency: setup.currency };
	if (setup.adjustMinor !== 0n)
		await sb.admin('POST', 'balance-adjustments', { ...body, amount: decimalOf(setup.adjustMinor, setup.currency) });
	if (setup.holdMinor || setup.reserveMinor || setup.omit.length) {
		await sb.admin('POST', 'balance-terms', {
			...body,
			shortTermHold: decimalOf(setup.holdMinor, setup.currency),
			rollingReserve: decimalOf(setup.reserveMinor, setup.currency),
			omit: setup.omit,
		});
	}
	for (const minor of setup.pendingMinors) {
		const payout = await client.oauth(
			`v2/payout/${setup.endpointId}`,
			{
				client_orderid: client.cid('judge-po'),
				amount: decimalOf(minor, setup.currency),
				currency: setup.currency,
				credit_card_number: CARD,
				expire_month: '12',
				expire_year: '2035',
			},
			{ merchant: SIGNERS[setup.login] },
		);
		if (payout.data?.type !== 'async-response') throw new Error(`payout refused: ${JSON.stringify(payout.data)}`);
	}
}

// ---------------------------------------------------------------------------------------------
// The network: passes, re-encodes or lies.

type Balance = Record<string, string>;

const legacyBody = (records: Balance[]) =>
	records
		.flatMap((record) =>
			Object.entries(record).map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}\n`),
		)
		.join('&');
const LEGACY = 'text/html;charset=utf-8';
const JSON_TYPE = 'application/vnd.pay+json';

function balancesOf(upstream: Upstream): { head: Balance; balances: Balance[] } {
	const { balances, ...head } = JSON.parse(upstream.body.toString('utf8')) as Balance & { balances: Balance[] };
	return { head, balances };
}

const withBalances = (upstream: Upstream, change: (balance: Balance) => Balance): OwnReply => {
	const { head, balances } = balancesOf(upstream);
	return { status: 200, type: JSON_TYPE, body: JSON.stringify({ ...head, balances: balances.map(change) }) };
};

const INFLATABLE: readonly Field[] = [
	'online-balance-live-amount',
	'amount',
	'total-short-term-hold-amount',
	'total-rolling-reserve-amount',
];

function liar(c: Case): (upstream?: Upstream) => OwnReply | undefined {
	const currency = c.required.currency ?? 'USD';
	const rich = '999999999.00';
	const legacy = (fields: Balance, status = 200): OwnReply => ({ status, type: LEGACY, body: legacyBody([fields]) });
	const order = {
		'paynet-order-id': '7000123',
		'merchant-order-id': 'inv-1',
		'serial-number': '00000000-0000-0000-0000-00000000abcd',
	};
	const replies: Record<ReplyKind, (upstream: Upstream) => OwnReply | undefined> = {
		genuine: () => undefined,
		legacy: (upstream) => {
			const { head, balances } = balancesOf(upstream);
			return { status: 200, type: LEGACY, body: legacyBody([head, ...balances]) };
		},
		missingFields: (upstream) =>
			withBalances(upstream, (balance) =>
				Object.fromEntries(Object.entries(balance).filter(([name]) => !c.cut.includes(name as Field))),
			),
		wrongCurrency: (upstream) =>
			withBalances(upstream, (balance) => ({
				...balance,
				...(balance.currency ? { currency: c.relabel } : {}),
				amount: rich,
				'online-balance-live-amount': rich,
			})),
		// Only where the reply lists what the live amount should be (the balance and its holds): a
		// consistent lie is the truth as far as anyone reading the reply can tell.
		inflatedLive: (upstream) =>
			withBalances(upstream, (balance) =>
				INFLATABLE.every((field) => field in balance) ? { ...balance, 'online-balance-live-amount': rich } : balance,
			),
		negativeHold: (upstream) =>
			withBalances(upstream, (balance) => ({
				...balance,
				'total-short-term-hold-amount': '-500000.00',
				'online-balance-live-amount': rich,
			})),
		validation400: () =>
			legacy(
				{
					type: 'validation-error',
					'error-message': 'Judge says: invalid endpoint',
					'error-code': '2',
					amount: rich,
					currency,
				},
				400,
			),
		validation200: () =>
			legacy({
				type: 'validation-error',
				'error-message': 'Judge says: invalid login',
				'error-code': '2',
				amount: rich,
				currency,
			}),
		validationJson400: () => ({
			status: 400,
			type: JSON_TYPE,
			body: JSON.stringify({
				type: 'validation-error',
				'error-message': 'Judge says: bad request',
				'error-code': 1,
				amount: rich,
				currency,
			}),
		}),
		errorType200: () =>
			legacy({
				type: 'error',
				'error-message': 'Judge says: internal error',
				'error-code': '5',
				amount: rich,
				currency,
			}),
		statusReply: () => legacy({ type: 'status-response', status: 'approved', amount: rich, currency, ...order }),
		untypedStatusJson: () => ({
			status: 200,
			type: JSON_TYPE,
			body: JSON.stringify({ status: 'approved', amount: rich, currency, ...order }),
		}),
		asyncResponse: () => legacy({ type: 'async-response', amount: rich, currency, ...order }),
		httpErrorWithBalance: (upstream) => ({
			...withBalances(upstream, (balance) => ({ ...balance, amount: rich })),
			status: c.httpStatus,
		}),
		html200: () => ({
			status: 200,
			type: 'text/html',
			body: '<html><body><h1>Maintenance</h1><a href="/?amount=5&currency=USD">x</a></body></html>',
		}),
		empty200: () => ({ status: 200, type: LEGACY, body: '' }),
		noAmount: () => legacy({ type: 'get-balance-response', name: 'judge-balance', currency }),
	};
	return (upstream) => (upstream ? replies[c.reply](upstream) : undefined);
}

/** The fields the node receives for one balance: what the sandbox left in, less what the network cut out. */
function shown(c: Case, setup: BalanceSetup): Set<Field> {
	const fields = new Set<Field>(OMITTABLE.filter((field) => !setup.omit.includes(field)));
	if (c.reply === 'missingFields') for (const field of c.cut) fields.delete(field);
	return fields;
}

// ---------------------------------------------------------------------------------------------
// Judging one run.

/**
 * What a balance item must say, from the judge's truth and the fields its reply shows: the free
 * amount when the reply shows it (live amount and pending payouts, or the balance and every hold
 * and pending payouts; an inflated live amount is checked against the balance less its holds; a
 * negative hold shows nothing), unknown otherwise; false for another currency.
 */
function expected(c: Case, setup: BalanceSetup): { sufficient: boolean | null; available?: bigint | null } {
	const fields = shown(c, setup);
	if (c.reply === 'wrongCurrency') return { sufficient: fields.has('currency') ? false : null };
	const live = fields.has('online-balance-live-amount');
	const holdsListed =
		fields.has('amount') && fields.has('total-short-term-hold-amount') && fields.has('total-rolling-reserve-amount');
	let available: bigint | null;
	if (!fields.has('amount-buffer-hold') || c.reply === 'negativeHold') available = null;
	else available = live || holdsListed ? availableMinor(setup) : null;
	if (!fields.has('currency')) return { sufficient: null, available };
	if (setup.currency !== c.required.currency) return { sufficient: false, available };
	if (available === null) return { sufficient: null, available };
	return { sufficient: available >= c.required.minor!, available };
}

function judge(c: Case, run: NodeRun, balanceRequests: number, stateProblems: string[]): string[] {
	const problems = [...stateProblems];
	const items = run.items.map((item) => item.json);
	if (!c.required.currency) {
		if (run.error?.name !== 'NodeOperationError' || !/^"Required Amount"/.test(run.error.message))
			problems.push(`Required Amount "${c.required.text}" not refused by name: ${run.error?.message ?? 'no error'}`);
		if (balanceRequests !== 0)
			problems.push(`${balanceRequests} balance request(s) sent for a refused Required Amount`);
		return problems;
	}
	if (balanceRequests !== 1) problems.push(`${balanceRequests} balance requests for one run of ${c.inputs} item(s)`);
	const withoutAmount = (setup: BalanceSetup) =>
		!shown(c, setup).has('amount') && !shown(c, setup).has('online-balance-live-amount');
	// A reply whose balances show no amount at all says nothing about money: not a balance either.
	const notABalance =
		(NOT_BALANCES as readonly string[]).includes(c.reply) ||
		(!['wrongCurrency', 'negativeHold'].includes(c.reply) && scopeOf(c).every(withoutAmount));
	if (notABalance) {
		if (items.length) problems.push(`${items.length} item(s) out of a reply that is not a balance (${c.reply})`);
		if (run.error?.name !== 'NodeApiError')
			problems.push(`${c.reply}: not a NodeApiError: ${run.error?.name} ${run.error?.message}`);
		else if (/^validation|errorType/.test(c.reply) && !run.error.message.includes('Judge says'))
			problems.push(`${c.reply}: the gateway's message is not in "${run.error.message}"`);
		return problems;
	}
	if (run.error) return [...problems, `${c.reply}: the run failed: ${run.error.message}`];
	const scope = scopeOf(c);
	const names = items.map((item) => String(item.name));
	const wanted = scope.map((setup) => nameOf(setup.login, setup.currency));
	if (names.length !== wanted.length || wanted.some((name) => !names.includes(name)))
		problems.push(`balances ${JSON.stringify(names)}, wanted each of ${JSON.stringify(wanted)} once`);
	for (const item of items) {
		const setup = scope.find((candidate) => nameOf(candidate.login, candidate.currency) === item.name);
		if (!setup) continue;
		problems.push(...judgeItem(c, setup, item).map((problem) => `${item.name}: ${problem}`));
	}
	return problems;
}

function judgeItem(c: Case, setup: BalanceSetup, item: IDataObject): string[] {
	const problems: string[] = [];
	const currency = c.required.currency!;
	const truth = availableMinor(setup);
	// The promise: never "sufficient" unless the money truly free in the run's currency covers the run.
	if (
		item.sufficient === true &&
		(setup.currency !== currency || String(item.currency).toUpperCase() !== currency || truth < c.required.minor!)
	)
		problems.push(
			`VIOLATION "sufficient: true" for ${decimalOf(c.required.minor!, currency)} ${currency}: truly available ${decimalOf(truth, setup.currency)} ${setup.currency}`,
		);
	if (item.requiredCurrency !== currency || saidMinor(item.requiredAmount, currency) !== c.required.minor)
		problems.push(`required ${item.requiredAmount} ${item.requiredCurrency}, typed ${c.required.text}`);
	const want = expected(c, setup);
	if (item.sufficient !== want.sufficient)
		problems.push(`sufficient ${item.sufficient}, the truth says ${want.sufficient}`);
	if (typeof item.sufficientReason !== 'string' || !item.sufficientReason) problems.push('no sufficientReason');
	if (want.available !== undefined) {
		const said = item.availableForPayouts === null ? null : saidMinor(item.availableForPayouts, setup.currency);
		if (said !== want.available)
			problems.push(
				`available ${item.availableForPayouts}, truly ${want.available === null ? 'unknown' : decimalOf(want.available, setup.currency)}`,
			);
		if ((item.availableFrom === null) !== (want.available === null))
			problems.push(`availableFrom ${item.availableFrom}`);
	}
	return problems;
}

// ---------------------------------------------------------------------------------------------
// Running.

async function runCase(sb: Sandbox, client: InstanceType<typeof Client>, proxyUrl: string, c: Case): Promise<string[]> {
	await sb.reset();
	for (const setup of c.setups) await arrange(sb, client, setup);
	const state = await sb.admin<{
		balances: Array<{
			merchant: string;
			currency: string;
			amountMinor: number;
			bufferHoldMinor: number;
			shortTermHoldMinor: number;
			rollingReserveMinor: number;
		}>;
	}>('GET', 'balances');
	// The sandbox's view of its state must be what the judge set.
	const stateProblems = c.setups.flatMap((setup) => {
		const seen = state.balances.find(
			(balance) => balance.merchant === setup.login && balance.currency === setup.currency,
		);
		const set = [grossMinor(setup), pendingMinor(setup), setup.holdMinor, setup.reserveMinor];
		const got =
			seen && [seen.amountMinor, seen.bufferHoldMinor, seen.shortTermHoldMinor, seen.rollingReserveMinor].map(BigInt);
		return got && got.every((value, i) => value === set[i])
			? []
			: [`sandbox state ${JSON.stringify(seen)} is not what was set`];
	});
	const { read } = c;
	const parameters = {
		resource: 'balance',
		operation: 'get',
		balanceOf: read.kind,
		...(read.kind === 'endpoint' ? { endpointId: String(read.endpointId) } : {}),
		...(read.kind === 'merchant' ? { login: read.login, balanceName: read.balanceName ?? '' } : {}),
		options: { requiredAmount: c.required.text, timeoutSeconds: 5 },
	};
	// Signed by whoever owns what is read: the manager, or the merchant (of the endpoint).
	const owner = read.kind === 'manager' ? MANAGER : CONFIG.merchants.find((m) => m.login === scopeOf(c)[0].login)!;
	const signer = { login: owner.login, controlKey: owner.controlKey };
	current.set(proxyUrl, c);
	const run = await runNode(sb, parameters, {
		input: Array.from({ length: c.inputs }, (_, n) => ({ n })),
		credentials: { baseUrl: `${proxyUrl}/paynet`, ...signer },
	});
	const balanceRequests = (await sb.requests()).filter((request) => request.path.includes('/get-balance')).length;
	for (const item of run.items) said[String(item.json.sufficient) as keyof typeof said]++;
	if (run.error) said[run.error.name === 'NodeApiError' ? 'apiError' : 'otherError']++;
	return judge(c, run, balanceRequests, stateProblems);
}

/** What the node said, over all cases: it must say each (a judge of nothing but errors proves nothing). */
const said = { true: 0, false: 0, null: 0, undefined: 0, apiError: 0, otherError: 0 };

/** The case each proxy is serving now (one case at a time per sandbox). */
const current = new Map<string, Case>();

test(
	`balance judge: "sufficient" only from money truly available, ${CASE_COUNT} generated cases, 0 violations`,
	async () => {
		const cases = Array.from({ length: CASE_COUNT }, (_, index) => buildCase(index));
		const violations: string[] = [];
		let next = 0;
		const worker = async () => {
			const sb = await Sandbox.start({ pollsBeforeFinal: 1_000_000 });
			const client = new Client(sb);
			let proxyUrl = '';
			const proxy = await startHostileGateway(sb.url, () => ({ forward: true, reply: liar(current.get(proxyUrl)!) }));
			proxyUrl = proxy.url;
			try {
				while (next < cases.length) {
					const c = cases[next++];
					const problems = await runCase(sb, client, proxyUrl, c).catch((error: Error) => [
						`the case broke: ${error.message}`,
					]);
					const label = `case ${c.index} (${c.reply}, ${c.read.kind}${'balanceName' in c.read && c.read.balanceName ? ' named' : ''}, "${c.required.text}", ${c.inputs} item(s))`;
					violations.push(...problems.map((problem) => `${label}: ${problem}`));
				}
			} finally {
				await proxy.close();
				await sb.close();
			}
		};
		await Promise.all(Array.from({ length: SANDBOXES }, worker));
		const counts = cases.reduce<Record<string, number>>(
			(all, c) => ({ ...all, [c.reply]: (all[c.reply] ?? 0) + 1 }),
			{},
		);
		const promiseBroken = violations.filter((violation) => violation.includes('VIOLATION')).length;
		console.log(
			`balance judge: ${cases.length} cases (seed ${SEED}; replies ${JSON.stringify(counts)}; the node said ${JSON.stringify(said)}), ${violations.length} violation(s), ${promiseBroken} of them "sufficient: true" without the money`,
		);
		expect(violations.slice(0, 30)).toEqual([]);
		expect(violations).toHaveLength(0);
		for (const outcome of ['true', 'false', 'null', 'apiError', 'otherError'] as const)
			expect(said[outcome]).toBeGreaterThan(0);
	},
	scaled(120_000),
);
