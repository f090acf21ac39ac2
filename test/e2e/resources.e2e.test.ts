// Every resource of the Card Gateway node in a real n8n (our package installed as a community
// package) against the sandbox gateway, which verifies every signature: SHA-1 control, OAuth
// HMAC-SHA1 and RSA-SHA256. One webhook workflow per scenario (test/e2e/workflows/resources-*.json)
// answers with its last node's output; the test checks those values and, where money moves, the
// sandbox's ledger. A 3-D Secure sale is completed through the upload operations and a hosted
// form through the sandbox's card page, posted like a browser would.
//
// Card data reaches n8n only in webhook bodies, sent as application/octet-stream: n8n then keeps
// the body as a binary file (deleted with the execution) and not in the execution row it writes
// when a run starts. Those workflows save no execution data. The last test scans n8n's database
// and logs for card numbers, CVVs and the merchant's secrets.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import {
	MERCHANT,
	PRIVATE_KEY,
	readWorkflows,
	startE2eEnvironment,
	type E2eEnvironment,
} from '../support/e2e-environment';
import type { LedgerEntry, SandboxRequest } from '../support/harness';
import { scaled } from '../support/time-scale';

const { Client, CARD, CARD2, parseForm } = require('../support/sandbox-client');

const RUN = `res-${Date.now().toString(36)}`;
const RETURN_URL = 'https://shop.example.com/payment/return';
const card = (number: string, cvv: string) => ({ number, month: '12', year: '2035', cvv, name: 'JOHN SMITH' });

type Json = Record<string, unknown>;
type Output = Record<string, string | boolean | Json>;

let env: E2eEnvironment;

beforeAll(
	async () => {
		const workflows = readWorkflows(join(__dirname, 'workflows')).filter((w) => String(w.id).startsWith('e2eRes'));
		expect(workflows).toHaveLength(11);
		env = await startE2eEnvironment({ port: 5730, workflows, publish: workflows.map((w) => String(w.id)) });
	},
	scaled(15 * 60_000),
);
afterAll(async () => {
	await env?.stop();
	await require('undici').getGlobalDispatcher().close();
}, scaled(60_000));
/**
 * Calls a scenario's webhook and returns its last node's JSON. Card data goes as an octet-stream
 * body (see the top of the file); other bodies as JSON.
 */
async function call<T = Record<string, Output>>(path: string, body: Json, { cardData = false } = {}): Promise<T> {
	const response = await env.n8n.webhook(path, {
		method: 'POST',
		headers: { 'content-type': cardData ? 'application/octet-stream' : 'application/json' },
		body: JSON.stringify(body),
	});
	const text = await response.text();
	if (response.status !== 200) throw new Error(`webhook ${path}: HTTP ${response.status} ${text}`);
	for (const pan of [CARD, CARD2]) expect(text).not.toContain(pan);
	return JSON.parse(text) as T;
}

async function ledger(clientOrderId: string): Promise<string[]> {
	const { entries } = await env.admin<{ entries: LedgerEntry[] }>(
		'GET',
		`ledger?client_orderid=${encodeURIComponent(clientOrderId)}`,
	);
	return entries.map((e) => `${e.kind} ${e.amount} ${e.currency}`);
}

async function requestsFor(clientOrderId: string): Promise<SandboxRequest[]> {
	const { requests } = await env.admin<{ requests: SandboxRequest[] }>('GET', 'requests');
	return requests.filter((r) => r.client_orderid === clientOrderId);
}

/** The requests that act (a new order under a typed order ID is first looked up with a status query). */
async function actionsFor(clientOrderId: string): Promise<SandboxRequest[]> {
	return (await requestsFor(clientOrderId)).filter((request) => request.op !== 'status');
}

const status = (merchantOrderId: string, gatewayOrderId = '') =>
	call<Output>('e2e-status', { merchantOrderId, gatewayOrderId });

// Values carried from one scenario to the next.
const ids: Record<string, string> = {};

