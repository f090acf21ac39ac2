// The v4 JSON API's untyped replies: the status reply as the vendor's emulator sends it
// (payneteasy/hosted-fields-examples e2e-tests/src/emulator/gateway.ts, see docs/sandbox.md), the
// sale reply, and the refusals. An untyped reply with a status counts only when it is about the
// order the request named: nothing else in it says it comes from the gateway.
import { STATUS_QUERIES } from '../../nodes/shared/protocol/catalogue';
import {
	classifyReply,
	isOrderNotFound,
	notAGatewayReply,
	parseGatewayReply,
	refusalSaysNoSuchOrder,
	type ReplyExpectation,
} from '../../nodes/shared/protocol/reply';

const JSON_TYPE = 'application/vnd.pay+json; charset=utf-8';
const ASKED: ReplyExpectation = { clientOrderId: 'hf-order-1', orderId: '4823190' };
const json = (body: object, httpStatus = 200, contentType = JSON_TYPE) =>
	parseGatewayReply(httpStatus, contentType, JSON.stringify(body));

/** The emulator's common part of a status reply: paynet-order-id a string, the sale's amount, the card. */
const COMMON = {
	'paynet-order-id': '4823190',
	'merchant-order-id': 'hf-order-1',
	amount: '12.34',
	currency: 'USD',
	'card-type': 'VISA',
	'last-four-digits': '4448',
	'cardholder-name': 'JANE ROE',
};
const APPROVED = {
	...COMMON,
	status: 'approved',
	'approval-code': '831000',
	'processor-rrn': 'rrn-4823190',
	bank_message: 'Approved',
};
const PROCESSING = { ...COMMON, status: 'processing', 'redirect-to': 'http://127.0.0.1:4010/acs?order=4823190' };
const DECLINED = {
	...COMMON,
	status: 'declined',
	'error-message': 'The issuing bank declined the payment.',
	'error-code': 3,
};

describe("the v4 status reply of the vendor's emulator (untyped JSON, no serial-number)", () => {
	it.each([
		['approved', APPROVED],
		['processing with redirect-to (3-D Secure)', PROCESSING],
		['declined', DECLINED],
	])('%s: a gateway reply about the requested order, not a failure', (_name, body) => {
		const reply = json(body);
		expect(reply.format).toBe('json');
		expect(notAGatewayReply(reply, ASKED)).toBeUndefined();
		expect(classifyReply(reply)).toBeUndefined();
		expect(reply.fields.status).toBe(body.status);
	});

	it('reads a numeric paynet-order-id as its digits', () => {
		expect(notAGatewayReply(json({ ...APPROVED, 'paynet-order-id': 4823190 }), ASKED)).toBeUndefined();
		expect(notAGatewayReply(json({ ...APPROVED, 'paynet-order-id': '04823190' }), ASKED)).toContain(
			'another gateway order',
		);
	});

	it('an unknown order is HTTP 400 with an untyped error-message: a refusal, and "no such order"', () => {
		const reply = json({ 'error-message': 'Unknown order 4823190.' }, 400);
		expect(notAGatewayReply(reply, ASKED)).toBeUndefined();
		expect(classifyReply(reply)).toMatchObject({
			kind: 'validation',
			message: 'Unknown order 4823190.',
			httpStatus: 400,
		});
		expect(isOrderNotFound(reply)).toBe(true);
		const login = json({ 'error-message': 'Unknown login someone-else.' }, 400);
		expect(notAGatewayReply(login, ASKED)).toBeUndefined();
		expect(classifyReply(login)).toMatchObject({ kind: 'validation', message: 'Unknown login someone-else.' });
		expect(isOrderNotFound(login)).toBe(false);
	});

	it('the typed status reply (v2 shape) is still accepted', () => {
		const reply = json({
			type: 'status-response',
			'serial-number': '00000000-0000-0000-0000-000000000001',
			...APPROVED,
		});
		expect(notAGatewayReply(reply, ASKED)).toBeUndefined();
	});
});

