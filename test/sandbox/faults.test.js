'use strict';
// Request fault injection and the admin API.
const { describe, it, expect, beforeAll, afterAll, beforeEach } = require('@jest/globals');
const { startSandbox } = require('../../sandbox');
const { Client, MERCHANT, CARD, withControl } = require('../support/sandbox-client');

let sb;
let c;
beforeAll(async () => {
	sb = await startSandbox({ port: 0, quiet: true });
	c = new Client(sb);
});
afterAll(() => sb.close());
beforeEach(() => c.admin('DELETE', 'faults'));

const addFault = async (f) => {
	const r = await c.admin('POST', 'faults', f);
	expect(r.status).toBe(200);
	return r.data.faults[0];
};
const timed = async (fn) => {
	const t = Date.now();
	const r = await fn();
	return { r, ms: Date.now() - t };
};

describe('request faults', () => {
	it('latency (per op) and the global latencyMs option', async () => {
		await addFault({ kind: 'latency', op: 'status', latencyMs: 300 });
		const s = await c.sale();
		const slow = await timed(() => c.status(s.orderid, s.params.client_orderid));
		expect(slow.ms).toBeGreaterThanOrEqual(250);
		expect(slow.r.data.status).toBe('approved');
		const lagged = await startSandbox({ port: 0, quiet: true, latencyMs: 200 });
		try {
			const lc = new Client(lagged);
			const t = await timed(() => lc.sale());
			expect(t.ms).toBeGreaterThanOrEqual(180);
			expect(t.r.data.type).toBe('async-response');
		} finally {
			await lagged.close();
		}
	});

	it('http500: a 500 reply in both formats, nothing applied', async () => {
		await addFault({ kind: 'http500', op: 'sale', count: 2 });
		const p = withControl('sale', 1001, c.saleParams());
		const before = await c.snapshot();
		const j = await c.post('v2/sale/1001', p);
		expect(j.status).toBe(500);
		expect(j.data).toEqual({ type: 'error', 'error-message': 'Injected server fault', 'error-code': 5 });
		const l = await c.post('v2/sale/1001', p, { json: false });
		expect(l.status).toBe(500);
		expect(l.data).toMatchObject({ type: 'error', 'error-code': '5' });
		expect(await c.snapshot()).toBe(before);
		const ok = await c.post('v2/sale/1001', p);
		expect(ok.status).toBe(200);
		expect((await c.ledger(ok.data['paynet-order-id'])).length).toBe(1);
	});

	it('reset: the connection is destroyed before anything is applied', async () => {
		await addFault({ kind: 'reset', op: 'sale' });
		const p = withControl('sale', 1001, c.saleParams());
		const before = await c.snapshot();
		await expect(c.post('v2/sale/1001', p)).rejects.toThrow();
		expect(await c.snapshot()).toBe(before);
		expect((await c.post('v2/sale/1001', p)).data.type).toBe('async-response');
	});

	it('timeout: held for latencyMs, then dropped with nothing applied', async () => {
		await addFault({ kind: 'timeout', op: '*', latencyMs: 300 });
		const p = withControl('sale', 1001, c.saleParams());
		const before = await c.snapshot();
		const t = Date.now();
		await expect(c.post('v2/sale/1001', p)).rejects.toThrow();
		expect(Date.now() - t).toBeGreaterThanOrEqual(250);
		expect(await c.snapshot()).toBe(before);
	});

	it('apply-then-drop: the sale happens, the reply is lost; the retry gets the same order, money once', async () => {
		await addFault({ kind: 'apply-then-drop', op: 'v2/sale' });
		const p = withControl('sale', 1001, c.saleParams());
		await expect(c.post('v2/sale/1001', p)).rejects.toThrow();
		const orders = (await c.admin('GET', `orders?client_orderid=${p.client_orderid}`)).data.orders;
		expect(orders).toHaveLength(1);
		const retry = await c.post('v2/sale/1001', p);
		expect(retry.data['paynet-order-id']).toBe(orders[0].orderid);
		expect((await c.ledger(orders[0].orderid)).length).toBe(1);
		// a correctly signed status for an order that never existed still answers "not found"
		expect((await c.status(null, 'never-sent')).data['error-message']).toBe('Order not found');
	});

	it('stay-processing until finalize, or until the fault is removed', async () => {
		const f = await addFault({ kind: 'stay-processing', op: 'sale', count: 2 });
		const a = await c.sale();
		const b = await c.sale();
		for (let i = 0; i < 3; i++)
			expect((await c.status(a.orderid, a.params.client_orderid)).data.status).toBe('processing');
		expect(await c.ledger(a.orderid)).toEqual([]);
		const fin = await c.admin('POST', `orders/${a.orderid}/finalize`);
		expect(fin.data).toMatchObject({ status: 'approved', finalized: true });
		expect((await c.status(a.orderid, a.params.client_orderid)).data.status).toBe('approved');
		expect((await c.ledger(a.orderid)).length).toBe(1);
		expect((await c.status(b.orderid, b.params.client_orderid)).data.status).toBe('processing');
		expect((await c.admin('DELETE', `faults/${f.id}`)).status).toBe(200);
		expect((await c.status(b.orderid, b.params.client_orderid)).data.status).toBe('approved');
		// the third sale was not affected (count 2)
		const third = await c.sale();
		expect((await c.status(third.orderid, third.params.client_orderid)).data.status).toBe('approved');
	});

	it('faults match only their op and count; configured faults apply from the start', async () => {
		await addFault({ kind: 'http500', op: 'status' });
		expect((await c.sale()).status).toBe(200);
		const s = await c.sale();
		expect((await c.status(s.orderid, s.params.client_orderid)).status).toBe(500);
		expect((await c.status(s.orderid, s.params.client_orderid)).status).toBe(200);
		const list = (await c.admin('GET', 'faults')).data.faults;
		expect(list[0]).toMatchObject({ kind: 'http500', op: 'status', remaining: 0, used: 1 });
		const cfg = await startSandbox({ port: 0, quiet: true, faults: [{ kind: 'http500', op: 'sale', count: -1 }] });
		try {
			const cc = new Client(cfg);
			expect((await cc.sale()).status).toBe(500);
			expect((await cc.sale()).status).toBe(500);
		} finally {
			await cfg.close();
		}
	});
});

