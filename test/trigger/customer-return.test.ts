// Customer return: the sandbox's hosted form (and its 3-D Secure page) sends the payer's browser back
// to redirect_url with a signed POST. The fields are taken from the sandbox's auto-submitting page and
// posted into the trigger's return webhook; the browser must get a 303 to the right page.
import {
	MERCHANT_KEY,
	callbackControl,
	credentialsFor,
	formPost,
	hostedFormReturn,
	openSandbox,
	parameters,
	trigger,
	type Sandbox,
	type TriggerResult,
} from '../support/trigger';

const SUCCESS = 'https://shop.example.com/thank-you';
const FAILURE = 'https://shop.example.com/payment-failed?reason=card';
const RETURN_URL = 'https://n8n.example.com/webhook/00000000-0000-4000-8000-000000000001/return';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await openSandbox();
});

afterAll(async () => {
	await sandbox?.close();
});

const enabled = (overrides: Record<string, unknown> = {}) =>
	parameters({ customerReturn: true, successUrl: SUCCESS, failureUrl: FAILURE, ...overrides } as never);

const send = (fields: Record<string, string>, params = enabled(), method: 'POST' | 'GET' = 'POST') =>
	trigger({
		parameters: params,
		credentials: credentialsFor(sandbox.url),
		request:
			method === 'POST'
				? formPost(fields, { webhookName: 'setup' })
				: { method: 'GET', query: fields, webhookName: 'setup' },
	});

function expectRedirect(result: TriggerResult, to: string) {
	expect(result.status).toBe(303);
	expect(result.redirectedTo).toBe(to);
	expect(result.headersSet['cache-control']).toBe('no-store');
	expect(result.response.noWebhookResponse).toBe(true);
}

describe('customer return after a hosted form', () => {
	it('the sandbox sends the browser back with a signed POST', async () => {
		const { action, method, fields, sale } = await hostedFormReturn(sandbox, { cvv: '123', redirectUrl: RETURN_URL });
		expect(action).toBe(RETURN_URL);
		expect(method).toBe('POST');
		expect(fields).toEqual({
			status: 'approved',
			orderid: sale.orderid,
			merchant_order: sale.clientOrderId,
			client_orderid: sale.clientOrderId,
			control: callbackControl('approved', sale.orderid, sale.clientOrderId, MERCHANT_KEY),
			descriptor: 'CARD GATEWAY SANDBOX',
		});
	});

	it('approved: 303 to the success URL and a customerReturn event', async () => {
		const { fields, sale } = await hostedFormReturn(sandbox, { cvv: '123', redirectUrl: RETURN_URL });
		const result = await send(fields);
		expectRedirect(result, SUCCESS);
		expect(result.items).toEqual([
			{
				event: 'customerReturn',
				status: 'approved',
				orderid: sale.orderid,
				client_orderid: sale.clientOrderId,
				descriptor: 'CARD GATEWAY SANDBOX',
				// Every part of a return's key is signed; a return carries no amount.
				eventKey: `${sale.orderid}:approved:customer-return`,
				eventKeyConfirmed: true,
				amountConfirmed: false,
				verified: true,
				method: 'POST',
				receivedAt: expect.any(String),
				raw: fields,
				redirectedTo: 'success',
			},
		]);
	});

	it('declined (CVV 116): 303 to the failure URL, event emitted with the error text', async () => {
		const { fields, sale } = await hostedFormReturn(sandbox, { cvv: '116', redirectUrl: RETURN_URL });
		expect(fields.status).toBe('declined');
		const result = await send(fields);
		expectRedirect(result, FAILURE);
		expect(result.items[0]).toMatchObject({
			event: 'customerReturn',
			status: 'declined',
			orderid: sale.orderid,
			verified: true,
			redirectedTo: 'failure',
		});
		expect(result.items[0].errorMessage).toMatch(/insufficient funds/i);
	});

	it('after 3-D Secure (CVV 321, ACS password "hint"): success', async () => {
		const { fields, action } = await hostedFormReturn(sandbox, {
			cvv: '321',
			acsPassword: 'hint',
			redirectUrl: RETURN_URL,
		});
		expect(action).toBe(RETURN_URL);
		expect(fields.status).toBe('approved');
		expectRedirect(await send(fields), SUCCESS);
	});

	it('accepts the same fields as a GET', async () => {
		const { fields } = await hostedFormReturn(sandbox, { cvv: '123', redirectUrl: RETURN_URL });
		const result = await send(fields, enabled(), 'GET');
		expectRedirect(result, SUCCESS);
		expect(result.items[0]).toMatchObject({ event: 'customerReturn', method: 'GET' });
	});
});

describe('forged or unusable returns', () => {
	it('a declined return whose status was changed to approved: failure URL, nothing started, a warning', async () => {
		const { fields } = await hostedFormReturn(sandbox, { cvv: '116', redirectUrl: RETURN_URL });
		const result = await send({ ...fields, status: 'approved' });
		expectRedirect(result, FAILURE);
		expect(result.response).toEqual({ noWebhookResponse: true });
		expect(result.items).toEqual([]);
		expect(result.logs.find((entry) => entry.level === 'warn')?.message).toBe(
			'Card Gateway Trigger: sent a customer return to the failure page: the control signature does not match',
		);
	});

	it('a return without any parameters: failure URL, nothing started', async () => {
		const result = await trigger({
			parameters: enabled(),
			credentials: credentialsFor(sandbox.url),
			request: { method: 'POST', body: {}, rawBody: '', webhookName: 'setup' },
		});
		expectRedirect(result, FAILURE);
		expect(result.items).toEqual([]);
	});

	it('with verification off an unsigned "approved" is emitted (verified: false) but still goes to the failure page', async () => {
		const { fields } = await hostedFormReturn(sandbox, { cvv: '116', redirectUrl: RETURN_URL });
		const result = await send({ ...fields, status: 'approved' }, enabled({ verifySignature: false }));
		expectRedirect(result, FAILURE);
		expect(result.items[0]).toMatchObject({ status: 'approved', verified: false, redirectedTo: 'failure' });
	});

	it('a status filter stops the event but not the redirect', async () => {
		const { fields } = await hostedFormReturn(sandbox, { cvv: '123', redirectUrl: RETURN_URL });
		const result = await send(fields, enabled({ statuses: ['declined'] }));
		expectRedirect(result, SUCCESS);
		expect(result.items).toEqual([]);
	});
});

describe('configuration', () => {
	it('answers 404 and starts nothing while Handle Customer Return is off', async () => {
		const { fields } = await hostedFormReturn(sandbox, { cvv: '123', redirectUrl: RETURN_URL });
		const result = await send(fields, parameters());
		expect(result.status).toBe(404);
		expect(result.sent).toBe('Not Found');
		expect(result.response).toEqual({ noWebhookResponse: true });
	});

	it('answers 500 (never an open redirect) when a page URL is not an absolute http(s) URL', async () => {
		const { fields } = await hostedFormReturn(sandbox, { cvv: '123', redirectUrl: RETURN_URL });
		const result = await send(fields, enabled({ successUrl: 'javascript:alert(1)' }));
		expect(result.status).toBe(500);
		expect(result.redirectedTo).toBeUndefined();
		expect(result.logs.find((entry) => entry.level === 'error')?.message).toContain('must be absolute http(s) URLs');
	});
});
