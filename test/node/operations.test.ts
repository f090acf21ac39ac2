// Every resource/operation of the node, run in n8n's engine against the sandbox over HTTP. The
// sandbox verifies every signature (SHA-1 control, OAuth HMAC-SHA1, OAuth RSA-SHA256).
import type { IDataObject } from 'n8n-workflow';

import {
	CARD,
	CUSTOMER,
	PAN,
	PAN2,
	RETURN_URL,
	WAIT,
	cardPayment,
	runNode,
	single,
	useSandbox,
} from '../support/harness';

const env = useSandbox();

/** An approved card sale (or preauth); returns the node's output. */
async function approved(operation: 'sale' | 'preauth', merchantOrderId: string, amount = '10.00') {
	return single(await runNode(env.sb, cardPayment({ merchantOrderId, amount, options: WAIT }, operation)));
}

describe('payment', () => {
	it('sale: expressions resolve per item, the reply is normalised, money moves once', async () => {
		const run = await runNode(
			env.sb,
			cardPayment({
				merchantOrderId: '={{ $json.invoice }}',
				amount: '={{ $json.total }}',
				email: '={{ $json.customer.email }}',
			}),
			{ input: [{ invoice: 'ops-sale-1', total: '19.99', customer: { email: 'ada@example.com' } }] },
		);
		const out = single(run);
		expect(out).toMatchObject({
			type: 'async-response',
			status: 'processing',
			final: false,
			client_orderid: 'ops-sale-1',
			endpointId: '1001',
		});
		expect(out.orderid).toMatch(/^\d+$/);
		expect(out.serialNumber).toMatch(/^00000000-0000-0000-0000-[0-9a-f]{12}$/);
		const [request] = await env.sb.actions();
		expect(request).toMatchObject({ path: '/paynet/api/v2/sale/1001', op: 'sale' });
		expect(request.params).toMatchObject({
			client_orderid: 'ops-sale-1',
			amount: '19.99',
			currency: 'USD',
			email: 'ada@example.com',
			expire_month: '12',
			credit_card_number: '444455******1111',
		});
		expect(await env.sb.ledger('ops-sale-1')).toEqual([
			expect.objectContaining({ kind: 'sale', amount: '19.99', currency: 'USD', orderid: out.orderid }),
		]);
	});

	it('sale with Wait for Final Status: approved, with card summary; a declined card is an output, not an error', async () => {
		const ok = await approved('sale', 'ops-sale-2', '5.00');
		expect(ok).toMatchObject({
			type: 'status-response',
			status: 'approved',
			final: true,
			amount: '5.00',
			currency: 'USD',
			bin: '444455',
			lastFourDigits: '1111',
			cardType: 'VISA',
			transactionType: 'sale',
		});
		const declined = single(
			await runNode(env.sb, cardPayment({ merchantOrderId: 'ops-declined', cvv: '116', options: WAIT })),
		);
		expect(declined).toMatchObject({
			status: 'declined',
			final: true,
			errorMessage: 'Insufficient funds',
			errorCode: '116',
		});
		expect(await env.sb.ledger('ops-declined')).toEqual([]);
	});

	it('a generated merchant order ID is n8n- plus 14 letters and is shown', async () => {
		const out = single(await runNode(env.sb, cardPayment()));
		expect(out.client_orderid).toMatch(/^n8n-[a-z]{14}$/);
		expect(out.clientOrderIdGenerated).toBe(true);
	});

	it('preauth → partial capture → partial return, then void of a sale and cancel of a preauth', async () => {
		const hold = await approved('preauth', 'ops-preauth-1', '30.00');
		expect(hold).toMatchObject({ status: 'approved', transactionType: 'preauth' });
		const ids = { merchantOrderId: 'ops-preauth-1', gatewayOrderId: hold.orderid as string };

		const capture = single(
			await runNode(env.sb, {
				resource: 'payment',
				operation: 'capture',
				...ids,
				additionalFields: { amount: '12.50', currency: 'USD' },
				options: WAIT,
			}),
		);
		expect(capture).toMatchObject({ status: 'approved', transactionType: 'capture', orderid: ids.gatewayOrderId });
		const refund = single(
			await runNode(env.sb, {
				resource: 'payment',
				operation: 'return',
				...ids,
				additionalFields: { amount: '2.50', currency: 'USD', comment: 'damaged' },
			}),
		);
		expect(refund).toMatchObject({ type: 'async-response', status: 'processing' });
		expect((await env.sb.ledger('ops-preauth-1')).map((e) => [e.kind, e.amount])).toEqual([
			['capture', '12.50'],
			['return', '2.50'],
		]);

		const sale = await approved('sale', 'ops-void-1', '7.00');
		const voided = single(
			await runNode(env.sb, {
				resource: 'payment',
				operation: 'void',
				merchantOrderId: 'ops-void-1',
				gatewayOrderId: sale.orderid,
				comment: 'customer cancelled',
				options: WAIT,
			}),
		);
		expect(voided).toMatchObject({ status: 'approved', transactionType: 'void' });

		const second = await approved('preauth', 'ops-preauth-2', '8.00');
		single(
			await runNode(env.sb, {
				resource: 'payment',
				operation: 'return',
				merchantOrderId: 'ops-preauth-2',
				gatewayOrderId: second.orderid,
			}),
		);
		expect((await env.sb.ledger('ops-preauth-2')).map((e) => [e.kind, e.amount])).toEqual([['cancel', '8.00']]);
	});

	it('verify account (asynchronous and synchronous)', async () => {
		const params = {
			merchantOrderId: 'ops-verify-1',
			orderDescription: 'Card check',
			...CARD,
			cvv: '123',
			...CUSTOMER,
		};
		const verified = single(
			await runNode(env.sb, { resource: 'payment', operation: 'verifyAccount', ...params, options: WAIT }),
		);
		expect(verified).toMatchObject({ status: 'approved', transactionType: 'account-verification' });
		const sync = single(
			await runNode(env.sb, {
				resource: 'payment',
				operation: 'verifyAccountSync',
				...params,
				merchantOrderId: 'ops-verify-2',
			}),
		);
		expect(sync).toMatchObject({ type: 'status-response', status: 'approved', final: true });
		expect(sync.cardRefId).toMatch(/^\d+$/);
		expect((await env.sb.requests()).map((r) => r.path)).toContain('/paynet/api/v2/sync/account-verification/1001');
	});

	it('endpoint and endpoint group can be overridden per operation', async () => {
		const eur = single(
			await runNode(
				env.sb,
				cardPayment({ merchantOrderId: 'ops-eur', currency: 'EUR', options: { endpointId: '1002' } }),
			),
		);
		expect(eur.endpointId).toBe('1002');
		single(
			await runNode(
				env.sb,
				cardPayment({ merchantOrderId: 'ops-group', currency: 'EUR', options: { endpointGroupId: '2001' } }),
			),
		);
		const paths = (await env.sb.requests()).map((r) => r.path);
		expect(paths).toEqual(expect.arrayContaining(['/paynet/api/v2/sale/1002', '/paynet/api/v2/sale/group/2001']));
		expect(await env.sb.ledger('ops-group')).toEqual([expect.objectContaining({ endpoint: '1002', currency: 'EUR' })]);
	});
});

