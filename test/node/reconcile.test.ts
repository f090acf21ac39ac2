// Transaction → Reconcile against the sandbox over HTTP: the user's records (the input items) against
// the gateway's own (the report for a period, or a status query per record); only the differences come
// out, each with both sides and a message in words, and one summary with exact totals per currency and
// kind of money. The generated cases are test/judges/reconcile-judge.test.ts; these are the named ones.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { DateTime } from 'luxon';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { WAIT, cardPayment, jsonOf, runNode, single, useSandbox, MERCHANT, Sandbox } from '../support/harness';

const { seedDemoOrders } = require('../../e2e/seed') as { seedDemoOrders(url: string): Promise<unknown> };

const env = useSandbox();

beforeAll(async () => {
	await env.sb.reset();
	await gatewayOrders(env.sb);
	await env.sb.admin('POST', 'histories', HISTORIES);
});

const TODAY = new Date().toISOString().slice(0, 10);
/** A day of the past in the sandbox's own layout (UTC): the histories' orders, apart from today's. */
const DAY = '2026-03-02';
const at = (time: string) => `${DAY}T${time}Z`;

/** The gateway's side of today: four approved sales (one returned since), one declined. */
async function gatewayOrders(sandbox: Sandbox) {
	const sale = async (merchantOrderId: string, amount: string, cvv = '123') =>
		single(await runNode(sandbox, cardPayment({ merchantOrderId, amount, cvv, options: WAIT })));
	await sale('rec-ok', '10.00');
	await sale('rec-amount', '25.50');
	await sale('rec-declined', '15.00', '100');
	const refunded = await sale('rec-refunded', '40.00');
	await sale('rec-not-yours', '7.25');
	const refund = await runNode(sandbox, {
		resource: 'payment',
		operation: 'return',
		merchantOrderId: 'rec-refunded',
		gatewayOrderId: refunded.orderid,
		options: WAIT,
	});
	expect(refund.error).toBeUndefined();
}

/** The user's books: one right, one booked at another amount, one expected approved, one refunded since, one the gateway never saw, one twice. */
const BOOKS = [
	{ merchantOrderId: 'rec-ok', amount: '10.00', currency: 'USD', status: 'approved' },
	{ merchantOrderId: 'rec-amount', amount: '25.00', currency: 'USD', status: 'approved' },
	{ merchantOrderId: 'rec-declined', amount: '15.00', currency: 'USD', status: 'approved' },
	{ merchantOrderId: 'rec-refunded', amount: '40.00', currency: 'USD', status: 'approved' },
	{ merchantOrderId: 'rec-missing', amount: '3.10', currency: 'USD', status: 'approved' },
	{ merchantOrderId: 'rec-ok', amount: 10, currency: 'usd', status: '' },
];

/**
 * The day's histories (issue 30 items 1 and 12): a sale voided and a hold released (the ledger nets 0.00
 * for each), an order ID charged twice, one used for a payout and a sale, a partial refund, a payout checked
 * and never paid, one paid, a decline and a payout nobody booked.
 */
const HISTORIES = [
	{
		merchantOrderId: 'day-voided',
		operation: 'sale',
		amount: '10.00',
		at: at('09:00:00'),
		steps: [{ op: 'void', at: at('09:30:00') }],
	},
	{
		merchantOrderId: 'day-released',
		operation: 'preauth',
		amount: '10.00',
		at: at('09:01:00'),
		steps: [{ op: 'return', at: at('09:31:00') }],
	},
	{ merchantOrderId: 'day-double', operation: 'sale', amount: '10.00', at: at('09:02:00') },
	{ merchantOrderId: 'day-double', operation: 'sale', amount: '10.00', group: '2001', at: at('09:03:00') },
	{ merchantOrderId: 'day-shared', operation: 'payout', amount: '10.00', at: at('09:04:00') },
	{ merchantOrderId: 'day-shared', operation: 'sale', amount: '10.00', group: '2001', at: at('09:05:00') },
	{
		merchantOrderId: 'day-refunded',
		operation: 'sale',
		amount: '40.00',
		at: at('09:06:00'),
		steps: [{ op: 'return', amount: '15.00', at: at('09:36:00') }],
	},
	{ merchantOrderId: 'day-checked', operation: 'payout-check', amount: '9000.00', at: at('09:07:00') },
	{
		merchantOrderId: 'day-paid',
		operation: 'payout-check',
		amount: '25.00',
		at: at('09:08:00'),
		steps: [{ op: 'pay', at: at('09:38:00') }],
	},
	{ merchantOrderId: 'day-declined', operation: 'sale', amount: '5.00', outcome: 'declined', at: at('09:09:00') },
	{ merchantOrderId: 'day-payout-not-booked', operation: 'payout', amount: '7.00', at: at('09:10:00') },
];

