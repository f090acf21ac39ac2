'use strict';
// 3-D Secure (fake ACS page and the direct upload commands) and hosted forms, completed by a plain
// HTTP client following the pages.
const { describe, it, expect, beforeAll, afterAll } = require('@jest/globals');
const { startSandbox } = require('../../sandbox');
const { Client, MERCHANT, CARD, sha1, parseForm } = require('../support/sandbox-client');

let sb;
let c;
const RETURN = 'http://127.0.0.1:9/merchant/return?x=1';
beforeAll(async () => {
	sb = await startSandbox({ port: 0, quiet: true });
	c = new Client(sb);
});
afterAll(() => sb.close());

function expectSignedReturn(form, orderid, cid, status) {
	expect(form.method).toBe('post');
	expect(form.action).toBe(RETURN);
	expect(form.fields).toMatchObject({ status, orderid, merchant_order: cid, client_orderid: cid });
	expect(form.fields.control).toBe(sha1(status + orderid + cid + MERCHANT.controlKey));
}

describe('3-D Secure via the ACS page', () => {
	it.each([
		['hint', 'approved'],
		['wrong', 'declined'],
	])('password %s → %s, then an auto-POST back to redirect_url', async (password, status) => {
		const s = await c.sale({ cvv2: '321', redirect_url: RETURN });
		const cid = s.params.client_orderid;
		const st = await c.status(s.orderid, cid);
		expect(st.data).toMatchObject({ status: 'processing', 'order-stage': 'sale_3d_validating' });
		const html = parseForm(st.data.html);
		expect(html).toMatchObject({ method: 'get', action: `${sb.url}/sandbox/acs/${s.orderid}` });
		expect(st.data['redirect-to']).toBe(html.action);
		// still processing however often it is polled
		expect((await c.status(s.orderid, cid)).data.status).toBe('processing');
		expect(await c.ledger(s.orderid)).toEqual([]);

		const page = await c.getPage(st.data['redirect-to']);
		expect(page.status).toBe(200);
		expect(page.text).not.toContain(CARD);
		const acsForm = parseForm(page.text);
		expect(acsForm.method).toBe('post');
		const done = await c.postPage(acsForm.action, { password });
		expect(done.status).toBe(200);
		expectSignedReturn(parseForm(done.text), s.orderid, cid, status);
		const final = await c.status(s.orderid, cid);
		expect(final.data.status).toBe(status);
		expect(final.data.html).toBeUndefined();
		expect((await c.ledger(s.orderid)).length).toBe(status === 'approved' ? 1 : 0);
		// the ACS page is single use
		expect((await c.postPage(acsForm.action, { password: 'hint' })).status).toBe(409);
	});

	it('preauth with 3-D Secure: auth_3d_validating', async () => {
		const s = await c.sale({ cvv2: '321' }, 'preauth');
		expect((await c.status(s.orderid, s.params.client_orderid)).data['order-stage']).toBe('auth_3d_validating');
	});
});

