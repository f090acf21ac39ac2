'use strict';
// Sending an order's callbacks to any URL (issue 23 item 5): the admin routes POST
// /sandbox/orders/{id}/send-callbacks and POST /sandbox/samples/{name}, and the CLI
// `scripts/sandbox.js send-callbacks`, over real HTTP to a local receiver that checks each callback's
// control with its own SHA-1 (node:crypto, not the sandbox's verifier).
const { describe, it, expect, beforeAll, afterAll } = require('@jest/globals');
const { execFile } = require('node:child_process');
const { createHash } = require('node:crypto');
const http = require('node:http');
const path = require('node:path');
const { promisify } = require('node:util');
const { startSandbox } = require('../../sandbox');
const { Client, MERCHANT } = require('../support/sandbox-client');

const SCRIPT = path.join(__dirname, '..', '..', 'scripts', 'sandbox.js');

let sb;
let c;
let receiver;
let base;
const hits = [];
const failFirst = new Map(); // receiver path → 500s to answer before a 200
const waiters = []; // { at, count, resolve }: settled once that path has been answered that often

beforeAll(async () => {
	receiver = http.createServer((req, res) => {
		const u = new URL(req.url, 'http://x');
		hits.push({ path: u.pathname, query: Object.fromEntries(u.searchParams) });
		const left = failFirst.get(u.pathname) || 0;
		failFirst.set(u.pathname, left - 1);
		res.writeHead(left > 0 ? 500 : 200);
		res.end(left > 0 ? 'not yet' : 'OK');
		for (const waiter of waiters) if (hitsAt(waiter.at).length >= waiter.count) waiter.resolve();
	});
	await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	base = `http://127.0.0.1:${receiver.address().port}`;
	sb = await startSandbox({ port: 0, quiet: true, callbackRetry: { attempts: 4, delaysMs: [20, 40, 80] } });
	c = new Client(sb);
});
afterAll(async () => {
	await sb.close();
	receiver.closeAllConnections();
	await new Promise((resolve) => receiver.close(resolve));
});

let paths = 0;
const newPath = () => `/receiver/${++paths}`;
const hitsAt = (at) => hits.filter((hit) => hit.path === at).map((hit) => hit.query);
/** Settles once the receiver has answered `count` callbacks at path `at`. */
const answered = (at, count) =>
	hitsAt(at).length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ at, count, resolve }));
const controlOf = (q) =>
	createHash('sha1').update(`${q.status}${q.orderid}${q.merchant_order}${MERCHANT.controlKey}`).digest('hex');
