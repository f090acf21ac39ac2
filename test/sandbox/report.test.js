'use strict';
// The remote transaction report (GET /paynet-ui/services/transaction-report), read by an independent
// client (test/independent/report_client.py: Python's hmac, hashlib, urllib and csv sign the request and
// parse the CSV — neither the node's code nor the sandbox's). Its rows are the transactions the tests
// made through the API and the admin API's histories, in each layout a merchant can be given.
const { describe, it, expect, beforeAll, afterAll } = require('@jest/globals');
const crypto = require('node:crypto');
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { request } = require('undici');
const { startSandbox } = require('../../sandbox');
const { readReport } = require('../support/report-client');
const { Client, MERCHANT, OTHER, baseString, enc, parseLegacy } = require('../support/sandbox-client');

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
const report = (params, { merchant = MERCHANT, tamper = false } = {}) =>
	readReport(sb.url, merchant, params, { tamper });

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

// Layouts, zones, content types and faults (issue 30): each on its own sandbox, whose gateway server is in
// Moscow (UTC+3, no daylight saving) and whose user is in New York (UTC-5 on 2026-03-01).
const ZONES = { serverTimeZone: 'Europe/Moscow', userTimeZone: 'America/New_York' };
const DAY = { createdFromDate: '2026-03-01 00:00:00', createdToDate: '2026-03-01 23:59:59' };
const NEXT_DAY = { createdFromDate: '2026-03-02 00:00:00', createdToDate: '2026-03-02 23:59:59' };

/** A sandbox of its own for a describe block: { sb, admin(method, route, body) }. */
function ownSandbox(options = {}) {
	const own = {};
	beforeAll(async () => {
		own.sb = await startSandbox({ port: 0, quiet: true, verifier: 'node', ...ZONES, ...options });
		own.client = new Client(own.sb);
		own.admin = (method, route, body) => own.client.admin(method, route, body);
		own.report = (params, merchant = MERCHANT) => readReport(own.sb.url, merchant, params);
		own.layout = (settings) => own.admin('POST', `merchants/${MERCHANT.login}/report`, settings);
	});
	afterAll(() => own.sb.close());
	return own;
}

// Times are wall times in the server's zone (Moscow) unless they carry an offset.
const HISTORIES = [
	// a sale at the last half second of the day, refunded in part at the first second of the next
	{
		merchantOrderId: 'INV-1',
		amount: '10.00',
		at: '2026-03-01 23:59:59.50',
		steps: [{ op: 'return', amount: '4.00', at: '2026-03-02 00:00:00' }],
	},
	// a payout under the same merchant order ID (another scope: the endpoint group)
	{
		merchantOrderId: 'INV-1',
		group: 2001,
		currency: 'USD',
		operation: 'payout',
		amount: '10.00',
		at: '2026-03-01 12:00:00',
	},
	// a preauth at the first second of the day, captured in part, then voided whole
	{
		merchantOrderId: 'INV-2',
		operation: 'preauth',
		amount: '20.00',
		at: '2026-03-01 00:00:00',
		steps: [
			{ op: 'capture', amount: '7.25', at: '2026-03-01 00:00:01' },
			{ op: 'void', at: '2026-03-01 09:00:00' },
		],
	},
	// a preauth whose hold is released (a return on an uncaptured preauth is a cancel)
	{
		merchantOrderId: 'INV-3',
		operation: 'preauth',
		amount: '5.00',
		at: '2026-03-01 10:00:00',
		steps: [{ op: 'return', at: '2026-03-01 10:05:00' }],
	},
	{
		merchantOrderId: 'INV-4',
		amount: '30.00',
		at: '2026-03-01 11:00:00',
		steps: [{ op: 'chargeback', at: '2026-03-01T08:30:00Z' }],
	},
	// a payout checked and never paid, and one checked and paid
	{ merchantOrderId: 'INV-5', operation: 'payout-check', amount: '9000.00', at: '2026-03-01 13:00:00' },
	{
		merchantOrderId: 'INV-6',
		operation: 'payout-check',
		amount: '25.00',
		at: '2026-03-01 13:10:00',
		steps: [{ op: 'pay', at: '2026-03-01 13:10:01' }],
	},
	{ merchantOrderId: 'INV-7', amount: '3.00', outcome: 'declined', at: '2026-03-01 14:00:00' },
	{ merchantOrderId: 'INV-8', amount: '2.00', outcome: 'pending', at: '2026-03-01 15:00:00' },
	// the last second of the day before
	{ merchantOrderId: 'INV-9', amount: '1.00', at: '2026-02-28 23:59:59' },
];