describe('transaction', () => {
	it('get status by merchant order ID, with and without the gateway order ID; an unknown order is an outcome', async () => {
		const sale = await approved('sale', 'ops-status-1');
		const byBoth = single(
			await runNode(env.sb, {
				resource: 'transaction',
				operation: 'getStatus',
				merchantOrderId: 'ops-status-1',
				gatewayOrderId: sale.orderid,
			}),
		);
		expect(byBoth).toMatchObject({ status: 'approved', orderid: sale.orderid, approvalCode: expect.any(String) });
		const byMerchantId = single(
			await runNode(env.sb, { resource: 'transaction', operation: 'getStatus', merchantOrderId: 'ops-status-1' }),
		);
		expect(byMerchantId.orderid).toBe(sale.orderid);
		const unknown = single(
			await runNode(env.sb, { resource: 'transaction', operation: 'getStatus', merchantOrderId: 'ops-no-such-order' }),
		);
		expect(unknown).toMatchObject({ status: 'error', errorMessage: 'Order not found', final: true });
	});
});

describe('hosted forms', () => {
	const form = (operation: string, extra: IDataObject = {}) => ({
		resource: 'hostedForm',
		operation,
		orderDescription: 'Hosted order',
		amount: '15.00',
		currency: 'USD',
		...CUSTOMER,
		redirectUrl: RETURN_URL,
		...extra,
	});

	it.each([
		['sale', 'sale-form'],
		['preauth', 'preauth-form'],
		['payment', 'payment-form'],
		['payout', 'payout-form'],
		['verifyAccount', 'account-verification-form'],
	])('%s returns the hosted page URL (%s)', async (operation, command) => {
		const merchantOrderId = `ops-form-${operation}`;
		const params =
			operation === 'verifyAccount' ? { ...form(operation), amount: undefined, currency: undefined } : form(operation);
		const out = single(await runNode(env.sb, { ...params, merchantOrderId }));
		expect(out).toMatchObject({ type: 'async-form-response', status: 'processing', client_orderid: merchantOrderId });
		expect(out.redirectUrl).toBe(`${env.sb.url}/sandbox/form/${out.orderid}`);
		const request = (await env.sb.actions()).find((r) => r.client_orderid === merchantOrderId);
		expect(request?.path).toBe(`/paynet/api/v2/${command}/1001`);
	});

	it('payment and payout forms sign with the scheme the user picks', async () => {
		for (const [operation, scheme] of [
			['payment', 'oauth-hmac-sha1'],
			['payment', 'oauth-rsa-sha256'],
			['payout', 'control'],
		]) {
			const out = single(
				await runNode(env.sb, {
					...form(operation),
					merchantOrderId: `ops-scheme-${operation}-${scheme}`,
					options: { signatureScheme: scheme },
				}),
			);
			expect(out.type).toBe('async-form-response');
		}
		const requests = await env.sb.requests();
		const params = (id: string) => requests.find((r) => r.client_orderid === id)?.params ?? {};
		expect(params('ops-scheme-payout-control').control).toMatch(/^[0-9a-f]{40}$/);
		expect(params('ops-scheme-payment-oauth-hmac-sha1').control).toBeUndefined();
	});
});

