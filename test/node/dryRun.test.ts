// Dry Run (issue #15): every item is built and signed as for a real run, nothing money-moving is
// sent. The sandbox's request log and ledger are the witnesses.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import * as cardReference from '../../nodes/CardGateway/actions/cardReference';
import { movesMoney } from '../../nodes/CardGateway/actions/common/core/facts';
import type { Operation } from '../../nodes/CardGateway/actions/common/core/operation';
import * as hostedForm from '../../nodes/CardGateway/actions/hostedForm';
import * as payment from '../../nodes/CardGateway/actions/payment';
import * as payout from '../../nodes/CardGateway/actions/payout';
import * as recurringPayment from '../../nodes/CardGateway/actions/recurringPayment';
import * as threeDSecure from '../../nodes/CardGateway/actions/threeDSecure';
import * as transaction from '../../nodes/CardGateway/actions/transaction';
import * as transfer from '../../nodes/CardGateway/actions/transfer';

import {
	CARD,
	CUSTOMER,
	PAN,
	PAN2,
	RETURN_URL,
	WAIT,
	cardPayment,
	jsonOf,
	runNode,
	single,
	useSandbox,
	type Sandbox,
} from '../support/harness';

const RESOURCES = { cardReference, hostedForm, payment, payout, recurringPayment, threeDSecure, transaction, transfer };

const env = useSandbox();

beforeEach(() => env.sb.reset());

/** Approved sales of 10.00 USD, one per order ID; returns their gateway order IDs. */
async function approvedSales(sb: Sandbox, ids: string[]): Promise<string[]> {
	const run = await runNode(sb, cardPayment({ merchantOrderId: '={{ $json.id }}', options: WAIT }), {
		input: ids.map((id) => ({ id })),
	});
	return jsonOf(run).map((item) => String(item.orderid));
}

/** The commands that reached the sandbox after the first `from` requests. */
const ops = async (sb: Sandbox, from = 0) => (await sb.requests()).slice(from).map((request) => request.op);

const bulkReturn = (options: INodeParameters, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'payment',
	operation: 'return',
	merchantOrderId: '={{ $json.id }}',
	gatewayOrderId: '={{ $json.orderid }}',
	additionalFields: { comment: 'refund', amount: '={{ $json.amount }}', currency: '={{ $json.amount ? "USD" : "" }}' },
	options,
	...extra,
});

describe('dry run of a bulk refund', () => {
	it('says per order what a real run would return; only status queries are sent, the ledger does not change', async () => {
		const orderids = await approvedSales(env.sb, ['dry-1', 'dry-2', 'dry-3']);
		const mark = (await env.sb.requests()).length;
		const before = await env.sb.ledger();
		const run = await runNode(env.sb, bulkReturn({ dryRun: true, concurrency: 2 }), {
			input: [
				{ id: 'dry-1', orderid: orderids[0] },
				{ id: 'dry-2', orderid: orderids[1], amount: '4.00' },
				{ id: 'dry-3', orderid: orderids[2], amount: '12.00' },
			],
		});
		expect(run.error).toBeUndefined();
		const [full, partial, tooMuch] = jsonOf(run);
		expect(full).toMatchObject({
			dryRun: true,
			operation: 'Payment → Return',
			client_orderid: 'dry-1',
			orderid: orderids[0],
			order: { known: true, status: 'approved', amount: '10.00', currency: 'USD', transactionType: 'sale' },
			wouldDo: 'would return 10.00 USD (all that is left)',
		});
		expect(full.request).toMatchObject({
			method: 'POST',
			url: `${env.sb.url}/paynet/api/v2/return/1001`,
			signature: expect.stringContaining('control'),
		});
		expect((full.request as IDataObject).fields).toEqual({
			login: expect.any(String),
			client_orderid: 'dry-1',
			orderid: orderids[0],
			comment: 'refund',
		});
		expect(partial.wouldDo).toBe('would return 4.00 USD of 10.00 USD left');
		// What a real run would not do leads; what was asked follows.
		expect(tooMuch.wouldDo).toBe(
			'would be refused by the gateway: 12.00 USD is more than the 10.00 USD left (asked: return 12.00 USD of 10.00 USD left)',
		);
		expect(await ops(env.sb, mark)).toEqual(['status', 'status', 'status']);
		expect(await env.sb.ledger()).toEqual(before);
	});

	it('an order the gateway does not know is reported, not guessed', async () => {
		const out = single(
			await runNode(env.sb, bulkReturn({ dryRun: true }), { input: [{ id: 'dry-none', orderid: '999999' }] }),
		);
		expect(out).toMatchObject({
			order: { known: false },
			wouldDo: expect.stringContaining('the gateway does not find the order'),
		});
		expect(await ops(env.sb)).toEqual(['status']);
	});
});

