'use strict';
// Server callbacks delivered to a local node:http receiver: parameters, control, retries, replay and
// the callback faults.
const { describe, it, expect, beforeAll, afterAll } = require('@jest/globals');
const http = require('node:http');
const { startSandbox } = require('../../sandbox');
const { Client, MERCHANT, sha1 } = require('../support/sandbox-client');
const { scaled } = require('../support/time-scale');

let sb;
let c;
let receiver;
let base;
const hits = [];
const failPlans = new Map(); // path → number of 500s to answer before a 200

beforeAll(async () => {
	receiver = http.createServer((req, res) => {
		const u = new URL(req.url, 'http://x');
		hits.push({ method: req.method, path: u.pathname, query: Object.fromEntries(u.searchParams), at: Date.now() });
		const left = failPlans.get(u.pathname) || 0;
		if (left > 0) {
			failPlans.set(u.pathname, left - 1);
			res.writeHead(500);
			return res.end('not yet');
		}
		res.writeHead(200);
		res.end('OK');
	});
	await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
	base = `http://127.0.0.1:${receiver.address().port}`;
	sb = await startSandbox({ port: 0, quiet: true, callbackRetry: { attempts: 5, delaysMs: [20, 40, 80, 160, 320] } });
	c = new Client(sb);
});
afterAll(async () => {
	await sb.close();
	receiver.closeAllConnections();
	await new Promise((r) => receiver.close(r));
});

async function waitFor(fn, ms = scaled(5000)) {
	const end = Date.now() + ms;
	for (;;) {
		const v = await fn();
		if (v) return v;
		if (Date.now() > end) throw new Error('timed out waiting');
		await new Promise((r) => setTimeout(r, 10));
	}
}
const hitsFor = (path) => hits.filter((h) => h.path === path);
const deliveries = async (orderid) => (await c.admin('GET', `callbacks?orderid=${orderid}`)).data.deliveries;
let n = 0;
const newPath = () => `/cb/${++n}`;