/** [merchant order ID, type, status, amount] of each row, by the layout's column names. */
const summary = (rows, [oid, type, status, amount]) =>
	rows.map((row) => [row[oid], row[type], row[status], row[amount]]);
const TRANSACTIONS = ['Merchant OID', 'Type', 'Status', 'Amount'];
const ORDERS = ['Invoice No', 'Tx Type', 'Tx Status', 'Tx Amount'];
const SANDBOX = ['merchant-order-id', 'transaction-type', 'status', 'amount'];

describe('transaction report layouts (a merchant option)', () => {
	const own = ownSandbox();
	let orderids;
	beforeAll(async () => {
		const made = await own.admin('POST', 'histories', { histories: HISTORIES });
		expect(made.status).toBe(201);
		orderids = made.data.histories.map((history) => history.orderid);
	});

	it('transactions: the platform export header, one row per transaction of the day in the server zone', async () => {
		expect((await own.layout({ layout: 'transactions' })).data).toEqual({
			merchant: MERCHANT.login,
			layout: 'transactions',
			contentType: 'text/csv',
		});
		const result = await own.report(DAY);
		expect(result).toMatchObject({ status: 200, contentType: 'text/csv;charset=utf-8', complete: true });
		expect(result.header).toEqual([
			'Txid',
			'Created Date (Server TZ)',
			'Created Date (User TZ)',
			'Created Date (Server TZ, no time)',
			'Bank Date (Server TZ)',
			'Bank Date (User TZ)',
			'Merchant',
			'End-Point ID',
			'Project ID',
			'Project Name',
			'Currency',
			'Site URL',
			'Card type',
			'Ip',
			'Type',
			'Status',
			'Amount',
			'Processor tx ID',
			'Card No',
			'Name',
			'Email',
			'Phone',
			'Address',
			'Zip',
			'City',
			'State',
			'Country',
			'First Name',
			'Last Name',
			'Order Description',
			'Merchant OID',
			'Capture amount',
			'Approval Code',
			'View Receipt URL',
			'Bank name',
			'BIN country',
			'BIN country code',
			'Initial tx bank date (Server TZ)',
			'Initial tx Amount',
			'Creation time',
			'Customer IP address country',
			'Processor',
			'Error Description',
			'Is 3D',
		]);
		expect(summary(result.rows, TRANSACTIONS)).toEqual([
			['INV-1', 'sale', 'approved', '10.00'],
			['INV-1', 'payout', 'approved', '10.00'],
			['INV-2', 'preauth', 'approved', '20.00'],
			['INV-2', 'capture', 'approved', '7.25'],
			['INV-2', 'void', 'approved', '20.00'],
			['INV-3', 'preauth', 'approved', '5.00'],
			['INV-3', 'cancel', 'approved', '5.00'],
			['INV-4', 'sale', 'approved', '30.00'],
			['INV-4', 'chargeback', 'approved', '30.00'],
			['INV-5', 'payout-check', 'approved', '9000.00'],
			['INV-6', 'payout-check', 'approved', '25.00'],
			['INV-6', 'payout', 'approved', '25.00'],
			['INV-7', 'sale', 'declined', '3.00'],
			['INV-8', 'sale', 'processing', '2.00'],
		]);
		const [sale, payout, , capture] = result.rows;
		expect(sale).toMatchObject({
			Txid: `${orderids[0]}000`,
			'Created Date (Server TZ)': '2026-03-01T23:59:59.50',
			'Created Date (User TZ)': '2026-03-01T15:59:59.50',
			'Created Date (Server TZ, no time)': '2026-03-01',
			'Bank Date (Server TZ)': expect.stringMatching(/^2026-03-01T23:59:59\.5\d$|^2026-03-02T00:00:00\.0\d$/),
			Merchant: MERCHANT.login,
			'End-Point ID': '1001',
			Currency: 'USD',
			'Card type': 'VISA',
			'Card No': '444455******1111',
			Name: 'HISTORY PAYER',
			'Merchant OID': 'INV-1',
			'Approval Code': expect.stringMatching(/^\d{6}$/),
			'Processor tx ID': `PNTEST-${orderids[0]}`,
			'Capture amount': '',
			'Initial tx Amount': '',
			'Creation time': '2026-03-01T23:59:59.50',
		});
		expect(payout).toMatchObject({ Txid: `${orderids[1]}000`, 'End-Point ID': '1001', 'Card No': '444455******1111' });
		expect(capture).toMatchObject({
			Txid: `${orderids[2]}001`,
			'Capture amount': '7.25',
			'Initial tx Amount': '20.00',
			'Initial tx bank date (Server TZ)': expect.stringMatching(/^2026-03-01T00:00:00\.\d\d$/),
			'Creation time': '2026-03-01T00:00:00.00',
		});
		const [declined, pending] = result.rows.slice(-2);
		expect(declined).toMatchObject({ 'Error Description': 'Declined by issuer', 'Approval Code': '' });
		expect(pending).toMatchObject({ 'Bank Date (Server TZ)': '', 'Bank Date (User TZ)': '' });
		// The next day holds the refund only: its time, not its order's, selects it.
		const next = await own.report(NEXT_DAY);
		expect(summary(next.rows, TRANSACTIONS)).toEqual([['INV-1', 'reversal', 'approved', '4.00']]);
		expect(next.rows[0]).toMatchObject({
			Txid: `${orderids[0]}001`,
			'Created Date (Server TZ)': '2026-03-02T00:00:00.00',
			'Initial tx Amount': '10.00',
			'Creation time': '2026-03-01T23:59:59.50',
		});
	});

	it('orders: the platform export header; an order and all its transactions, selected by when the order was made', async () => {
		await own.layout({ layout: 'orders' });
		const result = await own.report(DAY);
		expect(result.header).toEqual([
			'Order Created',
			'Order Created (no time)',
			'Invoice No',
			'Order ID',
			'Rebill Tx',
			'Status Change Date',
			'Description',
			'Order Amount',
			'Currency',
			'Tx Gate ID',
			'Card Name',
			'Card Holder',
			'Card Number',
			'End-Point ID',
			'End-Point',
			'Error Message',
			'Tx ID',
			'Tx Status',
			'Tx Type',
			'Tx Amount',
			'Destination Card No',
			'BIN country',
		]);
		const rows = summary(result.rows, ORDERS);
		expect(rows.slice(0, 2)).toEqual([
			['INV-1', 'sale', 'approved', '10.00'],
			['INV-1', 'reversal', 'approved', '4.00'],
		]);
		expect(rows).toHaveLength(15);
		expect(result.rows[1]).toMatchObject({
			'Order ID': orderids[0],
			'Order Created': '2026-03-01T23:59:59.50',
			'Order Created (no time)': '2026-03-01',
			'Order Amount': '10.00',
			'Status Change Date': '2026-03-02T00:00:00.00',
			'Tx ID': `${orderids[0]}001`,
			'Card Number': '444455******1111',
			'Destination Card No': '',
		});
		// A payout's card is where the money went.
		expect(result.rows[2]).toMatchObject({
			'Tx Type': 'payout',
			'Card Number': '',
			'Destination Card No': '444455******1111',
		});
		expect(result.rows.find((row) => row['Tx Status'] === 'declined')).toMatchObject({
			'Error Message': 'Declined by issuer',
		});
		expect((await own.report(NEXT_DAY)).rows).toEqual([]);
	});

	it('sandbox (the default): the kebab-case header, UTC, its window read in UTC', async () => {
		await own.layout({ layout: 'sandbox' });
		const result = await own.report(DAY);
		expect(result.header[0]).toBe('paynet-order-id');
		// Moscow's 2026-03-01 00:00:00 is 2026-02-28 21:00:00 UTC: the preauth and its capture are the day before.
		expect(summary(result.rows, SANDBOX)).toEqual([
			['INV-1', 'sale', 'approved', '10.00'],
			['INV-1', 'reversal', 'approved', '4.00'],
			['INV-1', 'payout', 'approved', '10.00'],
			['INV-2', 'void', 'approved', '20.00'],
			['INV-3', 'preauth', 'approved', '5.00'],
			['INV-3', 'cancel', 'approved', '5.00'],
			['INV-4', 'sale', 'approved', '30.00'],
			['INV-4', 'chargeback', 'approved', '30.00'],
			['INV-5', 'payout-check', 'approved', '9000.00'],
			['INV-6', 'payout-check', 'approved', '25.00'],
			['INV-6', 'payout', 'approved', '25.00'],
			['INV-7', 'sale', 'declined', '3.00'],
			['INV-8', 'sale', 'processing', '2.00'],
		]);
		expect(result.rows[0]['created-date']).toBe('2026-03-01 20:59:59');
	});

	it('the window is inclusive to the second at both ends, in the server zone', async () => {
		await own.layout({ layout: 'transactions' });
		const at = async (from, to) =>
			summary((await own.report({ createdFromDate: from, createdToDate: to })).rows, TRANSACTIONS).map((row) => row[1]);
		expect(await at('2026-03-01 23:59:59', '2026-03-01 23:59:59')).toEqual(['sale']);
		expect(await at('2026-03-02 00:00:00', '2026-03-02 00:00:00')).toEqual(['reversal']);
		expect(await at('2026-03-01 00:00:00', '2026-03-01 00:00:00')).toEqual(['preauth']);
		expect(await at('2026-03-01 00:00:01', '2026-03-01 08:59:59')).toEqual(['capture']);
		expect(await at('2026-02-28 23:59:59', '2026-02-28 23:59:59')).toEqual(['sale']);
		// bank dates are read in the server zone too (a pending sale has none)
		const bank = await own.report({ ...DAY, bankFromDate: '2026-03-01 15:00:00', bankToDate: '2026-03-01 23:59:59' });
		expect(summary(bank.rows, TRANSACTIONS).map((row) => row[0])).not.toContain('INV-8');
	});

	it('the option is per merchant: another merchant keeps its own; a bad value is refused; reset restores the configured one', async () => {
		await own.layout({ layout: 'orders' });
		expect((await own.admin('GET', `merchants/${OTHER.login}/report`)).data).toEqual({
			merchant: OTHER.login,
			layout: 'sandbox',
			contentType: 'text/csv',
		});
		expect((await own.report(DAY, OTHER)).header[0]).toBe('paynet-order-id');
		expect(await own.layout({ layout: 'xml' })).toMatchObject({
			status: 400,
			data: { error: expect.stringMatching(/layout must be one of sandbox, transactions, orders/) },
		});
		expect(await own.layout({ contentType: 'application/pdf' })).toMatchObject({ status: 400 });
		expect((await own.admin('GET', 'merchants/nobody/report')).status).toBe(404);
		const health = (await own.admin('GET', '')).data;
		expect(health.report).toEqual({ serverTimeZone: 'Europe/Moscow', userTimeZone: 'America/New_York' });
		expect(health.merchants[0].report).toEqual({ layout: 'orders', contentType: 'text/csv' });
		await own.admin('POST', 'reset');
		expect((await own.admin('GET', `merchants/${MERCHANT.login}/report`)).data.layout).toBe('sandbox');
	});
});