describe('3-D Secure via the upload commands', () => {
	const upload = (cmd, s, extra) =>
		c.control(cmd, 1001, {
			login: MERCHANT.login,
			'client-order-id': s.params.client_orderid,
			orderid: s.orderid,
			...extra,
		});

	it('upload-pares-result approves; "fail" declines; a second upload is refused (code 4)', async () => {
		const a = await c.sale({ cvv2: '321' });
		const r = await upload('upload-pares-result', a, { paRes: 'eJzVWNuyokgS', md: 'x' });
		expect(r.data).toMatchObject({ type: 'async-response', 'paynet-order-id': a.orderid });
		expect((await c.status(a.orderid, a.params.client_orderid)).data.status).toBe('approved');
		expect((await upload('upload-pares-result', a, { paRes: 'x' })).data['error-code']).toBe(4);
		const b = await c.sale({ cvv2: '321' });
		await upload('upload-pares-result', b, { paRes: 'fail' });
		expect((await c.status(b.orderid, b.params.client_orderid)).data).toMatchObject({
			status: 'declined',
			'error-message': '3-D Secure authentication failed',
		});
	});

	it('upload-method-url-result keeps the order pending; upload-cres-result (cres spelling too) finishes it', async () => {
		const s = await c.sale({ cvv2: '321' });
		const m = await upload('upload-method-url-result', s, {
			threeDSCompInd: 'Y',
			threeDSServerTransID: 'abc',
			browserJavaEnabled: 'false',
		});
		expect(m.data.type).toBe('async-response');
		expect((await upload('upload-method-url-result', s, { threeDSCompInd: 'X' })).data['error-code']).toBe(1);
		expect((await c.status(s.orderid, s.params.client_orderid)).data.status).toBe('processing');
		expect((await c.order(s.orderid)).threeDS).toMatchObject({ pending: true, methodResult: 'Y' });
		expect((await upload('upload-cres-result', s, { cres: 'eyJjcmVz' })).data.type).toBe('async-response');
		expect((await c.status(s.orderid, s.params.client_orderid)).data.status).toBe('approved');
	});

	it('uploads on an order not waiting for 3-D Secure → code 4; wrong client-order-id → code 3; bad control → code 2', async () => {
		const s = await c.sale();
		expect((await upload('upload-cres-result', s, { cRes: 'x' })).data['error-code']).toBe(4);
		const t = await c.sale({ cvv2: '321' });
		const wrong = await c.control('upload-cres-result', 1001, {
			login: MERCHANT.login,
			'client-order-id': 'other',
			orderid: t.orderid,
			cRes: 'x',
		});
		expect(wrong.data['error-code']).toBe(3);
		const badControl = await c.post('3ds/v1/upload-cres-result/1001', {
			login: MERCHANT.login,
			'client-order-id': t.params.client_orderid,
			orderid: t.orderid,
			cRes: 'x',
			control: 'a'.repeat(40),
		});
		expect(badControl.data['error-code']).toBe(2);
		expect((await c.order(t.orderid)).threeDS.pending).toBe(true);
	});
});