describe('server callbacks', () => {
	it('GET with the outcome and a correct control when the order reaches its final status', async () => {
		const path = newPath();
		const s = await c.sale({ amount: '12.50', server_callback_url: `${base}${path}?shop=7`, merchantdata: 'ref-42' });
		const [hit] = await waitFor(() => hitsFor(path).length && hitsFor(path));
		expect(hit.method).toBe('GET');
		const q = hit.query;
		expect(q).toMatchObject({
			shop: '7',
			status: 'approved',
			merchant_order: s.params.client_orderid,
			client_orderid: s.params.client_orderid,
			orderid: s.orderid,
			type: 'sale',
			amount: '12.50',
			currency: 'USD',
			'last-four-digits': '1111',
			bin: '444455',
			'card-type': 'VISA',
			'processor-tx-id': `PNTEST-${s.orderid}`,
			merchantdata: 'ref-42',
			error_code: '',
			error_message: '',
		});
		expect(q['approval-code']).toMatch(/^\d{6}$/);
		expect(q.descriptor).toBeTruthy();
		expect(q.control).toBe(sha1(q.status + q.orderid + q.merchant_order + MERCHANT.controlKey));
		expect(JSON.stringify(q)).not.toContain('4444555566661111');
		const [d] = await deliveries(s.orderid);
		expect(d).toMatchObject({
			state: 'delivered',
			delivered: true,
			attempts: [expect.objectContaining({ n: 1, httpStatus: 200 })],
		});
	});

	it('declines carry error_code / error_message; no callback without a URL or for an unknown outcome', async () => {
		const path = newPath();
		const s = await c.sale({ cvv2: '116', server_callback_url: `${base}${path}` });
		const [hit] = await waitFor(() => hitsFor(path).length && hitsFor(path));
		expect(hit.query).toMatchObject({ status: 'declined', error_code: '116', error_message: 'Insufficient funds' });
		expect(hit.query.control).toBe(sha1(`declined${s.orderid}${s.params.client_orderid}${MERCHANT.controlKey}`));
		const u = await c.sale({ cvv2: '217', server_callback_url: `${base}${newPath()}` });
		const quiet = await c.sale();
		await new Promise((r) => setTimeout(r, 100));
		expect(await deliveries(u.orderid)).toEqual([]);
		expect(await deliveries(quiet.orderid)).toEqual([]);
	});

	it('retries until the merchant answers 200 and records every attempt', async () => {
		const path = newPath();
		failPlans.set(path, 2);
		const s = await c.sale({ server_callback_url: `${base}${path}` });
		await waitFor(async () => (await deliveries(s.orderid))[0].state === 'delivered');
		const [d] = await deliveries(s.orderid);
		expect(d.attempts.map((a) => a.httpStatus)).toEqual([500, 500, 200]);
		expect(hitsFor(path)).toHaveLength(3);
		// gives up after the configured attempts
		const p2 = newPath();
		failPlans.set(p2, 100);
		const t = await c.sale({ server_callback_url: `${base}${p2}` });
		await waitFor(async () => (await deliveries(t.orderid))[0].state === 'failed');
		expect((await deliveries(t.orderid))[0].attempts).toHaveLength(5);
		// an unreachable URL is recorded as an error attempt
		const u = await c.sale({ server_callback_url: 'http://127.0.0.1:9/unreachable' });
		await waitFor(async () => (await deliveries(u.orderid))[0].attempts.length > 0);
		expect((await deliveries(u.orderid))[0].attempts[0].error).toBeTruthy();
	});

	it('notify_url also fires for follow-ups; server_callback_url only for the initial transaction', async () => {
		const notify = newPath();
		const server = newPath();
		const s = await c.sale(
			{ amount: '20.00', notify_url: `${base}${notify}`, server_callback_url: `${base}${server}` },
			'preauth',
		);
		const cid = s.params.client_orderid;
		await c.followUp('capture', s.orderid, cid, { amount: '15.00', currency: 'USD' });
		await c.followUp('return', s.orderid, cid, { amount: '5.00', currency: 'USD' });
		await c.admin('POST', `orders/${s.orderid}/chargeback`, { amount: '2.00' });
		await waitFor(() => hitsFor(notify).length === 4);
		expect(
			hitsFor(notify)
				.map((h) => `${h.query.type}:${h.query.amount}`)
				.sort(),
		).toEqual(['capture:15.00', 'chargeback:2.00', 'preauth:20.00', 'reversal:5.00'].sort());
		expect(hitsFor(server).map((h) => h.query.type)).toEqual(['preauth']);
		expect((await c.ledger(s.orderid)).map((e) => e.kind)).toEqual(['capture', 'return', 'chargeback']);
	});

	it('replay re-sends a recorded delivery', async () => {
		const path = newPath();
		const s = await c.sale({ server_callback_url: `${base}${path}` });
		await waitFor(() => hitsFor(path).length === 1);
		const [d] = await deliveries(s.orderid);
		const r = await c.admin('POST', `callbacks/${d.id}/replay`);
		expect(r.data.replayOf).toBe(d.id);
		await waitFor(() => hitsFor(path).length === 2);
		expect(hitsFor(path)[1].query).toEqual(hitsFor(path)[0].query);
		expect((await c.admin('POST', 'callbacks/999999/replay')).status).toBe(404);
	});

	it('with pollsBeforeFinal the callback waits for the final status', async () => {
		const slow = await startSandbox({ port: 0, quiet: true, pollsBeforeFinal: 1 });
		try {
			const sc = new Client(slow);
			const path = newPath();
			const s = await sc.sale({ server_callback_url: `${base}${path}` });
			await new Promise((r) => setTimeout(r, 100));
			expect(hitsFor(path)).toHaveLength(0);
			await sc.status(s.orderid, s.params.client_orderid);
			await sc.status(s.orderid, s.params.client_orderid);
			await waitFor(() => hitsFor(path).length === 1);
		} finally {
			await slow.close();
		}
	});
});

