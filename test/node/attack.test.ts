// Money safety under attack (issue #13): a lying network, careless operators and concurrency.
// Each test failed on e72e601. The sandbox's ledger is the truth about what money moved.
import { nodeOutput } from '../support/campaign';

import {
	BANK_DESTINATION,
	MERCHANT,
	PAN,
	WAIT,
	cardPayment,
	runNode,
	single,
	useSandbox,
	type NodeRun,
	type Sandbox,
} from '../support/harness';

const { startHostileGateway, NON_REPLIES } = require('../support/hostile-gateway') as {
	startHostileGateway(
		url: string,
		plan?: (request: { op: string | null }) => { forward?: boolean; answer?: string } | undefined,
	): Promise<{ url: string; elsewhere: { requests: unknown[] }; close(): Promise<void> }>;
	NON_REPLIES: string[];
};

const env = useSandbox();
beforeEach(() => env.sb.reset());

const FAST = { timeoutSeconds: 1 };

async function ops(sb: Sandbox): Promise<string[]> {
	return (await sb.requests()).map((request) => request.op ?? '');
}

/** Runs the node through a hostile network that answers the first `op` request with `answer`. */
async function throughHostileNetwork(
	op: string,
	answer: string,
	forward: boolean,
	parameters: Record<string, unknown>,
	options: Parameters<typeof runNode>[2] = {},
) {
	let tampered = false;
	const proxy = await startHostileGateway(env.sb.url, (request) => {
		if (tampered || request.op !== op) return undefined;
		tampered = true;
		return { forward, answer };
	});
	try {
		const run = await runNode(env.sb, parameters as never, {
			...options,
			credentials: { baseUrl: `${proxy.url}/paynet`, ...(options.credentials ?? {}) },
		});
		return { run, elsewhere: proxy.elsewhere.requests };
	} finally {
		await proxy.close();
	}
}

describe('item 2/3: a reply that is not a gateway reply is a lost reply: status first, never "no money moved"', () => {
	it.each(NON_REPLIES)('sale applied, answer %s: recovered from the status, charged once', async (answer) => {
		const id = `hostile-applied-${answer}`;
		const { run, elsewhere } = await throughHostileNetwork(
			'sale',
			answer,
			true,
			cardPayment({ merchantOrderId: id, options: FAST }),
		);
		const out = single(run);
		expect(out).toMatchObject({ client_orderid: id, status: 'approved', recoveredFromLostReply: true });
		// The first status query checks that the typed order ID is new; the second learns what the lost sale did.
		expect(await ops(env.sb)).toEqual(['status', 'sale', 'status']);
		expect(await env.sb.ledger(id)).toHaveLength(1);
		expect(elsewhere).toEqual([]);
	});

	it.each(NON_REPLIES.filter((answer) => answer !== 'forbidden403'))(
		'sale dropped, answer %s: the gateway has no order, resent once, charged once',
		async (answer) => {
			const id = `hostile-dropped-${answer}`;
			const { run, elsewhere } = await throughHostileNetwork(
				'sale',
				answer,
				false,
				cardPayment({ merchantOrderId: id, options: FAST }),
			);
			const out = single(run);
			expect(out).toMatchObject({ client_orderid: id, resentAfterLostReply: true });
			expect(await ops(env.sb)).toEqual(['status', 'status', 'sale']);
			expect(await env.sb.ledger(id)).toHaveLength(1);
			expect(elsewhere).toEqual([]);
		},
	);

	it('sale dropped, answered 403 without a gateway reply: the gateway confirms it has no order, nothing is resent', async () => {
		const { run } = await throughHostileNetwork(
			'sale',
			'forbidden403',
			false,
			cardPayment({ merchantOrderId: 'hostile-403', options: FAST }),
		);
		expect(run.error?.message).toContain('did not take order "hostile-403" once');
		expect(run.error?.message).toContain('nothing was charged');
		expect(await ops(env.sb)).toEqual(['status', 'status']);
		expect(await env.sb.ledger('hostile-403')).toEqual([]);
	});

	it('a return answered with an HTML page: "may have been applied", never "no money moved"', async () => {
		const sale = single(await runNode(env.sb, cardPayment({ merchantOrderId: 'hostile-return', options: WAIT })));
		const { run } = await throughHostileNetwork('return', 'html200', true, {
			resource: 'payment',
			operation: 'return',
			merchantOrderId: 'hostile-return',
			gatewayOrderId: sale.orderid,
			options: FAST,
		});
		expect(run.error?.message).toContain('it may have been applied, so money MAY have moved');
		expect(`${run.error?.message} ${run.error?.description}`).not.toMatch(/no money moved|nothing was sent/);
		expect((await env.sb.ledger('hostile-return')).map((entry) => entry.kind)).toEqual(['sale', 'return']);
	});

	it('a redirect is not followed: no card data and no signature reach another host', async () => {
		const { run, elsewhere } = await throughHostileNetwork('payout', 'redirect307', false, {
			resource: 'payout',
			operation: 'send',
			merchantOrderId: 'hostile-redirect',
			amount: '5.00',
			currency: 'USD',
			additionalFields: { cardNumber: '4444555566661111', expireMonth: '12', expireYear: '2035' },
			options: FAST,
		});
		expect(elsewhere).toEqual([]);
		expect(single(run)).toMatchObject({ resentAfterLostReply: true });
		expect(await env.sb.ledger('hostile-redirect')).toHaveLength(1);
	});
});

