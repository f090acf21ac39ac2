// Issue 30, finding 8: before a V4 operation sends a new order under a typed order ID, it asks the V4
// status by the merchant order ID alone whether that ID is taken (a V4-only gateway, such as the vendor's
// hosted-fields emulator, serves no /api/v2/*). Only the refusal the catalogue declares for that query, the
// emulator's HTTP 400 "Unknown order …", reads as "no such order"; any other refusal or error leaves the
// order unknown, and then nothing is sent. A stand-in gateway answers the status query as told and
// records whether the sale arrived.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { CUSTOMER, MERCHANT, RETURN_URL, runNode, useSandbox } from '../support/harness';

const env = useSandbox();

const JSON_TYPE = 'application/vnd.pay+json; charset=utf-8';

interface Answer {
	status: number;
	type: string;
	body: string;
}
const json = (status: number, body: object): Answer => ({ status, type: JSON_TYPE, body: JSON.stringify(body) });
const text = (status: number, body: string, type = 'text/plain; charset=utf-8'): Answer => ({ status, type, body });

/** A gateway that answers the status query with `answer`, and a sale with the emulator's sale reply. */
async function standIn(): Promise<{
	url: string;
	answer: Answer;
	seen: Array<{ path: string; body: URLSearchParams }>;
	close(): Promise<void>;
}> {
	const gateway = {
		url: '',
		answer: json(500, {}),
		seen: [] as Array<{ path: string; body: URLSearchParams }>,
		close: async (): Promise<void> => undefined,
	};
	const server: Server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const path = request.url ?? '';
			const body = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
			gateway.seen.push({ path, body });
			const answer = /\/status\//.test(path)
				? gateway.answer
				: json(200, {
						'paynet-order-id': 4823190,
						'merchant-order-id': body.get('client_orderid'),
						'serial-number': 'sn-4823190',
					});
			response.writeHead(answer.status, { 'content-type': answer.type });
			response.end(answer.body);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	gateway.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/paynet`;
	gateway.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
	return gateway;
}

let gateway: Awaited<ReturnType<typeof standIn>>;
beforeAll(async () => {
	gateway = await standIn();
});
afterAll(() => gateway.close());

async function tokenSale(merchantOrderId: string, answer: Answer) {
	gateway.answer = answer;
	gateway.seen.length = 0;
	const run = await runNode(
		env.sb,
		{
			resource: 'payment',
			operation: 'saleWithToken',
			merchantOrderId,
			orderDescription: 'Hosted fields order',
			amount: '12.34',
			currency: 'USD',
			hostedFieldsToken: 'hf_tok_approved_1',
			...CUSTOMER,
			redirectUrl: RETURN_URL,
		},
		{ credentials: { baseUrl: gateway.url } },
	);
	const [check] = gateway.seen;
	// The question is always the V4 status, by the merchant order ID alone.
	expect(check.path).toBe('/paynet/api/v4/status/1001');
	expect(Object.fromEntries(check.body)).toEqual({ login: MERCHANT.login, client_orderid: merchantOrderId });
	const sales = gateway.seen.filter((request) => request.path === '/paynet/api/v4/sale/1001');
	return { run, sales };
}

describe('"no such order": the V4 status refuses the order as the vendor\'s emulator does (HTTP 400, Unknown order)', () => {
	it.each([
		["the emulator's untyped reply", json(400, { 'error-message': 'Unknown order undefined.' })],
		[
			"the sandbox's typed validation-error",
			json(400, {
				type: 'validation-error',
				'serial-number': 'sn-1',
				'error-message': 'Unknown order undefined.',
				'error-code': 3,
			}),
		],
	])('%s: the sale is sent, once', async (_name, answer) => {
		const { run, sales } = await tokenSale('hf-new-1', answer);
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ client_orderid: 'hf-new-1', orderid: '4823190' });
		expect(sales).toHaveLength(1);
	});
});

describe('any other answer never reads as "no such order": nothing is sent', () => {
	it.each([
		['an unknown login (HTTP 400)', json(400, { 'error-message': 'Unknown login n8n-test-merchant.' })],
		['"Order not found" (other words)', json(400, { type: 'validation-error', 'error-message': 'Order not found' })],
		['"Endpoint not found"', json(400, { type: 'validation-error', 'error-message': 'Endpoint not found' })],
		['the right words with HTTP 409', json(409, { 'error-message': 'Unknown order undefined.' })],
		['no route (HTTP 404, text)', text(404, 'no route for POST /api/v4/status/1001')],
		['a refused signature (HTTP 401, text)', text(401, 'invalid signature: signature does not verify')],
		['a WAF (HTTP 403, html)', text(403, '<html>Forbidden</html>', 'text/html')],
		['a server error (HTTP 500)', json(500, { 'error-message': 'Unknown order undefined.' })],
	])('%s', async (_name, answer) => {
		const { run, sales } = await tokenSale('hf-unknown-1', answer);
		expect(run.items).toEqual([]);
		expect(run.error?.message).toBeTruthy();
		expect(sales).toEqual([]);
	});

	it('an order the gateway holds under that ID: reported as already there, not sent again', async () => {
		const { run, sales } = await tokenSale(
			'hf-taken-1',
			json(200, {
				'paynet-order-id': '777',
				'merchant-order-id': 'hf-taken-1',
				status: 'approved',
				amount: '12.34',
				currency: 'USD',
			}),
		);
		expect(run.error).toBeUndefined();
		expect(run.items[0].json).toMatchObject({ alreadyExisted: true, orderid: '777', status: 'approved' });
		expect(sales).toEqual([]);
	});
});
