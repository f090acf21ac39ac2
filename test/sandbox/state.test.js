'use strict';
// The order state machine, the ledger, duplicates, polling, card references, rebills, payouts,
// transfers and recurring payments.
const { describe, it, expect, beforeAll, afterAll } = require('@jest/globals');
const { startSandbox } = require('../../sandbox');
const { Client, MERCHANT, CARD, CARD2 } = require('../support/sandbox-client');

let sb;
let c;
beforeAll(async () => {
	sb = await startSandbox({ port: 0, quiet: true });
	c = new Client(sb);
});
afterAll(() => sb.close());

const kinds = (entries) => entries.map((e) => `${e.kind}:${e.amount}`);

describe('initial payments and the CVV table', () => {
	it('sale approved: status fields, ledger entry', async () => {
		const s = await c.sale({ amount: '19.99' });
		expect(s.data).toEqual({
			type: 'async-response',
			'serial-number': expect.stringMatching(/^00000000-0000-0000-0000-[0-9a-f]{12}$/),
			'merchant-order-id': s.params.client_orderid,
			'paynet-order-id': s.orderid,
			'end-point-id': '1001',
		});
		const st = await c.status(s.orderid, s.params.client_orderid);
		expect(st.status).toBe(200);
		expect(st.data).toMatchObject({
			type: 'status-response',
			status: 'approved',
			amount: '19.99',
			currency: 'USD',
			'paynet-order-id': s.orderid,
			'merchant-order-id': s.params.client_orderid,
			'transaction-type': 'sale',
			'order-stage': 'sale_approved',
			'last-four-digits': '1111',
			bin: '444455',
			'card-type': 'VISA',
			'cardholder-name': 'TEST PAYER',
			'approval-code': expect.stringMatching(/^\d{6}$/),
			'processor-tx-id': `PNTEST-${s.orderid}`,
			'gate-partial-capture': 'enabled',
			'gate-partial-reversal': 'enabled',
		});
		expect(st.text).not.toContain(CARD);
		expect(st.text).not.toContain('"123"');
		expect(kinds(await c.ledger(s.orderid))).toEqual(['sale:19.99']);
	});

	it.each([
		['116', 'declined', 'Insufficient funds'],
		['101', 'declined', 'Expired card'],
		['119', 'declined', 'Transaction not permitted to cardholder'],
		['209', 'declined', 'Pick-up card (stolen card)'],
		['555', 'declined', 'Declined by issuer'],
		['217', 'unknown', 'Acquirer network problem'],
	])('CVV %s → %s (%s), no money moved', async (cvv, status, message) => {
		const s = await c.sale({ cvv2: cvv });
		const st = await c.status(s.orderid, s.params.client_orderid);
		expect(st.data).toMatchObject({ status, 'error-message': message });
		expect(st.data['error-code']).toBeDefined();
		expect(st.data['approval-code']).toBeUndefined();
		expect(await c.ledger(s.orderid)).toEqual([]);
	});

	it('CVV 1234 and 111 approve', async () => {
		for (const cvv of ['1234', '111']) {
			const s = await c.sale({ cvv2: cvv });
			expect((await c.status(s.orderid, s.params.client_orderid)).data.status).toBe('approved');
		}
	});

	it('status by client_orderid alone; unknown order → 200 status-response error "Order not found"', async () => {
		const s = await c.sale();
		const st = await c.status(null, s.params.client_orderid);
		expect(st.data).toMatchObject({ status: 'approved', 'paynet-order-id': s.orderid });
		const unknown = await c.status('999999999', 'no-such-order');
		expect(unknown.status).toBe(200);
		expect(unknown.data).toMatchObject({
			type: 'status-response',
			status: 'error',
			'error-message': 'Order not found',
			'error-code': 3,
			'merchant-order-id': 'no-such-order',
		});
		const legacy = await c.status(null, 'no-such-order-2', { json: false });
		expect(legacy.status).toBe(200);
		expect(legacy.data).toMatchObject({ type: 'status-response', status: 'error', 'error-code': '3' });
		expect(legacy.data['error-message']).toMatch(/not found/);
		// right orderid, wrong client_orderid → not found
		expect((await c.status(s.orderid, 'other-cid')).data.status).toBe('error');
	});

	it('a repeated client_orderid never creates a second payment', async () => {
		const p = c.saleParams({ amount: '7.00' });
		const first = await c.control('sale', 1001, p);
		const second = await c.control('sale', 1001, p);
		const third = await c.control('sale', 1001, { ...p, amount: '8.00' });
		const legacy = await c.control('sale', 1001, p, { json: false });
		for (const r of [second, third, legacy]) expect(r.data['paynet-order-id']).toBe(first.data['paynet-order-id']);
		expect(second.data['serial-number']).not.toBe(first.data['serial-number']);
		expect(kinds(await c.ledger(first.data['paynet-order-id']))).toEqual(['sale:7.00']);
		const orders = (await c.admin('GET', `orders?client_orderid=${p.client_orderid}`)).data.orders;
		expect(orders).toHaveLength(1);
		// same client_orderid on another endpoint is another order
		const eur = await c.control('sale', 1002, { ...p, currency: 'EUR' });
		expect(eur.data['paynet-order-id']).not.toBe(first.data['paynet-order-id']);
	});
});

