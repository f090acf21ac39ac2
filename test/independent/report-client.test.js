'use strict';
// The independent report client (report_client.py: Python's standard library, its own OAuth signature and
// CSV parsing) against the sandbox, one sandbox per layout: over generated histories laid across the
// period's edges (and orders made through the API, moved there), it must read exactly the transactions
// that the sandbox's admin view of the orders says fall into the period, and the money of those rows must
// be the money the sandbox's ledger booked in it. The truth is computed here, from the admin views, with
// this file's own zone arithmetic: never from the sandbox's report code.
const { describe, it, expect, beforeAll, afterAll } = require('@jest/globals');
const { startSandbox } = require('../../sandbox');
const { hasPython3, readReport } = require('../support/report-client');
const { Client, MERCHANT } = require('../support/sandbox-client');
const { wallParts } = require('../support/wall-clock');
const { seeded } = require('../support/seeded');

// A server zone without daylight saving, so that a wall time names one instant (UTC+3).
const SERVER = 'Europe/Moscow';
const USER = 'Asia/Kolkata';
const PERIOD = { createdFromDate: '2026-03-01 00:00:00', createdToDate: '2026-03-01 23:59:59' };
const HISTORIES = 60;

/** `YYYY-MM-DD HH:MM:SS.mmm` of an instant on a zone's wall clock (Intl, not the sandbox's code). */
function wall(zone, ms) {
	const part = Object.fromEntries(
		Object.entries(wallParts(zone, ms)).map(([name, value]) => [
			name,
			String(value).padStart(name === 'year' ? 4 : 2, '0'),
		]),
	);
	const millis = String(((ms % 1000) + 1000) % 1000).padStart(3, '0');
	return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}:${part.second}.${millis}`;
}

/** The instant a wall time of a fixed-offset zone names. */
function instant(zone, wallTime) {
	const asUtc = Date.parse(`${wallTime.replace(' ', 'T')}Z`);
	return asUtc - (Date.parse(`${wall(zone, asUtc).replace(' ', 'T')}Z`) - asUtc);
}

/** A deterministic generator, so that a failure can be replayed. */
const random = seeded;

// What may follow each operation, chosen so that the gateway accepts every step.
const PLANS = {
	sale: [[], [{ op: 'return', amount: '3.00' }], [{ op: 'return' }], [{ op: 'void' }], [{ op: 'chargeback' }], [{ op: 'return', amount: '3.00' }, { op: 'chargeback' }]],
	preauth: [[], [{ op: 'capture', amount: '3.00' }], [{ op: 'capture' }], [{ op: 'capture', amount: '3.00' }, { op: 'void' }], [{ op: 'return' }], [{ op: 'void' }], [{ op: 'capture', amount: '5.00' }, { op: 'return', amount: '2.00' }]],
	payout: [[]],
	'payout-check': [[], [{ op: 'pay' }]],
}; // prettier-ignore
const OPERATIONS = Object.keys(PLANS);
const STEP_DELAYS_MS = [500, 1000, 3_600_000];

/**
 * Histories over the period's edges in `zone` (the zone the layout's window is read in): created a second
 * before, at, half a second after its start; in the middle; at and half a second into its last second; at
 * the next day's first second — their steps half a second to an hour later, so some cross the edges.
 */
function generateHistories(zone, seed) {
	const next = random(seed);
	const pick = (list) => list[Math.floor(next() * list.length)];
	const edges = ['2026-02-28 23:59:59', '2026-03-01 00:00:00', '2026-03-01 00:00:00.500', '2026-03-01 12:00:00', '2026-03-01 23:59:59', '2026-03-01 23:59:59.500', '2026-03-02 00:00:00'].map((time) => instant(zone, time)); // prettier-ignore
	const taken = new Set();
	const histories = [];
	while (histories.length < HISTORIES) {
		const operation = pick(OPERATIONS);
		// a small pool of merchant order IDs, on the endpoint or its group: several orders under one ID
		const merchantOrderId = `RC-${Math.floor(next() * HISTORIES * 0.6)}`;
		const scope = next() < 0.5 ? { endpoint: '1001' } : { group: '2001', currency: 'USD' };
		if (taken.has(`${merchantOrderId}@${scope.endpoint ?? scope.group}`)) continue;
		taken.add(`${merchantOrderId}@${scope.endpoint ?? scope.group}`);
		const outcome = pick(['approved', 'approved', 'approved', 'declined', 'pending']);
		const created = pick(edges);
		let time = created;
		const plan = outcome === 'approved' ? pick(PLANS[operation]) : [];
		const steps = plan.map((step) => ({ ...step, at: new Date((time += pick(STEP_DELAYS_MS))).toISOString() }));
		const amount = pick(['10.00', '25.50', '100.00']);
		histories.push({
			merchantOrderId,
			...scope,
			operation,
			outcome,
			amount,
			at: new Date(created).toISOString(),
			steps,
		});
	}
	return histories;
}

const truncate = (text, length) => text.slice(0, length);
const pad3 = (n) => String(n).padStart(3, '0');
/** Minor units of a two-decimal amount string. */
const minor = (amount) => Number(amount.replace('.', ''));

// Per layout: the zone its window is read in, the columns the comparison reads, the expected values of a
// transaction, and what selects it (the transaction's time, or for an orders export its order's).
const LAYOUTS = {
	sandbox: {
		zone: 'UTC',
		columns: ['paynet-order-id', 'merchant-order-id', 'transaction-type', 'status', 'amount', 'currency', 'created-date'],
		type: 'transaction-type',
		status: 'status',
		amount: 'amount',
		expected: (order, t, type) => [order.orderid, order.client_orderid, type, t.status, t.amount, order.currency, truncate(wall('UTC', Date.parse(t.at)), 19)],
		selectedBy: (order, t) => t.at,
	},
	transactions: {
		zone: SERVER,
		columns: ['Txid', 'Merchant OID', 'Type', 'Status', 'Amount', 'Currency', 'Created Date (Server TZ)', 'Created Date (User TZ)'],
		type: 'Type',
		status: 'Status',
		amount: 'Amount',
		expected: (order, t, type, index) => [`${order.orderid}${pad3(index)}`, order.client_orderid, type, t.status, t.amount, order.currency, truncate(wall(SERVER, Date.parse(t.at)), 22).replace(' ', 'T'), truncate(wall(USER, Date.parse(t.at)), 22).replace(' ', 'T')],
		selectedBy: (order, t) => t.at,
	},
	orders: {
		zone: SERVER,
		columns: ['Order ID', 'Invoice No', 'Tx Type', 'Tx Status', 'Tx Amount', 'Currency', 'Order Created', 'Order Amount'],
		type: 'Tx Type',
		status: 'Tx Status',
		amount: 'Tx Amount',
		expected: (order, t, type) => [order.orderid, order.client_orderid, type, t.status, t.amount, order.currency, truncate(wall(SERVER, Date.parse(order.transactions[0].at)), 22).replace(' ', 'T'), order.amount],
		selectedBy: (order) => order.transactions[0].at,
	},
}; // prettier-ignore

/** Is an instant within the period, read in `zone`, inclusive to the second? */
function inPeriod(zone, iso) {
	const second = truncate(wall(zone, Date.parse(iso)), 19);
	return second >= PERIOD.createdFromDate && second <= PERIOD.createdToDate;
}

// The ledger's kinds and the report's transaction types that move money.
const MONEY_TYPES = { sale: 'sale', capture: 'capture', reversal: 'return', void: 'void', cancel: 'cancel', chargeback: 'chargeback', payout: 'payout' }; // prettier-ignore

const PYTHON = hasPython3();
const title = PYTHON
	? 'the independent report client reads the rows the admin view puts in the period'
	: 'the independent report client — SKIPPED: python3 is not installed, so the client cannot run';

(PYTHON ? describe : describe.skip).each(Object.keys(LAYOUTS))(`${title}: layout %s`, (name) => {
	const layout = LAYOUTS[name];
	let sb;
	let admin;
	beforeAll(async () => {
		sb = await startSandbox({
			port: 0,
			quiet: true,
			verifier: 'node',
			serverTimeZone: SERVER,
			userTimeZone: USER,
			report: { layout: name },
		});
		const client = new Client(sb);
		admin = async (method, route, body) => (await client.admin(method, route, body)).data;
		const made = await client.admin('POST', 'histories', {
			histories: generateHistories(layout.zone, 30 + name.length),
		});
		expect(made.status).toBe(201);
		// orders made through the signed API, moved onto the period's edges
		const sale = await client.sale();
		await client.followUp('return', sale.orderid, sale.params.client_orderid, { amount: '1.00', currency: 'USD' });
		const edge = (time) => new Date(instant(layout.zone, time)).toISOString();
		await client.admin('POST', `orders/${sale.orderid}/times`, {
			at: [edge('2026-03-01 23:59:59.990'), edge('2026-03-02 00:00:00')],
		});
		const declined = await client.sale({ cvv2: '116' });
		await client.admin('POST', `orders/${declined.orderid}/times`, { at: [edge('2026-03-01 00:00:00')] });
	});
	afterAll(() => sb.close());

	it('the same rows, in the same order, with the same values; the same money as the ledger', async () => {
		const { orders } = await admin('GET', 'orders');
		const expected = orders.flatMap((order) =>
			order.transactions.flatMap((t, index) => {
				if (!inPeriod(layout.zone, layout.selectedBy(order, t))) return [];
				const type = index === 0 && order.kind === 'payout-check' ? 'payout-check' : t.type;
				return [layout.expected(order, t, type, index)];
			}),
		);
		const report = await readReport(sb.url, MERCHANT, PERIOD);
		expect(report).toMatchObject({ status: 200, complete: true, problem: null });
		const read = report.rows.map((row) => layout.columns.map((column) => row[column]));
		console.log(`layout ${name}: ${orders.length} orders, ${expected.length} rows in the period, ${read.length} read`);
		expect(read).toEqual(expected);
		expect(expected.length).toBeGreaterThan(20);

		// money: the approved rows' per type, and the ledger's entries of the period per kind
		const fromRows = {};
		for (const row of report.rows) {
			const kind = MONEY_TYPES[row[layout.type]];
			if (kind && row[layout.status] === 'approved') fromRows[kind] = (fromRows[kind] ?? 0) + minor(row[layout.amount]);
		}
		const byOrder = new Map(orders.map((order) => [order.orderid, order]));
		const fromLedger = {};
		for (const entry of (await admin('GET', 'ledger')).entries) {
			const order = byOrder.get(entry.orderid);
			const selected =
				name === 'orders' ? inPeriod(layout.zone, order.transactions[0].at) : inPeriod(layout.zone, entry.at);
			if (selected) fromLedger[entry.kind] = (fromLedger[entry.kind] ?? 0) + entry.amountMinor;
		}
		expect(fromRows).toEqual(fromLedger);

		// card columns stay masked
		const text = JSON.stringify(report.rows);
		expect(text).not.toMatch(/4444555566661111/);
	});
});
