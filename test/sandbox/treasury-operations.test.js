'use strict';
// The money operations of issue 25 over real HTTP: process-recurring-payment (and the batch
// process-recurring-payments), payout-by-ref (v4) and PAN eligibility for the receiving card and
// both cards. Money moves once per client order id, exactly like the existing equivalents (a
// recurring charge books a rebill, a payout by reference a payout); a refused request books nothing.
const { describe, it, expect, beforeAll, afterAll } = require('@jest/globals');
const { startSandbox } = require('../../sandbox');
const { Client, CARD, CARD2 } = require('../support/sandbox-client');

let sb;
let c;
beforeAll(async () => {
	sb = await startSandbox({ port: 0, quiet: true });
	c = new Client(sb);
});
afterAll(() => sb.close());

/** What the ledger booked for a client order id, as `kind:amount`. */
const booked = async (cid) =>
	(await c.admin('GET', `ledger?client_orderid=${encodeURIComponent(cid)}`)).data.entries.map(
		(entry) => `${entry.kind}:${entry.amount}`,
	);

/** A recurring payment on a card, on endpoint 1001 (USD) unless told. */
async function recurringPayment(endpoint = 1001, currency = 'USD') {
	const r = await c.oauth(`v4/create-recurring-payment/${endpoint}`, {
		'client-orderid': c.cid('rp'),
		'credit-card-number': CARD,
		'card-printed-name': 'A B',
		'expire-month': '12',
		'expire-year': '2035',
		currency,
	});
	return r.data['recurring-payment-id'];
}

/** A card reference from an approved sale. */
async function cardReference(card = CARD) {
	const s = await c.sale({ credit_card_number: card });
	return (await c.followUp('create-card-ref', s.orderid, s.params.client_orderid)).data['card-ref-id'];
}

describe('process-recurring-payment (v4, RSA-SHA256)', () => {
	it('charges the recurring payment once per client order id: one rebill in the ledger', async () => {
		const rpId = await recurringPayment();
		const p = { 'client-orderid': c.cid('charge'), 'recurring-payment-id': rpId, amount: '12.34' };
		const first = await c.oauth('v4/process-recurring-payment/1001', p);
		const again = await c.oauth('v4/process-recurring-payment/1001', p);
		expect(first.data).toMatchObject({
			type: 'process-recurring-payment-response',
			status: 'processing',
			'merchant-order-id': p['client-orderid'],
			'paynet-order-id': expect.stringMatching(/^\d+$/),
		});
		expect(again.data['paynet-order-id']).toBe(first.data['paynet-order-id']);
		expect(await booked(p['client-orderid'])).toEqual(['rebill:12.34']);
		const status = await c.status(first.data['paynet-order-id'], p['client-orderid']);
		expect(status.data).toMatchObject({ status: 'approved', amount: '12.34', 'last-four-digits': '1111' });
	});

	it('takes the amount in the endpoint currency when none is sent (JPY has no decimals)', async () => {
		const rpId = await recurringPayment(1003, 'JPY');
		const cid = c.cid('jpy');
		await c.oauth('v4/process-recurring-payment/1003', {
			client_orderid: cid,
			'recurring-payment-id': rpId,
			amount: '1500',
		});
		expect(await booked(cid)).toEqual(['rebill:1500']);
	});

	it.each([
		['an unknown recurring payment', () => ({ 'recurring-payment-id': '1' }), 3],
		['no amount', (rpId) => ({ 'recurring-payment-id': rpId, amount: '' }), 1],
		['a zero amount', (rpId) => ({ 'recurring-payment-id': rpId, amount: '0.00' }), 1],
		['another endpoint than its own', (rpId) => ({ 'recurring-payment-id': rpId, currency: 'EUR', path: 1002 }), 1],
	])('refuses %s and books nothing', async (_, over, code) => {
		const rpId = await recurringPayment();
		const { path = 1001, ...fields } = over(rpId);
		const cid = c.cid('bad');
		const r = await c.oauth(`v4/process-recurring-payment/${path}`, { client_orderid: cid, amount: '5.00', ...fields });
		expect(r.data).toMatchObject({ type: 'validation-error', 'error-code': code });
		expect(await booked(cid)).toEqual([]);
	});

	it('refuses a cancelled recurring payment (code 4) and a signature that is not RSA-SHA256 (403)', async () => {
		const rpId = await recurringPayment();
		await c.oauth('v4/update-recurring-payment/1001', { 'recurring-payment-id': rpId, status: 'cancelled' });
		const cid = c.cid('cancelled');
		const r = await c.oauth('v4/process-recurring-payment/1001', {
			client_orderid: cid,
			'recurring-payment-id': rpId,
			amount: '5.00',
		});
		expect(r.data).toMatchObject({ 'error-code': 4, 'error-message': expect.stringMatching(/cancelled/) });
		const hmac = await c.oauth(
			'v4/process-recurring-payment/1001',
			{ client_orderid: cid, 'recurring-payment-id': await recurringPayment(), amount: '5.00' },
			{ method: 'HMAC-SHA1' },
		);
		expect(hmac.status).toBe(403);
		expect(await booked(cid)).toEqual([]);
	});
});