describe('an untyped reply with a status that is not about the requested order is not a gateway reply', () => {
	it('a proxy\'s or health check\'s JSON {"status":"approved"}', () => {
		expect(notAGatewayReply(json({ status: 'approved' }), ASKED)).toMatch(/does not name the merchant order ID/);
		expect(notAGatewayReply(json({ status: 'approved', message: 'OK' }), {})).toMatch(/named no order/);
		expect(
			notAGatewayReply(json({ status: 'ok', 'merchant-order-id': 'hf-order-1', 'paynet-order-id': '4823190' }), ASKED),
		).toMatch(/status "ok"/);
	});

	it("another order's IDs, either of them", () => {
		expect(notAGatewayReply(json({ ...APPROVED, 'merchant-order-id': 'someone-elses' }), ASKED)).toMatch(
			/another merchant order \("someone-elses"\)/,
		);
		expect(notAGatewayReply(json({ ...APPROVED, 'paynet-order-id': '999' }), ASKED)).toMatch(/another gateway order/);
		expect(notAGatewayReply(json({ ...DECLINED, 'merchant-order-id': 'x', 'paynet-order-id': '1' }), ASKED)).toMatch(
			/another/,
		);
	});

	it('a reply missing one of the IDs the request sent', () => {
		const without = (name: string) => Object.fromEntries(Object.entries(APPROVED).filter(([key]) => key !== name));
		const withoutMerchant = without('merchant-order-id');
		const withoutGateway = without('paynet-order-id');
		expect(notAGatewayReply(json(withoutMerchant), ASKED)).toMatch(/does not name the merchant order ID/);
		expect(notAGatewayReply(json(withoutGateway), ASKED)).toMatch(/does not name the gateway order ID/);
		expect(notAGatewayReply(json({ ...APPROVED, 'merchant-order-id': '', 'paynet-order-id': '' }), ASKED)).toMatch(
			/does not name/,
		);
		// a serial number does not make up for a missing ID when the reply carries a status
		expect(notAGatewayReply(json({ ...withoutMerchant, 'serial-number': 'sn-1' }), ASKED)).toMatch(
			/does not name the merchant order ID/,
		);
	});

	it('a reply naming the order twice, once as another', () => {
		expect(notAGatewayReply(json({ ...APPROVED, client_orderid: 'someone-elses' }), ASKED)).toMatch(
			/another merchant order/,
		);
		expect(notAGatewayReply(json({ ...APPROVED, orderid: '1' }), ASKED)).toMatch(/another gateway order/);
	});

	it('the same fields not as JSON, or not with HTTP 200', () => {
		const legacy = parseGatewayReply(
			200,
			'text/plain',
			'status=approved\n&merchant-order-id=hf-order-1\n&paynet-order-id=4823190\n',
		);
		expect(legacy.format).toBe('legacy');
		expect(notAGatewayReply(legacy, ASKED)).toMatch(/not JSON/);
		expect(notAGatewayReply(json(APPROVED, 202), ASKED)).toMatch(/not a gateway reply \(HTTP 202\)/);
		expect(notAGatewayReply(json(APPROVED, 302), ASKED)).toMatch(/redirect/);
	});
});

describe('the v4 sale reply (untyped, serial-number, paynet-order-id a number) is still accepted', () => {
	const SALE = { 'paynet-order-id': 4823190, 'merchant-order-id': 'hf-order-1', 'serial-number': 'sn-4823190' };

	it('for the order the sale named', () => {
		expect(notAGatewayReply(json(SALE), { clientOrderId: 'hf-order-1' })).toBeUndefined();
		expect(notAGatewayReply(json({ ...SALE, 'merchant-order-id': 'other' }), { clientOrderId: 'hf-order-1' })).toMatch(
			/another order/,
		);
		expect(notAGatewayReply(json({ 'serial-number': 'sn-1' }), { clientOrderId: 'hf-order-1' })).toMatch(
			/not a gateway reply/,
		);
	});

	it('with a status, when it names the merchant order and a gateway order', () => {
		expect(notAGatewayReply(json({ ...SALE, status: 'processing' }), { clientOrderId: 'hf-order-1' })).toBeUndefined();
		expect(
			notAGatewayReply(json({ 'serial-number': 'sn-1', 'merchant-order-id': 'hf-order-1', status: 'processing' }), {
				clientOrderId: 'hf-order-1',
			}),
		).toMatch(/does not name the gateway order ID/);
	});

	it('its refusal: HTTP 400 with an untyped error-message', () => {
		const refusal = json({ 'error-message': 'Unknown or already spent hosted_fields_token.' }, 400);
		expect(notAGatewayReply(refusal, { clientOrderId: 'hf-order-1' })).toBeUndefined();
		expect(classifyReply(refusal)).toMatchObject({ kind: 'validation' });
	});
});

// Issue 30, finding 8: which refusal of a status query means "no such order" is declared once, per status
// query (catalogue.ts STATUS_QUERIES). The V4 status: the vendor emulator's HTTP 400 "Unknown order <orderid>."
// (with "undefined" when asked by the merchant order ID alone). The v2 status declares none.
describe('"no such order" as the status queries declare it', () => {
	const v4 = STATUS_QUERIES.statusV4.noSuchOrderRefusal;
	const refusal = (message: string, httpStatus = 400, extra: object = {}) =>
		json({ 'error-message': message, ...extra }, httpStatus);

	it.each([
		['asked by the merchant order ID alone', refusal('Unknown order undefined.'), undefined],
		['asked with the gateway order ID', refusal('Unknown order 4823190.'), '4823190'],
		[
			"the sandbox's typed form",
			refusal('Unknown order undefined.', 400, { type: 'validation-error', 'serial-number': 'sn-1', 'error-code': 3 }),
			undefined,
		],
	])('%s: no such order', (_name, reply, asked) => {
		expect(refusalSaysNoSuchOrder(reply, v4, asked)).toBe(true);
	});

	it.each([
		['another gateway order named', refusal('Unknown order 1.'), '4823190'],
		['an unknown login', refusal('Unknown login someone-else.'), undefined],
		['other words for it', refusal('Order not found'), undefined],
		['a refusal naming something else', refusal('Unknown order type sale-x for endpoint'), undefined],
		['the words with HTTP 404', refusal('Unknown order undefined.', 404), undefined],
		['the words with HTTP 409', refusal('Unknown order undefined.', 409), undefined],
		['the words with HTTP 500', refusal('Unknown order undefined.', 500), undefined],
		['the words with HTTP 200', refusal('Unknown order undefined.', 200), undefined],
	])('%s: not "no such order"', (_name, reply, asked) => {
		expect(refusalSaysNoSuchOrder(reply, v4, asked)).toBe(false);
	});

	it('the v2 status declares no such refusal: none of them reads as "no such order" there', () => {
		expect(STATUS_QUERIES.status.noSuchOrderRefusal).toBeUndefined();
		expect(refusalSaysNoSuchOrder(refusal('Unknown order undefined.'), STATUS_QUERIES.status.noSuchOrderRefusal)).toBe(
			false,
		);
	});
});
