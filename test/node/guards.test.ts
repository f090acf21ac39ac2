// What must never reach the gateway (bad input, money moves by AI agents without consent), what
// a refusal looks like, and what must never appear in outputs or errors (card data, secrets).
import type { INodeParameters } from 'n8n-workflow';

import {
	BANK_DESTINATION,
	CUSTOMER,
	MERCHANT,
	MERCHANT_PEM,
	NODE_NAME,
	OTHER_MERCHANT,
	PAN,
	PAN2,
	WAIT,
	cardPayment,
	readKey,
	runNode,
	single,
	useSandbox,
	type NodeRun,
} from '../support/harness';

const env = useSandbox();

beforeEach(() => env.sb.reset());

describe('validation before sending', () => {
	const capture = (extra: INodeParameters) => ({
		resource: 'payment',
		operation: 'capture',
		merchantOrderId: 'v-1',
		gatewayOrderId: '100001',
		...extra,
	});

	it.each<[string, INodeParameters, string]>([
		['amount that is not a number', cardPayment({ amount: 'ten' }), '"Amount" must be a positive decimal'],
		[
			'amount with too many decimals',
			cardPayment({ amount: '10.555' }),
			'"Amount" has 3 decimals; USD allows at most 2',
		],
		['decimals on a zero-decimal currency', cardPayment({ amount: '1.5', currency: 'JPY' }), 'JPY allows at most 0'],
		['zero amount', cardPayment({ amount: '0.00' }), '"Amount" must be greater than zero'],
		['currency code', cardPayment({ currency: 'US' }), '"Currency" must be a three-letter ISO 4217 code'],
		[
			'card number check digit',
			cardPayment({ cardNumber: '4444555566661112' }),
			'"Card Number" is not a valid card number',
		],
		['card number length', cardPayment({ cardNumber: '4444 5555' }), '"Card Number" must be 12 to 19 digits'],
		['expiry month', cardPayment({ expireMonth: '13' }), '"Expiry Month" must be a month number from 1 to 12'],
		['expiry year', cardPayment({ expireYear: '123' }), '"Expiry Year" must be a year of 2 or 4 digits'],
		['expired card', cardPayment({ expireMonth: '01', expireYear: '2020' }), 'the card has expired'],
		['CVV', cardPayment({ cvv: '12' }), '"CVV" must be 3 or 4 digits'],
		['email', cardPayment({ email: 'john.example.com' }), '"Email" must be an email address'],
		[
			'redirect URL',
			cardPayment({ redirectUrl: 'shop/return' }),
			'"Redirect URL" must be an absolute http or https URL',
		],
		['country', cardPayment({ country: 'USA' }), '"Country" must be a two-letter ISO 3166 country code'],
		[
			'control characters in an ID',
			cardPayment({ merchantOrderId: '={{ "inv\\u0000-1" }}' }),
			'"Order ID (Merchant)" must not contain control characters',
		],
		[
			'an object where text is needed',
			cardPayment({ email: '={{ { address: "a@b.co" } }}' }),
			'"Email" must be text, but the expression gave an object',
		],
		[
			'a list where text is needed',
			cardPayment({ city: '={{ ["Paris", "Lyon"] }}' }),
			'"City" must be text, but the expression gave a list',
		],
		['a required field empty after evaluation', cardPayment({ city: '={{ $json.nothing }}' }), '"City" is required'],
		[
			'capture amount without currency',
			capture({ additionalFields: { amount: '5.00' } }),
			'"Currency" is required when "Amount" is set',
		],
		[
			'capture currency without amount',
			capture({ additionalFields: { currency: 'USD' } }),
			'"Amount" is required when "Currency" is set',
		],
		[
			'PAN eligibility without a card',
			{ resource: 'transfer', operation: 'checkPanEligibility', merchantOrderId: 'v-2' },
			'Set "Card Reference ID", or the card number',
		],
		[
			'extra field that would forge the signature',
			cardPayment({ extraFields: { field: [{ name: 'control', value: 'x' }] } }),
			'"Extra Fields" may not set "control"',
		],
		[
			'extra field that repeats a parameter',
			cardPayment({ extraFields: { field: [{ name: 'amount', value: '1.00' }] } }),
			'"Extra Fields" may not set "amount": use the parameter "Amount" of this operation',
		],
	])('%s: NodeOperationError naming the field, nothing sent', async (_case, parameters, message) => {
		const run = await runNode(env.sb, parameters);
		expect(run.error?.name).toBe('NodeOperationError');
		expect(run.error?.message).toContain(message);
		expect(run.error?.context?.itemIndex).toBe(0);
		expect(await env.sb.requests()).toEqual([]);
	});

	it('numbers from expressions are accepted where they are exact', async () => {
		const out = single(
			await runNode(
				env.sb,
				cardPayment({ merchantOrderId: 'v-number', amount: '={{ $json.total }}', expireMonth: '={{ 3 }}' }),
				{ input: [{ total: 12.5 }] },
			),
		);
		expect(out.client_orderid).toBe('v-number');
		expect((await env.sb.actions())[0].params).toMatchObject({ amount: '12.5', expire_month: '03' });
	});
});