const DAY_BOOKS = [
	{ merchantOrderId: 'day-voided', amount: '10.00', currency: 'USD', status: 'approved' },
	{ merchantOrderId: 'day-released', amount: '10.00', currency: 'USD', status: 'approved' },
	{ merchantOrderId: 'day-double', amount: '10.00', currency: 'USD', status: 'approved' },
	{ merchantOrderId: 'day-shared', amount: '10.00', currency: 'USD', status: 'approved' },
	{ merchantOrderId: 'day-refunded', amount: '40.00', currency: 'USD', status: 'approved' },
	{ merchantOrderId: 'day-checked', amount: '9000.00', currency: 'USD', status: 'approved' },
	{ merchantOrderId: 'day-paid', amount: '25.00', currency: 'USD', status: 'approved' },
];

const reconcile = (parameters: Record<string, unknown> = {}) => ({
	resource: 'transaction',
	operation: 'reconcile',
	gatewaySide: 'report',
	createdFrom: TODAY,
	createdTo: TODAY,
	merchantOrderId: '={{ $json.merchantOrderId }}',
	amount: '={{ $json.amount }}',
	currency: '={{ $json.currency }}',
	expectedStatus: '={{ $json.status }}',
	...parameters,
});
const ofTheDay = (parameters: Record<string, unknown> = {}) =>
	reconcile({ createdFrom: DAY, createdTo: DAY, ...parameters });

/** A Reconcile output item, as the tests read it. */
interface Json {
	merchantOrderId?: string;
	difference?: string;
	differences?: string[];
	message?: string;
	yours?: Record<string, string> | null;
	gateway?: Record<string, string> | null;
	gatewayOrderList?: Array<Record<string, string>>;
	summary?: boolean;
	totals?: Record<string, unknown>;
	[field: string]: unknown;
}
const byOrder = (items: Json[]) =>
	Object.fromEntries(items.filter((item) => !item.summary).map((item) => [item.merchantOrderId, item.differences]));
const itemOf = (items: Json[], merchantOrderId: string) =>
	items.find((item) => item.merchantOrderId === merchantOrderId)!;
const ZERO_COUNTS = {
	missingAtGateway: 0,
	unknownToYou: 0,
	duplicateInYourRecords: 0,
	severalGatewayOrders: 0,
	createdBeforePeriod: 0,
	amountDiffers: 0,
	currencyDiffers: 0,
	statusDiffers: 0,
	heldNotCaptured: 0,
	checkedNotPaid: 0,
	voidedSince: 0,
	holdReleased: 0,
	refundedSince: 0,
	chargedBackSince: 0,
	disputedSince: 0,
};
const setLayout = (layout: string, contentType = 'text/csv') =>
	env.sb.admin('POST', `merchants/${MERCHANT.login}/report`, { layout, contentType });

