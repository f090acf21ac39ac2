'use strict';
// The operations the vendor's clients use beyond the interface's listing (v2 transfer-by-ref, v4
// sale with a hosted-fields ticket, v4 status), and the destination every payout and transfer needs.
const { describe, it, expect, beforeAll, afterAll } = require('@jest/globals');
const { startSandbox } = require('../../sandbox');
const { Client, MERCHANT, CARD, CARD2, sha1 } = require('../support/sandbox-client');

let sb;
let c;
beforeAll(async () => {
	sb = await startSandbox({ port: 0, quiet: true });
	c = new Client(sb);
});
afterAll(() => sb.close());

const kinds = (entries) => entries.map((e) => `${e.kind}:${e.amount}`);

/** A stored card (card reference) from an approved sale. */
async function storedCard(over = {}) {
	const s = await c.sale(over);
	return (await c.followUp('create-card-ref', s.orderid, s.params.client_orderid)).data['card-ref-id'];
}

describe('v2 transfer-by-ref (SHA-1 control)', () => {
	const transfer = (source, destination, over = {}) => ({
		login: MERCHANT.login,
		client_orderid: c.cid('tbr'),
		amount: '25.50',
		currency: 'USD',
		ipaddress: '203.0.113.7',
		'source-card-ref-id': source,
		'destination-card-ref-id': destination,
		...over,
	});

	it('signs login + client_orderid + source + destination + hundredths + currency; books one transfer per client_orderid', async () => {
		const [source, destination] = [await storedCard(), await storedCard({ credit_card_number: CARD2 })];
		const p = transfer(source, destination);
		const control = sha1(`${MERCHANT.login}${p.client_orderid}${source}${destination}2550USD${MERCHANT.controlKey}`);
		const a = await c.post('v2/transfer-by-ref/1001', { ...p, control });
		const b = await c.post('v2/transfer-by-ref/1001', { ...p, control });
		expect(a.data).toMatchObject({ type: 'async-response', 'merchant-order-id': p.client_orderid });
		expect(b.data['paynet-order-id']).toBe(a.data['paynet-order-id']);
		expect(kinds(await c.ledger(a.data['paynet-order-id']))).toEqual(['transfer:25.50']);
		expect(await c.order(a.data['paynet-order-id'])).toMatchObject({
			kind: 'transfer',
			sourceCardRefId: source,
			card: { lastFour: '1111' },
		});
		// the decimal amount itself, or the references swapped, do not sign it
		const swapped = sha1(`${MERCHANT.login}${p.client_orderid}${destination}${source}2550USD${MERCHANT.controlKey}`);
		expect(
			(await c.post('v2/transfer-by-ref/1001', { ...p, client_orderid: c.cid(), control: swapped })).data['error-code'],
		).toBe(2);
	});

	it('refuses unknown references and a missing destination', async () => {
		const source = await storedCard();
		expect((await c.control('transfer-by-ref', 1001, transfer(source, '1'))).data['error-code']).toBe(3);
		expect((await c.control('transfer-by-ref', 1001, transfer('1', source))).data['error-code']).toBe(3);
		const none = await c.control(
			'transfer-by-ref',
			1001,
			transfer(source, undefined, { 'destination-card-ref-id': '' }),
		);
		expect(none.data).toMatchObject({ type: 'validation-error', 'error-code': 1 });
		expect(await c.ledger()).toEqual(
			expect.not.arrayContaining([expect.objectContaining({ client_orderid: none.data['merchant-order-id'] })]),
		);
	});
});

describe('payouts and transfers need a complete destination', () => {
	const base = () => ({ client_orderid: c.cid('dest'), amount: '5.00', currency: 'USD' });

	it.each([
		['v2/payout', {}, /a card \(credit_card_number, expire_month, expire_year\), or a bank account \(account_number\)/],
		['v4/payout', { credit_card_number: CARD }, /No complete destination for the payout/],
		[
			'v4/payout-check',
			{ credit_card_number: CARD, card_printed_name: 'A B', bank_name: 'Demo Bank' },
			/No complete destination/,
		],
		[
			'v4/transfer',
			{ credit_card_number: CARD, expire_month: '12', expire_year: '2035', cvv2: '123' },
			/destination-card-no/,
		],
		['v4/transfer-by-ref', {}, /destination-card-ref-id/],
	])('%s without one is a validation error and books nothing', async (path, extra, message) => {
		const before = await c.snapshot();
		const r = await c.oauth(`${path}/1001`, { ...base(), ...extra });
		expect(r.status).toBe(400);
		expect(r.data).toMatchObject({ type: 'validation-error', 'error-code': 1 });
		expect(r.data['error-message']).toMatch(message);
		expect(await c.snapshot()).toBe(before);
	});

	it('a card with expiry, a bank account or a stored card each is enough', async () => {
		const ref = await storedCard();
		for (const destination of [
			{ credit_card_number: CARD2, expire_month: '11', expire_year: '2033' },
			{ account_number: 'GB33BUKB20201555555555', bank_name: 'Demo Bank' },
			{ 'destination-card-ref-id': ref },
		]) {
			const r = await c.oauth('v4/payout/1001', { ...base(), ...destination });
			expect(r.data.type).toBe('async-response');
			expect(kinds(await c.ledger(r.data['paynet-order-id']))).toEqual(['payout:5.00']);
		}
	});
});

