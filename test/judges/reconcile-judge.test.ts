// The reconciliation judge (issue 30): Transaction → Reconcile promises "these are all the differences,
// and this is the money". Generated histories are made in a sandbox of their own per case (sales,
// preauth → capture, voids, cancels, partial and full refunds, chargebacks, declines, pending orders,
// payouts paid at once, checked and maybe never paid, several gateway orders under one merchant order ID,
// a payout and a sale sharing one, orders at and across the period's edges and midnight in the server's
// zone), against generated books (matching, missing, unknown, duplicated, another amount, currency or
// status), read through every report layout the sandbox serves (its own, the platform's transactions
// and orders layouts, as CSV or as text/html, cut short, empty) or by status queries. The truth comes
// from the sandbox's admin API (order views and ledger: test/support/reconcile-cases.ts), never from the
// node's code; Reconcile's output must equal it, or the run must fail saying the gateway's side could
// not be read whole. RECONCILE_JUDGE_SEED and RECONCILE_JUDGE_CASES change the seed and the count.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MERCHANT, Sandbox, runNode, type NodeRun } from '../support/harness';
import {
	booksOf,
	generateCase,
	namedByStatus,
	reportTruth,
	seeded,
	statusTruth,
	worldOf,
	type Case,
	type Expected,
	type Layout,
} from '../support/reconcile-cases';
import { scaled } from '../support/time-scale';

const SEED = Number(process.env.RECONCILE_JUDGE_SEED ?? 30);
const COUNT = Number(process.env.RECONCILE_JUDGE_CASES ?? 200);
const CONCURRENCY = 6;
const NOT_WHOLE = /^The gateway's side could not be read whole: /;

interface Verdict {
	c: Case;
	violations: string[];
	failedAsPartial: boolean;
	/** The true differences of the case, by kind (none when it failed). */
	truth: Record<string, number>;
}

/** One gateway order of an output item, field by field. */
type Side = Record<string, unknown>;

/** A Reconcile output item, as the judge reads it. */
interface Json {
	merchantOrderId?: string;
	/** The item's differences; the summary's counts of them. */
	differences?: unknown;
	message?: string;
	yours?: Record<string, unknown> | null;
	gateway?: Side | null;
	gatewayOrderList?: Side[];
	summary?: boolean;
	gatewaySide?: string;
	[field: string]: unknown;
}

// ---------------------------------------------------------------------------------------------
// Reconcile's output, reduced to what the truth states (amounts compared by value).

const AMOUNT_FIELDS = [
	'amount',
	'net',
	'captured',
	'held',
	'holdReleased',
	'voided',
	'refunded',
	'chargedBack',
	'paid',
];
const ORDER_FIELDS = ['orderId', 'kind', 'type', 'status', 'currency', 'createdBeforePeriod', ...AMOUNT_FIELDS];

/** "10.5" → "10.50", "-3" → "-3.00": two decimals (USD and EUR). */
function money(value: unknown): string {
	const text = String(value);
	const match = /^(-?)(\d+)(?:\.(\d{1,3}))?$/.exec(text);
	if (!match) return `not an amount: ${text}`;
	return `${match[1]}${Number(match[2])}.${(match[3] ?? '').padEnd(2, '0')}`;
}

function orderOf(side: Side, status: boolean): Side {
	const order: Side = {};
	for (const field of ORDER_FIELDS)
		if (side[field] !== undefined) order[field] = AMOUNT_FIELDS.includes(field) ? money(side[field]) : side[field];
	const latest = side.latest as Side | undefined;
	if (status && latest) order.latest = JSON.stringify({ ...latest, amount: money(latest.amount) });
	return order;
}

function expectedOrderOf(order: Side): Side {
	const copy: Side = {};
	for (const [field, value] of Object.entries(order))
		if (value !== undefined) copy[field] = AMOUNT_FIELDS.includes(field) ? money(value) : value;
	return copy;
}

/** JSON with its keys sorted: the same facts give the same text. */
const key = (value: unknown): string =>
	JSON.stringify(value, (_name, inner) =>
		inner && typeof inner === 'object' && !Array.isArray(inner)
			? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
			: inner,
	);
