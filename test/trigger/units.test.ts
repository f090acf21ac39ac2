// Pure parts of the trigger: reading requests, verifying, normalising, filtering and judging the
// status-query confirmation. Expected controls are computed independently (node:crypto sha1 over the
// documented concatenation) and one against the published C2 vector.
import { createHash } from 'node:crypto';

import { claimOf, clampTimeout, interpretStatusOutcome } from '../../nodes/CardGatewayTrigger/confirm';
import { sameAmount } from '../../nodes/shared/protocol/amount';
import { readCallbackFields, REQUEST_LIMITS } from '../../nodes/CardGatewayTrigger/fields';
import { passesFilters } from '../../nodes/CardGatewayTrigger/filters';
import { logSummary, normaliseCallback, safeBin, safeLastFour } from '../../nodes/CardGatewayTrigger/normalise';
import { canonicalType, kindOf, typeKey } from '../../nodes/CardGatewayTrigger/transactionTypes';
import { effectivePort, redirectTarget } from '../../nodes/CardGatewayTrigger/respond';
import { verifyCallback } from '../../nodes/CardGatewayTrigger/verify';
import type { GatewayOutcome } from '../../nodes/shared/transport';

const KEY = 'unit-test-control-key';
const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

const base = { status: 'approved', orderid: '314201', merchant_order: '905', client_orderid: '905' };
const signed = { ...base, control: sha1(`approved314201905${KEY}`) };

describe('verifyCallback', () => {
	it('accepts the published C2 vector (hosted-fields callback test)', () => {
		const fields = {
			status: 'approved',
			orderid: '1234567',
			merchant_order: 'hf-abc',
			control: '652ace404c4dfe8bba069ecee594ec23a89340e1',
		};
		expect(verifyCallback(fields, 'test-merchant-control')).toEqual({ genuine: true });
	});

	it('accepts a genuine control, in lower or upper case', () => {
		expect(verifyCallback(signed, KEY)).toEqual({ genuine: true });
		expect(verifyCallback({ ...signed, control: signed.control.toUpperCase() }, KEY)).toEqual({ genuine: true });
	});

	it('falls back to client_orderid when merchant_order is absent', () => {
		const { merchant_order: _unused, ...withoutMerchantOrder } = signed;
		void _unused;
		expect(verifyCallback(withoutMerchantOrder, KEY)).toEqual({ genuine: true });
	});

	it('names why a control is refused', () => {
		expect(verifyCallback(base, KEY)).toEqual({ genuine: false, reason: 'noSignature' });
		expect(verifyCallback({ ...signed, control: '   ' }, KEY)).toEqual({ genuine: false, reason: 'noSignature' });
		expect(verifyCallback({ ...signed, control: signed.control.slice(0, 39) }, KEY)).toEqual({
			genuine: false,
			reason: 'malformedSignature',
		});
		expect(verifyCallback({ ...signed, control: `${signed.control}0` }, KEY)).toEqual({
			genuine: false,
			reason: 'malformedSignature',
		});
		expect(verifyCallback({ ...signed, control: 'z'.repeat(40) }, KEY)).toEqual({
			genuine: false,
			reason: 'malformedSignature',
		});
		expect(verifyCallback(signed, '')).toEqual({ genuine: false, reason: 'noControlKey' });
		expect(verifyCallback(signed, undefined)).toEqual({ genuine: false, reason: 'noControlKey' });
		expect(verifyCallback(signed, 'another-key')).toEqual({ genuine: false, reason: 'signatureMismatch' });
	});

	it('refuses a changed status, orderid or merchant order, but not a changed amount or type', () => {
		expect(verifyCallback({ ...signed, status: 'declined' }, KEY).genuine).toBe(false);
		expect(verifyCallback({ ...signed, orderid: '314202' }, KEY).genuine).toBe(false);
		expect(verifyCallback({ ...signed, merchant_order: '906' }, KEY).genuine).toBe(false);
		expect(verifyCallback({ ...signed, amount: '9999.00', type: 'reversal' }, KEY).genuine).toBe(true);
	});
});

