'use strict';
// Issue 30, findings 8 and 9, at the sandbox's own API (independent client, its own signing):
// - v4/status finds an order by client_orderid alone when it names one order (api_v4_status), refuses an
//   order it does not hold as the vendor's emulator does (HTTP 400, "Unknown order <orderid>."), and a
//   client_orderid that names several orders otherwise; it answers in the emulator's short shape or, with
//   option v4StatusReply 'documented', in the full status reply the page lists;
// - v4/payout-pay requires login, client_orderid and orderid (api_v4_payout-pay), the login the signer's;
// - the PAN eligibility checks take either spelling generation of the vendor's pages, whole, and refuse a
//   request that mixes them.
const { describe, it, expect, beforeAll, afterAll } = require('@jest/globals');
const { startSandbox } = require('../../sandbox');
const { Client, CARD, CARD2, MERCHANT } = require('../support/sandbox-client');

/** @type {Record<string, { sb: any, c: any }>} */
const sandboxes = {};
beforeAll(async () => {
	for (const shape of ['emulator', 'documented']) {
		const sb = await startSandbox({ port: 0, quiet: true, v4StatusReply: shape });
		sandboxes[shape] = { sb, c: new Client(sb) };
	}
});
afterAll(() => Promise.all(Object.values(sandboxes).map(({ sb }) => sb.close())));

const v4Status = (c, params) => c.oauth('v4/status/1001', { login: MERCHANT.login, ...params });

describe.each(['emulator', 'documented'])('v4/status by client_orderid alone (reply shape: %s)', (shape) => {
	it('finds the one order under that ID, as with its orderid', async () => {
		const { c } = sandboxes[shape];
		const sale = await c.sale();
		const cid = sale.params.client_orderid;
		const alone = await v4Status(c, { client_orderid: cid });
		const both = await v4Status(c, { client_orderid: cid, orderid: sale.orderid });
		expect(alone.status).toBe(200);
		expect(alone.data).toMatchObject({ status: 'approved', 'paynet-order-id': sale.orderid, 'merchant-order-id': cid });
		const withoutSerial = (reply) =>
			Object.fromEntries(Object.entries(reply).filter(([name]) => name !== 'serial-number'));
		expect(withoutSerial(alone.data)).toEqual(withoutSerial(both.data));
		if (shape === 'documented') {
			expect(alone.data).toMatchObject({ type: 'status-response', 'transaction-type': 'sale' });
			expect(alone.data['serial-number']).toEqual(expect.any(String));
		} else {
			expect(alone.data).not.toHaveProperty('type');
			expect(alone.data).not.toHaveProperty('serial-number');
		}
	});

	it('an unknown ID: HTTP 400, "Unknown order" with the orderid it was sent, as the emulator words it', async () => {
		const { c } = sandboxes[shape];
		const unknown = await v4Status(c, { client_orderid: c.cid('none') });
		expect(unknown.status).toBe(400);
		expect(unknown.data).toMatchObject({ 'error-message': 'Unknown order undefined.', 'error-code': 3 });
	});

	it('an ID that names orders on two endpoints, asked on a third: refused, never "Unknown order"', async () => {
		const { c } = sandboxes[shape];
		const cid = c.cid('twice');
		await c.sale({ client_orderid: cid });
		await c.sale({ client_orderid: cid, currency: 'JPY', amount: '1000' }, 'sale', 1003);
		const asked = await c.oauth('v4/status/1002', { login: MERCHANT.login, client_orderid: cid });
		expect(asked.status).toBe(400);
		expect(asked.data['error-message']).toBe(`client_orderid ${cid} names 2 orders: send orderid`);
		expect(asked.data['error-message']).not.toMatch(/Unknown order/);
		const found = await c.oauth('v4/status/1001', { login: MERCHANT.login, client_orderid: cid });
		expect(found.data).toMatchObject({ status: 'approved', currency: 'USD' });
	});

	it("another merchant's login in the body is refused", async () => {
		const { c } = sandboxes[shape];
		const sale = await c.sale();
		const foreign = await v4Status(c, { login: 'other-merchant', client_orderid: sale.params.client_orderid });
		expect(foreign.data['error-code']).toBe(2);
	});
});