describe('v4 sale with a hosted-fields ticket, and v4 status (RSA, JSON)', () => {
	const mint = async (over = {}) => {
		const r = await c.admin('POST', 'hosted-fields/tokens', {
			credit_card_number: CARD,
			expire_month: '12',
			expire_year: '2035',
			cvv2: '123',
			...over,
		});
		expect(r.status).toBe(200);
		return r.data.token;
	};
	const sale = (token, over = {}) => ({
		client_orderid: c.cid('v4s'),
		order_desc: 'Hosted fields order',
		amount: '12.34',
		currency: 'USD',
		hosted_fields_token: token,
		card_printed_name: 'JANE ROE',
		email: 'jane@example.com',
		ipaddress: '203.0.113.7',
		redirect_url: 'https://shop.example.com/result',
		customer_browser_info: 'true',
		customer_browser_time_zone: '-60',
		...over,
	});

	it('the sale answers JSON with a numeric paynet-order-id; v4 status reports the outcome; the ticket is single-use', async () => {
		const p = sale(await mint());
		const r = await c.oauth('v4/sale/1001', p);
		expect(r.status).toBe(200);
		expect(r.data).toEqual({
			'paynet-order-id': expect.any(Number),
			'merchant-order-id': p.client_orderid,
			'serial-number': expect.any(String),
		});
		const orderid = String(r.data['paynet-order-id']);
		const status = await c.oauth('v4/status/1001', {
			login: MERCHANT.login,
			client_orderid: p.client_orderid,
			orderid,
		});
		expect(status.status).toBe(200);
		expect(status.headers['content-type']).toMatch(/^application\/vnd\.pay\+json/);
		// The vendor's emulator's shape: untyped, no serial-number, paynet-order-id a string here.
		expect(status.data).toEqual({
			'paynet-order-id': orderid,
			'merchant-order-id': p.client_orderid,
			status: 'approved',
			amount: '12.34',
			currency: 'USD',
			'card-type': 'VISA',
			'last-four-digits': '1111',
			'cardholder-name': 'JANE ROE',
			'approval-code': expect.stringMatching(/^\d{6}$/),
			'processor-rrn': expect.stringMatching(/^\d{12}$/),
			bank_message: 'Approved',
		});
		// The v2 status of the same order keeps its typed reply.
		const v2 = await c.status(orderid, p.client_orderid);
		expect(v2.data).toMatchObject({
			type: 'status-response',
			'serial-number': expect.any(String),
			status: 'approved',
			'paynet-order-id': orderid,
		});
		expect(kinds(await c.ledger(orderid))).toEqual(['sale:12.34']);
		const again = await c.oauth('v4/sale/1001', { ...p, client_orderid: c.cid() });
		expect(again.status).toBe(400);
		expect(again.data['error-message']).toMatch(/already spent/);
	});

	it('the ticket decides the outcome like a card: a declined CVV is declined, 321 goes through 3-D Secure', async () => {
		const declined = await c.oauth('v4/sale/1001', sale(await mint({ cvv2: '116' })));
		const orderid = String(declined.data['paynet-order-id']);
		const cid = (await c.order(orderid)).client_orderid;
		const refused = (await c.oauth('v4/status/1001', { login: MERCHANT.login, client_orderid: cid, orderid })).data;
		expect(refused).toMatchObject({
			status: 'declined',
			'paynet-order-id': orderid,
			'merchant-order-id': cid,
			'error-message': 'Insufficient funds',
			'error-code': 116,
		});
		expect(refused).not.toHaveProperty('type');
		expect(refused).not.toHaveProperty('serial-number');
		expect(refused).not.toHaveProperty('approval-code');
		const tds = await c.oauth('v4/sale/1001', sale(await mint({ cvv2: '321' })));
		const tdsId = String(tds.data['paynet-order-id']);
		const tdsCid = (await c.order(tdsId)).client_orderid;
		const pending = await c.oauth('v4/status/1001', { login: MERCHANT.login, client_orderid: tdsCid, orderid: tdsId });
		expect(pending.data).toEqual({
			'paynet-order-id': tdsId,
			'merchant-order-id': tdsCid,
			status: 'processing',
			amount: '12.34',
			currency: 'USD',
			'card-type': 'VISA',
			'last-four-digits': '1111',
			'cardholder-name': 'JANE ROE',
			'redirect-to': `${sb.url}/sandbox/acs/${tdsId}`,
		});
	});

	it('refuses card data beside the ticket, unknown tickets, unknown orders and a foreign login, with HTTP 400 and JSON', async () => {
		const sale0 = await c.oauth('v4/sale/1001', sale(await mint()));
		const before = await c.snapshot();
		const withCard = await c.oauth('v4/sale/1001', sale(await mint(), { credit_card_number: CARD }));
		expect(withCard.status).toBe(400);
		expect(withCard.data['error-message']).toMatch(/credit_card_number.*must not be sent/);
		expect((await c.oauth('v4/sale/1001', sale('hft_unknown'))).data['error-message']).toMatch(
			/Unknown or already spent/,
		);
		const unknown = await c.oauth('v4/status/1001', { login: MERCHANT.login, client_orderid: 'nope', orderid: '1' });
		expect(unknown.status).toBe(400);
		expect(unknown.data).toMatchObject({ 'error-message': 'Unknown order 1.', 'error-code': 3 });
		const otherCid = await c.oauth('v4/status/1001', {
			login: MERCHANT.login,
			client_orderid: 'not-the-one',
			orderid: String(sale0.data['paynet-order-id']),
		});
		expect(otherCid.status).toBe(400);
		expect(otherCid.data['error-message']).toBe(`Unknown order ${sale0.data['paynet-order-id']}.`);
		const foreign = await c.oauth('v4/status/1001', { login: 'other-merchant', client_orderid: 'nope', orderid: '1' });
		expect(foreign.data['error-code']).toBe(2);
		expect(await c.snapshot()).toBe(before);
		expect((await c.admin('POST', 'hosted-fields/tokens', { credit_card_number: '1234' })).status).toBe(400);
	});
});