describe('readCallbackFields', () => {
	it('reads a GET query', () => {
		expect(readCallbackFields({ method: 'GET', query: { status: 'approved', orderid: '1' } })).toEqual({
			ok: true,
			source: 'query',
			fields: { status: 'approved', orderid: '1' },
		});
	});

	it('reads a parsed form body, or the raw body when n8n did not parse it', () => {
		const raw = 'status=approved&orderid=1&error_message=Insufficient+funds';
		const expected = { status: 'approved', orderid: '1', error_message: 'Insufficient funds' };
		expect(
			readCallbackFields({
				method: 'POST',
				body: expected,
				rawBody: raw,
				contentType: 'application/x-www-form-urlencoded',
			}),
		).toMatchObject({ ok: true, fields: expected, source: 'form' });
		expect(
			readCallbackFields({
				method: 'POST',
				body: {},
				rawBody: Buffer.from(raw),
				contentType: 'application/x-www-form-urlencoded',
			}),
		).toMatchObject({ ok: true, fields: expected, source: 'form' });
		expect(readCallbackFields({ method: 'POST', body: raw, contentType: 'text/plain' })).toMatchObject({
			ok: true,
			fields: expected,
		});
	});

	it('reads JSON (numbers become strings) and parses a raw JSON body', () => {
		expect(
			readCallbackFields({
				method: 'POST',
				body: { status: 'approved', amount: 10.5 },
				contentType: 'application/json',
			}),
		).toEqual({
			ok: true,
			source: 'json',
			fields: { status: 'approved', amount: '10.5' },
		});
		expect(
			readCallbackFields({
				method: 'POST',
				body: {},
				rawBody: '{"status":"declined"}',
				contentType: 'application/json; charset=utf-8',
			}),
		).toEqual({
			ok: true,
			source: 'json',
			fields: { status: 'declined' },
		});
	});

	it('uses the query string of a POST whose body is empty', () => {
		expect(readCallbackFields({ method: 'POST', body: {}, rawBody: '', query: { status: 'approved' } })).toMatchObject({
			ok: true,
			source: 'query',
		});
	});

	it.each([
		['GET without parameters', { method: 'GET', query: {} }, 'no parameters'],
		['POST without a body', { method: 'POST', body: {}, rawBody: '' }, 'no parameters'],
		[
			'unparseable JSON',
			{ method: 'POST', body: {}, rawBody: '{"status":', contentType: 'application/json' },
			'not valid JSON',
		],
		['a JSON array', { method: 'POST', body: {}, rawBody: '[1,2]', contentType: 'application/json' }, 'not an object'],
		['a repeated query parameter', { method: 'GET', query: { status: ['approved', 'declined'] } }, 'repeated'],
		['a repeated form parameter', { method: 'POST', body: {}, rawBody: 'status=approved&status=declined' }, 'repeated'],
		[
			'a nested parameter',
			{ method: 'POST', body: { status: { $ne: 'x' } }, contentType: 'application/json' },
			'nested',
		],
		['an odd parameter name', { method: 'GET', query: { 'status<script>': 'x' } }, 'not acceptable'],
		[
			'a very long value',
			{ method: 'GET', query: { status: 'a'.repeat(REQUEST_LIMITS.maxValueLength + 1) } },
			'longer than',
		],
		[
			'too many parameters',
			{ method: 'GET', query: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, 'x'])) },
			'101 parameters',
		],
		[
			'an oversized body',
			{ method: 'POST', body: {}, rawBody: Buffer.alloc(REQUEST_LIMITS.maxBodyBytes + 1, 'a') },
			'larger than',
		],
	])('refuses %s', (_name, request, reason) => {
		const outcome = readCallbackFields(request as never);
		expect(outcome.ok).toBe(false);
		expect(outcome.ok ? '' : outcome.reason).toContain(reason);
	});

	it('never lets a "__proto__" parameter reach the prototype', () => {
		const outcome = readCallbackFields({ method: 'POST', body: {}, rawBody: '__proto__=x&status=approved' });
		expect(outcome.ok).toBe(true);
		const fields = outcome.ok ? outcome.fields : {};
		expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);
		expect(({} as Record<string, unknown>).x).toBeUndefined();
	});
});

