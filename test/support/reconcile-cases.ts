// The reconciliation judge's cases and truth (test/judges/reconcile-judge.test.ts). A case is a history
// of orders made in the sandbox (POST /sandbox/histories: sales, preauths with captures, voids, cancels,
// partial and full refunds, chargebacks, declines, pending orders, payouts paid at once or checked and
// maybe never paid, several gateway orders under one merchant order ID, orders at and across a period's
// edges), a user's books against it, a report layout, a side (report or status queries) and maybe a
// fault. The truth is computed from what the sandbox's admin API says happened (its order views and
// ledger) and the period's rules of the layout (docs/sandbox.md), never from the node's code: only the
// meaning of each difference, as docs/node.md states it, is shared.
import { createHash } from 'node:crypto';

import { MERCHANT, type Sandbox } from './harness';
import { seeded } from './seeded';
import { wallParts } from './wall-clock';

// ---------------------------------------------------------------------------------------------
// Seeded randomness: the same seed makes the same cases.

export type Random = () => number;

export { seeded };

const pick = <T>(random: Random, choices: readonly T[]): T => choices[Math.floor(random() * choices.length)];
const chance = (random: Random, p: number) => random() < p;
const between = (random: Random, low: number, high: number) => low + Math.floor(random() * (high - low + 1));

// ---------------------------------------------------------------------------------------------
// Amounts as whole cents (USD and EUR have two decimals): never floats.

const cents = (amount: string): number => {
	const [whole, fraction = ''] = amount.replace(/^-/, '').split('.');
	const value = Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
	return amount.startsWith('-') ? -value : value;
};
const decimal = (value: number): string =>
	`${value < 0 ? '-' : ''}${Math.floor(Math.abs(value) / 100)}.${String(Math.abs(value) % 100).padStart(2, '0')}`;

// ---------------------------------------------------------------------------------------------
// Times: a period's wall times in a zone, as instants.

/** The zone's offset from UTC at an instant, in ms (Intl's own tables). */
function offsetMs(zone: string, ms: number): number {
	const parts = wallParts(zone, ms);
	const wall = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second);
	return wall - Math.floor(ms / 1000) * 1000;
}

/** A wall time (as if UTC, in ms) in the zone, as an instant. */
function instantOf(zone: string, wallMs: number): number {
	return wallMs - offsetMs(zone, wallMs - offsetMs(zone, wallMs));
}

const wallText = (wallMs: number) => new Date(wallMs).toISOString().slice(0, 19).replace('T', ' ');

// ---------------------------------------------------------------------------------------------
// Cases.

export const LAYOUTS = ['sandbox', 'transactions', 'orders'] as const;
export type Layout = (typeof LAYOUTS)[number];
export const REPORT_FAULTS = ['report-cut-mid-row', 'report-cut-at-row', 'report-empty'] as const;

interface Step {
	op: 'capture' | 'void' | 'return' | 'chargeback' | 'pay';
	amount?: string;
	at: string;
}

export interface History {
	merchantOrderId: string;
	operation: 'sale' | 'preauth' | 'payout' | 'payout-check';
	amount: string;
	outcome: string;
	endpoint?: string;
	group?: string;
	at: string;
	steps: Step[];
}

export interface Book {
	merchantOrderId: string;
	amount: string;
	currency: string;
	status: string;
}

export interface Case {
	name: string;
	side: 'report' | 'status';
	layout: Layout;
	contentType: 'text/csv' | 'text/html';
	/** A fault on the gateway's side: the run must then fail saying it could not be read whole. */
	fault?: { kind: string; op: string; count: number };
	/** The period as the node is given it (wall times of the layout's zone). */
	period: { from: string; to: string; fromMs: number; toMs: number };
	histories: History[];
	books: Book[];
	filter: { unknownKinds: string[]; unknownStatuses: string[] };
}

const OUTCOMES = [
	'approved',
	'approved',
	'approved',
	'approved',
	'approved',
	'declined',
	'filtered',
	'error',
	'pending',
];
const KINDS = ['sale', 'sale', 'sale', 'preauth', 'preauth', 'payout', 'payout-check', 'payout-check'] as const;