describe('status polling', () => {
	it('reports processing for the first pollsBeforeFinal polls, then the final status', async () => {
		const slow = await startSandbox({ port: 0, quiet: true, pollsBeforeFinal: 2 });
		try {
			const sc = new Client(slow);
			const s = await sc.sale();
			const cid = s.params.client_orderid;
			const seen = [];
			for (let i = 0; i < 4; i++) seen.push((await sc.status(s.orderid, cid)).data);
			expect(seen.map((d) => d.status)).toEqual(['processing', 'processing', 'approved', 'approved']);
			expect(seen[0]['order-stage']).toBe('sale_processing');
			expect(seen[0]['approval-code']).toBeUndefined();
			// ledger entry only once the final status is reached
			const s2 = await sc.sale();
			expect(await sc.ledger(s2.orderid)).toEqual([]);
			const refused = await sc.followUp('return', s2.orderid, s2.params.client_orderid);
			expect(refused.data).toMatchObject({ 'error-code': 4 });
			await sc.status(s2.orderid, s2.params.client_orderid);
			await sc.status(s2.orderid, s2.params.client_orderid);
			await sc.status(s2.orderid, s2.params.client_orderid);
			expect(kinds(await sc.ledger(s2.orderid))).toEqual(['sale:10.00']);
		} finally {
			await slow.close();
		}
	});
});