describe('card references and rebills', () => {
	let cardRefId: string;

	it('create (v2 and v4) and get info', async () => {
		const sale = await approved('sale', 'ops-ref-sale');
		const ids = { merchantOrderId: 'ops-ref-sale', gatewayOrderId: sale.orderid };
		const created = single(await runNode(env.sb, { resource: 'cardReference', operation: 'create', ...ids }));
		expect(created).toMatchObject({ type: 'create-card-ref-response', status: 'approved' });
		cardRefId = created.cardRefId as string;
		expect(cardRefId).toMatch(/^\d+$/);
		const v4 = single(await runNode(env.sb, { resource: 'cardReference', operation: 'createV4', ...ids }));
		expect(v4).toMatchObject({ cardRefId, recurringPaymentId: expect.stringMatching(/^\d+$/) });
		const info = single(
			await runNode(env.sb, { resource: 'cardReference', operation: 'getInfo', cardReferenceId: cardRefId }),
		);
		expect(info).toMatchObject({
			type: 'get-card-info-response',
			bin: '444455',
			lastFourDigits: '1111',
			cardType: 'VISA',
			expireMonth: '12',
			expireYear: '2035',
			cardHolderName: 'JOHN SMITH',
		});
	});

	it.each([
		['rebill', 'make-rebill', 'rebill'],
		['rebillSale', 'make-rebill-sale', 'rebill'],
		['rebillPreauth', 'make-rebill-preauth', undefined],
	])('%s charges the stored card (%s)', async (operation, command, ledgerKind) => {
		const merchantOrderId = `ops-${operation}`;
		const out = single(
			await runNode(env.sb, {
				resource: 'cardReference',
				operation,
				merchantOrderId,
				cardReferenceId: cardRefId,
				amount: '3.30',
				currency: 'USD',
				additionalFields: { comment: 'monthly', recurrentScenario: 'REGULAR' },
				options: WAIT,
			}),
		);
		expect(out).toMatchObject({ status: 'approved', amount: '3.30' });
		const request = (await env.sb.actions()).find((r) => r.client_orderid === merchantOrderId);
		expect(request?.params).toMatchObject({
			login: 'n8n-test-merchant',
			cardrefid: cardRefId,
			recurrent_scenario: 'REGULAR',
		});
		expect(request?.path).toBe(`/paynet/api/v2/${command}/1001`);
		expect((await env.sb.ledger(merchantOrderId)).map((e) => e.kind)).toEqual(ledgerKind ? [ledgerKind] : []);
	});
});

