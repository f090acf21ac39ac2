'use strict';
// The remote transaction report (GET /paynet-ui/services/transaction-report), read by an independent
// client: Python's hmac, hashlib, urllib and csv sign the request and parse the CSV — neither the
// node's code nor the sandbox's. Its rows are the transactions the tests made through the API.
const { describe, it, expect, beforeAll, afterAll } = require('@jest/globals');
const { execFile } = require('node:child_process');
const crypto = require('node:crypto');
const { promisify } = require('node:util');
const { request } = require('undici');
const { startSandbox } = require('../../sandbox');
const { Client, MERCHANT, OTHER, baseString, enc, parseLegacy } = require('../support/sandbox-client');

const run = promisify(execFile);

// argv: url, login, key, params (JSON object), tamper ('1' flips the signature).
// Prints { status, contentType, chunked, rows (csv.DictReader, when text/csv) | body }.
const PYTHON_CLIENT = String.raw`
import base64, csv, hashlib, hmac, io, json, secrets, sys, time, urllib.error, urllib.parse, urllib.request
url, login, key, params, tamper = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4]), sys.argv[5] == '1'
enc = lambda s: urllib.parse.quote(str(s), safe='-._~')
oauth = {'oauth_consumer_key': login, 'oauth_nonce': secrets.token_hex(8), 'oauth_signature_method': 'HMAC-SHA1',
         'oauth_timestamp': str(int(time.time())), 'oauth_version': '1.0'}
pairs = sorted((enc(k), enc(v)) for k, v in list(params.items()) + list(oauth.items()))
base = 'GET&' + enc(url) + '&' + enc('&'.join(k + '=' + v for k, v in pairs))
signature = base64.b64encode(hmac.new((key + '&').encode(), base.encode(), hashlib.sha1).digest()).decode()
if tamper:
    signature = ('B' if signature[0] == 'A' else 'A') + signature[1:]
oauth['oauth_signature'] = signature
header = 'OAuth ' + ', '.join(k + '="' + enc(v) + '"' for k, v in oauth.items())
query = '&'.join(enc(k) + '=' + enc(v) for k, v in params.items())
req = urllib.request.Request(url + ('?' + query if query else ''), headers={'Authorization': header})
try:
    resp = urllib.request.urlopen(req)
except urllib.error.HTTPError as e:
    resp = e
body = resp.read().decode('utf-8')
out = {'status': resp.status, 'contentType': resp.headers.get('Content-Type'),
       'chunked': resp.headers.get('Transfer-Encoding') == 'chunked'}
if (out['contentType'] or '').startswith('text/csv'):
    out['rows'] = list(csv.DictReader(io.StringIO(body, newline='')))
else:
    out['body'] = body
print(json.dumps(out))
`;

let sb;
let c;
let reportUrl;
beforeAll(async () => {
	sb = await startSandbox({ port: 0, quiet: true });
	c = new Client(sb);
	reportUrl = `${sb.url}/paynet-ui/services/transaction-report`;
});
afterAll(() => sb.close());

/** `YYYY-MM-DD HH:MM:SS` (UTC) of now + offset. */
const reportDate = (offsetMs = 0) => new Date(Date.now() + offsetMs).toISOString().slice(0, 19).replace('T', ' ');
const HOUR = 3600 * 1000;
const aroundNow = () => ({ createdFromDate: reportDate(-HOUR), createdToDate: reportDate(HOUR) });

/** The report as the independent client reads it. */
async function report(params, { merchant = MERCHANT, tamper = false } = {}) {
	const { stdout } = await run(
		'python3',
		['-c', PYTHON_CLIENT, reportUrl, merchant.login, merchant.controlKey, JSON.stringify(params), tamper ? '1' : '0'],
		{ maxBuffer: 256 * 1024 * 1024 },
	);
	return JSON.parse(stdout);
}

const rowsOf = (result, orderids) => result.rows.filter((row) => orderids.includes(row['paynet-order-id']));

