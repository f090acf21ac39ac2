// Server callbacks, end to end: real callbacks sent by the sandbox gateway are captured by a loopback
// receiver and replayed into the trigger's webhook() running in n8n-core's WebhookContext with the
// real credential (GET as sent; POST form-urlencoded and POST JSON with the same fields).
import {
	addFault,
	callbackControl,
	clearFaults,
	credentialsFor,
	formPost,
	getRequest,
	jsonPost,
	MERCHANT_KEY,
	OTHER_KEY,
	PAN,
	parameters,
	saleWithCallback,
	trigger,
	withApprovedSale,
	type TriggerResult,
} from '../support/trigger';

const fixture = withApprovedSale();

/**
 * The callback's parameters as `raw` keeps them. The signature is a SHA-1 hex digest of a random order
 * ID: now and then it holds a run of digits that passes the card check, and the card net masks that
 * run as it would anywhere (first 6 / last 4 kept). Every other character must be the one received.
 */
function asReceived(query: Record<string, string>): Record<string, unknown> {
	const digest = [...query.control].map((char) => (/\d/.test(char) ? `[${char}*]` : char)).join('');
	return { ...query, control: expect.stringMatching(new RegExp(`^${digest}$`)) };
}

afterEach(async () => clearFaults(fixture.sandbox));

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function expectAcknowledged(result: TriggerResult) {
	expect(result.status).toBe(200);
	expect(result.sent).toBe('OK');
	expect(result.headersSet['content-type']).toBe('text/plain; charset=utf-8');
	// A callback that starts the workflow is answered by n8n once the execution is stored.
	expect(result.answeredBy).toBe(result.items.length > 0 ? 'n8n' : 'trigger');
}

function expectRefused(result: TriggerResult, status: number, body: string) {
	expect(result.status).toBe(status);
	expect(result.sent).toBe(body);
	expect(result.response).toEqual({ noWebhookResponse: true });
	expect(result.items).toEqual([]);
}

/** Answered 403 by the trigger; the execution it starts has nothing on Accepted, one item on Rejected. */
function expectRejected(result: TriggerResult, reason: string) {
	expect(result.status).toBe(403);
	expect(result.sent).toBe('Forbidden');
	expect(result.answeredBy).toBe('trigger');
	expect(result.response).toEqual({
		noWebhookResponse: true,
		workflowData: [[], [{ json: expect.objectContaining({ rejected: true, reason }) }]],
	});
}

const run = (query: Record<string, string>, overrides = {}) =>
	trigger({
		parameters: parameters(overrides),
		credentials: credentialsFor(fixture.sandbox.url),
		request: getRequest(query),
	});