const yoursOf = (yours: { amount?: unknown; currency?: unknown; status?: unknown } | null | undefined) =>
	yours && { amount: money(yours.amount), currency: yours.currency, status: yours.status };

/** The differences between Reconcile's items and the truth's, as violations. */
function judge(expected: Expected, output: Json[], side: 'report' | 'status'): string[] {
	const violations: string[] = [];
	const summary = output.at(-1);
	if (!summary?.summary) return [`the last item is not the summary: ${JSON.stringify(summary)?.slice(0, 200)}`];
	const said = output.slice(0, -1).map((item) => ({
		merchantOrderId: item.merchantOrderId,
		differences: item.differences,
		yours: yoursOf(item.yours),
		orders: (item.gateway ? [item.gateway] : (item.gatewayOrderList ?? [])).map((order) =>
			orderOf(order, side === 'status'),
		),
	}));
	const truth = expected.items.map((item) => ({
		merchantOrderId: item.merchantOrderId,
		differences: item.differences,
		yours: yoursOf(item.yours),
		orders: item.orders.map(expectedOrderOf),
	}));
	const saidKeys = said.map(key);
	const truthKeys = truth.map(key);
	const left = [...truthKeys];
	for (const item of saidKeys) {
		const at = left.indexOf(item);
		if (at >= 0) left.splice(at, 1);
		else violations.push(`said, untrue: ${item}`);
	}
	for (const item of left) violations.push(`true, not said: ${item}`);
	for (const item of expected.items)
		for (const words of item.says) {
			const message = output.find((candidate) => candidate.merchantOrderId === item.merchantOrderId)?.message;
			if (!String(message).includes(words))
				violations.push(`the message of ${item.merchantOrderId} does not say "${words}": ${message}`);
		}
	for (const [field, value] of Object.entries(expected.summary)) {
		if (key(summary[field]) !== key(value))
			violations.push(`summary ${field}: said ${key(summary[field])}, true ${key(value)}`);
	}
	if (summary.gatewaySide !== side) violations.push(`summary gatewaySide ${summary.gatewaySide}, not ${side}`);
	return violations;
}

// ---------------------------------------------------------------------------------------------
// One case.

const reconcile = (c: Case): INodeParameters => ({
	resource: 'transaction',
	operation: 'reconcile',
	gatewaySide: c.side,
	createdFrom: c.period.from,
	createdTo: c.period.to,
	merchantOrderId: '={{ $json.merchantOrderId }}',
	amount: '={{ $json.amount }}',
	currency: '={{ $json.currency }}',
	expectedStatus: '={{ $json.status }}',
	options: { ...c.filter },
});

async function runCase(c: Case, index: number): Promise<Verdict> {
	const sb = await Sandbox.start();
	const violations: string[] = [];
	let failedAsPartial = false;
	let truth: Record<string, number> = {};
	try {
		await sb.admin('POST', 'histories', { histories: c.histories });
		const world = await worldOf(sb);
		c.books = booksOf(seeded(SEED * 7919 + index), world, index);
		await sb.admin('POST', `merchants/${MERCHANT.login}/report`, { layout: c.layout, contentType: c.contentType });
		const named = new Map<string, string | undefined>();
		if (c.side === 'status') {
			for (const book of c.books)
				if (!named.has(book.merchantOrderId))
					named.set(book.merchantOrderId, await namedByStatus(sb, book.merchantOrderId));
			// A status query names one order per ID: the books' IDs the gateway has must each be named.
			for (const [id, orderid] of named)
				if (!orderid && world.orders.some((order) => order.client_orderid === id))
					violations.push(`judge: the status query names no order for ${id}, which the gateway has`);
		}
		let faultId: string | undefined;
		if (c.fault) faultId = ((await sb.fault(c.fault)).faults as Array<{ id: string }>)[0].id;
		const run: NodeRun = await runNode(sb, reconcile(c), { input: c.books as unknown as IDataObject[] });
		const after = await worldOf(sb);
		if (after.ledger.length !== world.ledger.length) violations.push('Reconcile changed the ledger');
		const { faults } = await sb.admin<{ faults: Array<{ id: string; used: number }> }>('GET', 'faults');
		const faulted = !!faultId && (faults.find((fault) => fault.id === faultId)?.used ?? 0) > 0;
		if (run.error) {
			failedAsPartial = NOT_WHOLE.test(run.error.message);
			if (!faulted) violations.push(`failed without a fault: ${run.error.message}`);
			else if (!failedAsPartial)
				violations.push(`failed without saying the gateway's side was not read whole: ${run.error.message}`);
			if (run.items.length) violations.push('failed, yet output items');
		} else if (faulted) {
			violations.push(`${c.fault!.kind}: a partial read output ${run.items.length} items instead of failing`);
		} else if (!run.items.length) {
			violations.push(`no output and no error: ${run.serialised.slice(0, 1500)}`);
		} else {
			const expected = c.side === 'report' ? reportTruth(c, world) : statusTruth(c, world, named);
			truth = expected.summary.differences;
			violations.push(
				...judge(
					expected,
					run.items.map((item) => item.json as Json),
					c.side,
				),
			);
		}
	} catch (error) {
		violations.push(`the case could not run: ${(error as Error).stack ?? error}`);
	} finally {
		await sb.close();
	}
	return { c, violations, failedAsPartial, truth };
}