describe('recurring payments (v4, RSA)', () => {
	it('create with hyphenated card fields, then update', async () => {
		const created = single(
			await runNode(env.sb, {
				resource: 'recurringPayment',
				operation: 'create',
				merchantOrderId: 'ops-rp-1',
				currency: 'USD',
				additionalFields: {
					period: 'monthly',
					interval: 1,
					amount: '9.99',
					...CARD,
					cvv: '123',
					firstName: 'John',
					email: 'john@example.com',
				},
			}),
		);
		expect(created).toMatchObject({
			type: 'create-recurring-payment-response',
			status: 'approved',
			client_orderid: 'ops-rp-1',
		});
		const request = (await env.sb.actions()).find((r) => r.path.includes('create-recurring-payment'));
		expect(request?.params).toMatchObject({
			'client-orderid': 'ops-rp-1',
			'credit-card-number': '444455******1111',
			'expire-month': '12',
			'first-name': 'John',
			period: 'monthly',
			interval: '1',
			amount: '9.99',
		});
		const updated = single(
			await runNode(env.sb, {
				resource: 'recurringPayment',
				operation: 'update',
				recurringPaymentId: created.recurringPaymentId,
				additionalFields: { amount: '12.00', currency: 'USD', interval: 2 },
			}),
		);
		expect(updated).toMatchObject({
			type: 'update-recurring-payment-response',
			status: 'approved',
			recurringPaymentId: created.recurringPaymentId,
		});
	});
});

describe('payouts', () => {
	const payout = (operation: string, merchantOrderId: string, extra: IDataObject = {}) => ({
		resource: 'payout',
		operation,
		merchantOrderId,
		amount: '25.00',
		currency: 'USD',
		additionalFields: {
			cardNumber: PAN2,
			expireMonth: '11',
			expireYear: '2033',
			cardholderName: 'JANE ROE',
			orderDescription: 'Winnings',
		},
		...extra,
	});

	it('send (v2, HMAC) and send (v4, RSA) pay out once', async () => {
		for (const [operation, id] of [
			['send', 'ops-payout-v2'],
			['sendV4', 'ops-payout-v4'],
		]) {
			const out = single(await runNode(env.sb, payout(operation, id, { options: WAIT })));
			// The v4 payout is followed with the v4 status, whose reply names no transaction type.
			expect(out).toMatchObject({
				status: 'approved',
				client_orderid: id,
				amountPaidOut: '25.00',
				moneyEffect: 'moved',
			});
			expect((await env.sb.ledger(id)).map((e) => [e.kind, e.amount])).toEqual([['payout', '25.00']]);
		}
		const paths = (await env.sb.requests()).map((r) => r.path);
		expect(paths).toEqual(expect.arrayContaining(['/paynet/api/v2/payout/1001', '/paynet/api/v4/payout/1001']));
	});

	it('check (nothing moves), then pay (money moves)', async () => {
		const checked = single(await runNode(env.sb, payout('check', 'ops-payout-2step', { options: WAIT })));
		expect(checked).toMatchObject({ status: 'approved' });
		expect(await env.sb.ledger('ops-payout-2step')).toEqual([]);
		const paid = single(
			await runNode(env.sb, {
				resource: 'payout',
				operation: 'pay',
				merchantOrderId: 'ops-payout-2step',
				gatewayOrderId: checked.orderid,
			}),
		);
		expect(paid).toMatchObject({ type: 'async-response', orderid: checked.orderid });
		expect((await env.sb.ledger('ops-payout-2step')).map((e) => e.kind)).toEqual(['payout']);
	});

	it('extra fields are sent as named and covered by the OAuth signature', async () => {
		single(
			await runNode(
				env.sb,
				payout('send', 'ops-payout-extra', { extraFields: { field: [{ name: 'preferred_language', value: 'de' }] } }),
			),
		);
		const request = (await env.sb.actions()).find((r) => r.client_orderid === 'ops-payout-extra');
		expect(request?.params).toMatchObject({ preferred_language: 'de' });
	});
});