describe('item 4: a run that stops names every order that moved or may have moved money', () => {
	it("item 0 fails validation while item 1 is in flight and charged: the error names item 1's order", async () => {
		await env.sb.fault({ kind: 'latency', op: 'sale', latencyMs: 300 });
		const run = await runNode(
			env.sb,
			cardPayment({ merchantOrderId: '={{ $json.id }}', amount: '={{ $json.amount }}', options: { concurrency: 2 } }),
			{
				input: [
					{ id: 'stop-0', amount: 'ten' },
					{ id: 'stop-1', amount: '10.00' },
				],
			},
		);
		expect(await env.sb.ledger('stop-1')).toHaveLength(1);
		expect(run.error?.message).toContain('"Amount"');
		expect(run.error?.message).toContain('1 other order(s) of this run moved or may have moved money');
		// Items are numbered as n8n numbers them (from 1), each on its own line.
		expect(run.error?.description).toContain('The run stopped at item 1.');
		expect(run.error?.description).toContain('<br>\n• item 2 (order "stop-1"');
	});

	it('the most severe outcome wins: "money MAY have moved" before a validation error', async () => {
		await env.sb.fault({ kind: 'apply-then-drop', op: 'sale', count: 1 });
		await env.sb.fault({ kind: 'reset', op: 'status', count: 10 });
		const run = await runNode(
			env.sb,
			cardPayment({
				merchantOrderId: '={{ $json.id }}',
				amount: '={{ $json.amount }}',
				options: { ...FAST, concurrency: 2 },
			}),
			{
				input: [
					{ id: 'sev-0', amount: 'ten' },
					// A generated order ID: nothing is asked before sending, so the status faults hit the lost sale's query.
					{ id: '', amount: '10.00' },
				],
			},
		);
		expect(run.error?.message).toMatch(/order "n8n-[a-z]{14}"/);
		expect(run.error?.message).toContain('money MAY have moved');
		expect(run.error?.description).toContain('item 1: failed (nothing was sent)');
	});
});

describe('item 5: one order ID, one order', () => {
	it('duplicate merchant order IDs in a batch are refused before anything is sent', async () => {
		const run = await runNode(
			env.sb,
			cardPayment({ merchantOrderId: '={{ $json.id }}', amount: '={{ $json.amount }}' }),
			{
				input: [
					{ id: 'dup-1', amount: '10.00' },
					{ id: 'dup-1', amount: '500.00' },
				],
				continueOnFail: true,
			},
		);
		expect(run.error?.message).toContain('Items 1 and 2 have the same "Order ID (Merchant)" "dup-1"; nothing was sent');
		expect(await env.sb.requests()).toEqual([]);
		// The run's error carries the node's parameters, card number included: masked like every item error.
		expect(nodeOutput(run)).not.toContain(PAN);
		expect(nodeOutput(run)).toContain('444455******1111');
	});

	it('a reply about the same order ID with another amount is flagged, never an approval', async () => {
		single(await runNode(env.sb, cardPayment({ merchantOrderId: 'replayed', amount: '10.00', options: WAIT })));
		const run = await runNode(env.sb, cardPayment({ merchantOrderId: 'replayed', amount: '500.00', options: WAIT }));
		expect(run.error?.message).toContain('the gateway reports this order with 10.00 USD, not the 500.00 USD requested');
		expect((await env.sb.ledger('replayed')).map((entry) => entry.amount)).toEqual(['10.00']);
	});
});