describe('follow-ups', () => {
	it('preauth: partial captures up to the hold, then refunds up to the captured amount', async () => {
		const s = await c.sale({ amount: '100.00' }, 'preauth');
		const cid = s.params.client_orderid;
		expect(await c.ledger(s.orderid)).toEqual([]);
		let r = await c.followUp('capture', s.orderid, cid, { amount: '30.00', currency: 'USD' });
		expect(r.data).toMatchObject({ type: 'async-response', 'paynet-order-id': s.orderid, 'merchant-order-id': cid });
		r = await c.followUp('capture', s.orderid, cid, { amount: '70.01', currency: 'USD' });
		expect(r.data).toMatchObject({ type: 'validation-error', 'error-code': 4 });
		r = await c.followUp('capture', s.orderid, cid, { amount: '5.00', currency: 'EUR' });
		expect(r.data).toMatchObject({ 'error-code': 1 });
		r = await c.followUp('capture', s.orderid, cid, { amount: '20.00', currency: 'USD' });
		expect(r.data.type).toBe('async-response');
		const st = await c.status(s.orderid, cid);
		expect(st.data).toMatchObject({
			status: 'approved',
			'transaction-type': 'capture',
			'order-stage': 'capture_approved',
			amount: '100.00',
		});
		r = await c.followUp('return', s.orderid, cid, { amount: '50.01', currency: 'USD' });
		expect(r.data['error-code']).toBe(4);
		r = await c.followUp('return', s.orderid, cid, { amount: '10.00', currency: 'USD' });
		expect(r.data.type).toBe('async-response');
		r = await c.followUp('return', s.orderid, cid);
		expect(r.data.type).toBe('async-response');
		r = await c.followUp('return', s.orderid, cid, { amount: '0.01', currency: 'USD' });
		expect(r.data['error-code']).toBe(4);
		expect(kinds(await c.ledger(s.orderid))).toEqual([
			'capture:30.00',
			'capture:20.00',
			'return:10.00',
			'return:40.00',
		]);
		const view = await c.order(s.orderid);
		expect(view).toMatchObject({ held: '50.00', charged: '50.00', refunded: '50.00' });
		expect(view.transactions.map((t) => t.type)).toEqual(['preauth', 'capture', 'capture', 'reversal', 'reversal']);
		// the rest of the hold can still be captured
		r = await c.followUp('capture', s.orderid, cid);
		expect(r.data.type).toBe('async-response');
		expect((await c.order(s.orderid)).held).toBe('0.00');
		r = await c.followUp('capture', s.orderid, cid);
		expect(r.data['error-code']).toBe(4);
	});

	it('return on an uncaptured preauth is a cancel of the whole hold', async () => {
		const s = await c.sale({ amount: '40.00' }, 'preauth');
		const cid = s.params.client_orderid;
		const r = await c.followUp('return', s.orderid, cid, { amount: '1.00', currency: 'USD' });
		expect(r.data.type).toBe('async-response');
		expect(kinds(await c.ledger(s.orderid))).toEqual(['cancel:40.00']);
		expect((await c.status(s.orderid, cid)).data).toMatchObject({ 'transaction-type': 'cancel', amount: '0.00' });
		expect((await c.followUp('capture', s.orderid, cid)).data['error-code']).toBe(4);
		expect((await c.followUp('return', s.orderid, cid)).data['error-code']).toBe(4);
	});

	it('sale: capture refused; partial refunds; over-refund refused; void refused after a refund', async () => {
		const s = await c.sale({ amount: '10.00' });
		const cid = s.params.client_orderid;
		expect((await c.followUp('capture', s.orderid, cid)).data).toMatchObject({ 'error-code': 4 });
		expect((await c.followUp('return', s.orderid, cid, { amount: '4.00', currency: 'USD' })).data.type).toBe(
			'async-response',
		);
		const over = await c.followUp('return', s.orderid, cid, { amount: '6.01', currency: 'USD' });
		expect(over.data['error-code']).toBe(4);
		expect(over.data['error-message']).toMatch(/exceeds the refundable 6.00/);
		expect((await c.followUp('void', s.orderid, cid)).data['error-code']).toBe(4);
		expect((await c.status(s.orderid, cid)).data).toMatchObject({ amount: '6.00', 'transaction-type': 'reversal' });
		expect(kinds(await c.ledger(s.orderid))).toEqual(['sale:10.00', 'return:4.00']);
	});

	it('void: full amount of an approved sale; refused after clearing, twice, or on a declined order', async () => {
		const s = await c.sale({ amount: '12.00' });
		const cid = s.params.client_orderid;
		expect((await c.followUp('void', s.orderid, cid)).data.type).toBe('async-response');
		expect((await c.followUp('void', s.orderid, cid)).data['error-code']).toBe(4);
		expect((await c.followUp('return', s.orderid, cid)).data['error-code']).toBe(4);
		expect(kinds(await c.ledger(s.orderid))).toEqual(['sale:12.00', 'void:12.00']);
		expect((await c.status(s.orderid, cid)).data).toMatchObject({ 'transaction-type': 'void', amount: '0.00' });

		const t = await c.sale();
		const clear = await c.admin('POST', `orders/${t.orderid}/clear`);
		expect(clear.data.cleared).toBe(true);
		const refused = await c.followUp('void', t.orderid, t.params.client_orderid);
		expect(refused.data['error-code']).toBe(4);
		expect(refused.data['error-message']).toMatch(/cleared/);
		expect((await c.followUp('return', t.orderid, t.params.client_orderid)).data.type).toBe('async-response');

		const d = await c.sale({ cvv2: '116' });
		expect((await c.followUp('void', d.orderid, d.params.client_orderid)).data['error-code']).toBe(4);
		expect((await c.followUp('return', d.orderid, d.params.client_orderid)).data['error-code']).toBe(4);
		// void of an approved preauth releases the hold
		const p = await c.sale({ amount: '9.00' }, 'preauth');
		expect((await c.followUp('void', p.orderid, p.params.client_orderid)).data.type).toBe('async-response');
		expect(kinds(await c.ledger(p.orderid))).toEqual(['void:9.00']);
		expect((await c.followUp('capture', p.orderid, p.params.client_orderid)).data['error-code']).toBe(4);
	});

	it("follow-ups on unknown orders, other merchants' orders or with a wrong client_orderid → code 3", async () => {
		const s = await c.sale();
		expect((await c.followUp('capture', '1', 'nope')).data['error-code']).toBe(3);
		expect((await c.followUp('return', s.orderid, 'wrong-cid')).data['error-code']).toBe(3);
		const other = require('../support/sandbox-client').OTHER;
		const r = await c.control(
			'status',
			3001,
			{ login: other.login, client_orderid: s.params.client_orderid, orderid: s.orderid },
			{ merchant: other },
		);
		expect(r.data).toMatchObject({ status: 'error', 'error-message': 'Order not found' });
	});
});