describe('admin API', () => {
	it('orders, order, requests are masked: no card number, CVV, control key', async () => {
		const s = await c.sale({ cvv2: '1234' });
		const list = (await c.admin('GET', 'orders')).data.orders;
		expect(list.find((o) => o.orderid === s.orderid)).toBeTruthy();
		const o = await c.order(s.orderid);
		expect(o).toMatchObject({
			orderid: s.orderid,
			client_orderid: s.params.client_orderid,
			merchant: MERCHANT.login,
			endpoint: '1001',
			status: 'approved',
			amount: '10.00',
			card: { masked: '444455******1111' },
		});
		expect(o.params.cvv2).toBe('***');
		const reqs = (await c.admin('GET', 'requests')).data.requests;
		const mine = reqs.find((r) => r.client_orderid === s.params.client_orderid);
		expect(mine).toMatchObject({
			method: 'POST',
			path: '/paynet/api/v2/sale/1001',
			op: 'sale',
			result: 'async-response',
		});
		expect(mine.params.credit_card_number).toBe('444455******1111');
		const everything = JSON.stringify([list, o, reqs, (await c.admin('GET', 'callbacks')).data, await c.ledger()]);
		expect(everything).not.toContain(CARD);
		expect(everything).not.toContain(MERCHANT.controlKey);
		expect(everything).not.toContain('"1234"');
		expect((await c.admin('GET', 'orders/424242')).status).toBe(404);
		expect((await c.admin('GET', 'nothing-here')).status).toBe(404);
	});

	it('ledger entries have the documented shape', async () => {
		const s = await c.sale({ amount: '3.21' });
		const [e] = await c.ledger(s.orderid);
		expect(e).toEqual({
			seq: expect.any(Number),
			orderid: s.orderid,
			client_orderid: s.params.client_orderid,
			merchant: MERCHANT.login,
			endpoint: '1001',
			kind: 'sale',
			amount: '3.21',
			amountMinor: 321,
			currency: 'USD',
			at: expect.any(String),
		});
	});

	it('finalize, clear and chargeback refuse what does not make sense', async () => {
		const s = await c.sale();
		expect((await c.admin('POST', `orders/${s.orderid}/finalize`)).status).toBe(409);
		const d = await c.sale({ cvv2: '116' });
		expect((await c.admin('POST', `orders/${d.orderid}/clear`)).status).toBe(409);
		expect((await c.admin('POST', `orders/${d.orderid}/chargeback`)).status).toBe(409);
		expect((await c.admin('POST', `orders/${s.orderid}/chargeback`, { amount: '11.00' })).status).toBe(409);
		expect((await c.admin('POST', `orders/${s.orderid}/chargeback`)).data).toMatchObject({ chargedBack: '10.00' });
		const u = await c.sale({ cvv2: '217' });
		const fin = await c.admin('POST', `orders/${u.orderid}/finalize`, { status: 'declined' });
		expect(fin.data.status).toBe('declined');
		expect((await c.admin('POST', 'orders/1/finalize')).status).toBe(404);
		expect((await c.admin('POST', 'faults', { kind: 'nonsense' })).status).toBe(400);
	});

	it('reset empties orders, ledger, callbacks and requests but never reuses ids', async () => {
		const a = await c.sale();
		expect((await c.admin('POST', 'reset')).data).toEqual({ ok: true });
		expect((await c.admin('GET', 'orders')).data.orders).toEqual([]);
		expect(await c.ledger()).toEqual([]);
		expect((await c.admin('GET', 'callbacks')).data.deliveries).toEqual([]);
		const b = await c.sale();
		expect(Number(b.orderid)).toBeGreaterThan(Number(a.orderid));
		const info = (await c.admin('GET', '')).data;
		expect(info).toMatchObject({ ok: true, verifier: 'forge', basePath: '/paynet' });
		expect(info.merchants.map((m) => m.login)).toEqual(['n8n-test-merchant', 'other-merchant']);
	});
});