describe('refusals by the gateway', () => {
	it('wrong control key: NodeApiError with the gateway message and code', async () => {
		const run = await runNode(env.sb, cardPayment({ merchantOrderId: 'r-1' }), {
			credentials: { controlKey: OTHER_MERCHANT.controlKey },
		});
		expect(run.error?.name).toBe('NodeApiError');
		expect(run.error?.message).toBe('Payment → Sale: Control signature mismatch (code 2)');
		expect(run.error?.httpCode).toBe('400');
		expect(run.error?.description).toMatch(/^Gateway serial number /);
	});

	it('wrong RSA key: the V4 status that checks the order ID is refused with a plain-text HTTP 403; nothing is sent', async () => {
		const run = await runNode(
			env.sb,
			{
				resource: 'payout',
				operation: 'sendV4',
				merchantOrderId: 'r-2',
				amount: '1.00',
				currency: 'USD',
				additionalFields: BANK_DESTINATION,
			},
			{ credentials: { privateKey: readKey('other-merchant-2048.key.pem') } },
		);
		expect(run.error?.name).toBe('NodeApiError');
		expect(run.error?.message).toContain('HTTP 403');
		expect(run.error?.message).toContain('refused the signature of the status query');
		expect(run.error?.message).toContain('nothing was sent');
		// Says what is known: the gateway refuses signatures this way; check the key.
		expect(run.error?.message).toContain("check the credential's private key");
		expect((await env.sb.requests()).map((request) => request.path)).toEqual(['/paynet/api/v4/status/1001']);
		expect(await env.sb.ledger()).toEqual([]);
	});

	it('no RSA key for an RSA operation: a credential error before anything is sent', async () => {
		const run = await runNode(
			env.sb,
			{
				resource: 'payout',
				operation: 'check',
				merchantOrderId: 'r-3',
				amount: '1.00',
				currency: 'USD',
				additionalFields: BANK_DESTINATION,
			},
			{ credentials: { privateKey: '' } },
		);
		expect(run.error?.message).toContain('The credential has no RSA private key');
		expect(await env.sb.requests()).toEqual([]);
	});

	it('a state error (capture of a sale) is the gateway refusing, not a lost reply', async () => {
		const sale = single(await runNode(env.sb, cardPayment({ merchantOrderId: 'r-4', options: WAIT })));
		const partial = { amount: '1.00', currency: 'USD' };
		const run = await runNode(env.sb, {
			resource: 'payment',
			operation: 'capture',
			merchantOrderId: 'r-4',
			gatewayOrderId: sale.orderid,
			additionalFields: partial,
		});
		expect(run.error?.message).toContain('Capture is only allowed on a preauth');
		expect(run.error?.message).toContain('(code 4)');
	});

	it('a full capture of an order that is not an approved preauth is refused after a status query alone', async () => {
		const sale = single(await runNode(env.sb, cardPayment({ merchantOrderId: 'r-5', options: WAIT })));
		const declined = single(
			await runNode(env.sb, cardPayment({ merchantOrderId: 'r-6', cvv: '116', options: WAIT }, 'preauth')),
		);
		for (const [merchantOrderId, gatewayOrderId, why] of [
			['r-5', sale.orderid, 'status "approved", last transaction "sale"'],
			['r-6', declined.orderid, 'status "declined", last transaction "preauth"'],
			['r-7', '999999', 'the gateway does not know the order'],
		]) {
			const before = (await env.sb.requests()).length;
			const run = await runNode(env.sb, { resource: 'payment', operation: 'capture', merchantOrderId, gatewayOrderId });
			expect(run.error?.message).toContain(why);
			expect(run.error?.message).toContain('the capture was not sent');
			expect(run.error?.description).toContain('Only a status query went to the gateway');
			expect((await env.sb.requests()).slice(before).map((r) => r.op)).toEqual(['status']);
		}
	});

	it('an amount with a third non-zero decimal cannot be signed: refused before sending, naming the field', async () => {
		const run = await runNode(env.sb, {
			resource: 'payment',
			operation: 'return',
			merchantOrderId: 'r-8',
			gatewayOrderId: '1',
			additionalFields: { amount: '1.235', currency: 'KWD' },
		});
		expect(run.error?.message).toMatch(/"amount" 1\.235 cannot be signed: .*hundredths/);
		expect(run.error?.description).toContain('Check the "amount" parameter');
		expect(await env.sb.requests()).toEqual([]);
	});
});