describe('payment and transaction', () => {
	test(
		'sale, preauth → partial capture, partial return of the sale, void of the preauth, synchronous account verification',
		async () => {
			const out = await call('e2e-payment', { prefix: `${RUN}-pay`, card: card(CARD, '123') }, { cardData: true });
			expect(out.sale).toMatchObject({
				status: 'approved',
				final: true,
				transactionType: 'sale',
				amount: '20.00',
				currency: 'USD',
				client_orderid: `${RUN}-pay-sale`,
				bin: '444455',
				lastFourDigits: '1111',
				cardType: 'VISA',
			});
			expect(out.preauth).toMatchObject({
				status: 'approved',
				transactionType: 'preauth',
				amount: '30.00',
				client_orderid: `${RUN}-pay-auth`,
			});
			expect(out.capture).toMatchObject({
				status: 'approved',
				transactionType: 'capture',
				orderid: out.preauth.orderid,
			});
			expect(out.partialReturn).toMatchObject({ status: 'approved', orderid: out.sale.orderid, amount: '15.00' });
			expect(out.void).toMatchObject({ status: 'approved', transactionType: 'void', orderid: out.preauth.orderid });
			expect(out.verify).toMatchObject({
				type: 'status-response',
				status: 'approved',
				final: true,
				client_orderid: `${RUN}-pay-verify`,
			});
			expect(out.verify.cardRefId).toMatch(/^\d+$/);
			ids.saleMerchant = `${RUN}-pay-sale`;
			ids.saleGateway = String(out.sale.orderid);
			ids.verifiedCardRef = String(out.verify.cardRefId);

			expect(await ledger(`${RUN}-pay-sale`)).toEqual(['sale 20.00 USD', 'return 5.00 USD']);
			expect(await ledger(`${RUN}-pay-auth`)).toEqual(['capture 12.50 USD', 'void 30.00 USD']);
			const [refund] = (await requestsFor(`${RUN}-pay-sale`)).filter((r) => r.op === 'return');
			expect(refund.params).toMatchObject({ amount: '5.00', currency: 'USD', comment: 'partial refund' });
			expect((await requestsFor(`${RUN}-pay-verify`)).map((r) => r.path)).toEqual([
				'/paynet/api/v2/sync/account-verification/1001',
			]);
		},
		scaled(120_000),
	);
	test(
		'get status: by both IDs, by the merchant ID alone, and of an unknown order; these executions are kept',
		async () => {
			const byBoth = await status(ids.saleMerchant, ids.saleGateway);
			expect(byBoth).toMatchObject({
				type: 'status-response',
				status: 'approved',
				orderid: ids.saleGateway,
				client_orderid: ids.saleMerchant,
				amount: '15.00',
				currency: 'USD',
				lastFourDigits: '1111',
			});
			expect(byBoth.raw).toMatchObject({
				'paynet-order-id': ids.saleGateway,
				'merchant-order-id': ids.saleMerchant,
				amount: '15.00',
			});
			expect(byBoth.approvalCode).toMatch(/^\d{6}$/);
			expect((await status(ids.saleMerchant)).orderid).toBe(ids.saleGateway);
			expect(await status(`${RUN}-no-such-order`)).toMatchObject({
				status: 'error',
				final: true,
				errorMessage: 'Order not found',
			});
			const executions: Array<{ status: string }> = await env.n8n.executions('e2eResStatus');
			expect(executions.length).toBeGreaterThanOrEqual(3);
			expect(executions.every((e) => e.status === 'success')).toBe(true);
		},
		scaled(120_000),
	);
});