/**
 * One case. `zone` is the zone the layout reads the period in (the sandbox's own: UTC; the platform's:
 * the server's). Times cluster at the period's edges: the second before it, its first and last seconds
 * (up to .999), the second after it, and hours before and after.
 */
export function generateCase(random: Random, index: number, zone: (layout: Layout) => string): Case {
	const side = chance(random, 0.2) ? 'status' : 'report';
	const layout: Layout = side === 'status' ? 'sandbox' : pick(random, LAYOUTS);
	const contentType = chance(random, 0.3) ? 'text/html' : 'text/csv';
	const day = Date.UTC(2026, between(random, 0, 9), between(random, 1, 28));
	const narrow = chance(random, 0.25);
	const fromWall = narrow ? day + between(random, 0, 23) * 3_600_000 + between(random, 0, 3599) * 1000 : day;
	const toWall = narrow ? fromWall + between(random, 0, 5) * 1000 : day + 86_399_000;
	const fromMs = instantOf(zone(layout), fromWall);
	const toMs = instantOf(zone(layout), toWall);
	const edges = [
		() => fromMs - 1000 + between(random, 0, 999),
		() => fromMs + between(random, 0, 999),
		() => toMs + between(random, 0, 999),
		() => toMs + 1000 + between(random, 0, 999),
		() => fromMs - between(random, 1, 30) * 3_600_000,
		() => toMs + between(random, 1, 30) * 3_600_000,
		() => fromMs + Math.floor(random() * (toMs - fromMs + 1)),
		() => fromMs + Math.floor(random() * (toMs - fromMs + 1)),
	];
	const histories: History[] = [];
	const ids = between(random, 2, 7);
	for (let n = 0; n < ids; n++) {
		const merchantOrderId = `c${index}-${n}`;
		const orders = chance(random, 0.18) ? (chance(random, 0.2) ? 3 : 2) : 1;
		// The first order is the credential's endpoint's (a status query by ID names it); others elsewhere.
		const scopes = [
			{ endpoint: '1001' },
			...(chance(random, 0.5) ? [{ group: '2001' }, { endpoint: '1002' }] : [{ endpoint: '1002' }, { group: '2001' }]),
		];
		for (let o = 0; o < orders; o++) {
			const scope = scopes[o];
			let operation = pick(random, KINDS);
			// A v4 payout check goes to an endpoint, not a group (the interface's URL).
			if (scope.group && operation === 'payout-check') operation = 'payout';
			const created = pick(random, edges)();
			const outcome = pick(random, OUTCOMES);
			const amountCents = between(random, 100, 50_000);
			const begunBefore = created < fromMs;
			histories.push({
				merchantOrderId,
				operation,
				amount: decimal(amountCents),
				outcome,
				...scope,
				at: new Date(created).toISOString(),
				steps: outcome === 'approved' ? stepsOf(random, operation, amountCents, created, edges, begunBefore) : [],
			});
		}
	}
	// Orders are made in the order of their times, as a gateway makes them.
	histories.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
	const fault =
		side === 'report'
			? chance(random, 0.15)
				? { kind: pick(random, REPORT_FAULTS), op: 'transaction-report', count: 1 }
				: undefined
			: chance(random, 0.1)
				? { kind: 'http500', op: 'v2/status', count: 1000 }
				: undefined;
	return {
		name: `#${index} ${side}${side === 'report' ? ` ${layout} ${contentType}` : ''}${fault ? ` ${fault.kind}` : ''}${narrow ? ' narrow' : ''}`,
		side,
		layout,
		contentType,
		fault,
		period: { from: wallText(fromWall), to: wallText(toWall), fromMs, toMs },
		histories,
		books: [],
		filter: {
			unknownKinds: chance(random, 0.25) ? [pick(random, ['sale', 'preauth', 'payout'])] : [],
			unknownStatuses: chance(random, 0.25) ? [pick(random, ['approved', 'declined', 'processing'])] : [],
		},
	};
}

/**
 * What follows an approved order, valid in the gateway's rules (no void after a refund, captures up to the
 * hold …), each step at a time after the one before. Not made: a void of a preauth, or the pay of a check,
 * when the order's own transaction may fall before the period (docs/node.md: a report of the period alone
 * cannot tell those apart from a voided sale or a payout of its own).
 */
