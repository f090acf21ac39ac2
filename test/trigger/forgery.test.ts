// Forged callbacks built from genuine ones (issue #13, items 1, 8, 9, 12): a valid control covers only
// status, orderid and merchant order, so every other field may be forged. No item that disagrees
// with the gateway may carry confirmed: true; IDs must equal the signed values exactly.
import {
	CallbackReceiver,
	ENDPOINT,
	MERCHANT,
	MERCHANT_KEY,
	callbackControl,
	credentialsFor,
	formPost,
	getRequest,
	openSandbox,
	parameters,
	postForm,
	refund,
	runSale,
	sha1,
	trigger,
	type CapturedCallback,
	type Sandbox,
} from '../support/trigger';
import { isFollowUpTransactionType } from '../../nodes/shared/protocol/vocabulary';

let sandbox: Sandbox;
const receiver = new CallbackReceiver();
const genuine: Record<string, CapturedCallback> = {};

const post = async (command: string, fields: Record<string, string>) =>
	(await postForm(`${sandbox.url}/paynet/api/v2/${command}/${ENDPOINT}`, fields)).json;

/** A preauth of 20.00 reported to notify_url, then captured: the genuine preauth and capture callbacks. */
async function preauthAndCapture(): Promise<void> {
	const { clientOrderId, orderid } = await runSale(sandbox, {
		amount: '20.00',
		notifyUrl: receiver.url,
		command: 'preauth',
	});
	[genuine.preauth] = await receiver.waitFor(orderid, 1);
	await post('capture', {
		login: MERCHANT,
		client_orderid: clientOrderId,
		orderid,
		amount: '20.00',
		currency: 'USD',
		control: sha1(`${MERCHANT}${clientOrderId}${orderid}2000USD${MERCHANT_KEY}`),
	});
	genuine.capture = (await receiver.waitFor(orderid, 2))[1];
}

beforeAll(async () => {
	sandbox = await openSandbox();
	await receiver.start();
	const sale = await runSale(sandbox, { amount: '10.50', serverCallbackUrl: receiver.url });
	[genuine.refundedSale] = await receiver.waitFor(sale.orderid, 1);
	await refund(sandbox, sale, '10.50');
	const open = await runSale(sandbox, { amount: '12.00', serverCallbackUrl: receiver.url });
	[genuine.sale] = await receiver.waitFor(open.orderid, 1);
	await preauthAndCapture();
});

afterAll(async () => {
	await sandbox?.close();
	await receiver.close();
});

const MODES = {
	emitOnly: { confirm: 'emitOnlyWhenConfirmed', confirmTimeout: 5 },
	withFlag: { confirm: 'emitWithConfirmedFlag', confirmTimeout: 5 },
};
const run = (query: Record<string, string>, mode: Record<string, unknown>, request = getRequest(query)) =>
	trigger({ parameters: parameters(mode as never), credentials: credentialsFor(sandbox.url), request });

const without = (query: Record<string, string>, name: string) =>
	Object.fromEntries(Object.entries(query).filter(([key]) => key !== name));

/** Forgeries of a genuine callback that keep its valid control. */
const FORGERIES: Array<[string, (query: Record<string, string>) => Record<string, string>]> = [
	[
		'type removed, transaction-type=sale, amount 9999.00 (the reported attack)',
		(q) => ({ ...without(q, 'type'), 'transaction-type': 'sale', amount: '9999.00' }),
	],
	['type removed, transaction_type=sale', (q) => ({ ...without(q, 'type'), transaction_type: 'sale' })],
	['type removed', (q) => without(q, 'type')],
	['type changed to sale, amount raised', (q) => ({ ...q, type: 'sale', amount: '9999.00' })],
	['amount raised', (q) => ({ ...q, amount: '9999.00' })],
	['currency changed', (q) => ({ ...q, currency: 'EUR' })],
	['approval code forged', (q) => ({ ...q, 'approval-code': 'FORGED1' })],
	['card type forged', (q) => ({ ...q, 'card-type': 'MASTERCARD' })],
];