describe('masking', () => {
	const SECRETS = () => [PAN, PAN2, MERCHANT.controlKey, MERCHANT_PEM.split('\n')[1], '"cvv"', '"cvv2"'];
	/** Our node's outputs and the run's error, as n8n stores them. */
	const stored = (run: NodeRun) => JSON.stringify({ items: run.items, error: run.error });

	it('outputs (with the raw reply) show card numbers masked and never a CVV or a key', async () => {
		const run = await runNode(
			env.sb,
			cardPayment({
				merchantOrderId: 'm-1',
				cardholderName: `HOLDER ${PAN2}`,
				options: { ...WAIT, includeRawReply: true },
			}),
		);
		const out = single(run);
		expect(out.raw).toMatchObject({ bin: '444455', 'last-four-digits': '1111' });
		expect(out.cardHolderName).toBe('HOLDER 555555******4444');
		for (const secret of SECRETS()) expect(stored(run)).not.toContain(secret);
	});

	it('error items and errors never carry card data or secrets either', async () => {
		const params = cardPayment({
			merchantOrderId: 'm-2',
			currency: 'EUR',
			extraFields: { field: [{ name: 'note', value: `card ${PAN} key ${MERCHANT.controlKey}` }] },
		});
		const failed = await runNode(env.sb, params, { continueOnFail: true });
		expect(failed.items[0].json.error).toContain('Currency EUR is not accepted by endpoint 1001');
		for (const secret of SECRETS()) expect(stored(failed)).not.toContain(secret);
		const stopped = await runNode(env.sb, params);
		expect(stopped.error?.message).toContain('Currency EUR is not accepted');
		for (const secret of SECRETS()) expect(stored(stopped)).not.toContain(secret);
	});

	it('card info shows what the gateway stores, never a full number', async () => {
		const sale = single(await runNode(env.sb, cardPayment({ merchantOrderId: 'm-3', options: WAIT })));
		const ref = single(
			await runNode(env.sb, {
				resource: 'cardReference',
				operation: 'create',
				merchantOrderId: 'm-3',
				gatewayOrderId: sale.orderid,
			}),
		);
		const run = await runNode(env.sb, {
			resource: 'cardReference',
			operation: 'getInfo',
			cardReferenceId: ref.cardRefId,
			options: { includeRawReply: true },
		});
		expect(single(run).lastFourDigits).toBe('1111');
		expect(stored(run)).not.toContain(PAN);
	});
});

describe('with n8n\'s "Retry On Fail" turned on', () => {
	it('money-moving operations refuse before sending; read-only ones run', async () => {
		const before = (await env.sb.requests()).length;
		const sale = await runNode(env.sb, cardPayment({ merchantOrderId: 'retry-1' }), { retryOnFail: true });
		expect(sale.error?.message).toBe(
			'Payment → Sale moves money and must not run with the node setting "Retry On Fail"',
		);
		expect(sale.error?.description).toContain('Turn off Settings → Retry On Fail');
		expect((await env.sb.requests()).length).toBe(before);
		const status = single(
			await runNode(
				env.sb,
				{ resource: 'transaction', operation: 'getStatus', merchantOrderId: 'retry-none' },
				{ retryOnFail: true },
			),
		);
		expect(status.errorMessage).toBe('Order not found');
	});
});

describe('as an AI agent tool', () => {
	it('money-moving operations refuse without the user’s consent, and send nothing', async () => {
		const run = await runNode(env.sb, cardPayment({ merchantOrderId: 'ai-1' }), { asTool: true });
		expect(run.error?.name).toBe('NodeOperationError');
		expect(run.error?.message).toBe(
			'Payment → Sale moves money, and AI agents may not run it through this tool: refused; do not retry this call: it will be refused the same way',
		);
		expect(run.error?.description).toContain('Allow AI Agents to Move Money');
		const payoutForm = await runNode(
			env.sb,
			{
				resource: 'hostedForm',
				operation: 'payout',
				merchantOrderId: 'ai-2',
				orderDescription: 'x',
				amount: '1.00',
				currency: 'USD',
				...CUSTOMER,
				redirectUrl: 'https://shop.example.com/r',
			},
			{ asTool: true },
		);
		expect(payoutForm.error?.message).toContain('moves money');
		expect(await env.sb.requests()).toEqual([]);
	});

	it('read-only operations work, and the user may allow money movement explicitly', async () => {
		const status = single(
			await runNode(
				env.sb,
				{ resource: 'transaction', operation: 'getStatus', merchantOrderId: 'ai-none' },
				{ asTool: true },
			),
		);
		expect(status.errorMessage).toBe('Order not found');
		const sale = single(
			await runNode(env.sb, cardPayment({ merchantOrderId: 'ai-3', options: { allowAiMoneyMovement: true } }), {
				asTool: true,
			}),
		);
		expect(sale.client_orderid).toBe('ai-3');
		expect(await env.sb.ledger('ai-3')).toHaveLength(1);
	});

	it('the same node outside an agent is not affected', async () => {
		const run = await runNode(env.sb, cardPayment({ merchantOrderId: 'ai-4' }));
		expect(run.items[0]?.json.client_orderid).toBe('ai-4');
		expect(run.serialised).toContain(NODE_NAME);
	});
});