function stepsOf(
	random: Random,
	operation: History['operation'],
	amountCents: number,
	created: number,
	edges: Array<() => number>,
	begunBefore: boolean,
): Step[] {
	let at = created;
	const next = () => {
		at = Math.max(at + between(random, 5, 2000), chance(random, 0.5) ? pick(random, edges)() : at);
		return new Date(at).toISOString();
	};
	const part = (of: number) => between(random, 1, of - 1);
	const step = (op: Step['op'], amount?: number): Step => ({
		op,
		...(amount === undefined ? {} : { amount: decimal(amount) }),
		at: next(),
	});
	if (operation === 'payout-check') return !begunBefore && chance(random, 0.6) ? [step('pay')] : [];
	if (operation === 'payout') return [];
	const refundable = (left: number): Step[] => {
		const shape = pick(random, [
			'none',
			'refundPart',
			'refundAll',
			'refundTwice',
			'chargeback',
			'refundThenChargeback',
		]);
		if (left < 3 || shape === 'none') return [];
		if (shape === 'refundAll') return [step('return')];
		if (shape === 'chargeback') return [step('chargeback', chance(random, 0.5) ? part(left) : undefined)];
		const first = part(left);
		if (shape === 'refundPart') return [step('return', first)];
		if (shape === 'refundTwice') return [step('return', first), step('return', part(left - first + 1))];
		return [step('return', first), step('chargeback')];
	};
	if (operation === 'sale') return chance(random, 0.2) ? [step('void')] : refundable(amountCents);
	const shape = pick(random, [
		'hold',
		'captureAll',
		'capturePart',
		'captureTwice',
		'cancel',
		'void',
		'captureThenVoid',
	]);
	if (shape === 'hold') return [];
	if (shape === 'cancel') return [step('return')];
	if ((shape === 'void' || shape === 'captureThenVoid') && begunBefore) return [];
	if (shape === 'void') return [step('void')];
	const captured = shape === 'captureAll' ? amountCents : part(amountCents);
	const captures = [step('capture', captured)];
	if (shape === 'captureTwice') captures.push(step('capture', part(amountCents - captured + 1)));
	if (shape === 'captureThenVoid') return [...captures, step('void')];
	return [...captures, ...(shape === 'captureAll' ? refundable(captured) : [])];
}

// ---------------------------------------------------------------------------------------------
// What the sandbox says happened.

export interface OrderView {
	orderid: string;
	client_orderid: string;
	endpoint: string;
	group: string | null;
	kind: string;
	status: string;
	amount: string;
	currency: string;
	held: string;
	charged: string;
	refunded: string;
	chargedBack: string;
	voided: boolean;
	transactions: Array<{ type: string; status: string; amount: string; at: string }>;
}

export interface LedgerRow {
	seq: number;
	orderid: string;
	kind: string;
	amount: string;
	currency: string;
}

export interface World {
	orders: OrderView[];
	ledger: LedgerRow[];
}

export async function worldOf(sb: Sandbox): Promise<World> {
	const { orders } = await sb.admin<{ orders: OrderView[] }>('GET', 'orders');
	const { entries } = await sb.admin<{ entries: LedgerRow[] }>('GET', 'ledger');
	return { orders, ledger: entries };
}

/**
 * The books: of each merchant order ID at the gateway, a record that matches its first order, or none
 * (unknown to you), or one booked at another amount, currency or status, or twice; and records the
 * gateway never saw.
 */
export function booksOf(random: Random, world: World, index: number): Book[] {
	const books: Book[] = [];
	const seen = new Set<string>();
	for (const order of world.orders) {
		if (seen.has(order.client_orderid)) continue;
		seen.add(order.client_orderid);
		const own = order.transactions[0];
		const record = {
			merchantOrderId: order.client_orderid,
			amount: order.amount,
			currency: order.currency,
			status: own.status,
		};
		const shape = pick(random, ['match', 'match', 'match', 'absent', 'amount', 'currency', 'status', 'twice']);
		if (shape === 'absent') continue;
		if (shape === 'amount') record.amount = decimal(cents(record.amount) + between(random, 1, 500));
		if (shape === 'currency') record.currency = record.currency === 'USD' ? 'EUR' : 'USD';
		if (shape === 'status') record.status = record.status === 'approved' ? 'declined' : 'approved';
		books.push(record);
		if (shape === 'twice') books.push({ ...record });
	}
	// n8n runs a node only for input items: books of no record would not reconcile at all.
	for (let n = between(random, books.length ? 0 : 1, 2); n > 0; n--)
		books.push({ merchantOrderId: `never-${index}-${n}`, amount: '3.10', currency: 'USD', status: 'approved' });
	// Books list orders in their own order, not the gateway's.
	return books.sort(() => random() - 0.5);
}