describe('item 1: a forged callback is never confirmed', () => {
	// Respelling the type of an open sale's own callback as "sale" changes nothing the item reports: not a forgery.
	const cases = (['refundedSale', 'sale', 'preauth', 'capture'] as const)
		.flatMap((source) => FORGERIES.map(([name, forge]) => [source, name, forge] as const))
		.filter(([source, name]) => !(source === 'sale' && name === 'type removed, transaction_type=sale'));

	it.each(cases)('from the genuine %s callback: %s', async (source, name, forge) => {
		const forged = forge(genuine[source].query);
		const flagged = await run(forged, MODES.withFlag);
		expect(flagged.status).toBe(200);
		expect(flagged.items).toHaveLength(1);
		const emitOnly = await run(forged, MODES.emitOnly);
		expect(emitOnly.status).toBe(200);
		if (name === 'amount raised' && isFollowUpTransactionType(genuine[source].query.type)) {
			// A follow-up's own amount is not in the status reply (issue 23, item 2): the follow-up is
			// confirmed by status and type, and the confirmed item reports no amount at all.
			for (const item of [flagged.items[0], emitOnly.items[0]]) {
				expect(item).toMatchObject({ confirmed: true, confirmation: { unchecked: ['amount'] } });
				expect(item).not.toHaveProperty('amount');
			}
			return;
		}
		expect(flagged.items[0].confirmed).toBe(false);
		expect(emitOnly.items).toEqual([]);
	});

	it('the genuine callback of an order that has not moved on is confirmed', async () => {
		const result = await run(genuine.sale.query, MODES.emitOnly);
		expect(result.items).toHaveLength(1);
		expect(result.items[0]).toMatchObject({ confirmed: true, type: 'sale', amount: '12.00' });
	});

	it('the genuine callback of a preauth that was captured since is not: the order has a later transaction', async () => {
		const result = await run(genuine.preauth.query, MODES.withFlag);
		expect(result.items[0]).toMatchObject({ confirmed: false, type: 'preauth' });
	});

	it('two spellings of the type that disagree are refused unread (HTTP 400)', async () => {
		const result = await run({ ...genuine.sale.query, 'transaction-type': 'reversal' }, MODES.withFlag);
		expect(result.status).toBe(400);
		expect(result.items).toEqual([]);
	});
});

describe('item 12: every ID the item reports is exactly the signed value', () => {
	it.each([
		[
			'client_orderid with a trailing space',
			(q: Record<string, string>) => ({ ...q, client_orderid: `${q.merchant_order} ` }),
		],
		[
			'client_orderid with a leading space',
			(q: Record<string, string>) => ({ ...q, client_orderid: ` ${q.merchant_order}` }),
		],
		[
			'merchant-order-id in another case',
			(q: Record<string, string>) => ({ ...q, 'merchant-order-id': q.merchant_order.toUpperCase() }),
		],
		[
			'paynet-order-id with a trailing space',
			(q: Record<string, string>) => ({ ...q, 'paynet-order-id': `${q.orderid} ` }),
		],
		[
			'paynet-order-id with a leading zero',
			(q: Record<string, string>) => ({ ...q, 'paynet-order-id': `0${q.orderid}` }),
		],
	])('%s: 403', async (_name, forge) => {
		const result = await run(forge(genuine.sale.query), { confirm: 'off' });
		expect(result.status).toBe(403);
		expect(result.items).toEqual([]);
	});
});

describe('items 8 and 9: unreadable requests and card data in signed callbacks', () => {
	it('a multipart POST is refused unread (HTTP 400) and starts nothing', async () => {
		const result = await run(genuine.sale.query, { confirm: 'off' }, {
			method: 'POST',
			headers: { 'content-type': 'multipart/form-data; boundary=x' },
			body: { data: genuine.sale.query },
			rawBody: undefined,
		} as never);
		expect(result.status).toBe(400);
		expect(result.items).toEqual([]);
	});

	const spellings = [
		'4444555566661111',
		'4444-5555-6666-1111',
		'ref4444555566661111x',
		'pan_4444555566661111',
		'4444.5555.6666.1111',
		'4444/5555/6666/1111',
		'4444\u00a05555\u00a06666\u00a01111',
		'4444  5555  6666  1111',
		'44445555 66661111',
		'４４４４５５５５６６６６１１１１',
	];

	it.each(spellings)('a signed callback carrying %j anywhere is emitted without it', async (spelling) => {
		const orderid = '900001';
		const merchantOrder = `pan-${spelling.length}`;
		const query = {
			status: 'approved',
			orderid,
			merchant_order: merchantOrder,
			client_orderid: merchantOrder,
			type: 'sale',
			amount: '1.00',
			descriptor: `SHOP ${spelling}`,
			comment: spelling,
			card_cvv: '737',
			'security-code': '737',
			control: callbackControl('approved', orderid, merchantOrder, MERCHANT_KEY),
		};
		for (const request of [getRequest(query), formPost(query)]) {
			const result = await run(query, { confirm: 'off' }, request);
			expect(result.items).toHaveLength(1);
			const text = JSON.stringify(result.items[0]);
			expect(text).not.toContain('737');
			const digits = text.normalize('NFKC').replace(/[^0-9]/g, '');
			expect(digits).not.toContain('4444555566661111');
			expect(text).toContain('1111');
		}
	});
});
