'use strict';
// Routing, reply formats and authentication of every scheme, over real HTTP.
const { describe, it, expect, beforeAll, afterAll } = require('@jest/globals');
const { request } = require('undici');
const { startSandbox } = require('../../sandbox');
const { Client, MERCHANT, OTHER, CARD, sha1, withControl } = require('../support/sandbox-client');

let sb;
let c;
beforeAll(async () => {
	sb = await startSandbox({ port: 0, quiet: true, callbackRetry: { attempts: 1, delaysMs: [10] } });
	c = new Client(sb);
});
afterAll(() => sb.close());

/** Runs fn and asserts that orders and ledger are unchanged by it. */
async function changesNothing(fn) {
	const before = await c.snapshot();
	const r = await fn();
	expect(await c.snapshot()).toBe(before);
	return r;
}

describe('routing', () => {
	it('serves every command path of the catalogue (a signed request reaches the handler)', async () => {
		const paths = [
			'v2/sale',
			'v2/preauth',
			'v2/sale-form',
			'v2/preauth-form',
			'v2/payment-form',
			'v2/payout-form',
			'v2/account-verification',
			'v2/account-verification-form',
			'v2/sync/account-verification',
			'v2/status',
			'v2/void',
			'v2/create-card-ref',
			'v2/capture',
			'v2/return',
			'v2/get-card-info',
			'v2/make-rebill',
			'v2/make-rebill-sale',
			'v2/make-rebill-preauth',
			'3ds/v1/upload-pares-result',
			'3ds/v1/upload-cres-result',
			'3ds/v1/upload-method-url-result',
			'v2/payout',
			'v2/pan-eligibility/send',
			'v4/create-card-ref',
			'v4/create-recurring-payment',
			'v4/update-recurring-payment',
			'v4/payout-check',
			'v4/payout-pay',
			'v4/payout',
			'v4/transfer',
			'v4/transfer-by-ref',
			'v2/transfer-by-ref',
			'v2/transfer-form',
			'v4/sale',
			'v4/status',
		];
		for (const p of paths) {
			// An unsigned, empty request: 403 for OAuth commands, a validation error for control commands.
			const r = await c.post(`${p}/1001`, {});
			expect([400, 403]).toContain(r.status);
			if (r.status === 400) expect(r.data.type).toBe('validation-error');
		}
	});

	it('unknown command → 404; non-POST → 405; path without /paynet works too', async () => {
		expect((await c.post('v2/no-such-command/1001', {})).status).toBe(404);
		expect((await c.post('v3/sale/1001', {})).status).toBe(404);
		const get = await request(`${c.api}/v2/sale/1001`);
		expect(get.statusCode).toBe(405);
		await get.body.dump();
		const p = withControl('sale', 1001, c.saleParams());
		const r = await c.post('', p, { url: `${sb.url}/api/v2/sale/1001` });
		expect(r.status).toBe(200);
		expect(r.data.type).toBe('async-response');
	});

	it("unknown endpoint, unknown group, another merchant's endpoint → validation-error code 2", async () => {
		await changesNothing(async () => {
			let r = await c.control('sale', 9999, c.saleParams());
			expect(r.status).toBe(400);
			expect(r.data).toMatchObject({ type: 'validation-error', 'error-code': 2 });
			expect(r.data['error-message']).toMatch(/Unknown endpoint 9999/);
			r = await c.control('sale', 'group/9999', c.saleParams());
			expect(r.data).toMatchObject({ type: 'validation-error', 'error-code': 2 });
			// login-signed command on another merchant's endpoint
			r = await c.status('1', 'x', { id: 3001 });
			expect(r.data).toMatchObject({ type: 'validation-error', 'error-code': 2 });
			expect(r.data['error-message']).toMatch(/does not belong/);
			// unknown login
			r = await c.control('status', 1001, { login: 'nobody', client_orderid: 'x', orderid: '1' });
			expect(r.data).toMatchObject({ 'error-code': 2 });
			expect(r.data['error-message']).toMatch(/Unknown login/);
			// RSA-signed by the right merchant, on another merchant's endpoint
			r = await c.oauth('v4/payout-check/3001', { client_orderid: c.cid(), amount: '1.00', currency: 'USD' });
			expect(r.data).toMatchObject({ type: 'validation-error', 'error-code': 2 });
		});
	});
});

