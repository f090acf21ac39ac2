'use strict';
// Capture's `control` under both readings the sandbox offers (docs/sandbox.md, "what was guessed"),
// and return's own explicit rule, over real HTTP.
const { describe, it, expect, beforeAll, afterAll } = require('@jest/globals');
const { startSandbox } = require('../../sandbox');
const { Client, MERCHANT, sha1 } = require('../support/sandbox-client');

/** A sandbox per reading; each test gets an approved 10.00 USD preauth on it. */
function reading(captureControl) {
	const env = {};
	beforeAll(async () => {
		env.sb = await startSandbox({ port: 0, quiet: true, captureControl });
		env.c = new Client(env.sb);
	});
	afterAll(() => env.sb.close());
	env.preauth = async () => {
		const s = await env.c.sale({}, 'preauth');
		return { orderid: s.orderid, cid: s.params.client_orderid };
	};
	env.capture = (o, control, extra = {}) =>
		env.c.post('v2/capture/1001', {
			login: MERCHANT.login,
			client_orderid: o.cid,
			orderid: o.orderid,
			...extra,
			control,
		});
	return env;
}

const signed = (o, tail = '') => sha1(MERCHANT.login + o.cid + o.orderid + tail + MERCHANT.controlKey);

describe('capture, interface reading (default): amount and currency always signed', () => {
	const env = reading(undefined);

	it('a request with amount and currency signs them (what the node always sends)', async () => {
		const o = await env.preauth();
		const r = await env.capture(o, signed(o, '1000USD'), { amount: '10.00', currency: 'USD' });
		expect(r.data.type).toBe('async-response');
		expect((await env.c.order(o.orderid)).charged).toBe('10.00');
	});

	it('a request without them is signed with the order amount and currency (vendor PHP library); without is refused', async () => {
		const o = await env.preauth();
		expect((await env.capture(o, signed(o))).data).toMatchObject({ type: 'validation-error', 'error-code': 2 });
		expect((await env.c.order(o.orderid)).charged).toBe('0.00');
		expect((await env.capture(o, signed(o, '1000USD'))).data.type).toBe('async-response');
		expect((await env.c.order(o.orderid)).charged).toBe('10.00');
	});
});

describe('capture, "if sent" reading (captureControl: if-sent)', () => {
	const env = reading('if-sent');

	it('a request with amount and currency signs them; one without signs neither', async () => {
		const partial = await env.preauth();
		expect((await env.capture(partial, signed(partial), { amount: '4.00', currency: 'USD' })).data['error-code']).toBe(
			2,
		);
		expect((await env.capture(partial, signed(partial, '400USD'), { amount: '4.00', currency: 'USD' })).data.type).toBe(
			'async-response',
		);
		const full = await env.preauth();
		expect((await env.capture(full, signed(full, '1000USD'))).data['error-code']).toBe(2);
		expect((await env.capture(full, signed(full))).data.type).toBe('async-response');
		expect((await env.c.order(full.orderid)).charged).toBe('10.00');
	});

	it('refuses an unknown reading at start', async () => {
		await expect(startSandbox({ port: 0, quiet: true, captureControl: 'sometimes' })).rejects.toThrow(/captureControl/);
	});
});

describe('return (both readings): amount and currency signed only when sent; both omitted = full reversal', () => {
	const env = reading(undefined);

	it('a full return signs neither; a partial one signs both', async () => {
		const s = await env.c.sale();
		const o = { orderid: s.orderid, cid: s.params.client_orderid };
		const ret = (control, extra = {}) =>
			env.c.post('v2/return/1001', {
				login: MERCHANT.login,
				client_orderid: o.cid,
				orderid: o.orderid,
				...extra,
				control,
			});
		expect((await ret(signed(o, '250USD'), { amount: '2.50', currency: 'USD' })).data.type).toBe('async-response');
		expect((await ret(signed(o, '1000USD'))).data['error-code']).toBe(2);
		expect((await ret(signed(o))).data.type).toBe('async-response');
		expect((await env.c.ledger(o.orderid)).map((e) => [e.kind, e.amount])).toEqual([
			['sale', '10.00'],
			['return', '2.50'],
			['return', '7.50'],
		]);
	});
});