describe('genuine callbacks from the sandbox', () => {
	it('captured the GET the fixture.sandbox sent, with the documented parameters', () => {
		const { callback, orderid, clientOrderId } = fixture.approved;
		expect(callback.method).toBe('GET');
		expect(callback.query).toEqual({
			status: 'approved',
			merchant_order: clientOrderId,
			client_orderid: clientOrderId,
			orderid,
			type: 'sale',
			amount: '10.50',
			currency: 'USD',
			descriptor: 'CARD GATEWAY SANDBOX',
			error_code: '',
			error_message: '',
			'approval-code': expect.any(String),
			'last-four-digits': '1111',
			bin: '444455',
			'card-type': 'VISA',
			'gate-partial-capture': 'enabled',
			'gate-partial-reversal': 'enabled',
			'processor-tx-id': `PNTEST-${orderid}`,
			control: callbackControl('approved', orderid, clientOrderId, MERCHANT_KEY),
		});
	});

	it('GET: answers 200 "OK" at once and emits one normalised item', async () => {
		const { callback, orderid, clientOrderId } = fixture.approved;
		const before = Date.now();
		const result = await run(callback.query);
		const after = Date.now();
		expectAcknowledged(result);
		expect(result.items).toHaveLength(1);
		const [item] = result.items;
		expect(item).toEqual({
			event: 'serverCallback',
			status: 'approved',
			type: 'sale',
			kind: 'payment',
			orderid,
			client_orderid: clientOrderId,
			amount: '10.50',
			currency: 'USD',
			errorCode: '',
			errorMessage: '',
			approvalCode: callback.query['approval-code'],
			descriptor: 'CARD GATEWAY SANDBOX',
			processorTxId: `PNTEST-${orderid}`,
			cardType: 'VISA',
			bin: '444455',
			lastFourDigits: '1111',
			// Not confirmed: without a status query the type part of the key is the callback's word.
			eventKey: `${orderid}:approved:sale`,
			eventKeyConfirmed: false,
			amountConfirmed: false,
			verified: true,
			method: 'GET',
			receivedAt: expect.stringMatching(ISO_TIME),
			raw: asReceived(callback.query),
		});
		// Received during this run, however long the run took.
		expect(Date.parse(item.receivedAt as string)).toBeGreaterThanOrEqual(before);
		expect(Date.parse(item.receivedAt as string)).toBeLessThanOrEqual(after);
	});

	it('POST form-urlencoded with the same fields gives the same item', async () => {
		const get = await run(fixture.approved.callback.query);
		const post = await trigger({
			parameters: parameters(),
			credentials: credentialsFor(fixture.sandbox.url),
			request: formPost(fixture.approved.callback.query),
		});
		expectAcknowledged(post);
		expect(post.items).toEqual([{ ...get.items[0], method: 'POST', receivedAt: expect.stringMatching(ISO_TIME) }]);
	});

	it('POST form-urlencoded that n8n left unparsed is read from the raw body', async () => {
		const post = await trigger({
			parameters: parameters(),
			credentials: credentialsFor(fixture.sandbox.url),
			request: formPost(fixture.approved.callback.query, { parsed: false }),
		});
		expectAcknowledged(post);
		expect(post.items[0]).toMatchObject({
			status: 'approved',
			orderid: fixture.approved.orderid,
			verified: true,
			method: 'POST',
		});
		expect(post.items[0].raw).toEqual(asReceived(fixture.approved.callback.query));
	});

	it('POST JSON with the same fields gives the same item', async () => {
		const post = await trigger({
			parameters: parameters(),
			credentials: credentialsFor(fixture.sandbox.url),
			request: jsonPost(fixture.approved.callback.query),
		});
		expectAcknowledged(post);
		expect(post.items[0]).toMatchObject({
			status: 'approved',
			type: 'sale',
			amount: '10.50',
			orderid: fixture.approved.orderid,
			verified: true,
			method: 'POST',
		});
	});

	it('a declined sale (CVV 116) arrives with the error text', async () => {
		const declined = await saleWithCallback(fixture.sandbox, fixture.receiver, { amount: '3.00', cvv: '116' });
		const result = await run(declined.callback.query);
		expectAcknowledged(result);
		expect(result.items[0]).toMatchObject({
			status: 'declined',
			type: 'sale',
			amount: '3.00',
			orderid: declined.orderid,
			verified: true,
		});
		expect(result.items[0].errorMessage).toMatch(/insufficient funds/i);
		expect(result.items[0]).not.toHaveProperty('approvalCode');
	});

	it('a duplicated delivery produces the same orderid + status + type (de-duplicate downstream)', async () => {
		await addFault(fixture.sandbox, { kind: 'duplicate-callback', op: 'sale' });
		const sale = await saleWithCallback(fixture.sandbox, fixture.receiver, { amount: '4.00' });
		const deliveries = await fixture.receiver.waitFor(sale.orderid, 2);
		expect(deliveries).toHaveLength(2);
		const items = [];
		for (const delivery of deliveries) {
			const result = await run(delivery.query);
			expectAcknowledged(result);
			items.push(result.items[0]);
		}
		const key = (item: Record<string, unknown>) => [item.orderid, item.status, item.type].join('|');
		expect(key(items[0])).toBe(`${sale.orderid}|approved|sale`);
		expect(key(items[1])).toBe(key(items[0]));
	});
});