describe('reply formats', () => {
	it('JSON with Accept: application/vnd.pay+json; legacy k=v\\n& otherwise', async () => {
		const p = withControl('sale', 1001, c.saleParams());
		const legacy = await c.post('v2/sale/1001', p, { json: false });
		expect(legacy.status).toBe(200);
		expect(legacy.headers['content-type']).toBe('text/html;charset=utf-8');
		expect(legacy.text).toMatch(
			/^type=async-response\n&serial-number=00000000-0000-0000-0000-[0-9a-f]{12}\n&merchant-order-id=[^\n]+\n&paynet-order-id=\d+\n&end-point-id=1001\n$/,
		);
		const again = await c.post('v2/sale/1001', p);
		expect(again.headers['content-type']).toMatch(/^application\/vnd\.pay\+json/);
		expect(again.data['paynet-order-id']).toBe(legacy.data['paynet-order-id']);
		expect(typeof again.data['paynet-order-id']).toBe('string');
	});

	it('legacy errors are HTTP 200 with type=validation-error; JSON errors are 400', async () => {
		const p = { ...withControl('sale', 1001, c.saleParams()), control: '0'.repeat(40) };
		const legacy = await c.post('v2/sale/1001', p, { json: false });
		expect(legacy.status).toBe(200);
		expect(legacy.data).toMatchObject({ type: 'validation-error', 'error-code': '2' });
		expect(legacy.data['serial-number']).toMatch(/^00000000-0000-0000-0000-[0-9a-f]{12}$/);
		const json = await c.post('v2/sale/1001', p);
		expect(json.status).toBe(400);
		expect(Object.keys(json.data).sort()).toEqual(['error-code', 'error-message', 'serial-number', 'type']);
	});

	it('values are urlencoded in legacy replies (a 3-D Secure html blob round-trips)', async () => {
		const s = await c.sale({ cvv2: '321' });
		const st = await c.status(s.orderid, s.params.client_orderid, { json: false });
		expect(st.text).toContain('&html=%3C');
		expect(st.data.html).toContain('<form');
		expect(st.data['redirect-to']).toBe(`${sb.url}/sandbox/acs/${s.orderid}`);
	});

	it('serial numbers increase; paynet-order-ids increase', async () => {
		const a = await c.sale();
		const b = await c.sale();
		expect(Number(b.orderid)).toBeGreaterThan(Number(a.orderid));
		expect(parseInt(b.data['serial-number'].slice(-12), 16)).toBeGreaterThan(
			parseInt(a.data['serial-number'].slice(-12), 16),
		);
	});

	it('values are trimmed and the body must be form-urlencoded', async () => {
		const p = c.saleParams();
		const signed = withControl('sale', 1001, p);
		const padded = Object.fromEntries(Object.entries(signed).map(([k, v]) => [k, `  ${v}\t`]));
		const r = await c.post('v2/sale/1001', padded);
		expect(r.data.type).toBe('async-response');
		expect(r.data['merchant-order-id']).toBe(p.client_orderid);
		const j = await c.post('v2/sale/1001', null, {
			rawBody: JSON.stringify(signed),
			headers: { 'content-type': 'application/json' },
		});
		expect(j.data).toMatchObject({ type: 'validation-error', 'error-code': 1 });
	});
});