describe('Transaction → Reconcile', () => {
	it('from the report: only the differences, each with both sides and in words, then the summary', async () => {
		const run = await runNode(env.sb, reconcile(), { input: BOOKS });
		expect(run.error).toBeUndefined();
		const items = jsonOf(run) as unknown as Json[];
		expect(byOrder(items)).toEqual({
			'rec-amount': ['amountDiffers'],
			'rec-declined': ['statusDiffers'],
			'rec-refunded': ['refundedSince'],
			'rec-missing': ['missingAtGateway'],
			'rec-ok': ['duplicateInYourRecords'],
			'rec-not-yours': ['unknownToYou'],
		});
		const amount = itemOf(items, 'rec-amount');
		expect(amount).toMatchObject({
			difference: 'amountDiffers',
			yours: { amount: '25.00', currency: 'USD', status: 'approved' },
			gateway: { kind: 'sale', type: 'sale', status: 'approved', amount: '25.50', currency: 'USD', net: '25.50' },
		});
		expect(amount.gateway!.orderId).toMatch(/^\d+$/);
		expect(amount.message).toBe(
			`amount differs: yours 25.00 USD approved, gateway sale ${amount.gateway!.orderId} 25.50 USD approved; net 25.50 USD`,
		);
		expect(itemOf(items, 'rec-refunded').gateway).toMatchObject({ refunded: '40.00', net: '0.00' });
		expect(itemOf(items, 'rec-refunded').message).toContain('refunded 40.00');
		expect(itemOf(items, 'rec-missing').gateway).toBeNull();
		expect(itemOf(items, 'rec-missing').message).toBe('missing at the gateway: yours 3.10 USD approved, gateway —');
		expect(itemOf(items, 'rec-not-yours').yours).toBeNull();
		expect(run.items.find((item) => item.json.merchantOrderId === 'rec-amount')?.pairedItem).toEqual({ item: 1 });
		expect(items.at(-1)).toEqual({
			summary: true,
			gatewaySide: 'report',
			yourRecords: 6,
			gatewayOrders: 5,
			matching: 1,
			differences: {
				...ZERO_COUNTS,
				missingAtGateway: 1,
				unknownToYou: 1,
				duplicateInYourRecords: 1,
				amountDiffers: 1,
				statusDiffers: 1,
				refundedSince: 1,
			},
			unknownToYouLeftOut: 0,
			totals: {
				yours: { USD: '103.10' },
				gateway: {
					USD: {
						sales: '82.75',
						refunds: '40.00',
						voids: '0.00',
						chargebacks: '0.00',
						payouts: '0.00',
						transfers: '0.00',
						net: '42.75',
					},
				},
			},
		});
	});

	it('by status query per record: the same differences, without the orders only the gateway has', async () => {
		const run = await runNode(env.sb, reconcile({ gatewaySide: 'status' }), { input: BOOKS });
		expect(run.error).toBeUndefined();
		const items = jsonOf(run) as unknown as Json[];
		const differences = byOrder(items);
		expect(differences['rec-declined']).toEqual(['statusDiffers']);
		expect(differences['rec-missing']).toEqual(['missingAtGateway']);
		expect(differences['rec-amount']).toEqual(['amountDiffers']);
		expect(differences['rec-refunded']).toEqual(['refundedSince']);
		expect(differences['rec-not-yours']).toBeUndefined();
		// The same names mean the same: the order's own amount is not what a refund left on it.
		expect(itemOf(items, 'rec-refunded').gateway).toEqual({
			orderId: expect.stringMatching(/^\d+$/),
			kind: undefined,
			currency: 'USD',
			latest: { type: 'reversal', status: 'approved', amount: '0.00' },
		});
		expect(items.at(-1)).toMatchObject({
			summary: true,
			gatewaySide: 'status',
			yourRecords: 6,
			notSeen: expect.stringContaining('orders only the gateway has'),
		});
		expect(items.at(-1)!.totals).toEqual({ yours: { USD: '103.10' } });
		const requests = await env.sb.requests();
		expect(requests.filter((request) => request.op === 'status').length).toBeGreaterThanOrEqual(5);
	});

	it('fields named by other expressions give the same differences (n8n evaluates them)', async () => {
		const plain = await runNode(env.sb, reconcile(), { input: BOOKS });
		const evaluated = await runNode(
			env.sb,
			reconcile({
				merchantOrderId: "={{ $json['merchantOrderId'] }}",
				amount: '={{ String($json.amount) }}',
				currency: '={{ $json.currency.toUpperCase() }}',
				expectedStatus: '={{ $json.status || "approved" }}',
			}),
			{ input: BOOKS },
		);
		expect(jsonOf(evaluated)).toEqual(jsonOf(plain));
	});

	it('a record that agrees is not output; the orders only the gateway has are', async () => {
		const run = await runNode(env.sb, reconcile(), { input: [BOOKS[0]] });
		const items = jsonOf(run) as unknown as Json[];
		expect(items.filter((item) => !item.summary).map((item) => item.difference)).toEqual([
			'unknownToYou',
			'unknownToYou',
			'unknownToYou',
			'unknownToYou',
		]);
		expect(items.at(-1)).toMatchObject({ matching: 1 });
	});

	it('refuses a record with a bad amount or currency, naming the field and item, before anything is sent', async () => {
		const before = (await env.sb.requests()).length;
		for (const [record, field] of [
			[{ ...BOOKS[0], amount: '10,00' }, 'Amount'],
			[{ ...BOOKS[0], amount: 0.1 + 0.2 }, 'Amount'],
			[{ ...BOOKS[0], currency: 'dollars' }, 'Currency'],
			[{ ...BOOKS[0], merchantOrderId: '' }, 'Merchant Order ID'],
		] as const) {
			const run = await runNode(env.sb, reconcile(), { input: [BOOKS[1], record] });
			expect(run.error?.message).toContain(field);
			expect(run.error?.context).toMatchObject({ itemIndex: 1, moneyEffect: 'notSent' });
		}
		expect((await env.sb.requests()).length).toBe(before);
	});
});