describe('signature checks', () => {
	it("refuses the sandbox's wrong-control callback with 403 and logs it without card data", async () => {
		await addFault(fixture.sandbox, { kind: 'wrong-control-callback', op: 'sale' });
		const forged = await saleWithCallback(fixture.sandbox, fixture.receiver, { amount: '5.00' });
		const result = await run(forged.callback.query);
		expectRejected(result, 'signatureMismatch');
		expect(result.headersSet['content-type']).toBe('text/plain; charset=utf-8');
		const warnings = result.logs.filter((entry) => entry.level === 'warn');
		expect(warnings).toHaveLength(1);
		expect(warnings[0].message).toBe(
			'Card Gateway Trigger: refused a callback (HTTP 403): the control signature does not match',
		);
		expect(warnings[0].metadata).toEqual({
			method: 'GET',
			status: 'approved',
			type: 'sale',
			orderid: forged.orderid,
			client_orderid: forged.clientOrderId,
		});
	});

	it('refuses a missing control', async () => {
		const { control: _control, ...unsigned } = fixture.approved.callback.query;
		void _control;
		const result = await run(unsigned);
		expectRejected(result, 'noSignature');
		expect(result.logs.find((entry) => entry.level === 'warn')?.message).toContain('no control signature');
	});

	it('accepts the control in uppercase hex', async () => {
		const result = await run({
			...fixture.approved.callback.query,
			control: fixture.approved.callback.query.control.toUpperCase(),
		});
		expectAcknowledged(result);
		expect(result.items[0].verified).toBe(true);
	});

	it('refuses a truncated control', async () => {
		const result = await run({
			...fixture.approved.callback.query,
			control: fixture.approved.callback.query.control.slice(0, 39),
		});
		expectRejected(result, 'malformedSignature');
		expect(result.logs.find((entry) => entry.level === 'warn')?.message).toContain('not 40 hexadecimal characters');
	});

	it('refuses a tampered status or orderid', async () => {
		expectRejected(await run({ ...fixture.approved.callback.query, status: 'declined' }), 'signatureMismatch');
		expectRejected(
			await run({ ...fixture.approved.callback.query, orderid: String(Number(fixture.approved.orderid) + 1) }),
			'signatureMismatch',
		);
		expectRejected(
			await run({ ...fixture.approved.callback.query, merchant_order: 'someone-else', client_orderid: 'someone-else' }),
			'signatureMismatch',
		);
		expectRejected(await run({ ...fixture.approved.callback.query, client_orderid: 'someone-else' }), 'orderIdsDiffer');
	});

	it('lets a tampered amount or type through: the signature does not cover them', async () => {
		const result = await run({ ...fixture.approved.callback.query, amount: '0.01', type: 'reversal' });
		expectAcknowledged(result);
		expect(result.items[0]).toMatchObject({ amount: '0.01', type: 'reversal', verified: true });
	});

	it("refuses a control made with another merchant's key", async () => {
		const { status, orderid, merchant_order } = fixture.approved.callback.query;
		const result = await run({
			...fixture.approved.callback.query,
			control: callbackControl(status, orderid, merchant_order, OTHER_KEY),
		});
		expectRejected(result, 'signatureMismatch');
	});

	it('refuses everything, and says why in the log, when the credential has no control key', async () => {
		const result = await trigger({
			parameters: parameters(),
			credentials: credentialsFor(fixture.sandbox.url, { controlKey: '' }),
			request: getRequest(fixture.approved.callback.query),
		});
		expectRejected(result, 'noControlKey');
		expect(result.logs.find((entry) => entry.level === 'error')?.message).toContain(
			'the credential has no merchant control key',
		);
	});

	it('with verification turned off, emits an unsigned callback marked verified: false', async () => {
		const result = await run({ ...fixture.approved.callback.query, control: '' }, { verifySignature: false });
		expectAcknowledged(result);
		expect(result.items[0]).toMatchObject({ status: 'approved', verified: false });
	});
});