describe('control (SHA-1) signatures', () => {
	it('accepts uppercase hex, refuses a wrong or missing control and changes nothing', async () => {
		const p = c.saleParams();
		const signed = withControl('sale', 1001, p);
		await changesNothing(async () => {
			for (const control of ['0'.repeat(40), signed.control.slice(0, 39), `${signed.control}0`, 'z'.repeat(40)]) {
				const r = await c.post('v2/sale/1001', { ...signed, control });
				expect(r.data).toMatchObject({ type: 'validation-error', 'error-code': 2 });
			}
			const other = withControl('sale', 1001, p, OTHER);
			expect((await c.post('v2/sale/1001', other)).data['error-code']).toBe(2);
			const missing = { ...signed };
			delete missing.control;
			expect((await c.post('v2/sale/1001', missing)).data).toMatchObject({
				'error-code': 1,
				'error-message': "Field 'control' is required",
			});
			// the amount in the control is in minor units: signing "10.00" itself must fail
			const decimal = sha1(`1001${p.client_orderid}10.00${p.email}${MERCHANT.controlKey}`);
			expect((await c.post('v2/sale/1001', { ...p, control: decimal })).data['error-code']).toBe(2);
		});
		const upper = await c.post('v2/sale/1001', { ...signed, control: signed.control.toUpperCase() });
		expect(upper.data.type).toBe('async-response');
	});

	it('group id in the URL is the id signed; group routes by currency', async () => {
		const p = c.saleParams({ currency: 'EUR', amount: '5.5' });
		const r = await c.control('sale', 'group/2001', p);
		expect(r.data).toMatchObject({ type: 'async-response', 'end-point-id': '1002' });
		const wrong = withControl('sale', 1002, c.saleParams({ currency: 'EUR' }));
		expect((await c.post('v2/sale/group/2001', wrong)).data['error-code']).toBe(2);
		const jpy = await c.control('sale', 'group/2001', c.saleParams({ currency: 'JPY', amount: '100' }));
		expect(jpy.data).toMatchObject({ 'error-code': 1 });
		expect(jpy.data['error-message']).toMatch(/Currency JPY is not accepted by endpoint group 2001/);
	});

	it('control amount in hundredths for every currency (JPY 1500 → 150000); request amounts keep the currency decimals', async () => {
		const ok = await c.control('sale', 1003, c.saleParams({ currency: 'JPY', amount: '1500' }));
		expect(ok.data.type).toBe('async-response');
		// the ISO-exponent reading (1500 JPY signed as 1500) is refused
		const iso = c.saleParams({ currency: 'JPY', amount: '1500' });
		const isoSigned = sha1(`1003${iso.client_orderid}1500${iso.email}${MERCHANT.controlKey}`);
		expect((await c.post('v2/sale/1003', { ...iso, control: isoSigned })).data['error-code']).toBe(2);
		const order = await c.order(ok.data['paynet-order-id']);
		expect(order).toMatchObject({ amount: '1500', currency: 'JPY' });
		const bad = await c.control('sale', 1003, { ...c.saleParams({ currency: 'JPY' }), amount: '15.5' }, {});
		expect(bad.data['error-code']).toBe(1);
		const usd = await c.control('sale', 1001, c.saleParams({ amount: '0.29' }));
		expect((await c.order(usd.data['paynet-order-id'])).amount).toBe('0.29');
		const three = await c.post('v2/sale/1001', { ...c.saleParams(), amount: '1.234', control: '0'.repeat(40) });
		expect(three.data['error-code']).toBe(1);
		const cur = await c.control('sale', 1001, c.saleParams({ currency: 'EUR' }));
		expect(cur.data['error-message']).toMatch(/Currency EUR is not accepted by endpoint 1001/);
	});
});