describe('normaliseCallback', () => {
	const real = {
		status: 'approved',
		type: 'preauth',
		orderid: '314201',
		merchant_order: '905',
		client_orderid: '905',
		amount: '10.50',
		currency: 'USD',
		bin: '444455',
		'last-four-digits': '1111',
		'card-type': 'VISA',
		'approval-code': 'A1B2',
		descriptor: 'GARAN24 - 3ds',
		'processor-tx-id': 'PNTEST-314201',
		error_code: '',
		error_message: '',
		control: sha1(`approved314201905${KEY}`),
	};

	it('maps the gateway names to the item fields and keeps the masked raw map', () => {
		const item = normaliseCallback(real, {
			event: 'serverCallback',
			method: 'get',
			receivedAt: '2026-11-21T10:00:00.000Z',
			verified: true,
			secrets: [KEY],
		});
		expect(item).toEqual({
			event: 'serverCallback',
			status: 'approved',
			type: 'preauth',
			kind: 'hold',
			orderid: '314201',
			client_orderid: '905',
			amount: '10.50',
			currency: 'USD',
			errorCode: '',
			errorMessage: '',
			approvalCode: 'A1B2',
			descriptor: 'GARAN24 - 3ds',
			processorTxId: 'PNTEST-314201',
			cardType: 'VISA',
			bin: '444455',
			lastFourDigits: '1111',
			eventKey: '314201:approved:preauth',
			eventKeyConfirmed: false,
			amountConfirmed: false,
			verified: true,
			method: 'GET',
			receivedAt: '2026-11-21T10:00:00.000Z',
			raw: real,
		});
	});

	it('falls back to merchant_order, lower-cases status, spells the type once, omits absent optional fields', () => {
		const item = normaliseCallback(
			{ status: ' Declined', type: 'Sale', orderid: '7', merchant_order: 'm-7', control: 'x' },
			{ event: 'customerReturn', method: 'POST', receivedAt: 't', verified: false, secrets: [] },
		);
		expect(item).toEqual({
			event: 'customerReturn',
			status: 'declined',
			type: 'sale',
			kind: 'payment',
			orderid: '7',
			client_orderid: 'm-7',
			eventKey: '7:declined:customer-return',
			eventKeyConfirmed: false,
			amountConfirmed: false,
			verified: false,
			method: 'POST',
			receivedAt: 't',
			raw: { status: ' Declined', type: 'Sale', orderid: '7', merchant_order: 'm-7', control: 'x' },
		});
	});

	it('never carries a full card number or the control key', () => {
		const hostile = {
			...real,
			bin: '4444555566661111',
			'last-four-digits': '4444555566661111',
			credit_card_number: '4444555566661111',
			error_message: `Card 4444 5555 6666 1111 refused, key ${KEY}`,
			cvv2: '123',
		};
		const item = normaliseCallback(hostile, {
			event: 'serverCallback',
			method: 'GET',
			receivedAt: 't',
			verified: true,
			secrets: [KEY],
		});
		const text = JSON.stringify(item);
		expect(text).not.toMatch(/4444555566661111|4444 5555 6666 1111/);
		expect(text).not.toContain(KEY);
		expect(item.bin).toBe('444455');
		expect(item.lastFourDigits).toBe('1111');
		expect(item.errorMessage).toBe('Card 444455******1111 refused, key [redacted]');
		expect((item.raw as Record<string, string>).credit_card_number).toBe('444455******1111');
		expect(item.raw).not.toHaveProperty('cvv2');
	});

	it('spells a transaction type once: the gateway’s words for a known one, without case or separators otherwise', () => {
		for (const spelling of ['sale', 'Sale', 's-ale', 'sa_le', ' SALE ']) expect(canonicalType(spelling)).toBe('sale');
		expect(canonicalType('Account_Verification')).toBe('account-verification');
		expect(canonicalType('accountVerification')).toBe('account-verification');
		expect(canonicalType('PAN eligibility')).toBe('pan-eligibility');
		expect(canonicalType('Foo_Bar')).toBe('foobar');
		expect(kindOf(' Re-Versal')).toBe('refund');
		expect(kindOf('Foo_Bar')).toBe('foobar');
	});

	it('cuts card fields down to BIN and last four', () => {
		expect(safeBin('444455')).toBe('444455');
		expect(safeBin('44445555')).toBe('44445555');
		expect(safeBin('4444-5555-6666-1111')).toBe('444455');
		expect(safeLastFour('1111')).toBe('1111');
		expect(safeLastFour('************1111')).toBe('1111');
	});

	it('summarises a request for the log without card data or keys', () => {
		expect(logSummary({ ...real, error_message: KEY }, [KEY])).toEqual({
			status: 'approved',
			type: 'preauth',
			orderid: '314201',
			client_orderid: '905',
		});
	});
});