describe('filters', () => {
	it('acknowledges a callback whose status is filtered out and starts nothing', async () => {
		const result = await run(fixture.approved.callback.query, { statuses: ['declined', 'error', 'filtered'] });
		expectAcknowledged(result);
		expect(result.response).toEqual({ noWebhookResponse: true });
		expect(result.items).toEqual([]);
	});

	it('acknowledges a callback whose type is filtered out and starts nothing', async () => {
		const result = await run(fixture.approved.callback.query, { transactionTypes: ['payout', 'reversal'] });
		expectAcknowledged(result);
		expect(result.items).toEqual([]);
	});

	it('emits when status and type match, or when "Any" type is chosen', async () => {
		expect(
			(await run(fixture.approved.callback.query, { statuses: ['approved'], transactionTypes: ['sale'] })).items,
		).toHaveLength(1);
		expect((await run(fixture.approved.callback.query, { transactionTypes: ['payout', 'any'] })).items).toHaveLength(1);
	});
});

describe('malformed requests', () => {
	const credentials = () => credentialsFor(fixture.sandbox.url);

	it.each([
		['a GET without parameters', { method: 'GET' as const, query: {} }],
		[
			'a POST without a body',
			{
				method: 'POST' as const,
				body: {},
				rawBody: '',
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
			},
		],
		[
			'unparseable JSON',
			{
				method: 'POST' as const,
				body: {},
				rawBody: '{"status": "approved",',
				headers: { 'content-type': 'application/json' },
			},
		],
		['a repeated parameter', { method: 'GET' as const, query: { status: ['approved', 'declined'] } as never }],
		[
			'a repeated form field',
			{
				method: 'POST' as const,
				body: {},
				rawBody: 'status=approved&status=declined&orderid=1',
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
			},
		],
		[
			'an absurdly large body',
			{
				method: 'POST' as const,
				body: {},
				rawBody: `status=${'a'.repeat(70_000)}`,
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
			},
		],
	])('answers 400 to %s and starts nothing', async (_name, request) => {
		const result = await trigger({ parameters: parameters(), credentials: credentials(), request });
		expectRefused(result, 400, 'Bad Request');
		expect(result.logs.find((entry) => entry.level === 'warn')?.message).toMatch(
			/^Card Gateway Trigger: refused a malformed callback \(HTTP 400\): /,
		);
	});
});

describe('masking', () => {
	it('keeps full card numbers and the control key out of the item and the logs', async () => {
		const hostile = {
			...fixture.approved.callback.query,
			bin: PAN,
			'last-four-digits': PAN,
			credit_card_number: PAN,
			error_message: `card ${PAN} key ${MERCHANT_KEY}`,
			cvv2: '123',
		};
		const accepted = await run(hostile);
		expectAcknowledged(accepted);
		const refused = await run({ ...hostile, status: 'declined' });
		expectRejected(refused, 'signatureMismatch');
		for (const text of [
			JSON.stringify(accepted.items),
			JSON.stringify(accepted.logs),
			JSON.stringify(refused.logs),
			JSON.stringify(refused.response),
		]) {
			expect(text).not.toContain(PAN);
			expect(text).not.toContain(MERCHANT_KEY);
		}
		const [item] = accepted.items;
		expect(item.bin).toBe('444455');
		expect(item.lastFourDigits).toBe('1111');
		expect(item.errorMessage).toBe('card 444455******1111 key [redacted]');
		expect((item.raw as Record<string, string>).credit_card_number).toBe('444455******1111');
		expect(item.raw).not.toHaveProperty('cvv2');
	});
});
