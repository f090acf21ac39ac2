// Waiting for the final status (the sandbox answers "processing" to the first two status
// queries), 3-D Secure during the wait, bulk runs with bounded concurrency, Continue On Fail.
import type { INodeParameters } from 'n8n-workflow';

import { NODE_NAME, WAIT, cardPayment, jsonOf, runNode, single, useSandbox } from '../support/harness';
import { scaled } from '../support/time-scale';

const { startHostileGateway } = require('../support/hostile-gateway') as {
	startHostileGateway(
		url: string,
		plan: (request: {
			op: string | null;
			body: string;
		}) => { hold?: Promise<void>; reply?: () => undefined } | undefined,
	): Promise<{ url: string; close(): Promise<void> }>;
};

const env = useSandbox({ pollsBeforeFinal: 2 });

beforeEach(() => env.sb.reset());

const statusQueries = async () => (await env.sb.requests()).filter((request) => request.op === 'status').length;

describe('Wait for Final Status', () => {
	it('off: the accepted request is returned as processing; the only status query checked that the order ID was new', async () => {
		const out = single(await runNode(env.sb, cardPayment({ merchantOrderId: 'wait-off' })));
		expect(out).toMatchObject({ status: 'processing', final: false });
		expect(await statusQueries()).toBe(1);
		expect((await env.sb.requests()).map((request) => request.op)).toEqual(['status', 'sale']);
	});

	it('on: polls until the status is final (here: the third status query)', async () => {
		const out = single(await runNode(env.sb, cardPayment({ merchantOrderId: 'wait-on', options: WAIT })));
		expect(out).toMatchObject({ status: 'approved', final: true, type: 'status-response', client_orderid: 'wait-on' });
		// One before sending (is the order ID new?), then three polls.
		expect(await statusQueries()).toBe(4);
	});

	it('a decline found while waiting is returned as an output', async () => {
		const out = single(
			await runNode(env.sb, cardPayment({ merchantOrderId: 'wait-declined', cvv: '209', options: WAIT })),
		);
		expect(out).toMatchObject({ status: 'declined', errorMessage: 'Pick-up card (stolen card)', errorCode: '209' });
	});

	it('3-D Secure: the redirect is returned at once, with status processing', async () => {
		const out = single(await runNode(env.sb, cardPayment({ merchantOrderId: 'wait-3ds', cvv: '321', options: WAIT })));
		expect(out).toMatchObject({ status: 'processing', threeDSecureRequired: true, final: false });
		expect(out.redirectUrl).toBe(`${env.sb.url}/sandbox/acs/${out.orderid}`);
		expect(await statusQueries()).toBe(2);
	});

	it('gives up after Max Wait and returns the order as still processing', async () => {
		await env.sb.fault({ kind: 'stay-processing', op: 'sale', count: 1 });
		const out = single(
			await runNode(
				env.sb,
				cardPayment({
					merchantOrderId: 'wait-timeout',
					options: { waitForFinalStatus: true, pollIntervalSeconds: 0.1, maxWaitSeconds: 1 },
				}),
			),
		);
		expect(out).toMatchObject({ status: 'processing', final: false, waitTimedOut: true });
		expect(await statusQueries()).toBeGreaterThan(1);
	});
});