describe('card references and rebills', () => {
	it('create-card-ref from an approved order, get-card-info, rebill (sale and preauth)', async () => {
		const s = await c.sale({ card_printed_name: 'JANE DOE', expire_month: '07', expire_year: '2031' });
		const cid = s.params.client_orderid;
		const ref = await c.followUp('create-card-ref', s.orderid, cid);
		expect(ref.data).toMatchObject({
			type: 'create-card-ref-response',
			status: 'approved',
			'card-ref-id': expect.stringMatching(/^\d+$/),
		});
		const again = await c.followUp('create-card-ref', s.orderid, cid);
		expect(again.data['card-ref-id']).toBe(ref.data['card-ref-id']);
		const refId = ref.data['card-ref-id'];
		const info = await c.control('get-card-info', 1001, { login: MERCHANT.login, cardrefid: refId });
		expect(info.data).toEqual({
			type: 'get-card-info-response',
			'serial-number': expect.any(String),
			'card-ref-id': refId,
			'card-printed-name': 'JANE DOE',
			bin: '444455',
			'last-four-digits': '1111',
			'expire-month': '07',
			'expire-year': '2031',
			'card-type': 'VISA',
		});
		expect(
			(await c.control('get-card-info', 1001, { login: MERCHANT.login, cardrefid: '42' })).data['error-code'],
		).toBe(3);
		expect((await c.status(s.orderid, cid)).data['card-ref-id']).toBe(refId);

		for (const cmd of ['make-rebill', 'make-rebill-sale']) {
			const p = {
				login: MERCHANT.login,
				client_orderid: c.cid('rb'),
				cardrefid: refId,
				amount: '5.25',
				currency: 'USD',
			};
			const rb = await c.control(cmd, 1001, p);
			expect(rb.data.type).toBe('async-response');
			expect((await c.status(rb.data['paynet-order-id'], p.client_orderid)).data).toMatchObject({
				status: 'approved',
				'last-four-digits': '1111',
				'transaction-type': 'sale',
			});
			expect(kinds(await c.ledger(rb.data['paynet-order-id']))).toEqual(['rebill:5.25']);
		}
		const pp = {
			login: MERCHANT.login,
			client_orderid: c.cid('rbp'),
			cardrefid: refId,
			amount: '3.00',
			currency: 'USD',
		};
		const rbp = await c.control('make-rebill-preauth', 1001, pp);
		expect(await c.ledger(rbp.data['paynet-order-id'])).toEqual([]);
		expect((await c.followUp('capture', rbp.data['paynet-order-id'], pp.client_orderid)).data.type).toBe(
			'async-response',
		);
		const missing = await c.control('make-rebill', 1001, { ...pp, client_orderid: c.cid(), cardrefid: '123' });
		expect(missing.data['error-code']).toBe(3);
	});

	it('card refs only from final approved orders; v4 create-card-ref adds recurring-payment-id', async () => {
		const d = await c.sale({ cvv2: '116' });
		expect((await c.followUp('create-card-ref', d.orderid, d.params.client_orderid)).data['error-code']).toBe(4);
		const s = await c.sale();
		const r = await c.oauth('v4/create-card-ref/1001', { client_orderid: s.params.client_orderid, orderid: s.orderid });
		expect(r.data).toMatchObject({
			type: 'create-card-ref-response',
			status: 'approved',
			'card-ref-id': expect.any(String),
			'recurring-payment-id': expect.any(String),
		});
	});

	it('account verification (async, sync) moves no money; sync returns a card ref', async () => {
		const p = {
			client_orderid: c.cid('av'),
			credit_card_number: CARD2,
			expire_month: '12',
			expire_year: '2035',
			cvv2: '123',
			email: 'a@b.c',
		};
		const av = await c.control('account-verification', 1001, p);
		expect(av.data.type).toBe('async-response');
		expect((await c.status(av.data['paynet-order-id'], p.client_orderid)).data).toMatchObject({
			status: 'approved',
			'transaction-type': 'account-verification',
			amount: '0.00',
			'card-type': 'MASTERCARD',
		});
		const sp = { ...p, client_orderid: c.cid('sav') };
		const sync = await c.control('sync/account-verification', 1001, sp);
		expect(sync.data).toMatchObject({ type: 'status-response', status: 'approved', 'card-ref-id': expect.any(String) });
		expect(await c.ledger(av.data['paynet-order-id'])).toEqual([]);
		expect(await c.ledger(sync.data['paynet-order-id'])).toEqual([]);
	});
});