describe('transaction report: the content type and the configured settings', () => {
	const config = JSON.parse(
		readFileSync(path.join(__dirname, '..', '..', 'sandbox', 'config', 'default.json'), 'utf8'),
	);
	config.merchants[1].report = { layout: 'transactions', contentType: 'text/html;charset=utf-8' };
	const own = ownSandbox({
		config,
		configDir: path.join(__dirname, '..', '..', 'sandbox', 'config'),
		report: { contentType: 'text/html' },
	});
	beforeAll(async () => {
		await own.admin('POST', 'histories', {
			endpoint: 3001,
			merchantOrderId: 'OTHER-1',
			amount: '5.00',
			at: '2026-03-01 08:00:00',
		});
		await own.admin('POST', 'histories', { merchantOrderId: 'MINE-1', amount: '6.00', at: '2026-03-01 08:00:00' });
	});

	it("text/html;charset=utf-8 (the gateway's legacy type) carries the same CSV", async () => {
		const other = await own.report(DAY, OTHER);
		expect(other).toMatchObject({ status: 200, contentType: 'text/html;charset=utf-8', complete: true });
		expect(summary(other.rows, TRANSACTIONS)).toEqual([['OTHER-1', 'sale', 'approved', '5.00']]);
		// the configuration's default for every merchant: text/html, the sandbox layout
		const mine = await own.report(DAY);
		expect(mine.contentType).toBe('text/html;charset=utf-8');
		expect(summary(mine.rows, SANDBOX)).toEqual([['MINE-1', 'sale', 'approved', '6.00']]);
		await own.layout({ contentType: 'text/csv' });
		expect((await own.report(DAY)).contentType).toBe('text/csv;charset=utf-8');
	});

	it('a configuration naming a layout or a zone the sandbox does not have is refused at start', async () => {
		await expect(startSandbox({ port: 0, quiet: true, report: { layout: 'pdf' } })).rejects.toThrow(
			/layout must be one of/,
		);
		await expect(startSandbox({ port: 0, quiet: true, serverTimeZone: 'Mars/Olympus' })).rejects.toThrow(
			/serverTimeZone must be an IANA time zone/,
		);
	});
});