describe('transaction report: the rows', () => {
	let sale;
	let declined;
	let preauth;
	beforeAll(async () => {
		sale = await c.sale({ card_printed_name: 'Sean "Jr" O\'Brien, III', order_desc: 'Two lines,\nand "quotes"' });
		declined = await c.sale({ cvv2: '116', amount: '3.10' });
		preauth = await c.sale({ amount: '20.00' }, 'preauth');
		await c.followUp('capture', preauth.orderid, preauth.params.client_orderid, { amount: '7.25', currency: 'USD' });
		await c.followUp('return', sale.orderid, sale.params.client_orderid, { amount: '4.00', currency: 'USD' });
	});

	it('signed by an independent client, lists every transaction with decimal amounts and masked cards (RFC 4180 quoting survives)', async () => {
		const result = await report(aroundNow());
		expect(result).toMatchObject({ status: 200, contentType: 'text/csv;charset=utf-8', chunked: true });
		const rows = rowsOf(result, [sale.orderid, declined.orderid, preauth.orderid]);
		const summary = rows.map((row) => [row['paynet-order-id'], row['transaction-type'], row.status, row.amount]);
		expect(summary).toEqual([
			[sale.orderid, 'sale', 'approved', '10.00'],
			[sale.orderid, 'reversal', 'approved', '4.00'],
			[declined.orderid, 'sale', 'declined', '3.10'],
			[preauth.orderid, 'preauth', 'approved', '20.00'],
			[preauth.orderid, 'capture', 'approved', '7.25'],
		]);
		expect(rows[0]).toMatchObject({
			'merchant-order-id': sale.params.client_orderid,
			currency: 'USD',
			'end-point-id': '1001',
			'card-number': '444455******1111',
			'card-type': 'VISA',
			'cardholder-name': 'Sean "Jr" O\'Brien, III',
			'order-desc': 'Two lines,\nand "quotes"',
			'serial-number': expect.stringMatching(/^00000000-0000-0000-0000-[0-9a-f]{12}$/),
			'created-date': expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
		});
		expect(rows[2]).toMatchObject({ 'error-code': '116', 'error-message': 'Insufficient funds', 'approval-code': '' });
		// Nothing of the card beyond first six / last four, nothing of the CVV.
		for (const row of result.rows) expect(Object.values(row).join('|')).not.toMatch(/4444555566661111|cvv/i);
	});

	it('filters by type, status, endpoint and bank date', async () => {
		const ids = [sale.orderid, declined.orderid, preauth.orderid];
		const types = (result) => rowsOf(result, ids).map((row) => row['transaction-type']);
		expect(types(await report({ ...aroundNow(), transactionTypes: 'capture,reversal' }))).toEqual([
			'reversal',
			'capture',
		]);
		expect(rowsOf(await report({ ...aroundNow(), transactionStatuses: 'declined' }), ids)).toHaveLength(1);
		expect(rowsOf(await report({ ...aroundNow(), endpoints: '1002,1003' }), ids)).toEqual([]);
		expect(rowsOf(await report({ ...aroundNow(), endpoints: '1001' }), ids)).toHaveLength(5);
		const bankLater = { ...aroundNow(), bankFromDate: reportDate(HOUR / 2), bankToDate: reportDate(HOUR) };
		expect(rowsOf(await report(bankLater), ids)).toEqual([]);
		// another merchant sees none of them
		expect((await report(aroundNow(), { merchant: OTHER })).rows).toEqual([]);
	});

	it('a window that ends before the transactions holds none of them', async () => {
		const earlier = { createdFromDate: reportDate(-2 * HOUR), createdToDate: reportDate(-HOUR) };
		expect(rowsOf(await report(earlier), [sale.orderid])).toEqual([]);
	});
});

describe('transaction report: refusals', () => {
	const refusal = (result) => ({ status: result.status, ...parseLegacy(result.body) });

	it('a wrong signature is 403 Forbidden, plain text', async () => {
		expect(await report(aroundNow(), { tamper: true })).toMatchObject({
			status: 403,
			contentType: expect.stringMatching(/^text\/plain/),
			body: 'Forbidden',
		});
	});

	it.each([
		['a missing createdFromDate', { createdToDate: reportDate() }, 1, /Field 'createdFromDate' is required/],
		['a missing createdToDate', { createdFromDate: reportDate() }, 1, /Field 'createdToDate' is required/],
		[
			'a 40-day window',
			{ createdFromDate: '2026-01-01 00:00:00', createdToDate: '2026-02-10 00:00:00' },
			1,
			/must not exceed 31 days/,
		],
		[
			'a date in another format',
			{ createdFromDate: '2026-01-01T00:00:00Z', createdToDate: reportDate() },
			1,
			/YYYY-MM-DD HH:MM:SS/,
		],
		[
			'a date the calendar lacks',
			{ createdFromDate: '2026-02-30 00:00:00', createdToDate: '2026-03-01 00:00:00' },
			1,
			/format/,
		],
		[
			'an end before the start',
			{ createdFromDate: '2026-01-02 00:00:00', createdToDate: '2026-01-01 00:00:00' },
			1,
			/before/,
		],
		['an unknown endpoint', { ...aroundNow(), endpoints: '1001,9999' }, 2, /9999 do not exist or do not belong/],
		["another merchant's endpoint", { ...aroundNow(), endpoints: '3001' }, 2, /3001 do not exist or do not belong/],
		['an unknown transaction type', { ...aroundNow(), transactionTypes: 'sale,teleport' }, 1, /teleport/],
	])('%s is a validation error (HTTP 400)', async (_, params, code, message) => {
		const result = await report(params);
		expect(refusal(result)).toMatchObject({
			status: 400,
			type: 'validation-error',
			'error-code': String(code),
			'error-message': expect.stringMatching(message),
		});
	});

	it('exactly 31 days is accepted; only GET is', async () => {
		const window = { createdFromDate: '2026-01-01 00:00:00', createdToDate: '2026-02-01 00:00:00' };
		expect((await report(window)).status).toBe(200);
		const post = await request(reportUrl, { method: 'POST' });
		await post.body.text();
		expect(post.statusCode).toBe(405);
	});
});