describe('OAuth signatures', () => {
	const check = () => ({
		client_orderid: c.cid('chk'),
		amount: '12.34',
		currency: 'USD',
		credit_card_number: CARD,
		expire_month: '12',
		expire_year: '2035',
		card_printed_name: 'A B',
	});

	it('RSA-SHA256 with 2048 and 4096-bit keys; header with and without spaces, reversed, realm', async () => {
		const variants = [
			{},
			{ spaces: false },
			{ reverse: true },
			{ realm: true, spaces: false },
			{ key: MERCHANT.rsaKey4096 },
		];
		for (const v of variants) {
			const r = await c.oauth('v4/payout-check/1001', check(), v);
			expect(r.status).toBe(200);
			expect(r.data.type).toBe('async-response');
		}
	});

	it('HMAC-SHA1 v2 payout, with the oauth params repeated in the body', async () => {
		const p = {
			client_orderid: c.cid('po'),
			amount: '3.00',
			currency: 'USD',
			account_number: 'GB33BUKB20201555555555',
		};
		const r = await c.oauth('v2/payout/1001', p, { bodyExtra: (h) => h.oauth });
		expect(r.status).toBe(200);
		expect(r.data.type).toBe('async-response');
		const p2 = { ...p, client_orderid: c.cid('po') };
		expect((await c.oauth('v2/payout/1001', p2, { spaces: false, realm: true })).status).toBe(200);
	});

	it('refuses bad OAuth with 403 text "Forbidden" and changes nothing', async () => {
		await changesNothing(async () => {
			const cases = [
				{ tamper: true },
				{ key: OTHER.rsaKey }, // another merchant's key
				{ merchant: OTHER, key: OTHER.rsaKey, consumerKey: MERCHANT.login },
				{ method: 'HMAC-SHA1' }, // wrong method for v4
				{ version: '2.0' },
				{ consumerKey: 'nobody' },
				{ signUrl: `${sb.url}/paynet/api/v4/payout-check/1002` }, // signed for another URL
				{ signParams: { client_orderid: 'x', amount: '12.34', currency: 'USD' } }, // body differs
				{ bodyExtra: () => ({ oauth_nonce: 'different' }) },
			];
			for (const v of cases) {
				const r = await c.oauth('v4/payout-check/1001', check(), v);
				expect(r.status).toBe(403);
				expect(r.text).toBe('Forbidden');
				expect(r.headers['content-type']).toMatch(/^text\/plain/);
			}
			const none = await c.post('v4/payout-check/1001', check());
			expect(none.status).toBe(403);
			// HMAC signed with another merchant's control key
			const h = await c.oauth(
				'v2/payout/1001',
				{ client_orderid: c.cid(), amount: '1.00', currency: 'USD' },
				{ merchant: { ...MERCHANT, controlKey: OTHER.controlKey } },
			);
			expect(h.status).toBe(403);
			// RSA where HMAC is required
			expect(
				(
					await c.oauth(
						'v2/payout/1001',
						{ client_orderid: c.cid(), amount: '1.00', currency: 'USD' },
						{ method: 'RSA-SHA256' },
					)
				).status,
			).toBe(403);
		});
	});

	it('the signed URL is the one called: Host header as sent (localhost vs 127.0.0.1)', async () => {
		const port = new URL(sb.url).port;
		const p = check();
		const url = `http://localhost:${port}/paynet/api/v4/payout-check/1001`;
		const { oauthHeader } = require('../support/sandbox-client');
		const h = oauthHeader({ method: 'RSA-SHA256', url, params: p });
		const r = await request(`${sb.url}/paynet/api/v4/payout-check/1001`, {
			method: 'POST',
			headers: {
				host: `localhost:${port}`,
				authorization: h.header,
				'content-type': 'application/x-www-form-urlencoded',
				accept: 'application/vnd.pay+json',
			},
			body: new URLSearchParams(p).toString(),
		});
		expect(r.statusCode).toBe(200);
		await r.body.dump();
	});

	it('payment-form and payout-form accept control, HMAC or RSA', async () => {
		const form = (o = {}) => ({
			client_orderid: c.cid('f'),
			amount: '2.00',
			currency: 'USD',
			email: 'a@b.c',
			redirect_url: 'http://127.0.0.1:1/return',
			...o,
		});
		for (const cmd of ['payment-form', 'payout-form']) {
			expect((await c.control(cmd, 1001, form())).data.type).toBe('async-form-response');
			expect((await c.oauth(`v2/${cmd}/1001`, form(), { method: 'HMAC-SHA1' })).data.type).toBe('async-form-response');
			expect((await c.oauth(`v2/${cmd}/1001`, form(), { method: 'RSA-SHA256' })).data.type).toBe('async-form-response');
			expect((await c.oauth(`v2/${cmd}/1001`, form(), { method: 'RSA-SHA256', tamper: true })).status).toBe(403);
			expect((await c.post(`v2/${cmd}/1001`, { ...form(), control: '1'.repeat(40) })).data['error-code']).toBe(2);
		}
	});
});