const sendCallbacks = (id, body) => c.admin('POST', `orders/${encodeURIComponent(id)}/send-callbacks`, body);
const cli = (args) =>
	promisify(execFile)(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' }).then(
		({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
		(e) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
	);

describe('POST /sandbox/orders/{id}/send-callbacks', () => {
	it('sends the callback the order reported, identical to the one its notify_url got, with a valid control', async () => {
		const notified = newPath();
		const sent = newPath();
		const sale = await c.sale({ amount: '12.50', notify_url: `${base}${notified}`, merchantdata: 'ref-7' });
		await answered(notified, 1);
		const r = await sendCallbacks(sale.orderid, { url: `${base}${sent}` });
		expect(r.status).toBe(200);
		expect(r.data).toMatchObject({ orderid: String(sale.orderid), client_orderid: sale.params.client_orderid });
		expect(r.data.deliveries.map((d) => [d.type, d.status, d.url, d.attempts[0].httpStatus])).toEqual([
			['sale', 'approved', `${base}${sent}`, 200],
		]);
		const [query] = hitsAt(sent);
		expect(query).toEqual(hitsAt(notified)[0]);
		expect(query).toMatchObject({ status: 'approved', type: 'sale', amount: '12.50', merchantdata: 'ref-7' });
		expect(query.control).toBe(controlOf(query));
	});

	it('finds the order by client_orderid, sends only the named types, in the order they happened', async () => {
		const sale = await c.sale({ amount: '20.00' }); // no callback URL at all
		const cid = sale.params.client_orderid;
		await c.followUp('return', sale.orderid, cid, { amount: '5.00', currency: 'USD' });
		await c.followUp('return', sale.orderid, cid, { amount: '2.00', currency: 'USD' });
		const all = newPath();
		expect((await sendCallbacks(cid, { url: `${base}${all}` })).status).toBe(200);
		expect(hitsAt(all).map((q) => `${q.type} ${q.amount}`)).toEqual(['sale 20.00', 'reversal 5.00', 'reversal 2.00']);
		const refunds = newPath();
		const r = await sendCallbacks(cid, { url: `${base}${refunds}`, types: 'reversal' });
		expect(r.data.deliveries).toHaveLength(2);
		expect(hitsAt(refunds).map((q) => `${q.type} ${q.amount}`)).toEqual(['reversal 5.00', 'reversal 2.00']);
		for (const q of [...hitsAt(all), ...hitsAt(refunds)]) expect(q.control).toBe(controlOf(q));
	});

	it('resends a callback not answered 200 on the retry schedule, as any callback', async () => {
		const sale = await c.sale();
		const flaky = newPath();
		failFirst.set(flaky, 2);
		const r = await sendCallbacks(sale.orderid, { url: `${base}${flaky}` });
		expect(r.data.deliveries[0].attempts.map((a) => a.httpStatus)).toEqual([500]);
		await answered(flaky, 3); // 500, 500, then 200: the sandbox's own resends
		const [first, ...resent] = hitsAt(flaky);
		expect(resent).toEqual([first, first]);
		expect(first.control).toBe(controlOf(first));
	});

	it('refuses an unknown order (404), a bad URL or types (400), an order with nothing to send (409)', async () => {
		const url = `${base}${newPath()}`;
		expect((await sendCallbacks('no-such-order', { url })).status).toBe(404);
		const sale = await c.sale();
		expect((await sendCallbacks(sale.orderid, { url: 'ftp://example.com/' })).status).toBe(400);
		expect((await sendCallbacks(sale.orderid, {})).status).toBe(400);
		expect((await sendCallbacks(sale.orderid, { url, types: 7 })).status).toBe(400);
		const noCapture = await sendCallbacks(sale.orderid, { url, types: ['capture'] });
		expect([noCapture.status, noCapture.data.error]).toEqual([409, expect.stringContaining('its callbacks: sale')]);
		const unknown = await c.sale({ cvv2: '217' }); // outcome unknown: no callback yet
		const nothing = await sendCallbacks(unknown.orderid, { url });
		expect([nothing.status, nothing.data.error]).toEqual([409, expect.stringContaining('none yet (unknown)')]);
		expect(hitsAt(new URL(url).pathname)).toEqual([]);
	});
});

describe('POST /sandbox/samples/{name}', () => {
	it.each([
		['approved-sale', ['sale approved 10.00'], ['sale 10.00']],
		['declined-sale', ['sale declined 10.00 116'], []],
		['refunded-sale', ['sale approved 10.00', 'reversal approved 3.00'], ['sale 10.00', 'return 3.00']],
	])('%s: a final order whose callbacks are genuine', async (name, callbacks, ledger) => {
		const created = await c.admin('POST', `samples/${name}`);
		expect(created.status).toBe(200);
		const { orderid, client_orderid: cid } = created.data;
		expect((await c.ledger(orderid)).map((e) => `${e.kind} ${e.amount}`)).toEqual(ledger);
		const at = newPath();
		expect((await sendCallbacks(orderid, { url: `${base}${at}` })).status).toBe(200);
		const queries = hitsAt(at);
		expect(queries.map((q) => [q.type, q.status, q.amount, q.error_code].filter(Boolean).join(' '))).toEqual(callbacks);
		for (const q of queries) expect([q.orderid, q.client_orderid, q.control]).toEqual([orderid, cid, controlOf(q)]);
		// The sandbox answers a status query for it, as for any order (what a trigger confirming the callback asks).
		const status = await c.status(orderid, cid);
		expect(status.data.status).toBe(callbacks[0].split(' ')[1]);
	});

	it('refuses an unknown sample with the list of samples', async () => {
		const r = await c.admin('POST', 'samples/bogus');
		expect([r.status, r.data.error]).toEqual([
			400,
			expect.stringContaining('approved-sale, declined-sale, refunded-sale'),
		]);
	});
});

describe('CLI: npm run sandbox -- send-callbacks', () => {
	it('--sample creates the order and sends its callbacks, one line each, exit 0', async () => {
		const at = newPath();
		const r = await cli(['send-callbacks', '--sample', 'refunded-sale', '--url', `${base}${at}`, '--sandbox', sb.url]);
		expect(r).toMatchObject({ code: 0, stderr: '' });
		const orderid = /^sample order (\d+) /.exec(r.stdout)[1];
		expect(r.stdout).toContain(`sale approved 10.00 USD of order ${orderid} → ${base}${at}: HTTP 200`);
		expect(r.stdout).toContain(`reversal approved 3.00 USD of order ${orderid} → ${base}${at}: HTTP 200`);
		const queries = hitsAt(at);
		expect(queries.map((q) => q.type)).toEqual(['sale', 'reversal']);
		for (const q of queries) expect(q.control).toBe(controlOf(q));
	});

	it('--order by client_orderid with --types, the sandbox named by --port; exit 1 when not answered 200', async () => {
		const sale = await c.sale({ amount: '4.00' });
		const at = newPath();
		failFirst.set(at, 1);
		const args = ['send-callbacks', '--order', sale.params.client_orderid, '--types', 'sale', '--url', `${base}${at}`];
		const r = await cli([...args, '--port', String(sb.port)]);
		expect(r.code).toBe(1);
		expect(r.stdout).toContain(`sale approved 4.00 USD of order ${sale.orderid} → ${base}${at}: HTTP 500`);
		expect(r.stdout).toContain('the sandbox resends');
		await answered(at, 2); // the sandbox's resend
	});

	it('reports a refusal (exit 1) and bad usage (exit 2); --help documents the command', async () => {
		const missing = await cli(['send-callbacks', '--order', 'nope', '--url', `${base}/x`, '--sandbox', sb.url]);
		expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining('HTTP 404: Order nope not found')]);
		for (const args of [
			['send-callbacks', '--url', `${base}/x`],
			['send-callbacks', '--order', '1', '--sample', 'approved-sale', '--url', `${base}/x`],
			['send-callbacks', '--order', '1'],
			['--order', '1', '--url', `${base}/x`],
			['send-callbacks', '--order', '1', '--url', `${base}/x`, '--quiet'],
		]) {
			expect([args.join(' '), (await cli(args)).code]).toEqual([args.join(' '), 2]);
		}
		const help = await cli(['--help']);
		expect(help.code).toBe(0);
		for (const text of ['send-callbacks', '--order', '--sample', 'approved-sale', 'refunded-sale', '--types', '--url'])
			expect(help.stdout).toContain(text);
	});
});