// ---------------------------------------------------------------------------------------------
// The truth.

/** One gateway order as the judge expects Reconcile to show it (fields as docs/node.md names them). */
export type ExpectedOrder = Record<string, string | boolean | undefined>;

export interface ExpectedItem {
	merchantOrderId: string;
	differences: string[];
	yours: Book | null;
	orders: ExpectedOrder[];
	/** Words the item's message must hold (the refunded amount of a refunded order). */
	says: string[];
}

export interface Expected {
	items: ExpectedItem[];
	summary: {
		yourRecords: number;
		gatewayOrders: number;
		matching: number;
		differences: Record<string, number>;
		unknownToYouLeftOut: number;
		totals: Record<string, unknown>;
	};
}

export const DIFFERENCE_ORDER = [
	'missingAtGateway',
	'unknownToYou',
	'duplicateInYourRecords',
	'severalGatewayOrders',
	'createdBeforePeriod',
	'amountDiffers',
	'currencyDiffers',
	'statusDiffers',
	'heldNotCaptured',
	'checkedNotPaid',
	'voidedSince',
	'holdReleased',
	'refundedSince',
	'chargedBackSince',
	'disputedSince',
];

/** The ledger entry each transaction books (the sandbox's ledger kinds); none for a hold or a check. */
function ledgerKindOf(order: OrderView, index: number): string | undefined {
	const transaction = order.transactions[index];
	if (index === 0) {
		if (transaction.status !== 'approved') return undefined;
		return order.kind === 'sale' || order.kind === 'payout' ? order.kind : undefined;
	}
	return (
		{
			capture: 'capture',
			void: 'void',
			cancel: 'cancel',
			reversal: 'return',
			chargeback: 'chargeback',
			payout: 'payout',
		} as Record<string, string>
	)[transaction.type];
}

interface OrderTruth {
	view: OrderView;
	/** The order's own transaction is in what the report shows. */
	own: boolean;
	kind?: string;
	type?: string;
	status?: string;
	amount?: string;
	taken: number;
	refunded: number;
	voided: number;
	voids: number;
	chargedBack: number;
	paid: number;
	held: number;
	released: number;
	checked: boolean;
}

/**
 * An order's money in what the report shows, from its ledger entries (each paired with the transaction
 * that booked it): a void gives back what the order had taken and kept, the rest of it released a hold.
 */