describe('transaction report: the server zone is an option', () => {
	const own = ownSandbox({ serverTimeZone: 'Asia/Tokyo', userTimeZone: 'UTC', report: { layout: 'transactions' } });

	it('the same instant is the next day in Tokyo (UTC+9): the rows show it and the window selects it so', async () => {
		await own.admin('POST', 'histories', {
			merchantOrderId: 'TOKYO-1',
			amount: '1.00',
			at: '2026-03-01T20:59:59.500Z',
		});
		expect((await own.report(DAY)).rows).toEqual([]);
		const [row] = (await own.report(NEXT_DAY)).rows;
		expect(row).toMatchObject({
			'Created Date (Server TZ)': '2026-03-02T05:59:59.50',
			'Created Date (User TZ)': '2026-03-01T20:59:59.50',
			'Created Date (Server TZ, no time)': '2026-03-02',
		});
	});
});

describe('transaction report faults: cut short, empty', () => {
	const own = ownSandbox({ report: { layout: 'transactions' } });
	let whole;
	/** The raw reply, read by undici: status, headers, the text received and the read's error. */
	async function raw(params) {
		const oauth = {
			oauth_consumer_key: MERCHANT.login,
			oauth_nonce: crypto.randomBytes(8).toString('hex'),
			oauth_signature_method: 'HMAC-SHA1',
			oauth_timestamp: String(Math.floor(Date.now() / 1000)),
			oauth_version: '1.0',
		};
		const url = `${own.sb.url}/paynet-ui/services/transaction-report`;
		const base = baseString('GET', url, [...Object.entries(params), ...Object.entries(oauth)]);
		oauth.oauth_signature = crypto.createHmac('sha1', `${MERCHANT.controlKey}&`).update(base).digest('base64');
		const authorization = `OAuth ${Object.entries(oauth)
			.map(([k, v]) => `${k}="${enc(v)}"`)
			.join(', ')}`;
		const query = Object.entries(params)
			.map(([k, v]) => `${enc(k)}=${enc(v)}`)
			.join('&');
		const response = await request(`${url}?${query}`, { headers: { authorization } });
		let text = '';
		let error = null;
		try {
			for await (const chunk of response.body) text += chunk.toString('utf8');
		} catch (e) {
			error = e;
		}
		return { status: response.statusCode, headers: response.headers, text, error };
	}
	const fault = (kind, count = 1) => own.admin('POST', 'faults', { kind, op: 'transaction-report', count });

	beforeAll(async () => {
		await own.admin('POST', 'histories', { histories: HISTORIES });
		whole = await raw(DAY);
		expect(whole.error).toBeNull();
	});

	it('report-cut-mid-row: chunked, no length, the connection closed inside the last record', async () => {
		await fault('report-cut-mid-row');
		const cut = await raw(DAY);
		expect(cut.status).toBe(200);
		expect(cut.headers['content-length']).toBeUndefined();
		expect(cut.headers['transfer-encoding']).toBe('chunked');
		expect(cut.error).not.toBeNull(); // the chunked body never ended
		const lines = whole.text.split('\r\n');
		const lastWhole = lines[lines.length - 2];
		expect(whole.text.startsWith(cut.text)).toBe(true);
		expect(cut.text.length).toBeLessThan(whole.text.length - lastWhole.length / 3);
		expect(cut.text.length).toBeGreaterThan(whole.text.length - lastWhole.length - 2);
		expect(cut.text.endsWith('\n')).toBe(false);
		// the independent client says so too; the next report is whole again
		await fault('report-cut-mid-row');
		const read = await own.report(DAY);
		expect(read).toMatchObject({ status: 200, complete: false, problem: expect.stringMatching(/IncompleteRead/) });
		expect((await own.report(DAY)).complete).toBe(true);
	});

	it('report-cut-at-row: every record sent is whole, the last is missing; only the HTTP framing tells', async () => {
		await fault('report-cut-at-row');
		const cut = await raw(DAY);
		expect(cut.error).not.toBeNull();
		const lines = whole.text.split('\r\n');
		expect(cut.text).toBe(lines.slice(0, -2).join('\r\n') + '\r\n');
		await fault('report-cut-at-row');
		const read = await own.report(DAY);
		expect(read.complete).toBe(false);
		expect(read.rows).toHaveLength(13);
	});

	it('report-empty: HTTP 200, the content type, Content-Length 0, no body', async () => {
		await fault('report-empty');
		const empty = await raw(DAY);
		expect(empty).toMatchObject({ status: 200, text: '', error: null });
		expect(empty.headers['content-length']).toBe('0');
		expect(empty.headers['content-type']).toBe('text/csv;charset=utf-8');
	});

	it('a refused request does not take a report fault; count applies as to any fault', async () => {
		await fault('report-empty', 2);
		expect((await raw({ createdFromDate: '2026-03-01 00:00:00' })).status).toBe(400);
		expect((await raw(DAY)).text).toBe('');
		expect((await raw(DAY)).text).toBe('');
		expect((await raw(DAY)).text).toBe(whole.text);
	});
});