describe('hosted form', () => {
	test(
		'the sale form URL leads to the sandbox card page; posted there like a browser, the order is approved',
		async () => {
			const merchantOrderId = `${RUN}-form`;
			const form = await call<Output>('e2e-hosted-form', { merchantOrderId, amount: '15.00' });
			expect(form).toMatchObject({
				type: 'async-form-response',
				status: 'processing',
				client_orderid: merchantOrderId,
			});
			expect(form.redirectUrl).toBe(`${env.sandbox.url}/sandbox/form/${form.orderid}`);
			expect((await status(merchantOrderId, String(form.orderid))).status).toBe('processing');

			const client = new Client(env.sandbox);
			const page = await client.getPage(form.redirectUrl);
			expect(page.status).toBe(200);
			const fields = parseForm(page.text);
			expect(fields).toMatchObject({ method: 'post', action: form.redirectUrl });
			const done = await client.postPage(fields.action, {
				credit_card_number: CARD2,
				expire_month: '11',
				expire_year: '2033',
				cvv2: '123',
				card_printed_name: 'JANE ROE',
			});
			expect(done.status).toBe(200);
			const back = parseForm(done.text);
			expect(back).toMatchObject({
				method: 'post',
				action: RETURN_URL,
				fields: { status: 'approved', orderid: form.orderid, client_orderid: merchantOrderId },
			});

			expect(await status(merchantOrderId, String(form.orderid))).toMatchObject({
				status: 'approved',
				final: true,
				amount: '15.00',
				bin: '555555',
				lastFourDigits: '4444',
				cardType: 'MASTERCARD',
			});
			expect(await ledger(merchantOrderId)).toEqual(['sale 15.00 USD']);
			expect((await requestsFor(merchantOrderId))[0].path).toBe('/paynet/api/v2/sale-form/1001');
		},
		scaled(120_000),
	);
});

describe('card reference and recurring payment', () => {
	test(
		'create (control), create V4 (RSA), get info and rebill of a stored card',
		async () => {
			const out = await call(
				'e2e-card-reference',
				{ prefix: `${RUN}-ref`, card: card(CARD, '123') },
				{ cardData: true },
			);
			expect(out.sale).toMatchObject({ status: 'approved', amount: '10.00' });
			expect(out.create).toMatchObject({ type: 'create-card-ref-response', status: 'approved' });
			expect(out.create.cardRefId).toMatch(/^\d+$/);
			expect(out.createV4).toMatchObject({ cardRefId: out.create.cardRefId });
			expect(out.createV4.recurringPaymentId).toMatch(/^\d+$/);
			expect(out.info).toMatchObject({
				type: 'get-card-info-response',
				bin: '444455',
				lastFourDigits: '1111',
				cardType: 'VISA',
				expireMonth: '12',
				expireYear: '2035',
				cardHolderName: 'JOHN SMITH',
			});
			expect(out.rebill).toMatchObject({
				status: 'approved',
				final: true,
				amount: '3.30',
				client_orderid: `${RUN}-ref-rebill`,
			});
			ids.cardRef = String(out.create.cardRefId);

			expect(await ledger(`${RUN}-ref-sale`)).toEqual(['sale 10.00 USD']);
			expect(await ledger(`${RUN}-ref-rebill`)).toEqual(['rebill 3.30 USD']);
			const paths = (await requestsFor(`${RUN}-ref-sale`)).map((r) => r.path);
			expect(paths).toEqual(
				expect.arrayContaining(['/paynet/api/v2/create-card-ref/1001', '/paynet/api/v4/create-card-ref/1001']),
			);
		},
		scaled(120_000),
	);
	test(
		'recurring payment: create on the stored card and update (RSA)',
		async () => {
			const out = await call('e2e-recurring', { merchantOrderId: `${RUN}-sub`, cardRefId: ids.cardRef });
			expect(out.create).toMatchObject({
				type: 'create-recurring-payment-response',
				status: 'approved',
				client_orderid: `${RUN}-sub`,
			});
			expect(out.create.recurringPaymentId).toMatch(/^\d+$/);
			expect(out.update).toMatchObject({
				type: 'update-recurring-payment-response',
				status: 'approved',
				recurringPaymentId: out.create.recurringPaymentId,
			});
			const { requests } = await env.admin<{ requests: SandboxRequest[] }>('GET', 'requests');
			const created = requests.find((r) => r.params?.['client-orderid'] === `${RUN}-sub`);
			expect(created?.path).toBe('/paynet/api/v4/create-recurring-payment/1001');
			expect(created?.params).toMatchObject({
				'card-ref-id': ids.cardRef,
				period: 'monthly',
				interval: '1',
				amount: '9.99',
			});
			const updated = requests.find((r) => r.path.includes('update-recurring-payment'));
			expect(updated?.params).toMatchObject({
				'recurring-payment-id': out.create.recurringPaymentId,
				amount: '12.00',
				interval: '2',
			});
		},
		scaled(120_000),
	);
});