describe('callback faults', () => {
	it('duplicate-callback delivers the next callback twice', async () => {
		await c.admin('POST', 'faults', { kind: 'duplicate-callback', op: 'sale' });
		const path = newPath();
		await c.sale({ server_callback_url: `${base}${path}` });
		await waitFor(() => hitsFor(path).length === 2);
		expect(hitsFor(path)[0].query).toEqual(hitsFor(path)[1].query);
		const path2 = newPath();
		await c.sale({ server_callback_url: `${base}${path2}` });
		await new Promise((r) => setTimeout(r, 100));
		expect(hitsFor(path2)).toHaveLength(1);
	});

	it('wrong-control-callback sends a control that does not verify (once)', async () => {
		await c.admin('POST', 'faults', { kind: 'wrong-control-callback' });
		const path = newPath();
		const s = await c.sale({ server_callback_url: `${base}${path}` });
		const [hit] = await waitFor(() => hitsFor(path).length && hitsFor(path));
		expect(hit.query.control).toMatch(/^[0-9a-f]{40}$/);
		expect(hit.query.control).not.toBe(sha1(`approved${s.orderid}${s.params.client_orderid}${MERCHANT.controlKey}`));
		const path2 = newPath();
		const t = await c.sale({ server_callback_url: `${base}${path2}` });
		const [ok] = await waitFor(() => hitsFor(path2).length && hitsFor(path2));
		expect(ok.query.control).toBe(sha1(`approved${t.orderid}${t.params.client_orderid}${MERCHANT.controlKey}`));
	});

	it("out-of-order-callbacks delivers a later follow-up's callback before the earlier one", async () => {
		const path = newPath();
		const s = await c.sale({ amount: '30.00', notify_url: `${base}${path}` }, 'preauth');
		await waitFor(() => hitsFor(path).length === 1);
		// Held until the return's callback went out; the latency is only the sandbox's safety release.
		await c.admin('POST', 'faults', { kind: 'out-of-order-callbacks', op: 'capture', latencyMs: scaled(5000) });
		const cid = s.params.client_orderid;
		await c.followUp('capture', s.orderid, cid, { amount: '10.00', currency: 'USD' });
		await new Promise((r) => setTimeout(r, 100));
		expect(hitsFor(path)).toHaveLength(1); // held
		await c.followUp('return', s.orderid, cid, { amount: '4.00', currency: 'USD' });
		await waitFor(() => hitsFor(path).length === 3);
		expect(hitsFor(path).map((h) => h.query.type)).toEqual(['preauth', 'reversal', 'capture']);
	});
});

describe('callbackMethod POST', () => {
	it('sends the same fields and control as a form body', async () => {
		const bodies = [];
		const postReceiver = http.createServer((req, res) => {
			let body = '';
			req.on('data', (chunk) => (body += chunk));
			req.on('end', () => {
				bodies.push({
					method: req.method,
					type: req.headers['content-type'],
					fields: Object.fromEntries(new URLSearchParams(body)),
				});
				res.writeHead(200);
				res.end('OK');
			});
		});
		await new Promise((r) => postReceiver.listen(0, '127.0.0.1', r));
		const postSandbox = await startSandbox({ port: 0, quiet: true, callbackMethod: 'POST' });
		try {
			const client = new Client(postSandbox);
			const s = await client.sale({
				amount: '3.00',
				server_callback_url: `http://127.0.0.1:${postReceiver.address().port}/cb`,
			});
			await client.status(s.orderid, s.params.client_orderid);
			const [hit] = await waitFor(() => bodies.length && bodies);
			expect(hit.method).toBe('POST');
			expect(hit.type).toBe('application/x-www-form-urlencoded');
			expect(hit.fields).toMatchObject({
				status: 'approved',
				orderid: s.orderid,
				merchant_order: s.params.client_orderid,
				amount: '3.00',
			});
			expect(hit.fields.control).toBe(
				sha1(`approved${hit.fields.orderid}${hit.fields.merchant_order}${MERCHANT.controlKey}`),
			);
		} finally {
			await postSandbox.close();
			postReceiver.closeAllConnections();
			await new Promise((r) => postReceiver.close(r));
		}
	});
});