describe('admin API: histories and times', () => {
	const own = ownSandbox();

	it('a history under a merchant order ID its scope already has is refused (the gateway would answer that order again)', async () => {
		expect((await own.admin('POST', 'histories', { merchantOrderId: 'DUP-1', amount: '1.00' })).status).toBe(201);
		expect(
			await own.admin('POST', 'histories', { merchantOrderId: 'DUP-1', operation: 'payout', amount: '1.00' }),
		).toMatchObject({
			status: 409,
			data: { error: expect.stringMatching(/^history 0: merchantOrderId DUP-1 is already used on endpoint 1001/) },
		});
		expect(
			(
				await own.admin('POST', 'histories', {
					merchantOrderId: 'DUP-1',
					group: 2001,
					operation: 'payout',
					amount: '1.00',
				})
			).status,
		).toBe(201);
	});

	it('a refused step names the history, the step and the order; a bad field or time makes nothing', async () => {
		const before = (await own.admin('GET', 'orders')).data.orders.length;
		expect(
			await own.admin('POST', 'histories', [{ merchantOrderId: 'S-1', amount: '1.00', steps: [{ op: 'capture' }] }]),
		).toMatchObject({
			status: 409,
			data: {
				error: expect.stringMatching(
					/^history 0, step 0 \(capture\) of order \d+: Capture is only allowed on a preauth/,
				),
			},
		});
		expect(
			await own.admin('POST', 'histories', { merchantOrderId: 'S-2', amount: '1.00', steps: [{ op: 'refund' }] }),
		).toMatchObject({ status: 400 });
		expect(
			await own.admin('POST', 'histories', { merchantOrderId: 'S-3', amount: '1.00', at: 'yesterday' }),
		).toMatchObject({ status: 400 });
		expect(
			await own.admin('POST', 'histories', {
				merchantOrderId: 'S-4',
				amount: '1.00',
				steps: [{ op: 'void', at: '2026-02-30 00:00:00' }],
			}),
		).toMatchObject({ status: 400 });
		expect(
			await own.admin('POST', 'histories', { merchantOrderId: 'S-5', amount: '1.00', outcome: 'maybe' }),
		).toMatchObject({ status: 400 });
		// S-1's order was made before its step was refused; S-3 and S-4 were not made at all
		expect((await own.admin('GET', 'orders')).data.orders.length).toBe(before + 2);
	});

	it('a pending history stays processing until finalized; outcomes are the final statuses', async () => {
		const { data } = await own.admin('POST', 'histories', [
			{ merchantOrderId: 'P-1', amount: '1.00', outcome: 'pending' },
			{ merchantOrderId: 'P-2', amount: '1.00', outcome: 'filtered' },
			{ merchantOrderId: 'P-3', operation: 'payout', amount: '1.00', outcome: 'declined' },
		]);
		expect(data.histories.map((history) => [history.order.status, history.ledger.length])).toEqual([
			['processing', 0],
			['filtered', 0],
			['declined', 0],
		]);
		const pending = data.histories[0];
		const status = await own.client.status(pending.orderid, 'P-1');
		expect(status.data.status).toBe('processing');
		expect((await own.admin('POST', `orders/${pending.orderid}/finalize`, { status: 'approved' })).data.status).toBe(
			'approved',
		);
	});

	it('times move a transaction, its bank time and its ledger entry; the order made through the API too', async () => {
		const sale = await own.client.sale({}, 'sale', 1001);
		await own.client.followUp('return', sale.orderid, sale.params.client_orderid, { amount: '2.00', currency: 'USD' });
		const moved = await own.admin('POST', `orders/${sale.orderid}/times`, {
			at: ['2026-03-01 23:59:59.999', '2026-03-02T00:00:00+03:00'],
		});
		expect(moved.status).toBe(200);
		expect(moved.data.transactions.map((t) => t.at)).toEqual(['2026-03-01T20:59:59.999Z', '2026-03-01T21:00:00.000Z']);
		expect(moved.data.createdAt).toBe('2026-03-01T20:59:59.999Z');
		expect((await own.client.ledger(sale.orderid)).map((entry) => [entry.kind, entry.at])).toEqual([
			['sale', '2026-03-01T20:59:59.999Z'],
			['return', '2026-03-01T21:00:00.000Z'],
		]);
		expect(
			(await own.admin('POST', `orders/${sale.orderid}/times`, { at: [null, null, '2026-03-01 00:00:00'] })).status,
		).toBe(400);
		expect((await own.admin('POST', 'orders/999999999/times', { at: [] })).status).toBe(404);
	});
});

