// Transaction → Reconcile against the sandbox over HTTP: the user's records (the input items) against
// the gateway's own (the report for a period, or a status query per record); only the differences come
// out, each with both sides, and one summary with exact totals per currency.
import { WAIT, cardPayment, jsonOf, runNode, single, useSandbox, type Sandbox } from '../support/harness';

const env = useSandbox();

beforeAll(async () => {
	await env.sb.reset();
	await gatewayOrders(env.sb);
});

const TODAY = new Date().toISOString().slice(0, 10);

/** The gateway's side: four approved sales (one returned since), one declined. */
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

const byOrder = (items: Array<Record<string, unknown>>) =>
	Object.fromEntries(items.filter((item) => !item.summary).map((item) => [item.merchantOrderId, item.differences]));

describe('Transaction → Reconcile', () => {
	it('from the report: only the differences, each with both sides, then the summary', async () => {
		const run = await runNode(env.sb, reconcile(), { input: BOOKS });
		expect(run.error).toBeUndefined();
		const items = jsonOf(run);
		expect(byOrder(items)).toEqual({
			'rec-amount': ['amountDiffers'],
			'rec-declined': ['statusDiffers'],
			'rec-refunded': ['refundedSince'],
			'rec-missing': ['missingAtGateway'],
			'rec-ok': ['duplicateInYourRecords'],
			'rec-not-yours': ['unknownToYou'],
		});
		const amount = items.find((item) => item.merchantOrderId === 'rec-amount');
		expect(amount).toMatchObject({
			difference: 'amountDiffers',
			yours: { amount: '25.00', currency: 'USD', status: 'approved' },
			gateway: { amount: '25.50', currency: 'USD', status: 'approved', type: 'sale', orderId: expect.any(String) },
		});
		expect(items.find((item) => item.merchantOrderId === 'rec-refunded')?.gateway).toMatchObject({
			refunded: true,
			refundedAmount: '40.00',
		});
		expect(items.find((item) => item.merchantOrderId === 'rec-missing')?.gateway).toBeNull();
		expect(items.find((item) => item.merchantOrderId === 'rec-not-yours')?.yours).toBeNull();
		expect(run.items.find((item) => item.json.merchantOrderId === 'rec-amount')?.pairedItem).toEqual({ item: 1 });
		expect(items.at(-1)).toEqual({
			summary: true,
			gatewaySide: 'report',
			yourRecords: 6,
			gatewayOrders: 5,
			matching: 1,
			differences: {
				missingAtGateway: 1,
				unknownToYou: 1,
				duplicateInYourRecords: 1,
				amountDiffers: 1,
				currencyDiffers: 0,
				statusDiffers: 1,
				refundedSince: 1,
				chargedBackSince: 0,
			},
			totals: { yours: { USD: '103.10' }, gatewayApproved: { USD: '82.75' } },
		});
	});

	it('by status query per record: the same differences, without the orders only the gateway has', async () => {
		const run = await runNode(env.sb, reconcile({ gatewaySide: 'status' }), { input: BOOKS });
		expect(run.error).toBeUndefined();
		const differences = byOrder(jsonOf(run));
		expect(differences['rec-declined']).toEqual(['statusDiffers']);
		expect(differences['rec-missing']).toEqual(['missingAtGateway']);
		expect(differences['rec-amount']).toEqual(['amountDiffers']);
		expect(differences['rec-refunded']).toContain('refundedSince');
		expect(differences['rec-not-yours']).toBeUndefined();
		expect(jsonOf(run).at(-1)).toMatchObject({ summary: true, gatewaySide: 'status', yourRecords: 6 });
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
		const items = jsonOf(run);
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
