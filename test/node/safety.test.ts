// Lost replies: a money-moving request is never resent blindly. The sandbox injects the faults;
// its ledger shows how often money moved, its request log how often the node asked.
import { createServer } from 'node:net';

import { BANK_DESTINATION, WAIT, cardPayment, runNode, single, useSandbox, type Sandbox } from '../support/harness';
import { scaled } from '../support/time-scale';

const env = useSandbox();

beforeEach(() => env.sb.reset());

/** How many requests of each command reached the sandbox. */
async function counts(sb: Sandbox): Promise<Record<string, number>> {
	const result: Record<string, number> = {};
	for (const request of await sb.requests()) if (request.op) result[request.op] = (result[request.op] ?? 0) + 1;
	return result;
}

const FAST = { timeoutSeconds: 1 };

/** The sandbox logs a timed-out request only when it finally drops it: wait for that entry. */
async function loggedRequests(sb: Sandbox, op: string, expected: number): Promise<Record<string, number>> {
	for (const deadline = Date.now() + scaled(5_000); Date.now() < deadline;) {
		const now = await counts(sb);
		if ((now[op] ?? 0) >= expected) return now;
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	return counts(sb);
}

// A generated order ID is new by construction, so nothing is asked before sending: these runs show the
// lost-reply path alone. (A typed order ID is first checked at the gateway: test/node/money-truth.test.ts.)
const NEW_ORDER = { merchantOrderId: '' };

describe('sale whose reply is lost', () => {
	it('timeout before the gateway applied it: status says "not found", the sale is resent once, money moves once', async () => {
		await env.sb.fault({ kind: 'timeout', op: 'sale', count: 1, latencyMs: 1500 });
		const out = single(await runNode(env.sb, cardPayment({ ...NEW_ORDER, options: FAST })));
		expect(out).toMatchObject({ type: 'async-response', resentAfterLostReply: true });
		expect(out.recoveredFromLostReply).toBeUndefined();
		expect(await loggedRequests(env.sb, 'sale', 2)).toEqual({ sale: 2, status: 1 });
		expect((await env.sb.ledger(out.client_orderid)).map((e) => [e.kind, e.amount])).toEqual([['sale', '10.00']]);
	});

	it('applied, then the connection dropped: the status answers, nothing is resent', async () => {
		await env.sb.fault({ kind: 'apply-then-drop', op: 'sale', count: 1 });
		const out = single(await runNode(env.sb, cardPayment({ ...NEW_ORDER, options: FAST })));
		expect(out).toMatchObject({
			type: 'status-response',
			status: 'approved',
			recoveredFromLostReply: true,
			moneyEffect: 'moved',
			amountCharged: '10.00',
		});
		expect(out.resentAfterLostReply).toBeUndefined();
		expect(await counts(env.sb)).toEqual({ sale: 1, status: 1 });
		expect((await env.sb.ledger(out.client_orderid)).map((e) => e.kind)).toEqual(['sale']);
	});

	it.each(['http500', 'reset'])('%s: treated as a lost reply (status first), then resent once', async (kind) => {
		await env.sb.fault({ kind, op: 'sale', count: 1 });
		const out = single(await runNode(env.sb, cardPayment({ ...NEW_ORDER, options: FAST })));
		expect(out).toMatchObject({ resentAfterLostReply: true, orderid: expect.stringMatching(/^\d+$/) });
		expect(await counts(env.sb)).toEqual({ sale: 2, status: 1 });
		expect(await env.sb.ledger(out.client_orderid)).toHaveLength(1);
	});

	it('the status query is retried while the gateway stays unreachable', async () => {
		await env.sb.fault({ kind: 'apply-then-drop', op: 'sale', count: 1 });
		await env.sb.fault({ kind: 'reset', op: 'status', count: 2 });
		const out = single(await runNode(env.sb, cardPayment({ ...NEW_ORDER, options: { ...FAST, ...WAIT } })));
		expect(out).toMatchObject({ status: 'approved', recoveredFromLostReply: true });
		expect(await counts(env.sb)).toEqual({ sale: 1, status: 3 });
		expect(await env.sb.ledger(out.client_orderid)).toHaveLength(1);
	});

	it('when the status cannot be learned: an error naming the order that says money MAY have moved', async () => {
		await env.sb.fault({ kind: 'apply-then-drop', op: 'sale', count: 1 });
		await env.sb.fault({ kind: 'reset', op: 'status', count: 10 });
		const run = await runNode(env.sb, cardPayment({ ...NEW_ORDER, options: FAST }));
		expect(run.items).toEqual([]);
		expect(run.error?.name).toBe('NodeApiError');
		const [sale] = await env.sb.ledger();
		expect(run.error?.message).toContain(`"${sale.client_orderid}"`);
		expect(run.error?.message).toContain('money MAY have moved');
		expect(run.error?.description).toContain('Do not run this item again with a new order ID');
		expect(await counts(env.sb)).toEqual({ sale: 1, status: 4 });
		expect(await env.sb.ledger()).toHaveLength(1);
	});

	it('with Continue On Fail the same error becomes an item, paired with its input', async () => {
		await env.sb.fault({ kind: 'http500', op: '*', count: 10 });
		const run = await runNode(env.sb, cardPayment({ ...NEW_ORDER, options: FAST }), { continueOnFail: true });
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(1);
		expect(run.items[0].pairedItem).toEqual({ item: 0 });
		expect(run.items[0].json.error).toContain('money MAY have moved');
		// n8n keeps the error's context on the item: what became of the money, to route on.
		expect((run.items[0].error as unknown as { context: { moneyEffect: string } }).context.moneyEffect).toBe(
			'mayHaveMoved',
		);
		expect(await env.sb.ledger()).toEqual([]);
	});

	it('a payout (OAuth HMAC) applied before the drop is recovered the same way', async () => {
		await env.sb.fault({ kind: 'apply-then-drop', op: 'payout', count: 1 });
		const out = single(
			await runNode(env.sb, {
				resource: 'payout',
				operation: 'send',
				...NEW_ORDER,
				amount: '20.00',
				currency: 'USD',
				additionalFields: BANK_DESTINATION,
				options: FAST,
			}),
		);
		expect(out).toMatchObject({ recoveredFromLostReply: true, status: 'approved' });
		expect(await counts(env.sb)).toEqual({ payout: 1, status: 1 });
		expect((await env.sb.ledger(out.client_orderid)).map((e) => e.kind)).toEqual(['payout']);
	});
});

describe('follow-ups are never resent', () => {
	async function preauth(id: string) {
		return single(
			await runNode(env.sb, cardPayment({ merchantOrderId: id, amount: '50.00', options: WAIT }, 'preauth')),
		);
	}

	it('capture applied, reply lost: explicit "may have been applied" error with the order status', async () => {
		const hold = await preauth('safe-capture');
		await env.sb.fault({ kind: 'apply-then-drop', op: 'capture', count: 1 });
		const run = await runNode(env.sb, {
			resource: 'payment',
			operation: 'capture',
			merchantOrderId: 'safe-capture',
			gatewayOrderId: hold.orderid,
			options: FAST,
		});
		expect(run.error?.message).toContain('it may have been applied, so money MAY have moved');
		expect(run.error?.description).toContain('status "approved", last transaction "capture"');
		expect(run.error?.description).toContain('never resent automatically');
		expect((await counts(env.sb)).capture).toBe(1);
		expect((await env.sb.ledger('safe-capture')).map((e) => [e.kind, e.amount])).toEqual([['capture', '50.00']]);
	});

	it('return rejected with HTTP 500 (not applied): reported, not resent', async () => {
		const hold = await preauth('safe-return');
		await env.sb.fault({ kind: 'http500', op: 'return', count: 1 });
		const run = await runNode(env.sb, {
			resource: 'payment',
			operation: 'return',
			merchantOrderId: 'safe-return',
			gatewayOrderId: hold.orderid,
			options: FAST,
		});
		expect(run.error?.message).toContain('may have been applied');
		expect(run.error?.description).toContain('last transaction "preauth"');
		expect((await counts(env.sb)).return).toBe(1);
		expect(await env.sb.ledger('safe-return')).toEqual([]);
	});
});

describe('nothing sent', () => {
	it('ECONNREFUSED is a plain error: nothing was sent, no talk of money', async () => {
		const port = await new Promise<number>((resolve) => {
			const server = createServer();
			server.listen(0, '127.0.0.1', () => {
				const { port: free } = server.address() as { port: number };
				server.close(() => resolve(free));
			});
		});
		const run = await runNode(env.sb, cardPayment(NEW_ORDER), {
			credentials: { baseUrl: `http://127.0.0.1:${port}/paynet` },
		});
		expect(run.error?.message).toContain(
			'could not connect to the gateway (the connection was refused); nothing was sent',
		);
		expect(run.error?.message).not.toMatch(/may have/i);
		expect(run.error?.description).toContain('ECONNREFUSED');
	});
});