function orderTruth(order: OrderView, ledger: LedgerRow[], shown: (index: number) => boolean): OrderTruth {
	const entries = ledger.filter((entry) => entry.orderid === order.orderid).sort((a, b) => a.seq - b.seq);
	const truth: OrderTruth = {
		view: order,
		own: shown(0),
		taken: 0,
		refunded: 0,
		voided: 0,
		voids: 0,
		chargedBack: 0,
		paid: 0,
		held: 0,
		released: 0,
		checked: false,
	};
	if (truth.own) {
		truth.kind = order.kind === 'payout-check' ? 'payout' : order.kind;
		truth.type = order.kind === 'payout-check' ? 'payout-check' : order.transactions[0].type;
		truth.status = order.transactions[0].status;
		truth.amount = order.amount;
	}
	// The whole history decides what a void gave back; what the report shows adds up.
	let kept = 0;
	let held = 0;
	let next = 0;
	order.transactions.forEach((transaction, index) => {
		const kind = ledgerKindOf(order, index);
		let units = 0;
		if (kind) {
			const entry = entries[next++];
			if (!entry || entry.kind !== kind)
				throw new Error(
					`judge: order ${order.orderid} transaction ${index} (${transaction.type}) has no ${kind} entry in the ledger`,
				);
			units = cents(entry.amount);
		}
		const counts = shown(index);
		const add = (field: 'taken' | 'refunded' | 'voided' | 'chargedBack' | 'paid' | 'released', value: number) => {
			if (counts) truth[field] += value;
		};
		if (index === 0 && transaction.status === 'approved') {
			if (order.kind === 'preauth') held = cents(order.amount);
			if (order.kind === 'payout-check') truth.checked = truth.own;
		}
		if (kind === 'sale' || kind === 'capture') {
			kept += units;
			add('taken', units);
		}
		if (kind === 'capture') held -= units;
		if (kind === 'return') {
			kept -= units;
			add('refunded', units);
		}
		if (kind === 'chargeback') {
			kept -= units;
			add('chargedBack', units);
		}
		if (kind === 'cancel') {
			held -= units;
			add('released', units);
		}
		if (kind === 'payout') add('paid', units);
		if (kind === 'void') {
			const back = Math.min(units, kept);
			kept -= back;
			held -= units - back;
			add('voided', back);
			add('released', units - back);
			if (counts) truth.voids++;
		}
		// What is still held at the end of what the report shows (its transactions follow the order's own).
		if (counts && truth.own) truth.held = held;
	});
	return truth;
}

const net = (truth: OrderTruth) => truth.taken - truth.refunded - truth.voided - truth.chargedBack - truth.paid;

/** An order's side as Reconcile must show it (report side). */
function expectedOrder(truth: OrderTruth, withOrderId: boolean): ExpectedOrder {
	const side: ExpectedOrder = {};
	const put = (name: string, value: string | boolean | undefined) => {
		if (value !== undefined) side[name] = value;
	};
	if (withOrderId) put('orderId', truth.view.orderid);
	put('kind', truth.kind);
	put('type', truth.type);
	put('status', truth.status);
	put('amount', truth.amount);
	put('currency', truth.view.currency);
	put('net', decimal(net(truth)));
	if (!truth.own) side.createdBeforePeriod = true;
	if (truth.kind === 'preauth' || (!truth.own && truth.taken)) side.captured = decimal(truth.taken);
	if (truth.held) side.held = decimal(truth.held);
	if (truth.released) side.holdReleased = decimal(truth.released);
	if (truth.voids) side.voided = decimal(truth.voided);
	if (truth.refunded) side.refunded = decimal(truth.refunded);
	if (truth.chargedBack) side.chargedBack = decimal(truth.chargedBack);
	if (truth.kind === 'payout' || truth.paid) side.paid = decimal(truth.paid);
	return side;
}

/** What differs between a record and its one order (report side), in the documented order. */
function reportDifferences(book: Book, truth: OrderTruth): string[] {
	const found = new Set<string>();
	if (!truth.own) found.add('createdBeforePeriod');
	else {
		if (cents(book.amount) !== cents(truth.amount!)) found.add('amountDiffers');
		if (book.status !== truth.status) found.add('statusDiffers');
		if (truth.kind === 'preauth' && truth.status === 'approved' && truth.held > 0) found.add('heldNotCaptured');
		if (truth.kind === 'payout' && truth.checked && truth.paid === 0) found.add('checkedNotPaid');
	}
	if (book.currency !== truth.view.currency) found.add('currencyDiffers');
	if (truth.voids) found.add('voidedSince');
	if (truth.released) found.add('holdReleased');
	if (truth.refunded) found.add('refundedSince');
	if (truth.chargedBack) found.add('chargedBackSince');
	return DIFFERENCE_ORDER.filter((kind) => found.has(kind));
}

const flooredSecond = (iso: string) => Math.floor(Date.parse(iso) / 1000) * 1000;