describe('orders by merchant order ID: an index, not a scan of every order', () => {
	const own = ownSandbox();

	it('status by client_orderid alone, and the admin lookups, read no list of every order', async () => {
		const sale = await own.client.sale({ client_orderid: 'IDX-1' });
		const orders = own.sb.store.orders;
		let scans = 0;
		const values = orders.values.bind(orders);
		orders.values = () => {
			scans++;
			return values();
		};
		// asked on the group: the scope has no such order, so the merchant's orders are searched
		const status = await own.client.status(null, 'IDX-1', { id: 'group/2001' });
		expect(status.data).toMatchObject({ status: 'approved', 'paynet-order-id': sale.orderid });
		expect((await own.admin('GET', 'orders?client_orderid=IDX-1')).data.orders.map((order) => order.orderid)).toEqual([
			sale.orderid,
		]);
		expect((await own.admin('POST', 'orders/IDX-1/send-callbacks', { url: 'ftp://nowhere' })).status).toBe(400);
		expect(scans).toBe(0);
		// two orders under one ID: by client_orderid alone, neither is named
		await own.admin('POST', 'histories', { merchantOrderId: 'IDX-1', group: 2001, currency: 'USD', amount: '1.00' });
		expect((await own.client.status(null, 'IDX-1', { id: 1002 })).data).toMatchObject({
			status: 'error',
			'error-message': 'Order not found',
		});
		expect(scans).toBe(0);
	});
});