describe('payout and transfer', () => {
	test(
		'payout: send (v2, HMAC) to a card, check then pay (RSA) to a bank account, send (v4, RSA) to a card; each moves money once',
		async () => {
			const out = await call(
				'e2e-payout',
				{ prefix: `${RUN}-po`, card: { number: CARD2, month: '11', year: '2033', name: 'JANE ROE' } },
				{ cardData: true },
			);
			expect(out.send).toMatchObject({
				status: 'approved',
				transactionType: 'payout',
				amount: '25.00',
				client_orderid: `${RUN}-po-v2`,
			});
			expect(out.check).toMatchObject({ status: 'approved', amount: '40.00', client_orderid: `${RUN}-po-2step` });
			expect(out.pay).toMatchObject({ status: 'approved', orderid: out.check.orderid });
			// A V4 payout is followed with the V4 status, whose reply (as the vendor's emulator sends it) names no transaction type.
			expect(out.sendV4).toMatchObject({
				status: 'approved',
				amount: '15.00',
				amountPaidOut: '15.00',
				moneyEffect: 'moved',
				client_orderid: `${RUN}-po-v4`,
			});

			expect(await ledger(`${RUN}-po-v2`)).toEqual(['payout 25.00 USD']);
			expect(await ledger(`${RUN}-po-2step`)).toEqual(['payout 40.00 USD']);
			expect(await ledger(`${RUN}-po-v4`)).toEqual(['payout 15.00 USD']);
			expect((await actionsFor(`${RUN}-po-v2`))[0]).toMatchObject({
				path: '/paynet/api/v2/payout/1001',
				params: { credit_card_number: '555555******4444' },
			});
			const twoStep = await requestsFor(`${RUN}-po-2step`);
			expect(twoStep.map((r) => r.path)).toEqual(
				expect.arrayContaining(['/paynet/api/v4/payout-check/1001', '/paynet/api/v4/payout-pay/1001']),
			);
			// api_v4_payout-pay: the login and both order IDs
			expect(twoStep.filter((r) => r.path === '/paynet/api/v4/payout-pay/1001').map((r) => r.params)).toEqual([
				{ login: MERCHANT.login, client_orderid: `${RUN}-po-2step`, orderid: String(out.check.orderid) },
			]);
			expect((await actionsFor(`${RUN}-po-v4`))[0].path).toBe('/paynet/api/v4/payout/1001');
		},
		scaled(120_000),
	);
	test(
		'transfer: card to card (RSA), between stored cards (RSA), PAN eligibility (HMAC)',
		async () => {
			const out = await call(
				'e2e-transfer',
				{
					prefix: `${RUN}-tr`,
					card: card(CARD, '123'),
					destinationCardNumber: CARD2,
					sourceCardRefId: ids.cardRef,
					destinationCardRefId: ids.verifiedCardRef,
				},
				{ cardData: true },
			);
			expect(out.send).toMatchObject({
				status: 'approved',
				amount: '40.00',
				amountTransferred: '40.00',
				moneyEffect: 'moved',
				client_orderid: `${RUN}-tr-card`,
			});
			expect(out.sendByReference).toMatchObject({
				status: 'approved',
				amount: '4.00',
				client_orderid: `${RUN}-tr-ref`,
			});
			expect(out.panEligibility).toMatchObject({ type: 'async-response', client_orderid: `${RUN}-tr-pan` });

			expect(await ledger(`${RUN}-tr-card`)).toEqual(['transfer 40.00 USD']);
			expect(await ledger(`${RUN}-tr-ref`)).toEqual(['transfer 4.00 USD']);
			expect(await ledger(`${RUN}-tr-pan`)).toEqual([]);
			expect((await actionsFor(`${RUN}-tr-card`))[0]).toMatchObject({
				path: '/paynet/api/v4/transfer/1001',
				params: { 'destination-card-no': '555555******4444' },
			});
			expect((await actionsFor(`${RUN}-tr-ref`))[0]).toMatchObject({
				path: '/paynet/api/v4/transfer-by-ref/1001',
				params: { 'destination-card-ref-id': ids.verifiedCardRef, 'source-card-ref-id': ids.cardRef },
			});
			expect((await actionsFor(`${RUN}-tr-pan`))[0]).toMatchObject({
				params: { 'client-order-id': `${RUN}-tr-pan`, 'sending-card-ref-id': ids.cardRef },
			});
		},
		scaled(120_000),
	);
});