describe('dry run of new orders', () => {
	it('a sale: the request is shown masked (first 6 / last 4, no CVV, no control); whether the order ID is known is asked', async () => {
		await approvedSales(env.sb, ['dry-known']);
		const mark = (await env.sb.requests()).length;
		const before = await env.sb.ledger();
		const run = await runNode(env.sb, cardPayment({ merchantOrderId: '={{ $json.id }}', options: { dryRun: true } }), {
			input: [{ id: 'dry-new' }, { id: 'dry-known' }],
		});
		const [fresh, known] = jsonOf(run);
		const fields = (fresh.request as IDataObject).fields as IDataObject;
		expect(fields).toMatchObject({
			client_orderid: 'dry-new',
			amount: '10.00',
			currency: 'USD',
			credit_card_number: '444455******1111',
		});
		expect(Object.keys(fields).filter((name) => /cvv|control/i.test(name))).toEqual([]);
		expect(fresh).toMatchObject({
			order: { known: false },
			wouldDo: 'would charge 10.00 USD as new order "dry-new" (the gateway does not know this order ID yet)',
		});
		expect(known.wouldDo).toMatch(
			/^would send nothing: the gateway already has an order "dry-known" \(status "approved", 10.00 USD\), and a real run reports that order/,
		);
		expect(run.serialised).not.toContain(PAN);
		expect(await ops(env.sb, mark)).toEqual(['status', 'status']);
		expect(await env.sb.ledger()).toEqual(before);
	});

	it('a generated order ID is new by construction (drawn for this plan): nothing at all is sent', async () => {
		const out = single(await runNode(env.sb, cardPayment({ options: { dryRun: true } })));
		expect(out.wouldDo).toMatch(
			/^would charge 10.00 USD as new order "n8n-[a-z]{14}" \(an order ID drawn for this plan, new by construction: a run bound to the plan sends it/,
		);
		expect(await env.sb.requests()).toEqual([]);
	});

	it('input that a real run would refuse fails the same way, before anything is sent', async () => {
		const run = await runNode(env.sb, cardPayment({ currency: 'DOLLARS', options: { dryRun: true } }));
		expect(run.error?.message).toMatch(/currency/i);
		expect(await env.sb.requests()).toEqual([]);
	});

	it('OAuth signing material is checked as for a real run (an unreadable private key fails)', async () => {
		const payout = {
			resource: 'payout',
			operation: 'sendV4',
			merchantOrderId: 'dry-key',
			amount: '5.00',
			currency: 'USD',
			additionalFields: { cardNumber: PAN2, expireMonth: '11', expireYear: '2033', cardholderName: 'JANE ROE' },
			options: { dryRun: true },
		};
		const run = await runNode(env.sb, payout, { credentials: { privateKey: 'not a key' } });
		expect(run.error?.message).toMatch(/key/i);
		expect(await env.sb.requests()).toEqual([]);
	});
});

describe('invariant: a dry run never moves money, whatever else is set', () => {
	const payoutCard = {
		cardNumber: PAN2,
		expireMonth: '11',
		expireYear: '2033',
		cardholderName: 'JANE ROE',
		orderDescription: 'Winnings',
	};
	const everythingElse = {
		...WAIT,
		concurrency: 4,
		includeRawReply: true,
		allowAiMoneyMovement: true,
		maxAmountPerItem: '1000',
		maxTotalPerRun: '5000 USD',
		dryRun: true,
	};

	/** Every money-moving operation of the node, as resource.operation, from the node's own modules. */
	const moneyMoving = Object.entries(RESOURCES).flatMap(([resource, module]) =>
		Object.entries(module.operations as Record<string, Operation>)
			.filter(([, operation]) => movesMoney(operation.spec))
			.map(([operation]) => `${resource}.${operation}`),
	);

	it('every money-moving operation, as a node and as an AI tool: only status queries reach the gateway, the ledger is unchanged', async () => {
		const [saleId] = await approvedSales(env.sb, ['inv-sale']);
		const preauth = single(
			await runNode(env.sb, cardPayment({ merchantOrderId: 'inv-preauth', options: WAIT }, 'preauth')),
		);
		const checked = single(
			await runNode(env.sb, {
				resource: 'payout',
				operation: 'check',
				merchantOrderId: 'inv-check',
				amount: '7.00',
				currency: 'USD',
				additionalFields: payoutCard,
				options: WAIT,
			}),
		);
		const cardRefId = single(
			await runNode(env.sb, {
				resource: 'cardReference',
				operation: 'create',
				merchantOrderId: 'inv-sale',
				gatewayOrderId: saleId,
			}),
		).cardRefId;
		const subscription = single(
			await runNode(env.sb, {
				resource: 'recurringPayment',
				operation: 'create',
				merchantOrderId: 'inv-rp',
				currency: 'USD',
				additionalFields: { period: 'monthly', interval: 1, amount: '9.99', cardReferenceId: cardRefId },
			}),
		).recurringPaymentId;
		// A sale waiting for the customer's 3-D Secure check: the uploads would complete it.
		const pending = single(
			await runNode(env.sb, cardPayment({ merchantOrderId: 'inv-3ds', cvv: '321', options: WAIT })),
		);
		const upload = (operation: string, fields: INodeParameters) => ({
			resource: 'threeDSecure',
			operation,
			merchantOrderId: 'inv-3ds',
			gatewayOrderId: pending.orderid,
			...fields,
		});
		const before = await env.sb.ledger();
		const mark = (await env.sb.requests()).length;
		const rebill = (operation: string) => ({
			resource: 'cardReference',
			operation,
			merchantOrderId: `inv-${operation}`,
			cardReferenceId: cardRefId,
			amount: '3.30',
			currency: 'USD',
		});
		const runs: Record<string, INodeParameters> = {
			'payment.sale': cardPayment({ merchantOrderId: 'inv-new' }),
			'payment.preauth': cardPayment({ merchantOrderId: 'inv-new-p' }, 'preauth'),
			'payment.capture': {
				resource: 'payment',
				operation: 'capture',
				merchantOrderId: 'inv-preauth',
				gatewayOrderId: preauth.orderid,
			},
			'payment.return': {
				resource: 'payment',
				operation: 'return',
				merchantOrderId: 'inv-sale',
				gatewayOrderId: saleId,
				additionalFields: { comment: 'x' },
			},
			'payment.void': {
				resource: 'payment',
				operation: 'void',
				merchantOrderId: 'inv-sale',
				gatewayOrderId: saleId,
				comment: 'x',
			},
			'cardReference.rebill': rebill('rebill'),
			'cardReference.rebillSale': rebill('rebillSale'),
			'cardReference.rebillPreauth': rebill('rebillPreauth'),
			'hostedForm.payout': {
				resource: 'hostedForm',
				operation: 'payout',
				merchantOrderId: 'inv-form',
				orderDescription: 'Payout',
				amount: '15.00',
				currency: 'USD',
				...CUSTOMER,
				redirectUrl: RETURN_URL,
			},
			'recurringPayment.create': {
				resource: 'recurringPayment',
				operation: 'create',
				merchantOrderId: 'inv-rp-2',
				currency: 'USD',
				additionalFields: { period: 'monthly', interval: 1, amount: '9.99', cardReferenceId: cardRefId },
			},
			'recurringPayment.update': {
				resource: 'recurringPayment',
				operation: 'update',
				recurringPaymentId: subscription,
				additionalFields: { amount: '12.00', currency: 'USD' },
			},
			'recurringPayment.charge': {
				resource: 'recurringPayment',
				operation: 'charge',
				merchantOrderId: 'inv-rp-charge',
				recurringPaymentId: subscription,
				amount: '9.99',
				currency: 'USD',
			},
			'payout.sendByReferenceV4': {
				resource: 'payout',
				operation: 'sendByReferenceV4',
				merchantOrderId: 'inv-payout-ref',
				amount: '3.00',
				currency: 'USD',
				destinationCardReferenceId: cardRefId,
			},
			'payout.send': {
				resource: 'payout',
				operation: 'send',
				merchantOrderId: 'inv-payout',
				amount: '3.00',
				currency: 'USD',
				additionalFields: payoutCard,
			},
			'payout.sendV4': {
				resource: 'payout',
				operation: 'sendV4',
				merchantOrderId: 'inv-payout4',
				amount: '3.00',
				currency: 'USD',
				additionalFields: payoutCard,
			},
			'payout.pay': {
				resource: 'payout',
				operation: 'pay',
				merchantOrderId: 'inv-check',
				gatewayOrderId: checked.orderid,
			},
			'transfer.send': {
				resource: 'transfer',
				operation: 'send',
				merchantOrderId: 'inv-transfer',
				amount: '4.00',
				currency: 'USD',
				additionalFields: { ...CARD, cvv: '123', destinationCardNumber: PAN2 },
			},
			'transfer.sendByReference': {
				resource: 'transfer',
				operation: 'sendByReference',
				merchantOrderId: 'inv-transfer-ref',
				amount: '4.00',
				currency: 'USD',
				destinationCardReferenceId: cardRefId,
			},
			'transfer.sendByReferenceV2': {
				resource: 'transfer',
				operation: 'sendByReferenceV2',
				merchantOrderId: 'inv-transfer-ref2',
				amount: '4.00',
				currency: 'USD',
				destinationCardReferenceId: cardRefId,
				ipAddress: CUSTOMER.ipAddress,
			},
			'payment.saleWithToken': {
				...cardPayment({ merchantOrderId: 'inv-token' }),
				operation: 'saleWithToken',
				hostedFieldsToken: 'hf-ticket-never-used',
			},
			'threeDSecure.uploadCRes': upload('uploadCRes', { cRes: 'eyJjaGFsbGVuZ2UiOiJwYXNzIn0' }),
			'threeDSecure.uploadPaRes': upload('uploadPaRes', { paRes: 'eJzLSM3JyQcABiwCFQ' }),
			'threeDSecure.uploadMethodUrlResult': upload('uploadMethodUrlResult', { threeDSCompInd: 'Y' }),
		};
		expect(Object.keys(runs).sort()).toEqual([...moneyMoving].sort());
		for (const asTool of [false, true]) {
			for (const [name, parameters] of Object.entries(runs)) {
				const run = await runNode(env.sb, { ...parameters, options: everythingElse }, { asTool });
				expect([name, run.error?.message]).toEqual([name, undefined]);
				expect(jsonOf(run)[0]).toMatchObject({ dryRun: true, limits: 'within the spending limits' });
				expect(run.serialised).not.toContain(PAN2);
			}
		}
		expect(new Set(await ops(env.sb, mark))).toEqual(new Set(['status']));
		expect(await env.sb.ledger()).toEqual(before);
	});

	it('an AI agent may rehearse without "Allow AI Agents to Move Money"; without Dry Run it is refused', async () => {
		const [orderid] = await approvedSales(env.sb, ['inv-agent']);
		const mark = (await env.sb.requests()).length;
		const refund = { resource: 'payment', operation: 'return', merchantOrderId: 'inv-agent', gatewayOrderId: orderid };
		const rehearsal = single(await runNode(env.sb, { ...refund, options: { dryRun: true } }, { asTool: true }));
		expect(rehearsal.wouldDo).toBe('would return 10.00 USD (all that is left)');
		const refused = await runNode(env.sb, refund, { asTool: true });
		expect(refused.error?.message).toMatch(/AI agents may not run it/);
		expect(await ops(env.sb, mark)).toEqual(['status']);
	});

	it('a dry run that stops names the rehearsed items as rehearsed, never as money that moved', async () => {
		const run = await runNode(
			env.sb,
			cardPayment({ merchantOrderId: '={{ $json.id }}', amount: '={{ $json.amount }}', options: { dryRun: true } }),
			{
				input: [
					{ id: 'inv-stop-0', amount: '1.00' },
					{ id: 'inv-stop-1', amount: 'lots' },
				],
			},
		);
		expect(run.error?.message).not.toMatch(/moved/);
		expect(run.error?.description).toMatch(
			/item 1 \(order "inv-stop-0"\): dry run, nothing sent that moves money: would charge 1.00 USD/,
		);
		expect(await env.sb.ledger()).toEqual([]);
	});

	it('with Retry On Fail the dry run is refused like a real run, and sends nothing', async () => {
		const run = await runNode(env.sb, cardPayment({ options: { dryRun: true } }), { retryOnFail: true });
		expect(run.error?.message).toMatch(/Retry On Fail/);
		expect(await env.sb.requests()).toEqual([]);
	});
});