describe('v4/payout-pay requires login, client_orderid and orderid (api_v4_payout-pay)', () => {
	it("refuses a pay without one of them or with a login not the signer's; pays once with all three", async () => {
		const { c } = sandboxes.emulator;
		const cid = c.cid('pay');
		const check = await c.oauth('v4/payout-check/1001', {
			client_orderid: cid,
			amount: '25.00',
			currency: 'USD',
			credit_card_number: CARD,
			expire_month: '12',
			expire_year: '2035',
		});
		const orderid = check.data['paynet-order-id'];
		const full = { login: MERCHANT.login, client_orderid: cid, orderid };
		const without = (name) => Object.fromEntries(Object.entries(full).filter(([field]) => field !== name));
		for (const name of ['login', 'orderid', 'client_orderid']) {
			const refused = await c.oauth('v4/payout-pay/1001', without(name));
			expect(refused.data['error-message']).toBe(`Field '${name}' is required`);
		}
		const foreign = await c.oauth('v4/payout-pay/1001', { ...full, login: 'other-merchant' });
		expect(foreign.data['error-code']).toBe(2);
		expect(await c.ledger(orderid)).toEqual([]);
		const paid = await c.oauth('v4/payout-pay/1001', full);
		expect(paid.data).toMatchObject({ type: 'async-response', 'paynet-order-id': orderid });
		expect((await c.ledger(orderid)).map((entry) => `${entry.kind}:${entry.amount}`)).toEqual(['payout:25.00']);
	});
});

describe('PAN eligibility: either spelling generation, whole; never a mix', () => {
	const HYPHENS = ['client-order-id', 'expire-month', 'expire-year', 'server-callback-url'];
	const UNDERSCORES = ['client_orderid', 'expire_month', 'expire_year', 'server_callback_url'];
	const CALLBACK = 'https://n8n.example.com/webhook/eligibility';

	/** A send check of a typed card, its four generation fields spelled as `names` says. */
	const request = (c, names) => ({
		[names[0]]: c.cid('pe'),
		'sending-card-number': CARD,
		'card-printed-name': 'A B',
		[names[1]]: '07',
		[names[2]]: '2031',
		[names[3]]: CALLBACK,
	});

	it.each([
		['hyphens', HYPHENS],
		['underscores', UNDERSCORES],
	])('%s: taken, and the expiry and callback URL read from them', async (_name, names) => {
		const { c } = sandboxes.emulator;
		const r = await c.oauth('v2/pan-eligibility/send/1001', request(c, names));
		expect(r.data).toMatchObject({ type: 'async-response' });
		const order = await c.order(r.data['paynet-order-id']);
		expect(order).toMatchObject({ kind: 'eligibility', status: 'approved' });
		expect(order.card).toMatchObject({ lastFour: '1111', expMonth: '07', expYear: '2031', holder: 'A B' });
		expect(order.urls.serverCallback).toBe(CALLBACK);
	});

	// Every request with the four fields spelled in one generation except one field in the other.
	const MIXES = [0, 1, 2, 3].flatMap((index) =>
		[HYPHENS, UNDERSCORES].map((names) => {
			const other = names === HYPHENS ? UNDERSCORES : HYPHENS;
			return names.map((name, position) => (position === index ? other[position] : name));
		}),
	);

	it(`refuses each of ${MIXES.length} mixes, and nothing changes`, async () => {
		const { c } = sandboxes.emulator;
		const before = await c.snapshot();
		for (const names of MIXES) {
			for (const path of ['send', 'both']) {
				const r = await c.oauth(`v2/pan-eligibility/${path}/1001`, {
					...request(c, names),
					...(path === 'both' ? { 'receiving-card-number': CARD2 } : {}),
				});
				expect(r.status).toBe(400);
				expect(r.data).toMatchObject({ type: 'validation-error', 'error-code': 1 });
				expect(r.data['error-message']).toMatch(/are of two spellings/);
			}
		}
		expect(await c.snapshot()).toBe(before);
	});
});