describe('configurable strictness', () => {
	it('oauthFailureStatus 401, strictAccept, replay protection', async () => {
		const strict = await startSandbox({
			port: 0,
			quiet: true,
			oauthFailureStatus: 401,
			strictAccept: true,
			oauthReplay: { enabled: true, windowSec: 60 },
		});
		try {
			const sc = new Client(strict);
			const p = { client_orderid: sc.cid(), amount: '1.00', currency: 'USD', account_number: 'GB33BUKB20201555555555' };
			const bad = await sc.oauth('v4/payout-check/1001', p, { tamper: true });
			expect(bad.status).toBe(401);
			expect(bad.text).toBe('Unauthorized');
			// the vendor emulator's answer: 401 in plain text, which no client reads as a gateway reply
			expect(bad.headers['content-type']).toMatch(/^text\/plain/);
			const noAccept = await sc.control('sale', 1001, sc.saleParams(), { json: false });
			expect(noAccept.status).toBe(406);
			const nonce = 'fixed-nonce-1';
			expect((await sc.oauth('v4/payout-check/1001', p, { nonce })).status).toBe(200);
			expect((await sc.oauth('v4/payout-check/1001', p, { nonce })).status).toBe(401);
			const old = Math.floor(Date.now() / 1000) - 3600;
			expect(
				(await sc.oauth('v4/payout-check/1001', { ...p, client_orderid: sc.cid() }, { timestamp: old })).status,
			).toBe(401);
		} finally {
			await strict.close();
		}
	});
});

describe('required fields and card validation (code 1, nothing created)', () => {
	it('names the missing field', async () => {
		await changesNothing(async () => {
			for (const f of [
				'client_orderid',
				'amount',
				'currency',
				'credit_card_number',
				'expire_month',
				'expire_year',
				'cvv2',
			]) {
				const p = c.saleParams();
				delete p[f];
				const r = await c.post('v2/sale/1001', { ...p, control: '0'.repeat(40) });
				expect(r.data).toMatchObject({
					type: 'validation-error',
					'error-code': 1,
					'error-message': `Field '${f}' is required`,
				});
			}
			const bad = [
				[{ credit_card_number: '4444555566661112' }, /Invalid card number/],
				[{ expire_month: '13' }, /expire_month/],
				[{ expire_year: '2001' }, /expired/],
				[{ cvv2: '12' }, /cvv2/],
				[{ amount: '0.00' }, /greater than zero/],
			];
			for (const [over, msg] of bad) {
				const r = await c.sale(over);
				expect(r.data['error-code']).toBe(1);
				expect(r.data['error-message']).toMatch(msg);
			}
			const pay = await c.oauth('v2/payout/1001', { amount: '1.00', currency: 'USD' });
			expect(pay.data['error-message']).toBe("Field 'client_orderid' is required");
			const ret = await c.followUp('return', '1', 'x', { amount: '1.00' });
			expect(ret.data['error-message']).toMatch(/currency/);
			const upl = await c.control('upload-cres-result', 1001, {
				login: MERCHANT.login,
				'client-order-id': 'x',
				orderid: '1',
			});
			expect(upl.data['error-message']).toBe("Field 'cRes' is required");
		});
	});
});

describe('chat sink', () => {
	it('stores posted messages until a reset', async () => {
		const sandbox = await startSandbox({ port: 0, quiet: true });
		try {
			const post = await fetch(`${sandbox.url}/sandbox/sink`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ text: 'payout declined' }),
			});
			expect(post.status).toBe(200);
			const { messages } = await (await fetch(`${sandbox.url}/sandbox/sink`)).json();
			expect(messages).toEqual([{ at: expect.any(String), message: { text: 'payout declined' } }]);
			await fetch(`${sandbox.url}/sandbox/reset`, { method: 'POST' });
			expect((await (await fetch(`${sandbox.url}/sandbox/sink`)).json()).messages).toEqual([]);
		} finally {
			await sandbox.close();
		}
	});
});