describe('nothing hidden (issue 30 item 1)', () => {
	it('a voided sale, a released hold, a double charge and an ID used for a payout and a sale are each reported', async () => {
		const items = jsonOf(await runNode(env.sb, ofTheDay(), { input: DAY_BOOKS })) as unknown as Json[];
		const differences = byOrder(items);
		expect(differences['day-voided']).toEqual(['voidedSince']);
		expect(differences['day-released']).toEqual(['holdReleased']);
		expect(differences['day-double']).toEqual(['severalGatewayOrders']);
		expect(differences['day-shared']).toEqual(['severalGatewayOrders']);
		expect(itemOf(items, 'day-voided').gateway).toMatchObject({ amount: '10.00', voided: '10.00', net: '0.00' });
		expect(itemOf(items, 'day-released').gateway).toMatchObject({
			kind: 'preauth',
			holdReleased: '10.00',
			captured: '0.00',
			net: '0.00',
		});
		const double = itemOf(items, 'day-double');
		expect(double.gateway).toBeNull();
		expect(double.gatewayOrderList!.map((order) => [order.type, order.amount, order.net])).toEqual([
			['sale', '10.00', '10.00'],
			['sale', '10.00', '10.00'],
		]);
		expect(double.message).toMatch(
			/^several gateway orders under one merchant order ID: yours 10\.00 USD approved, gateway 2 orders: sale \d+ 10\.00 USD approved; sale \d+ 10\.00 USD approved; net 20\.00 USD$/,
		);
		expect(itemOf(items, 'day-shared').gatewayOrderList!.map((order) => [order.kind, order.net])).toEqual([
			['payout', '-10.00'],
			['sale', '10.00'],
		]);
	});

	it('the same from the status query: a void and a released hold are what followed the order', async () => {
		const books = DAY_BOOKS.filter((book) => ['day-voided', 'day-released'].includes(book.merchantOrderId));
		const items = jsonOf(
			await runNode(env.sb, ofTheDay({ gatewaySide: 'status' }), { input: books }),
		) as unknown as Json[];
		expect(byOrder(items)).toEqual({ 'day-voided': ['voidedSince'], 'day-released': ['holdReleased'] });
	});
});