describe('bulk runs', () => {
	const input = ['a', 'b', 'c', 'd', 'e', 'f'].map((suffix, index) => ({
		invoice: `bulk-${suffix}`,
		total: `${index + 1}.00`,
	}));
	const params = (options: INodeParameters) =>
		cardPayment({ merchantOrderId: '={{ $json.invoice }}', amount: '={{ $json.total }}', options });

	it('concurrency 3: requests overlap, yet output order and pairedItem follow the input', async () => {
		// A fence, not a delay: the network holds the first item's sale until the gateway has answered every
		// other item's sale, so later items finish first on any machine. A node that did not overlap would
		// never let them through; the fence then opens after a (scaled) budget only so that the test fails.
		const others = new Set(input.slice(1).map((item) => item.invoice));
		let open: (by: string) => void = () => {};
		const fence = new Promise<string>((resolve) => (open = resolve));
		const giveUp = setTimeout(() => open('the budget'), scaled(10_000));
		const proxy = await startHostileGateway(env.sb.url, (request) => {
			if (request.op !== 'sale') return undefined;
			const invoice = new URLSearchParams(request.body).get('client_orderid') ?? '';
			if (invoice === 'bulk-a') return { hold: fence.then(() => undefined) };
			return {
				reply: () => {
					others.delete(invoice);
					if (!others.size) open('the other sales');
					return undefined;
				},
			};
		});
		try {
			const run = await runNode(env.sb, params({ concurrency: 3 }), {
				input,
				credentials: { baseUrl: `${proxy.url}/paynet` },
			});
			expect(run.error).toBeUndefined();
			expect({ fenceOpenedBy: await fence }).toEqual({ fenceOpenedBy: 'the other sales' });
			expect(run.items.map((item) => item.pairedItem)).toEqual(input.map((_, item) => ({ item })));
			expect(jsonOf(run).map((json) => [json.client_orderid, json.status])).toEqual(
				input.map((item) => [item.invoice, 'processing']),
			);
		} finally {
			clearTimeout(giveUp);
			await proxy.close();
		}
		// The gateway saw the held sale last, the others in whatever order they came, each once.
		const sales = (await env.sb.requests())
			.filter((request) => request.op === 'sale')
			.map((request) => request.client_orderid);
		expect(sales[sales.length - 1]).toBe('bulk-a');
		expect([...sales].sort()).toEqual(input.map((item) => item.invoice));
		const { orders } = await env.sb.admin<{ orders: Array<{ client_orderid: string; amount: string }> }>(
			'GET',
			'orders',
		);
		expect(orders.map((order) => [order.client_orderid, order.amount]).sort()).toEqual(
			input.map((item) => [item.invoice, item.total]),
		);
	});

	it('concurrency 1 (the default) sends one item after the other', async () => {
		await env.sb.fault({ kind: 'latency', op: 'sale', count: 1, latencyMs: 100 });
		const run = await runNode(env.sb, params({}), { input: input.slice(0, 3) });
		expect(jsonOf(run).map((json) => json.client_orderid)).toEqual(['bulk-a', 'bulk-b', 'bulk-c']);
		const sales = (await env.sb.requests()).filter((request) => request.op === 'sale');
		expect(sales.map((request) => request.client_orderid)).toEqual(['bulk-a', 'bulk-b', 'bulk-c']);
	});

	it('Continue On Fail: a bad item becomes an error item in its place; the others go through', async () => {
		const mixed = [input[0], { invoice: 'bulk-bad', total: '1.005' }, input[2]];
		const run = await runNode(env.sb, params({ concurrency: 2 }), { input: mixed, continueOnFail: true });
		expect(run.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		const [first, bad, third] = jsonOf(run);
		expect(first.client_orderid).toBe('bulk-a');
		expect(bad.error).toContain('"Amount" has 3 decimals; USD allows at most 2');
		expect(third.client_orderid).toBe('bulk-c');
		expect((await env.sb.requests()).map((request) => request.client_orderid)).not.toContain('bulk-bad');
	});

	it('On Error "Continue (using error output)": the bad item goes to the error output with its pairedItem', async () => {
		const mixed = [
			{ invoice: 'bulk-err-ok', total: '2.00' },
			{ invoice: 'bulk-err-bad', total: '-1' },
		];
		const run = await runNode(env.sb, params({}), { input: mixed, errorOutput: true });
		expect(run.items.map((item) => item.json.client_orderid)).toEqual(['bulk-err-ok']);
		expect(run.errorItems).toHaveLength(1);
		expect(run.errorItems[0].pairedItem).toEqual({ item: 1 });
		expect(String(run.errorItems[0].json.error)).toContain('"Amount"');
	});

	it('without Continue On Fail the run stops at the failed item and names it', async () => {
		const mixed = [input[0], { invoice: 'bulk-bad', total: 'ten' }, input[2], input[3]];
		const run = await runNode(env.sb, params({}), { input: mixed });
		expect(run.error?.message).toContain('"Amount" must be a positive decimal');
		expect(run.error?.context?.itemIndex).toBe(1);
		expect(run.serialised).toContain(NODE_NAME);
		// Items after the failed one were not started (bulk-a: the order-ID check, then the sale).
		expect((await env.sb.requests()).map((request) => request.client_orderid)).toEqual(['bulk-a', 'bulk-a']);
	});
});