describe("operations of the vendor's clients", () => {
	test(
		'transfer between stored cards (v2, control), sale with a hosted-fields ticket (v4, RSA) and its v4 status',
		async () => {
			const ticket = await env.admin<{ token: string }>('POST', 'hosted-fields/tokens', {
				credit_card_number: CARD2,
				expire_month: '11',
				expire_year: '2033',
				cvv2: '123',
			});
			const out = await call('e2e-vendor', {
				prefix: `${RUN}-vd`,
				sourceCardRefId: ids.cardRef,
				destinationCardRefId: ids.verifiedCardRef,
				hostedFieldsToken: ticket.token,
			});
			expect(out.transferByReferenceV2).toMatchObject({
				status: 'approved',
				final: true,
				transactionType: 'transfer',
				amount: '6.50',
				client_orderid: `${RUN}-vd-tbr`,
			});
			expect(out.saleWithToken).toMatchObject({ status: 'processing', client_orderid: `${RUN}-vd-v4sale` });
			expect(out.statusV4).toMatchObject({
				status: 'approved',
				final: true,
				orderid: out.saleWithToken.orderid,
				amount: '12.34',
				lastFourDigits: '4444',
				cardHolderName: 'JANE ROE',
			});

			expect(await ledger(`${RUN}-vd-tbr`)).toEqual(['transfer 6.50 USD']);
			expect(await ledger(`${RUN}-vd-v4sale`)).toEqual(['sale 12.34 USD']);
			const [transfer] = await actionsFor(`${RUN}-vd-tbr`);
			expect(transfer).toMatchObject({
				path: '/paynet/api/v2/transfer-by-ref/1001',
				params: { 'source-card-ref-id': ids.cardRef, 'destination-card-ref-id': ids.verifiedCardRef, amount: '6.50' },
			});
			expect(transfer.params?.control).toMatch(/^[0-9a-f]{40}$/);
			const paths = (await requestsFor(`${RUN}-vd-v4sale`)).map((r) => r.path);
			// Is the order ID new? (the V4 status, by the merchant's ID alone); the sale; its V4 status.
			expect(paths).toEqual(['/paynet/api/v4/status/1001', '/paynet/api/v4/sale/1001', '/paynet/api/v4/status/1001']);
		},
		scaled(120_000),
	);
});