describe('hosted forms', () => {
	const formParams = (o = {}) => ({
		client_orderid: c.cid('hf'),
		amount: '15.00',
		currency: 'USD',
		email: 'a@b.c',
		redirect_url: RETURN,
		...o,
	});

	async function open(cmd, params, opts) {
		const r = await c.control(cmd, 1001, params, opts);
		expect(r.data).toMatchObject({ type: 'async-form-response', 'merchant-order-id': params.client_orderid });
		expect(r.data['redirect-url']).toBe(`${sb.url}/sandbox/form/${r.data['paynet-order-id']}`);
		const page = await c.getPage(r.data['redirect-url']);
		expect(page.status).toBe(200);
		const form = parseForm(page.text);
		expect(form.method).toBe('post');
		return { orderid: r.data['paynet-order-id'], action: form.action, page: page.text, reply: r };
	}
	const card = (o = {}) => ({
		credit_card_number: CARD,
		expire_month: '12',
		expire_year: '2035',
		cvv2: '123',
		card_printed_name: 'FORM PAYER',
		...o,
	});

	it('sale-form: the card page, then a signed auto-POST to redirect_url; money once', async () => {
		const p = formParams();
		const f = await open('sale-form', p);
		for (const name of ['credit_card_number', 'expire_month', 'expire_year', 'cvv2', 'card_printed_name'])
			expect(f.page).toContain(`name="${name}"`);
		expect((await c.status(f.orderid, p.client_orderid)).data.status).toBe('processing');
		const done = await c.postPage(f.action, card());
		expect(done.status).toBe(200);
		expectSignedReturn(parseForm(done.text), f.orderid, p.client_orderid, 'approved');
		expect((await c.status(f.orderid, p.client_orderid)).data).toMatchObject({
			status: 'approved',
			'cardholder-name': 'FORM PAYER',
			'last-four-digits': '1111',
		});
		expect((await c.postPage(f.action, card())).status).toBe(409);
		expect((await c.ledger(f.orderid)).map((e) => e.kind)).toEqual(['sale']);
		// repeating the form request returns the same form
		const again = await c.control('sale-form', 1001, p);
		expect(again.data['redirect-url']).toBe(f.reply.data['redirect-url']);
	});

	it('an invalid card re-shows the form (400) and changes nothing; a declining CVV returns status declined', async () => {
		const p = formParams();
		const f = await open('preauth-form', p);
		const bad = await c.postPage(f.action, card({ credit_card_number: '4444555566661112' }));
		expect(bad.status).toBe(400);
		expect(bad.text).toContain('Invalid card number');
		expect((await c.order(f.orderid)).formPending).toBe(true);
		const done = await c.postPage(f.action, card({ cvv2: '116' }));
		const back = parseForm(done.text);
		expectSignedReturn(back, f.orderid, p.client_orderid, 'declined');
		expect(back.fields.error_message).toBe('Insufficient funds');
	});

	it('CVV 321 on a form goes through the ACS page before returning', async () => {
		const p = formParams();
		const f = await open('payment-form', p);
		const step = parseForm((await c.postPage(f.action, card({ cvv2: '321' }))).text);
		expect(step).toMatchObject({ method: 'get', action: `${sb.url}/sandbox/acs/${f.orderid}` });
		const acs = parseForm((await c.getPage(step.action)).text);
		const done = await c.postPage(acs.action, { password: 'hint' });
		expectSignedReturn(parseForm(done.text), f.orderid, p.client_orderid, 'approved');
	});

	it('transfer-form (signed like the sale form): the payer sends money from their card, booked once as a transfer', async () => {
		const p = formParams();
		const f = await open('transfer-form', p);
		const done = await c.postPage(f.action, card());
		expectSignedReturn(parseForm(done.text), f.orderid, p.client_orderid, 'approved');
		expect((await c.ledger(f.orderid)).map((e) => `${e.kind}:${e.amount}`)).toEqual(['transfer:15.00']);
	});

	it('payout-form asks for no CVV and records a payout; account-verification-form moves nothing', async () => {
		const p = formParams();
		const f = await open('payout-form', p);
		expect(f.page).not.toContain('name="cvv2"');
		const done = await c.postPage(f.action, {
			credit_card_number: CARD,
			expire_month: '12',
			expire_year: '2035',
			card_printed_name: 'R',
		});
		expectSignedReturn(parseForm(done.text), f.orderid, p.client_orderid, 'approved');
		expect((await c.ledger(f.orderid)).map((e) => `${e.kind}:${e.amount}`)).toEqual(['payout:15.00']);

		const v = { client_orderid: c.cid('avf'), email: 'a@b.c', redirect_url: RETURN };
		const vf = await open('account-verification-form', v);
		const vdone = await c.postPage(vf.action, card());
		expectSignedReturn(parseForm(vdone.text), vf.orderid, v.client_orderid, 'approved');
		expect(await c.ledger(vf.orderid)).toEqual([]);
	});

	it('redirect_success_url / redirect_fail_url are honoured; without any URL a result page is shown', async () => {
		const p = formParams({
			redirect_url: undefined,
			redirect_success_url: 'http://127.0.0.1:9/ok',
			redirect_fail_url: 'http://127.0.0.1:9/fail',
		});
		delete p.redirect_url;
		const f = await open('sale-form', p);
		expect(parseForm((await c.postPage(f.action, card())).text).action).toBe('http://127.0.0.1:9/ok');
		const q = formParams();
		delete q.redirect_url;
		const g = await open('sale-form', q);
		const page = await c.postPage(g.action, card({ cvv2: '999' }));
		expect(page.text).toContain('declined');
		expect(parseForm(page.text)).toBeNull();
		expect((await c.getPage(`${sb.url}/sandbox/form/1`)).status).toBe(404);
	});
});