describe('passesFilters', () => {
	it('lets everything through when both lists are empty', () => {
		expect(passesFilters({ status: 'declined', type: 'sale' }, { statuses: [], transactionTypes: [] })).toBe(true);
	});

	it('filters by status', () => {
		expect(passesFilters({ status: 'approved', type: 'sale' }, { statuses: ['approved'], transactionTypes: [] })).toBe(
			true,
		);
		expect(
			passesFilters({ status: 'declined', type: 'sale' }, { statuses: ['approved', 'filtered'], transactionTypes: [] }),
		).toBe(false);
	});

	it('filters by type without regard to case or separators; "any" and missing types pass', () => {
		const settings = { statuses: [], transactionTypes: ['accountVerification', 'payout'] };
		expect(typeKey('account-verification')).toBe(typeKey('accountVerification'));
		expect(passesFilters({ status: 'approved', type: 'account-verification' }, settings)).toBe(true);
		expect(passesFilters({ status: 'approved', type: 'PAYOUT' }, settings)).toBe(true);
		expect(passesFilters({ status: 'approved', type: 'sale' }, settings)).toBe(false);
		expect(
			passesFilters({ status: 'approved', type: 'sale' }, { statuses: [], transactionTypes: ['payout', 'any'] }),
		).toBe(true);
		expect(passesFilters({ status: 'approved' }, settings)).toBe(true);
	});
});