/** The report side's truth: which transactions the layout's period shows, then the differences and totals. */
export function reportTruth(c: Case, world: World): Expected {
	const inPeriod = (iso: string) => {
		const at = flooredSecond(iso);
		return at >= c.period.fromMs && at <= c.period.toMs;
	};
	// The orders layout filters by the order's creation and shows all of its transactions; the others
	// filter each transaction by its own creation (docs/sandbox.md, report layouts).
	const shownOf = (order: OrderView) =>
		c.layout === 'orders'
			? () => inPeriod(order.transactions[0].at)
			: (index: number) => inPeriod(order.transactions[index].at);
	const byId = new Map<string, OrderTruth[]>();
	for (const order of world.orders) {
		if (order.kind !== 'sale' && order.kind !== 'preauth' && order.kind !== 'payout' && order.kind !== 'payout-check')
			continue;
		const shown = shownOf(order);
		if (!order.transactions.some((_, index) => shown(index))) continue;
		const list = byId.get(order.client_orderid) ?? [];
		list.push(orderTruth(order, world.ledger, shown));
		byId.set(order.client_orderid, list);
	}
	const withOrderId = c.layout !== 'transactions';
	const items: ExpectedItem[] = [];
	const seen = new Set<string>();
	let matching = 0;
	const says = (truths: OrderTruth[]) =>
		truths.filter((truth) => truth.refunded).map((truth) => `refunded ${decimal(truth.refunded)}`);
	for (const book of c.books) {
		const truths = byId.get(book.merchantOrderId) ?? [];
		const orders = truths.map((truth) => expectedOrder(truth, withOrderId));
		if (seen.has(book.merchantOrderId)) {
			items.push({
				merchantOrderId: book.merchantOrderId,
				differences: ['duplicateInYourRecords'],
				yours: book,
				orders,
				says: [],
			});
			continue;
		}
		seen.add(book.merchantOrderId);
		const differences =
			truths.length === 0
				? ['missingAtGateway']
				: truths.length > 1
					? ['severalGatewayOrders']
					: reportDifferences(book, truths[0]);
		if (differences.length)
			items.push({ merchantOrderId: book.merchantOrderId, differences, yours: book, orders, says: says(truths) });
		else matching++;
	}
	let leftOut = 0;
	const passes = (truth: OrderTruth) =>
		(!c.filter.unknownKinds.length || !truth.kind || c.filter.unknownKinds.includes(truth.kind)) &&
		(!c.filter.unknownStatuses.length || !truth.status || c.filter.unknownStatuses.includes(truth.status));
	for (const [merchantOrderId, truths] of byId) {
		if (seen.has(merchantOrderId)) continue;
		if (!truths.some(passes)) {
			leftOut++;
			continue;
		}
		const differences = ['unknownToYou'];
		if (truths.length > 1) differences.push('severalGatewayOrders');
		if (truths.length === 1 && !truths[0].own) differences.push('createdBeforePeriod');
		items.push({
			merchantOrderId,
			differences,
			yours: null,
			orders: truths.map((truth) => expectedOrder(truth, withOrderId)),
			says: [],
		});
	}
	const all = [...byId.values()].flat();
	const totals: Record<string, Record<string, string>> = {};
	for (const currency of new Set(all.map((truth) => truth.view.currency))) {
		const mine = all.filter((truth) => truth.view.currency === currency);
		const sum = (field: 'taken' | 'refunded' | 'voided' | 'chargedBack' | 'paid') =>
			mine.reduce((total, truth) => total + truth[field], 0);
		totals[currency] = {
			sales: decimal(sum('taken')),
			refunds: decimal(sum('refunded')),
			voids: decimal(sum('voided')),
			chargebacks: decimal(sum('chargedBack')),
			payouts: decimal(sum('paid')),
			transfers: '0.00',
			net: decimal(mine.reduce((total, truth) => total + net(truth), 0)),
		};
	}
	return {
		items,
		summary: {
			yourRecords: c.books.length,
			gatewayOrders: all.length,
			matching,
			differences: countsOf(items),
			unknownToYouLeftOut: leftOut,
			totals: { yours: yourTotals(c.books), gateway: totals },
		},
	};
}

function countsOf(items: ExpectedItem[]): Record<string, number> {
	const counts = Object.fromEntries(DIFFERENCE_ORDER.map((kind) => [kind, 0]));
	for (const item of items) for (const kind of item.differences) counts[kind]++;
	return counts;
}

function yourTotals(books: Book[]): Record<string, string> {
	const sums = new Map<string, number>();
	for (const book of books) sums.set(book.currency, (sums.get(book.currency) ?? 0) + cents(book.amount));
	return Object.fromEntries([...sums].map(([currency, value]) => [currency, decimal(value)]));
}