describe('totals and noise (issue 30 item 12)', () => {
	it('totals per currency and kind of money equal the ledger; a checked payout is not money, a paid one is', async () => {
		const items = jsonOf(await runNode(env.sb, ofTheDay(), { input: DAY_BOOKS })) as unknown as Json[];
		const summary = items.at(-1)!;
		expect(summary.totals!.gateway).toEqual({
			USD: {
				sales: '80.00',
				refunds: '15.00',
				voids: '10.00',
				chargebacks: '0.00',
				payouts: '42.00',
				transfers: '0.00',
				net: '13.00',
			},
		});
		// The ledger of the day's orders, by its own kinds: the same money.
		const ledger = (await env.sb.ledger()).filter((entry) => entry.client_orderid.startsWith('day-'));
		const sum = (kinds: string[]) =>
			ledger
				.filter((entry) => kinds.includes(entry.kind))
				.reduce((total, entry) => total + Math.round(Number(entry.amount) * 100), 0) / 100;
		expect([sum(['sale', 'capture']), sum(['return']), sum(['void']), sum(['payout'])]).toEqual([80, 15, 10, 42]);
		expect(byOrder(items)['day-checked']).toEqual(['checkedNotPaid']);
		expect(itemOf(items, 'day-checked').gateway).toMatchObject({ type: 'payout-check', paid: '0.00', net: '0.00' });
		expect(itemOf(items, 'day-checked').message).toContain('checked, not paid');
		expect(byOrder(items)['day-paid']).toBeUndefined();
	});

	it("a refunded order's message says how much was refunded and what is left", async () => {
		const items = jsonOf(await runNode(env.sb, ofTheDay(), { input: DAY_BOOKS })) as unknown as Json[];
		expect(itemOf(items, 'day-refunded')).toMatchObject({
			differences: ['refundedSince'],
			gateway: { amount: '40.00', refunded: '15.00', net: '25.00' },
		});
		expect(itemOf(items, 'day-refunded').message).toMatch(
			/^refunded since: yours 40\.00 USD approved, gateway sale \d+ 40\.00 USD approved, refunded 15\.00; net 25\.00 USD$/,
		);
	});

	it('declines and payouts nobody booked can be left out of the differences (still in the totals, counted as left out)', async () => {
		const all = jsonOf(await runNode(env.sb, ofTheDay(), { input: DAY_BOOKS })) as unknown as Json[];
		expect(Object.keys(byOrder(all)).filter((id) => byOrder(all)[id][0] === 'unknownToYou')).toEqual([
			'day-declined',
			'day-payout-not-booked',
		]);
		const approvedSales = jsonOf(
			await runNode(env.sb, ofTheDay({ options: { unknownStatuses: ['approved'], unknownKinds: ['sale'] } }), {
				input: DAY_BOOKS,
			}),
		) as unknown as Json[];
		expect(approvedSales.filter((item) => item.difference === 'unknownToYou')).toEqual([]);
		expect(approvedSales.at(-1)).toMatchObject({ unknownToYouLeftOut: 2 });
		expect(approvedSales.at(-1)!.totals).toEqual(all.at(-1)!.totals);
		const noDeclines = jsonOf(
			await runNode(env.sb, ofTheDay({ options: { unknownStatuses: ['approved'] } }), { input: DAY_BOOKS }),
		) as unknown as Json[];
		expect(noDeclines.filter((item) => item.difference === 'unknownToYou').map((item) => item.merchantOrderId)).toEqual(
			['day-payout-not-booked'],
		);
	});
});

describe('every layout the gateway may serve gives the same differences and totals', () => {
	afterEach(() => setLayout('sandbox'));

	it.each([
		['transactions', 'text/csv'],
		['orders', 'text/csv'],
		['transactions', 'text/html'],
		['sandbox', 'text/html'],
	])('%s layout as %s', async (layout, contentType) => {
		const own = jsonOf(await runNode(env.sb, ofTheDay(), { input: DAY_BOOKS })) as unknown as Json[];
		await setLayout(layout, contentType);
		// The platform layouts read the period in the server's zone (Moscow in the sandbox, UTC+3): the
		// same instants as the sandbox's UTC day.
		const items = jsonOf(
			await runNode(env.sb, ofTheDay({ createdFrom: `${DAY} 03:00:00`, createdTo: '2026-03-03 02:59:59' }), {
				input: DAY_BOOKS,
			}),
		) as unknown as Json[];
		expect(byOrder(items)).toEqual(byOrder(own));
		expect(byOrder(items)['day-double']).toEqual(['severalGatewayOrders']);
		expect(items.at(-1)!.totals).toEqual(own.at(-1)!.totals);
	});
});

