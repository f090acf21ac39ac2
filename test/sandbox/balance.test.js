'use strict';
// get-balance (v2, OAuth HMAC-SHA1) by endpoint, merchant and manager login: computed from what the
// tests' own orders did to money, pending payouts in amount-buffer-hold, and "not enabled" per merchant.
const { describe, it, expect, beforeAll, afterAll } = require('@jest/globals');
const { startSandbox } = require('../../sandbox');
const { Client, MERCHANT, OTHER, CARD, parseLegacy } = require('../support/sandbox-client');

const MANAGER = { login: 'n8n-test-manager', controlKey: 'TEST-ONLY-MANAGER-KEY-3b9e61d4' };

let sb;
let c;
beforeAll(async () => {
	sb = await startSandbox({ port: 0, quiet: true });
	c = new Client(sb);
});
afterAll(() => sb.close());

const balance = (path, params = {}, merchant = MERCHANT, opts = {}) =>
	c.oauth(`v2/get-balance/${path}`, params, { method: 'HMAC-SHA1', merchant, ...opts });
const usd = async () => (await balance('1001')).data.balances[0];
const payout = (over = {}) =>
	c.oauth('v2/payout/1001', {
		client_orderid: c.cid('po'),
		amount: '100.00',
		currency: 'USD',
		credit_card_number: CARD,
		expire_month: '12',
		expire_year: '2035',
		...over,
	});

describe('get-balance', () => {
	it('per endpoint: the opening balance, then sales in, returns and payouts out', async () => {
		expect(await usd()).toEqual({
			name: 'n8n-test-merchant-USD',
			amount: '10000.00',
			'online-balance-live-amount': '10000.00',
			'total-short-term-hold-amount': '0.00',
			'total-rolling-reserve-amount': '0.00',
			currency: 'USD',
			'amount-buffer-hold': '0.00',
		});
		const sale = await c.sale({ amount: '50.00' });
		await c.followUp('return', sale.orderid, sale.params.client_orderid, { amount: '20.00', currency: 'USD' });
		await c.sale({ amount: '99.00', cvv2: '116' }); // declined: no money
		await c.sale({ amount: '30.00' }, 'preauth'); // a hold is not money in
		expect((await payout({ amount: '5.50' })).data.type).toBe('async-response');
		expect((await usd()).amount).toBe('10024.50');
	});

	it('a payout without a final status is counted in amount-buffer-hold, not yet in amount', async () => {
		const before = await usd();
		await c.admin('POST', 'faults', { kind: 'stay-processing', op: 'payout' });
		const pending = await payout({ amount: '40.00' });
		expect(await usd()).toMatchObject({ amount: before.amount, 'amount-buffer-hold': '40.00' });
		await c.admin('POST', `orders/${pending.data['paynet-order-id']}/finalize`, { status: 'approved' });
		expect(await usd()).toMatchObject({
			amount: (Number(before.amount) - 40).toFixed(2),
			'amount-buffer-hold': '0.00',
		});
	});

	it('per merchant: one balance per currency, or the one balance-name names; the legacy reply repeats the fields', async () => {
		const all = await balance(`merchant/${MERCHANT.login}`);
		expect(all.data.balances.map((b) => b.name)).toEqual([
			'n8n-test-merchant-USD',
			'n8n-test-merchant-EUR',
			'n8n-test-merchant-JPY',
		]);
		expect(all.data.balances[2]).toMatchObject({ amount: '1000000', currency: 'JPY' });
		const one = await balance(`merchant/${MERCHANT.login}`, { 'balance-name': 'n8n-test-merchant-EUR' });
		expect(one.data.balances).toEqual([expect.objectContaining({ name: 'n8n-test-merchant-EUR', amount: '10000.00' })]);
		const legacy = await balance(`merchant/${MERCHANT.login}`, {}, MERCHANT, { json: false });
		expect(legacy.text.match(/(^|&)name=/g)).toHaveLength(3);
		expect(parseLegacy(legacy.text)).toMatchObject({ type: 'get-balance-response' });
		const unknown = await balance(`merchant/${MERCHANT.login}`, { 'balance-name': 'nope' });
		expect(unknown.data).toMatchObject({ type: 'validation-error', 'error-code': 3 });
	});

	it('per manager: the balances of every merchant it oversees, each with its merchantLogin', async () => {
		const r = await balance(`manager/${MANAGER.login}`, {}, MANAGER);
		expect(r.data.balances.map((b) => `${b.merchantLogin}:${b.currency}`)).toEqual([
			'n8n-test-merchant:USD',
			'n8n-test-merchant:EUR',
			'n8n-test-merchant:JPY',
			'other-merchant:USD',
		]);
	});

	it('refuses a wrong signature, another merchant, another login in the URL', async () => {
		expect((await balance('1001', {}, MERCHANT, { tamper: true })).status).toBe(403);
		expect((await balance('1001', {}, OTHER)).data).toMatchObject({ 'error-code': 2 });
		expect((await balance(`merchant/${OTHER.login}`)).data).toMatchObject({ 'error-code': 2 });
		expect((await balance(`manager/${MANAGER.login}`)).status).toBe(403); // signed by the merchant
		expect((await balance('merchant/nobody')).data).toMatchObject({ 'error-code': 2 });
	});

	it('an admin adjustment moves the balance; reset forgets it', async () => {
		const before = Number((await usd()).amount);
		const adjusted = await c.admin('POST', 'balance-adjustments', {
			merchant: MERCHANT.login,
			currency: 'USD',
			amount: '-1000.00',
		});
		expect(adjusted).toMatchObject({ status: 201, data: { amount: (before - 1000).toFixed(2) } });
		expect(
			(await c.admin('POST', 'balance-adjustments', { merchant: MERCHANT.login, currency: 'GBP', amount: '1' })).status,
		).toBe(400);
		await c.admin('POST', 'reset');
		expect((await usd()).amount).toBe('10000.00');
	});
});

describe('get-balance not enabled', () => {
	let off;
	let client;
	beforeAll(async () => {
		off = await startSandbox({ port: 0, quiet: true, balanceEnabled: ['other-merchant'] });
		client = new Client(off);
	});
	afterAll(() => off.close());

	it('answers as the docs tell: support enables it per merchant', async () => {
		const r = await client.oauth('v2/get-balance/1001', {}, { method: 'HMAC-SHA1' });
		expect(r.data).toMatchObject({
			type: 'validation-error',
			'error-code': 6,
			'error-message': expect.stringMatching(/^Get balance is not enabled for merchant n8n-test-merchant/),
		});
		const other = await client.oauth('v2/get-balance/3001', {}, { method: 'HMAC-SHA1', merchant: OTHER });
		expect(other.data.balances[0]).toMatchObject({ name: 'other-merchant-USD', amount: '0.00' });
		const manager = await client.oauth(
			`v2/get-balance/manager/${MANAGER.login}`,
			{},
			{ method: 'HMAC-SHA1', merchant: MANAGER },
		);
		expect(manager.data['error-code']).toBe(6);
	});
});