describe('transfers', () => {
	let storedCard = '';

	it('send (card to card, RSA) and send by reference', async () => {
		const sent = single(
			await runNode(env.sb, {
				resource: 'transfer',
				operation: 'send',
				merchantOrderId: 'ops-transfer-1',
				amount: '40.00',
				currency: 'USD',
				additionalFields: { ...CARD, cvv: '123', destinationCardNumber: PAN2, ipAddress: '203.0.113.7' },
				options: WAIT,
			}),
		);
		expect(sent).toMatchObject({ status: 'approved', amountTransferred: '40.00', moneyEffect: 'moved' });
		expect((await env.sb.ledger('ops-transfer-1')).map((e) => e.kind)).toEqual(['transfer']);

		const sale = await approved('sale', 'ops-transfer-ref-sale');
		const ref = single(
			await runNode(env.sb, {
				resource: 'cardReference',
				operation: 'create',
				merchantOrderId: 'ops-transfer-ref-sale',
				gatewayOrderId: sale.orderid,
			}),
		);
		storedCard = ref.cardRefId as string;
		const byRef = single(
			await runNode(env.sb, {
				resource: 'transfer',
				operation: 'sendByReference',
				merchantOrderId: 'ops-transfer-2',
				amount: '4.00',
				currency: 'USD',
				destinationCardReferenceId: ref.cardRefId,
				options: WAIT,
			}),
		);
		expect(byRef).toMatchObject({ status: 'approved' });
		const request = (await env.sb.actions()).find((r) => r.client_orderid === 'ops-transfer-2');
		expect(request).toMatchObject({ path: '/paynet/api/v4/transfer-by-ref/1001' });
		expect(request?.params).toMatchObject({ 'destination-card-ref-id': ref.cardRefId });
	});

	it('check PAN eligibility (HMAC, client-order-id spelling) by card reference or card number', async () => {
		const byRef = single(
			await runNode(env.sb, {
				resource: 'transfer',
				operation: 'checkPanEligibility',
				merchantOrderId: 'ops-pan-1',
				cardReferenceId: storedCard,
			}),
		);
		expect(byRef).toMatchObject({ type: 'async-response', client_orderid: 'ops-pan-1' });
		single(
			await runNode(env.sb, {
				resource: 'transfer',
				operation: 'checkPanEligibility',
				merchantOrderId: 'ops-pan-2',
				additionalFields: { cardNumber: PAN, cardholderName: 'JOHN SMITH', expireMonth: '1', expireYear: '2031' },
			}),
		);
		const requests = await env.sb.actions();
		expect(requests.find((r) => r.client_orderid === 'ops-pan-1')?.params).toMatchObject({
			'client-order-id': 'ops-pan-1',
			'sending-card-ref-id': storedCard,
		});
		expect(requests.find((r) => r.client_orderid === 'ops-pan-2')?.params).toMatchObject({
			'sending-card-number': '444455******1111',
			'card-printed-name': 'JOHN SMITH',
			'expire-month': '01',
		});
	});
});

describe('3-D Secure', () => {
	/** A sale that stops at 3-D Secure: Wait for Final Status returns the redirect at once. */
	async function pending(merchantOrderId: string) {
		const out = single(await runNode(env.sb, cardPayment({ merchantOrderId, cvv: '321', options: WAIT })));
		expect(out).toMatchObject({ status: 'processing', threeDSecureRequired: true, final: false });
		expect(out.redirectUrl).toBe(`${env.sb.url}/sandbox/acs/${out.orderid}`);
		expect(out.html).toContain('<form');
		return { merchantOrderId, gatewayOrderId: out.orderid as string };
	}

	it.each([
		['uploadPaRes', { paRes: 'eJzVWNmu4zYS' }, 'upload-pares-result'],
		['uploadCRes', { cRes: 'eyJ0aHJlZURTU2VydmVy' }, 'upload-cres-result'],
	])('%s completes the payment', async (operation, result, command) => {
		const ids = await pending(`ops-3ds-${operation}`);
		const out = single(
			await runNode(env.sb, { resource: 'threeDSecure', operation, ...ids, ...result, options: WAIT }),
		);
		expect(out).toMatchObject({ status: 'approved', final: true, orderid: ids.gatewayOrderId });
		const request = (await env.sb.actions()).find((r) => r.path.includes(command));
		expect(request?.params).toMatchObject({
			'client-order-id': ids.merchantOrderId,
			orderid: ids.gatewayOrderId,
			login: 'n8n-test-merchant',
		});
		expect((await env.sb.ledger(ids.merchantOrderId)).map((e) => e.kind)).toEqual(['sale']);
	});

	it('uploadMethodUrlResult reports the method step; the challenge is still pending', async () => {
		const ids = await pending('ops-3ds-method');
		const out = single(
			await runNode(env.sb, {
				resource: 'threeDSecure',
				operation: 'uploadMethodUrlResult',
				...ids,
				threeDSCompInd: 'N',
				additionalFields: { browserLanguage: 'en-US', browserColorDepth: '24' },
			}),
		);
		expect(out).toMatchObject({ type: 'async-response', orderid: ids.gatewayOrderId });
		const order = await env.sb.order(ids.gatewayOrderId);
		expect(order.threeDS).toMatchObject({ pending: true, methodResult: 'N' });
	});
});