describe('interpretStatusOutcome', () => {
	const claim = claimOf({
		status: 'approved',
		type: 'sale',
		amount: '10.50',
		currency: 'USD',
		orderid: '100001',
		client_orderid: 'c-1',
	});
	const reply = (fields: Record<string, string>, httpStatus = 200): GatewayOutcome => ({
		kind: 'reply',
		reply: { httpStatus, format: 'json', fields },
	});
	const statusReply = {
		type: 'status-response',
		status: 'approved',
		amount: '10.5',
		currency: 'usd',
		'paynet-order-id': '100001',
		'merchant-order-id': 'c-1',
		'transaction-type': 'sale',
		'serial-number': 's-1',
	};

	it('confirms when status, type, amount (by value), currency and both order IDs agree', () => {
		expect(interpretStatusOutcome(reply(statusReply), claim)).toEqual({
			kind: 'definitive',
			confirmed: true,
			confirmation: {
				found: true,
				status: 'approved',
				amount: '10.5',
				currency: 'usd',
				transactionType: 'sale',
				orderid: '100001',
				client_orderid: 'c-1',
				serialNumber: 's-1',
				amountChecked: true,
				unchecked: [],
				mismatches: [],
			},
		});
	});

	it("refutes a callback whose transaction is not the order's latest one", () => {
		const outcome = interpretStatusOutcome(
			reply({ ...statusReply, 'transaction-type': 'reversal', amount: '7.50' }),
			claim,
		);
		expect(outcome).toMatchObject({
			kind: 'definitive',
			confirmed: false,
			confirmation: {
				amountChecked: false,
				mismatches: ['type: callback "sale", gateway "reversal" (the order has a later transaction)'],
			},
		});
	});

	it("never confirms what it cannot compare: a missing type, a field the reply lacks; a follow-up's own amount stays unchecked (issue 23, item 2)", () => {
		const reversal = interpretStatusOutcome(reply({ ...statusReply, 'transaction-type': 'reversal', amount: '7.50' }), {
			...claim,
			type: 'reversal',
			amount: '3.00',
		});
		expect(reversal).toMatchObject({
			confirmed: true,
			confirmation: { amountChecked: false, amount: '7.50', unchecked: ['amount'], mismatches: [] },
		});
		// The forged replay of the issue: `type` removed, another spelling says sale, the amount raised.
		const noType = interpretStatusOutcome(reply({ ...statusReply, 'transaction-type': 'reversal', amount: '0.00' }), {
			...claim,
			type: undefined,
			amount: '9999.00',
		});
		expect(noType).toMatchObject({ confirmed: false });
		expect((noType as unknown as { confirmation: { mismatches: string[] } }).confirmation.mismatches[0]).toBe(
			'type: the callback names no transaction type, so it cannot be compared',
		);
		const bare = interpretStatusOutcome(
			reply({ type: 'status-response', status: 'approved', 'serial-number': 's-1' }),
			claim,
		);
		expect((bare as unknown as { confirmation: { mismatches: string[] } }).confirmation.mismatches).toEqual([
			'type: the status reply names no transaction type, so it cannot be compared',
			'amount: the status reply carries no amount, so it cannot be compared',
			'currency: the status reply carries none, so it cannot be compared',
			'orderid: the status reply carries none, so it cannot be compared',
			'client_orderid: the status reply carries none, so it cannot be compared',
		]);
	});

	it('compares the other fields the item reports when the reply has them, and lists the rest as unchecked', () => {
		const details = { ...claim, details: { approvalCode: 'A1', descriptor: 'SHOP', bin: '444455' } };
		const agreeing = interpretStatusOutcome(reply({ ...statusReply, 'approval-code': 'A1', bin: '444455' }), details);
		expect(agreeing).toMatchObject({ confirmed: true, confirmation: { unchecked: ['descriptor'], mismatches: [] } });
		const forged = interpretStatusOutcome(reply({ ...statusReply, 'approval-code': 'B2' }), details);
		expect(forged).toMatchObject({
			confirmed: false,
			confirmation: { mismatches: ['approvalCode: callback "A1", gateway "B2"'] },
		});
	});

	it('refutes a different amount, status or currency and lists every mismatch', () => {
		const outcome = interpretStatusOutcome(
			reply({ ...statusReply, status: 'declined', amount: '1.00', currency: 'EUR' }),
			claim,
		);
		expect(outcome).toMatchObject({
			kind: 'definitive',
			confirmed: false,
			confirmation: {
				mismatches: [
					'status: callback "approved", gateway "declined"',
					'amount: callback "10.50", gateway "1.00"',
					'currency: callback "USD", gateway "EUR"',
				],
			},
		});
	});

	it('treats an order the gateway does not know as refuted', () => {
		const failure = {
			kind: 'reply' as const,
			reply: {
				httpStatus: 400,
				format: 'json' as const,
				fields: { type: 'validation-error', 'error-message': 'Order not found', 'error-code': '2' },
			},
			failure: { kind: 'validation' as const, httpStatus: 400, message: 'Order not found', code: '2' },
		};
		expect(interpretStatusOutcome(failure, claim)).toEqual({
			kind: 'definitive',
			confirmed: false,
			confirmation: { found: false, errorMessage: 'Order not found', errorCode: '2', mismatches: ['order not found'] },
		});
	});

	it('asks for a retry when no definite answer came', () => {
		const lost = {
			kind: 'lost' as const,
			code: 'ECONNREFUSED',
			what: 'the connection was refused',
			message: 'connect ECONNREFUSED',
			nothingSent: true,
		};
		expect(interpretStatusOutcome(lost, claim)).toEqual({
			kind: 'retry',
			reason: 'no gateway reply to the status query: the connection was refused (connect ECONNREFUSED)',
		});
		expect(interpretStatusOutcome(reply({ ...statusReply, status: 'processing' }), claim)).toMatchObject({
			kind: 'retry',
			reason: expect.stringContaining('processing'),
		});
		expect(interpretStatusOutcome(reply({ type: 'status-response' }), claim).kind).toBe('retry');
	});

	it('keeps the control key out of the reasons it gives', () => {
		const refused = {
			kind: 'reply' as const,
			reply: { httpStatus: 403, format: 'json' as const, fields: {} },
			failure: { kind: 'authentication' as const, httpStatus: 403, message: `bad key ${KEY}` },
		};
		const outcome = interpretStatusOutcome(refused, claim, [KEY]);
		expect(outcome).toEqual({
			kind: 'retry',
			reason: 'the gateway refused the status query (authentication, HTTP 403): bad key [redacted]',
		});
	});

	it('compares decimal amounts by value', () => {
		expect(sameAmount('10.50', '10.5')).toBe(true);
		expect(sameAmount('010', '10.00')).toBe(true);
		expect(sameAmount('10.50', '10.05')).toBe(false);
		expect(sameAmount('1e3', '1000')).toBe(false);
	});

	it('keeps the timeout between 1 and 60 seconds', () => {
		expect(clampTimeout(10)).toBe(10);
		expect(clampTimeout(0)).toBe(10);
		expect(clampTimeout('abc')).toBe(10);
		expect(clampTimeout(0.2)).toBe(1);
		expect(clampTimeout(600)).toBe(60);
	});
});

describe('redirect and port helpers', () => {
	it('accepts only absolute http(s) redirect targets', () => {
		expect(redirectTarget('https://shop.example.com/ok?x=1')).toBe('https://shop.example.com/ok?x=1');
		expect(redirectTarget('javascript:alert(1)')).toBeUndefined();
		expect(redirectTarget('/relative')).toBeUndefined();
		expect(redirectTarget('')).toBeUndefined();
	});

	it('works out the effective port', () => {
		expect(effectivePort('https://n8n.example.com/webhook/x/callback')).toBe('443');
		expect(effectivePort('http://n8n.example.com/webhook/x/callback')).toBe('80');
		expect(effectivePort('http://localhost:5678/webhook/x/callback')).toBe('5678');
		expect(effectivePort('not a url')).toBeUndefined();
	});
});