describe('3-D Secure', () => {
	async function pendingSale(merchantOrderId: string) {
		const out = await call('e2e-3ds-start', { merchantOrderId, card: card(CARD, '321') }, { cardData: true });
		expect(out.sale).toMatchObject({
			status: 'processing',
			final: false,
			threeDSecureRequired: true,
			client_orderid: merchantOrderId,
		});
		expect(out.sale.redirectUrl).toBe(`${env.sandbox.url}/sandbox/acs/${out.sale.orderid}`);
		expect(out.status).toMatchObject({ status: 'processing', threeDSecureRequired: true, orderid: out.sale.orderid });
		expect(out.status.html).toContain('<form');
		expect(await ledger(merchantOrderId)).toEqual([]);
		return String(out.sale.orderid);
	}

	test(
		'a CVV-321 sale waits for 3-D Secure; the uploaded PARes completes it',
		async () => {
			const merchantOrderId = `${RUN}-3ds1`;
			const gatewayOrderId = await pendingSale(merchantOrderId);
			const out = await call('e2e-3ds-pares', { merchantOrderId, gatewayOrderId, paRes: 'eJzVWNmu4zYS-e2e-pares' });
			expect(out.before).toMatchObject({ status: 'processing', threeDSecureRequired: true });
			expect(out.upload).toMatchObject({ status: 'approved', final: true, orderid: gatewayOrderId });
			expect(out.after).toMatchObject({ status: 'approved', final: true, amount: '18.00', transactionType: 'sale' });
			expect(await ledger(merchantOrderId)).toEqual(['sale 18.00 USD']);
			const upload = (await requestsFor(merchantOrderId)).find((r) => r.op === 'upload-pares-result');
			expect(upload?.path).toMatch(/\/upload-pares-result\/1001$/);
		},
		scaled(120_000),
	);
	test(
		'a CVV-321 sale completed with the 3-D Secure 2 method result and the CRes',
		async () => {
			const merchantOrderId = `${RUN}-3ds2`;
			const gatewayOrderId = await pendingSale(merchantOrderId);
			const out = await call('e2e-3ds-cres', { merchantOrderId, gatewayOrderId, cRes: 'eyJ0aHJlZURTU2VydmVy' });
			expect(out.method).toMatchObject({ type: 'async-response', orderid: gatewayOrderId });
			expect(out.upload).toMatchObject({ status: 'approved', final: true, orderid: gatewayOrderId });
			expect(out.status).toMatchObject({ status: 'approved', amount: '18.00' });
			const order = await env.admin<Json>('GET', `orders/${gatewayOrderId}`);
			expect(order.threeDS).toMatchObject({ pending: false, methodResult: 'Y' });
			expect(await ledger(merchantOrderId)).toEqual(['sale 18.00 USD']);
		},
		scaled(120_000),
	);
});

describe('card data at rest', () => {
	test(
		"n8n's database and logs hold no card number, CVV, control key or private key",
		async () => {
			const n8nFolder = join(env.userFolder, '.n8n');
			const files = [
				join(n8nFolder, 'database.sqlite'),
				join(n8nFolder, 'database.sqlite-wal'),
				join(env.userFolder, 'n8n.log'),
			];
			expect(files.filter((file) => !existsSync(file))).toEqual([]);
			// Also n8n's event log and the binary data folder (the card-data bodies, deleted with their executions).
			const walk = (dir: string): string[] =>
				existsSync(dir)
					? readdirSync(dir).flatMap((name) =>
							statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)],
						)
					: [];
			files.push(
				...readdirSync(n8nFolder)
					.filter((name) => name.startsWith('n8nEventLog'))
					.map((name) => join(n8nFolder, name)),
				...walk(join(n8nFolder, 'storage')),
			);

			const keyLines = PRIVATE_KEY.split('\n').filter((line) => line.length === 64);
			const needles = [
				CARD,
				CARD2,
				...['123', '321'].flatMap((cvv) => [
					`"cvv2":"${cvv}"`,
					`"cvv":"${cvv}"`,
					`"cvv2": "${cvv}"`,
					`"cvv": "${cvv}"`,
					`cvv2=${cvv}`,
				]),
				MERCHANT.controlKey,
				keyLines[Math.floor(keyLines.length / 2)],
			];
			expect(keyLines.length).toBeGreaterThan(10);
			const found = files.flatMap((file) => {
				const bytes = readFileSync(file);
				return needles
					.filter((needle) => bytes.includes(Buffer.from(needle, 'utf8')))
					.map((needle) => `${file}: ${needle.slice(0, 8)}…`);
			});
			expect(found).toEqual([]);
			// The search does find what is there: the workflows' IDs are in the database.
			const database = Buffer.concat(files.slice(0, 2).map((file) => readFileSync(file)));
			expect(database.includes(Buffer.from('e2eResPayment'))).toBe(true);
			// And n8n kept no execution of the workflows that carried card data.
			for (const workflowId of ['e2eResPayment', 'e2eResCardRef', 'e2eResPayout', 'e2eResTransfer', 'e2eRes3dsStart']) {
				expect(await env.n8n.executions(workflowId)).toEqual([]);
			}
		},
		scaled(60_000),
	);
});