describe('process-recurring-payments (v4 batch: CSV payload)', () => {
	it('charges every record; the reply lists the orders in order', async () => {
		const [a, b] = [await recurringPayment(), await recurringPayment()];
		const [cidA, cidB] = [c.cid('batch-a'), c.cid('batch-b')];
		const payload = `client-orderid,recurring-payment-id,amount,order_desc\r\n${cidA},${a},3.00,"Monthly, plan ""A"""\r\n${cidB},${b},4.50,plain\r\n`;
		const r = await c.oauth('v4/process-recurring-payments/1001', { payload });
		expect(r.data).toMatchObject({
			type: 'process-recurring-payment-response',
			status: 'processing',
			'merchant-order-ids': `${cidA},${cidB}`,
		});
		const [orderA, orderB] = r.data['paynet-order-ids'].split(',');
		expect(await booked(cidA)).toEqual(['rebill:3.00']);
		expect(await booked(cidB)).toEqual(['rebill:4.50']);
		expect((await c.order(orderA)).params.order_desc).toBe('Monthly, plan "A"');
		expect((await c.order(orderB)).client_orderid).toBe(cidB);
		// the same batch again books nothing more
		await c.oauth('v4/process-recurring-payments/1001', { payload });
		expect(await booked(cidA)).toEqual(['rebill:3.00']);
	});

	it.each([
		[
			'a record naming an unknown recurring payment',
			(rp, [x, y]) => `${x},${rp},1.00\n${y},1,1.00\n`,
			/^Record 2: Recurring payment 1 not found/,
		],
		[
			'the same client order id twice',
			(rp, [x]) => `${x},${rp},1.00\n${x},${rp},2.00\n`,
			/^Record 2: client order id .* appears twice/,
		],
		['a record without an amount', (rp, [x]) => `${x},${rp},\n`, /^Record 1: Field 'amount' is required/],
		['an unclosed quote', (rp, [x]) => `${x},${rp},"1.00\n`, /not closed/],
		['no records', () => '', /header record and one record per charge/],
	])('refuses %s as a whole: no record is charged', async (_, rows, message) => {
		const rpId = await recurringPayment();
		const cids = [c.cid('whole-x'), c.cid('whole-y')];
		const payload = `client-orderid,recurring-payment-id,amount\n${rows(rpId, cids)}`;
		const r = await c.oauth('v4/process-recurring-payments/1001', { payload });
		expect(r.data).toMatchObject({ type: 'validation-error', 'error-message': expect.stringMatching(message) });
		for (const cid of cids) expect(await booked(cid)).toEqual([]);
	});
});

describe('payout-by-ref (v4, RSA-SHA256)', () => {
	it('pays out to a card reference once per client order id, also through an endpoint group', async () => {
		const ref = await cardReference(CARD2);
		const p = { client_orderid: c.cid('pbr'), amount: '15.00', currency: 'USD', 'destination-card-ref-id': ref };
		const first = await c.oauth('v4/payout-by-ref/1001', p);
		const again = await c.oauth('v4/payout-by-ref/1001', p);
		expect(first.data).toMatchObject({ type: 'async-response', 'merchant-order-id': p.client_orderid });
		expect(again.data['paynet-order-id']).toBe(first.data['paynet-order-id']);
		expect(await booked(p.client_orderid)).toEqual(['payout:15.00']);
		const grouped = { ...p, client_orderid: c.cid('pbr-group'), currency: 'EUR' };
		expect((await c.oauth('v4/payout-by-ref/group/2001', grouped)).data['end-point-id']).toBe('1002');
		expect(await booked(grouped.client_orderid)).toEqual(['payout:15.00']);
	});

	it('refuses a missing or unknown destination reference and books nothing', async () => {
		const base = { amount: '1.00', currency: 'USD' };
		const missing = { ...base, client_orderid: c.cid('pbr-none') };
		expect((await c.oauth('v4/payout-by-ref/1001', missing)).data).toMatchObject({
			'error-code': 1,
			'error-message': "Field 'destination-card-ref-id' is required",
		});
		const unknown = { ...base, client_orderid: c.cid('pbr-unknown'), 'destination-card-ref-id': '1' };
		expect((await c.oauth('v4/payout-by-ref/1001', unknown)).data['error-code']).toBe(3);
		expect(await booked(missing.client_orderid)).toEqual([]);
		expect(await booked(unknown.client_orderid)).toEqual([]);
	});
});

describe('PAN eligibility: receive and both (v2, HMAC-SHA1)', () => {
	it('checks the receiving card, or both cards, and moves no money', async () => {
		const receive = { client_orderid: c.cid('rcv'), 'receiving-card-number': CARD2 };
		const r = await c.oauth('v2/pan-eligibility/receive/1001', receive);
		expect(r.data).toMatchObject({ type: 'async-response', 'merchant-order-id': receive.client_orderid });
		expect(await c.order(r.data['paynet-order-id'])).toMatchObject({
			kind: 'eligibility',
			status: 'approved',
			card: { bin: '555555', lastFour: '4444' },
		});
		const both = {
			'client-order-id': c.cid('both'),
			'sending-card-ref-id': await cardReference(),
			'receiving-card-number': CARD2,
		};
		const b = await c.oauth('v2/pan-eligibility/both/1001', both);
		expect(await c.order(b.data['paynet-order-id'])).toMatchObject({ status: 'approved', card: { lastFour: '1111' } });
		expect(await booked(receive.client_orderid)).toEqual([]);
		expect(await booked(both['client-order-id'])).toEqual([]);
	});

	it('refuses an invalid receiving card number and a control signature', async () => {
		const bad = await c.oauth('v2/pan-eligibility/both/1001', {
			client_orderid: c.cid('rcv-bad'),
			'receiving-card-number': '4444555566661112',
		});
		expect(bad.data).toMatchObject({
			'error-code': 1,
			'error-message': "Invalid card number in 'receiving-card-number'",
		});
		const unsigned = await c.post('v2/pan-eligibility/receive/1001', { client_orderid: c.cid('rcv-unsigned') });
		expect(unsigned.status).toBe(403);
	});
});