async function pool<T, R>(
	items: readonly T[],
	size: number,
	work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
	const results: R[] = new Array(items.length);
	let next = 0;
	await Promise.all(
		Array.from({ length: Math.min(size, items.length) }, async () => {
			while (next < items.length) {
				const index = next++;
				results[index] = await work(items[index], index);
			}
		}),
	);
	return results;
}

// ---------------------------------------------------------------------------------------------

let verdicts: Verdict[] = [];
let cases: Case[] = [];
let elapsed = 0;

beforeAll(async () => {
	const started = Date.now();
	const { report } = await (async () => {
		const sb = await Sandbox.start();
		try {
			return await sb.admin<{ report: { serverTimeZone: string } }>('GET', '');
		} finally {
			await sb.close();
		}
	})();
	// The sandbox's own layout reads the period in UTC, the platform's layouts in the server's zone.
	const zone = (layout: Layout) => (layout === 'sandbox' ? 'UTC' : report.serverTimeZone);
	const random = seeded(SEED);
	cases = Array.from({ length: COUNT }, (_, index) => generateCase(random, index, zone));
	verdicts = await pool(cases, CONCURRENCY, runCase);
	elapsed = Date.now() - started;
}, scaled(240_000));
afterAll(() => {
	const count = (name: (c: Case) => string) => {
		const counts = new Map<string, number>();
		for (const c of cases) counts.set(name(c), (counts.get(name(c)) ?? 0) + 1);
		return [...counts].map(([label, n]) => `${label} ${n}`).join(', ');
	};
	const failed = verdicts.filter((verdict) => verdict.violations.length);
	console.log(
		[
			`reconcile judge: ${verdicts.length} cases (seed ${SEED}) in ${(elapsed / 1000).toFixed(1)} s; ${failed.length} with violations`,
			`by side and layout: ${count((c) => (c.side === 'status' ? 'status' : `${c.layout} ${c.contentType}`))}`,
			`faults: ${count((c) => c.fault?.kind ?? 'none')}; failed as a partial read: ${verdicts.filter((verdict) => verdict.failedAsPartial).length}`,
			`true differences: ${[...new Set(verdicts.flatMap((verdict) => Object.keys(verdict.truth)))]
				.map((kind) => `${kind} ${verdicts.reduce((n, verdict) => n + (verdict.truth[kind] ?? 0), 0)}`)
				.join(', ')}`,
			`histories: ${cases.reduce((n, c) => n + c.histories.length, 0)} orders, ${cases.reduce((n, c) => n + c.histories.reduce((s, h) => s + h.steps.length, 0), 0)} follow-ups, ${cases.reduce((n, c) => n + c.books.length, 0)} book records`,
			...failed
				.slice(0, 12)
				.map((verdict) => `✗ ${verdict.c.name}\n    ${verdict.violations.slice(0, 6).join('\n    ')}`),
		].join('\n'),
	);
});