// ---------------------------------------------------------------------------------------------
// The status side's truth: what the gateway's status query names for each record (asked here with the
// judge's own signing), and that order's latest transaction, from the sandbox's order view.

const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex');

/** The gateway order a v2 status query by merchant order ID names (the credential's endpoint), or none. */
export async function namedByStatus(sb: Sandbox, merchantOrderId: string): Promise<string | undefined> {
	const fields = { login: MERCHANT.login, client_orderid: merchantOrderId, orderid: '' };
	const control = sha1(fields.login + fields.client_orderid + fields.orderid + MERCHANT.controlKey);
	const response = await fetch(`${sb.url}/paynet/api/v2/status/1001`, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/vnd.pay+json' },
		body: new URLSearchParams({ ...fields, control }).toString(),
	});
	const reply = (await response.json()) as Record<string, string>;
	// An unknown order: status "error" and no gateway order ID (an order whose status is error has one).
	return reply['paynet-order-id'] || undefined;
}

const SINCE_BY_LATEST: Record<string, string> = {
	void: 'voidedSince',
	cancel: 'holdReleased',
	reversal: 'refundedSince',
	chargeback: 'chargedBackSince',
};
const OWN_TYPES = new Set(['sale', 'preauth', 'payout']);

/** What the status reply reports as left on an order (the sandbox's status amount, docs/sandbox.md). */
function leftOn(order: OrderView): string {
	if (order.status !== 'approved' || (order.kind !== 'sale' && order.kind !== 'preauth')) return order.amount;
	if (order.voided) return '0.00';
	return decimal(cents(order.held) + cents(order.charged) - cents(order.refunded) - cents(order.chargedBack));
}

export function statusTruth(c: Case, world: World, named: Map<string, string | undefined>): Expected {
	const items: ExpectedItem[] = [];
	const seen = new Set<string>();
	let matching = 0;
	let found = 0;
	for (const book of c.books) {
		const orderid = named.get(book.merchantOrderId);
		const order = world.orders.find((candidate) => candidate.orderid === orderid);
		const orders: ExpectedOrder[] = [];
		const differences = new Set<string>();
		if (!order) differences.add('missingAtGateway');
		else {
			const latest = order.transactions[order.transactions.length - 1];
			// A status reply's payout reads as the order's own: the pay of a check and a payout look alike.
			const own = OWN_TYPES.has(latest.type);
			const status = order.status;
			const left = leftOn(order);
			const side: ExpectedOrder = { orderId: order.orderid, currency: order.currency };
			if (own)
				Object.assign(side, {
					kind: order.kind === 'payout-check' ? 'payout' : order.kind,
					type: latest.type,
					status,
					amount: left,
				});
			else if (latest.type === 'capture' || latest.type === 'cancel') side.kind = 'preauth';
			side.latest = JSON.stringify({ type: latest.type, status, amount: left });
			orders.push(side);
			if (own) {
				if (cents(book.amount) !== cents(left)) differences.add('amountDiffers');
				if (book.status !== status) differences.add('statusDiffers');
				if (latest.type === 'preauth' && status === 'approved') differences.add('heldNotCaptured');
			} else if (status === 'approved' && SINCE_BY_LATEST[latest.type]) differences.add(SINCE_BY_LATEST[latest.type]);
			if (book.currency !== order.currency) differences.add('currencyDiffers');
		}
		if (seen.has(book.merchantOrderId)) {
			items.push({
				merchantOrderId: book.merchantOrderId,
				differences: ['duplicateInYourRecords'],
				yours: book,
				orders,
				says: [],
			});
			continue;
		}
		seen.add(book.merchantOrderId);
		if (order) found++;
		const list = DIFFERENCE_ORDER.filter((kind) => differences.has(kind));
		if (list.length)
			items.push({ merchantOrderId: book.merchantOrderId, differences: list, yours: book, orders, says: [] });
		else matching++;
	}
	return {
		items,
		summary: {
			yourRecords: c.books.length,
			gatewayOrders: found,
			matching,
			differences: countsOf(items),
			unknownToYouLeftOut: 0,
			totals: { yours: yourTotals(c.books) },
		},
	};
}