describe('payouts, transfers, eligibility, recurring', () => {
	it('v4 payout-check moves nothing; payout-pay moves money exactly once', async () => {
		const cid = c.cid('p2');
		const chk = await c.oauth('v4/payout-check/1001', {
			client_orderid: cid,
			amount: '25.00',
			currency: 'USD',
			credit_card_number: CARD,
			expire_month: '12',
			expire_year: '2035',
		});
		const orderid = chk.data['paynet-order-id'];
		expect((await c.status(orderid, cid)).data).toMatchObject({
			status: 'approved',
			'order-stage': 'payout_check_approved',
		});
		expect(await c.ledger(orderid)).toEqual([]);
		const pay1 = await c.oauth('v4/payout-pay/1001', { login: MERCHANT.login, client_orderid: cid, orderid });
		const pay2 = await c.oauth('v4/payout-pay/1001', { login: MERCHANT.login, client_orderid: cid, orderid });
		expect(pay1.data).toMatchObject({ type: 'async-response', 'paynet-order-id': orderid });
		expect(pay2.data['paynet-order-id']).toBe(orderid);
		expect(kinds(await c.ledger(orderid))).toEqual(['payout:25.00']);
		expect((await c.status(orderid, cid)).data).toMatchObject({ 'transaction-type': 'payout', status: 'approved' });
		const unknown = await c.oauth('v4/payout-pay/1001', {
			login: MERCHANT.login,
			client_orderid: c.cid('nochk'),
			orderid,
		});
		expect(unknown.data['error-code']).toBe(3);
		const notCheck = await c.sale();
		const wrong = await c.oauth('v4/payout-pay/1001', {
			login: MERCHANT.login,
			client_orderid: notCheck.params.client_orderid,
			orderid: notCheck.orderid,
		});
		expect(wrong.data['error-code']).toBe(3);
		const badCard = await c.oauth('v4/payout-check/1001', {
			client_orderid: c.cid(),
			amount: '1.00',
			currency: 'USD',
			credit_card_number: '1234567890123',
		});
		expect(badCard.data['error-code']).toBe(1);
	});

	it('pay of a declined check → code 4', async () => {
		const cid = c.cid('p3');
		const chk = await c.oauth('v4/payout-check/1001', {
			client_orderid: cid,
			amount: '1.00',
			currency: 'USD',
			credit_card_number: CARD,
			expire_month: '12',
			expire_year: '2035',
			cvv2: '116',
		});
		const pay = { login: MERCHANT.login, client_orderid: cid, orderid: chk.data['paynet-order-id'] };
		expect((await c.oauth('v4/payout-pay/1001', pay)).data['error-code']).toBe(4);
	});

	it('v2 payout, v4 payout, transfer, transfer-by-ref move money once per client_orderid', async () => {
		const s = await c.sale();
		const refId = (await c.followUp('create-card-ref', s.orderid, s.params.client_orderid)).data['card-ref-id'];
		const calls = [
			['v2/payout/1001', { amount: '1.10', currency: 'USD', account_number: 'GB33BUKB20201555555555' }, 'payout:1.10'],
			[
				'v4/payout/1001',
				{ amount: '1.20', currency: 'USD', credit_card_number: CARD, expire_month: '12', expire_year: '2035' },
				'payout:1.20',
			],
			[
				'v4/transfer/1001',
				{
					amount: '1.30',
					currency: 'USD',
					credit_card_number: CARD,
					cvv2: '123',
					expire_month: '12',
					expire_year: '2035',
					'destination-card-no': CARD2,
				},
				'transfer:1.30',
			],
			[
				'v4/transfer-by-ref/1001',
				{ amount: '1.40', currency: 'USD', 'destination-card-ref-id': refId },
				'transfer:1.40',
			],
		];
		for (const [p, params, entry] of calls) {
			const body = { client_orderid: c.cid('m'), ...params };
			const a = await c.oauth(p, body);
			const b = await c.oauth(p, body);
			expect(a.data.type).toBe('async-response');
			expect(b.data['paynet-order-id']).toBe(a.data['paynet-order-id']);
			expect(kinds(await c.ledger(a.data['paynet-order-id']))).toEqual([entry]);
		}
		const noDest = await c.oauth('v4/transfer-by-ref/1001', {
			client_orderid: c.cid(),
			amount: '1.00',
			currency: 'USD',
		});
		expect(noDest.data['error-message']).toMatch(/destination-card-ref-id/);
		const badRef = await c.oauth('v4/transfer-by-ref/1001', {
			client_orderid: c.cid(),
			amount: '1.00',
			currency: 'USD',
			'destination-card-ref-id': '1',
		});
		expect(badRef.data['error-code']).toBe(3);
		// the v4 samples spell it client-order-id
		const alias = await c.oauth('v4/transfer-by-ref/1001', {
			'client-order-id': c.cid(),
			amount: '100',
			currency: 'USD',
			'destination-card-no': CARD2,
		});
		expect(alias.data.type).toBe('async-response');
	});

	it('pan-eligibility/send (HMAC) answers async-response and moves nothing', async () => {
		const s = await c.sale();
		const refId = (await c.followUp('create-card-ref', s.orderid, s.params.client_orderid)).data['card-ref-id'];
		const cid = c.cid('pe');
		const r = await c.oauth('v2/pan-eligibility/send/1001', { 'client-order-id': cid, 'sending-card-ref-id': refId });
		expect(r.data).toMatchObject({ type: 'async-response', 'merchant-order-id': cid });
		expect((await c.status(r.data['paynet-order-id'], cid)).data).toMatchObject({
			status: 'approved',
			'transaction-type': 'pan-eligibility',
		});
		expect(await c.ledger(r.data['paynet-order-id'])).toEqual([]);
	});

	it('recurring payments: create (synchronous) and update', async () => {
		const cid = c.cid('rp');
		const create = await c.oauth('v4/create-recurring-payment/1001', {
			'client-orderid': cid,
			rp_card_type: 'SRC',
			'credit-card-number': CARD,
			cvv2: '123',
			'card-printed-name': 'A B',
			'expire-month': '12',
			'expire-year': '2035',
			currency: 'USD',
			amount: '9.99',
			period: 'monthly',
			interval: '1',
		});
		expect(create.data).toMatchObject({
			type: 'create-recurring-payment-response',
			status: 'approved',
			'recurring-payment-id': expect.stringMatching(/^\d+$/),
		});
		const rpId = create.data['recurring-payment-id'];
		const again = await c.oauth('v4/create-recurring-payment/1001', { 'client-orderid': cid, currency: 'USD' });
		expect(again.data['recurring-payment-id']).toBe(rpId);
		const upd = await c.oauth('v4/update-recurring-payment/1001', { 'recurring-payment-id': rpId, amount: '19.99' });
		expect(upd.data).toMatchObject({
			type: 'update-recurring-payment-response',
			status: 'approved',
			'recurring-payment-id': rpId,
		});
		const missing = await c.oauth('v4/update-recurring-payment/1001', { 'recurring-payment-id': '1' });
		expect(missing.data['error-code']).toBe(3);
		const badCard = await c.oauth('v4/create-recurring-payment/1001', { 'credit-card-number': '4444555566661112' });
		expect(badCard.data['error-code']).toBe(1);
	});
});