it('Reconcile says exactly the differences and the money the sandbox shows, or fails saying the read was partial', () => {
	expect(verdicts).toHaveLength(COUNT);
	const failed = verdicts.filter((verdict) => verdict.violations.length);
	expect(failed.map((verdict) => `${verdict.c.name}: ${verdict.violations.join(' | ')}`)).toEqual([]);
});

it('the cases cover every layout, both content types, both sides, each fault and the kinds of history', () => {
	const names = cases.map((c) => c.name).join('\n');
	for (const word of [
		'sandbox',
		'transactions',
		'orders',
		'text/html',
		'text/csv',
		'status',
		'report-cut-mid-row',
		'report-cut-at-row',
		'report-empty',
		'http500',
		'narrow',
	])
		expect(names).toContain(word);
	const histories = cases.flatMap((c) => c.histories);
	for (const operation of ['sale', 'preauth', 'payout', 'payout-check'])
		expect(histories.some((history) => history.operation === operation)).toBe(true);
	for (const outcome of ['approved', 'declined', 'pending'])
		expect(histories.some((history) => history.outcome === outcome)).toBe(true);
	const steps = histories.flatMap((history) => history.steps.map((step) => step.op));
	for (const op of ['capture', 'void', 'return', 'chargeback', 'pay']) expect(steps).toContain(op);
	const several = cases.some((c) =>
		c.histories.some((history, i) =>
			c.histories.some(
				(other, j) =>
					i !== j && other.merchantOrderId === history.merchantOrderId && other.operation !== history.operation,
			),
		),
	);
	expect(several).toBe(true);
	expect(verdicts.filter((verdict) => verdict.failedAsPartial).length).toBeGreaterThan(0);
});

describe('the judge itself', () => {
	const book = { merchantOrderId: 'o-1', amount: '10.00', currency: 'USD', status: 'approved' };
	const voided: Expected = {
		items: [
			{
				merchantOrderId: 'o-1',
				differences: ['voidedSince'],
				yours: book,
				orders: [
					{
						orderId: '1',
						kind: 'sale',
						type: 'sale',
						status: 'approved',
						amount: '10.00',
						currency: 'USD',
						net: '0.00',
						voided: '10.00',
					},
				],
				says: [],
			},
		],
		summary: {
			yourRecords: 1,
			gatewayOrders: 1,
			matching: 0,
			differences: { voidedSince: 1 },
			unknownToYouLeftOut: 0,
			totals: { yours: { USD: '10.00' } },
		},
	};
	const summary = (fields: Side = {}) => ({ summary: true, gatewaySide: 'report', ...voided.summary, ...fields });

	it('convicts a voided sale read as matching, and a total that counts it', () => {
		expect(judge(voided, [summary({ matching: 1, differences: {} })], 'report')).not.toEqual([]);
	});

	it('convicts a net that is not the money, and a refund whose message lacks the amount', () => {
		const item = {
			merchantOrderId: 'o-1',
			differences: ['voidedSince'],
			yours: book,
			gateway: {
				orderId: '1',
				kind: 'sale',
				type: 'sale',
				status: 'approved',
				amount: '10.00',
				currency: 'USD',
				net: '10.00',
				voided: '10.00',
			},
		};
		expect(judge(voided, [item, summary()], 'report')).not.toEqual([]);
		const refunded = { ...voided, items: [{ ...voided.items[0], says: ['refunded 3.00'] }] };
		expect(
			judge(
				refunded,
				[{ ...item, gateway: { ...item.gateway, net: '0.00' }, message: 'refunded since' }, summary()],
				'report',
			),
		).not.toEqual([]);
	});

	it('acquits what the sandbox shows', () => {
		const item = {
			merchantOrderId: 'o-1',
			differences: ['voidedSince'],
			yours: book,
			gateway: {
				orderId: '1',
				kind: 'sale',
				type: 'sale',
				status: 'approved',
				amount: '10.0',
				currency: 'USD',
				net: '0',
				voided: '10.00',
			},
		};
		expect(judge(voided, [item, summary()], 'report')).toEqual([]);
	});
});