describe('transaction report: 100,000 seeded rows, streamed', () => {
	let batch;
	beforeAll(async () => {
		const seeded = await c.admin('POST', 'report-rows', {
			endpoint: 1002,
			count: 100000,
			from: '2025-06-01 00:00:00',
			stepMs: 1000,
		});
		expect(seeded.status).toBe(201);
		batch = seeded.data;
	});

	it('reserves the order ids and says what it seeded', () => {
		expect(batch).toMatchObject({
			merchant: MERCHANT.login,
			endpointId: '1002',
			currency: 'EUR',
			count: 100000,
			from: '2025-06-01 00:00:00',
			to: '2025-06-02 03:46:39',
			lastOrderId: batch.firstOrderId + 99999,
		});
	});

	it('all of them, parsed by the independent client; every tenth declined', async () => {
		const result = await report({ createdFromDate: '2025-06-01 00:00:00', createdToDate: '2025-06-30 00:00:00' });
		expect(result).toMatchObject({ status: 200, chunked: true });
		expect(result.rows).toHaveLength(100000);
		expect(result.rows.filter((row) => row.status === 'declined')).toHaveLength(10000);
		expect(result.rows[0]).toMatchObject({
			'paynet-order-id': String(batch.firstOrderId),
			'created-date': '2025-06-01 00:00:00',
			currency: 'EUR',
			'order-desc': 'Synthetic order 1,\nsecond line',
			'cardholder-name': 'Sean "Jr" O\'Brien, III',
		});
		expect(result.rows[99999]['created-date']).toBe('2025-06-02 03:46:39');
		for (const row of result.rows) expect(row.amount).toMatch(/^\d+\.\d\d$/);
	});

	it('a one-hour window of them, to the second', async () => {
		const result = await report({ createdFromDate: '2025-06-01 01:00:00', createdToDate: '2025-06-01 01:59:59' });
		expect(result.rows).toHaveLength(3600);
		expect(result.rows[0]['created-date']).toBe('2025-06-01 01:00:00');
	});

	it('a client that goes away mid-report does not stop the sandbox; reset forgets the rows', async () => {
		const params = { createdFromDate: '2025-06-01 00:00:00', createdToDate: '2025-06-30 00:00:00' };
		const oauth = {
			oauth_consumer_key: MERCHANT.login,
			oauth_nonce: crypto.randomBytes(8).toString('hex'),
			oauth_signature_method: 'HMAC-SHA1',
			oauth_timestamp: String(Math.floor(Date.now() / 1000)),
			oauth_version: '1.0',
		};
		const base = baseString('GET', reportUrl, [...Object.entries(params), ...Object.entries(oauth)]);
		oauth.oauth_signature = crypto.createHmac('sha1', `${MERCHANT.controlKey}&`).update(base).digest('base64');
		const authorization = `OAuth ${Object.entries(oauth)
			.map(([k, v]) => `${k}="${enc(v)}"`)
			.join(', ')}`;
		const query = Object.entries(params)
			.map(([k, v]) => `${enc(k)}=${enc(v)}`)
			.join('&');
		const partial = await request(`${reportUrl}?${query}`, { headers: { authorization } });
		expect(partial.statusCode).toBe(200);
		for await (const chunk of partial.body) {
			expect(chunk.toString('utf8')).toMatch(/^paynet-order-id,merchant-order-id,/);
			break; // leaves the rest unread: the body is destroyed
		}
		expect((await report(params)).rows).toHaveLength(100000);
		expect((await c.admin('POST', 'reset')).status).toBe(200);
		expect((await report(params)).rows).toEqual([]);
	});
});