describe('never "no differences" from a partial read (issue 30 item 2)', () => {
	it.each(['report-cut-mid-row', 'report-cut-at-row', 'report-empty'])(
		'a report answered with %s fails the run, saying the gateway side could not be read whole',
		async (kind) => {
			await env.sb.fault({ kind, op: 'transaction-report', count: 1 });
			const run = await runNode(env.sb, ofTheDay(), { input: DAY_BOOKS });
			await env.sb.admin('DELETE', 'faults');
			expect(run.items).toEqual([]);
			expect(run.error?.message).toMatch(/^The gateway's side could not be read whole: /);
			expect(run.error?.description).toContain('No differences are reported from a partial read');
			expect(run.error?.context).toMatchObject({ moneyEffect: 'notSent' });
		},
	);

	it('a status query that gets no answer fails the run the same way', async () => {
		await env.sb.fault({ kind: 'http500', op: 'v2/status', count: 20 });
		const run = await runNode(env.sb, ofTheDay({ gatewaySide: 'status' }), { input: DAY_BOOKS.slice(0, 2) });
		await env.sb.admin('DELETE', 'faults');
		expect(run.items).toEqual([]);
		expect(run.error?.message).toMatch(
			/^The gateway's side could not be read whole: order "day-voided" could not be looked up/,
		);
	});
});

describe('the nightly example on a fresh demo (issue 30 item 12)', () => {
	const example = JSON.parse(
		readFileSync(path.join(__dirname, '..', '..', 'examples', 'reconciliation-nightly.json'), 'utf8'),
	) as { nodes: Array<{ name: string; parameters: IDataObject }> };
	const node = (name: string) => example.nodes.find((candidate) => candidate.name === name)!.parameters;

	it('Run now finds the three differences its note promises, each in words, and leaves the decline out', async () => {
		const sb = await Sandbox.start();
		try {
			await seedDemoOrders(sb.url);
			// Period: the example's own code, as Run now runs it (an empty item), with n8n's DateTime.
			const [{ json: period }] = new Function('DateTime', '$input', String(node('Period').jsCode))(DateTime, {
				first: () => ({ json: {} }),
			}) as Array<{ json: IDataObject }>;
			expect(period).toMatchObject({ zone: 'UTC', unknownKinds: ['sale', 'preauth'], unknownStatuses: ['approved'] });
			// Each expression that reads Period (Get Many's input, or by name), replaced by the value it reads.
			const withPeriod = (parameters: IDataObject) =>
				JSON.parse(
					JSON.stringify(parameters).replace(
						/"=\{\{ \$(?:\('Period'\)\.first\(\))?\.?json\.(\w+) \}\}"/g,
						(expression, name: string) => (name in period ? JSON.stringify(period[name]) : expression),
					),
				) as INodeParameters;
			const report = await runNode(sb, withPeriod(node("Gateway's transactions")));
			expect(report.error).toBeUndefined();
			// Your books: the example's own code, over the report's items.
			const books = new Function('$input', String(node('Your books').jsCode))({
				all: () => report.items,
			}) as Array<{ json: IDataObject }>;
			const items = jsonOf(
				await runNode(sb, withPeriod(node('Reconcile')), { input: books.map((book) => book.json) }),
			) as unknown as Json[];
			expect(items.filter((item) => !item.summary).map((item) => [item.difference, item.merchantOrderId])).toEqual([
				['amountDiffers', 'demo-order-4'],
				['missingAtGateway', 'books-only-order'],
				['unknownToYou', 'demo-order-2'],
			]);
			expect(items.find((item) => item.merchantOrderId === 'demo-order-4')!.message).toMatch(
				/^amount differs: yours 999\.99 USD approved, gateway sale \d+ 40\.00 USD approved; net 40\.00 USD$/,
			);
			expect(items.at(-1)).toMatchObject({ unknownToYouLeftOut: 1 });
		} finally {
			await sb.close();
		}
	});
});