describe('item 6: recurring payments move money', () => {
	const recurring = { resource: 'recurringPayment', operation: 'create', merchantOrderId: 'rp-guard', currency: 'USD' };
	it('refused as an AI-agent tool without "Allow AI Agents to Move Money"', async () => {
		const run = await runNode(env.sb, recurring, { asTool: true });
		expect(run.error?.message).toContain('moves money, and AI agents may not run it');
		expect(await env.sb.requests()).toEqual([]);
	});
	it('refused under Retry On Fail', async () => {
		const run = await runNode(
			env.sb,
			{ ...recurring, operation: 'update', recurringPaymentId: '1' },
			{ retryOnFail: true },
		);
		expect(run.error?.message).toContain('must not run with the node setting "Retry On Fail"');
		expect(await env.sb.requests()).toEqual([]);
	});
});

describe('item 7: payouts need exactly one complete destination', () => {
	const payout = (extra: Record<string, string>, operation = 'send') => ({
		resource: 'payout',
		operation,
		merchantOrderId: 'dest',
		amount: '5.00',
		currency: 'USD',
		additionalFields: extra,
	});
	it.each([
		['none', {}, 'A destination is required'],
		['a card without expiry', { cardNumber: '4444555566661111' }, '"Expiry Month" is required'],
		[
			'a card and a bank account',
			{ cardNumber: '4444555566661111', expireMonth: '12', expireYear: '2035', ...BANK_DESTINATION },
			'Give one destination, not two',
		],
		['a bank account without bank name', { accountNumber: 'GB33BUKB20201555555555' }, '"Bank Name" is required'],
	])('%s: refused before sending', async (_name, extra, message) => {
		for (const operation of ['send', 'sendV4', 'check']) {
			const run = await runNode(env.sb, payout(extra, operation));
			expect(run.error?.name).toBe('NodeOperationError');
			expect(run.error?.message).toContain(message);
		}
		expect(await env.sb.requests()).toEqual([]);
	});
	it('a transfer needs a destination card', async () => {
		const run = await runNode(env.sb, {
			resource: 'transfer',
			operation: 'send',
			merchantOrderId: 't',
			amount: '5.00',
			currency: 'USD',
			additionalFields: { cardNumber: '4444555566661111', expireMonth: '12', expireYear: '2035' },
		});
		expect(run.error?.message).toContain('A destination is required');
		expect(await env.sb.requests()).toEqual([]);
	});
});

describe('item 10: misconfiguration is refused before sending, and says nothing was sent', () => {
	it.each(['file:///etc/passwd', 'ftp://gateway.example/paynet', 'not a url', ''])('base URL %j', async (baseUrl) => {
		const run = await runNode(env.sb, cardPayment({ merchantOrderId: 'cfg' }), { credentials: { baseUrl } });
		expect(run.error?.message).toContain('"Base URL" is not an absolute http(s) URL; nothing was sent');
		expect(run.error?.message).not.toMatch(/may have/i);
	});
	it("a timeout beyond what Node's timers can hold", async () => {
		const run: NodeRun = await runNode(
			env.sb,
			cardPayment({ merchantOrderId: 'cfg-timeout', options: { timeoutSeconds: 2_147_484 } }),
		);
		expect(run.error?.message).toContain('"Timeout (Seconds)" must be between');
		expect(run.error?.message).toContain('nothing was sent');
		expect(await env.sb.requests()).toEqual([]);
	});
});

describe('item 11: Extra Fields cannot set what the operation has a parameter for', () => {
	it.each([
		[{ name: 'amount', value: '3.00' }, 'use the parameter "Amount"'],
		[{ name: 'Currency', value: 'USD' }, 'use the parameter "Currency"'],
		[{ name: 'client-order-id', value: 'x' }, 'use the parameter "Order ID (Merchant)"'],
	])('a full return with extra field %j is refused', async (extra, message) => {
		const run = await runNode(env.sb, {
			resource: 'payment',
			operation: 'return',
			merchantOrderId: 'x',
			gatewayOrderId: '1',
			extraFields: { field: [extra] },
		});
		expect(run.error?.message).toContain(message);
		expect(await env.sb.requests()).toEqual([]);
	});
	it('and a void cannot be given an amount', async () => {
		const run = await runNode(env.sb, {
			resource: 'payment',
			operation: 'void',
			merchantOrderId: 'x',
			gatewayOrderId: '1',
			comment: 'c',
			extraFields: { field: [{ name: 'amount', value: '1.00' }] },
		});
		expect(run.error?.message).toContain('this operation takes no amount');
	});
});

it('the merchant login of the sandbox is what the tests sign with', () => {
	expect(MERCHANT.login).toBe('n8n-test-merchant');
});
