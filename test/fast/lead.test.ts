// What an output item shows first (issue 33 item 6): every item of a money-moving operation leads with
// `moneyEffect` and `outcome`, then the amounts and the status, then the reply's protocol fields; an
// error item under Continue On Fail leads the same way. The key order is the promise: n8n's table and
// JSON views show the keys in this order, and a wide item's last ones are off-screen. Through the
// pipeline's one entry (runOperation) with a fake n8n context and gateway; the node's description too:
// the required parameters carry the asterisk n8n's panel does not draw, and the claims credential shows
// only where Act Once per Key is set.
import type { IDataObject, IExecuteFunctions, INodeCredentialDescription, INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { CardGateway } from '../../nodes/CardGateway/CardGateway.node';
import { operations as paymentOperations } from '../../nodes/CardGateway/actions/payment';
import { operations as transactionOperations } from '../../nodes/CardGateway/actions/transaction';
import { readFirst } from '../../nodes/CardGateway/actions/common/outcome/output';
import { runOperation } from '../../nodes/CardGateway/actions/common/pipeline/run';
import { fakeContext, saleParameters, saleReplies, type FakeAnswer } from '../support/fake-context';

const ORDER = 'inv-lead-1';
const SECRET = 'control-key-not-a-secret-in-tests';

const { notFound, accepted, approved: approvedSale } = saleReplies(ORDER);

async function keysOf(
	spec: (typeof paymentOperations)[keyof typeof paymentOperations]['spec'],
	parameters: IDataObject,
	answers: FakeAnswer[],
	continueOnFail = false,
): Promise<string[][]> {
	const fake = fakeContext({
		parameters,
		gateway: (_request, index) => answers[index] ?? { networkError: 'ECONNRESET' },
	});
	if (continueOnFail) fake.ctx.continueOnFail = () => true;
	const items = await runOperation(fake.ctx as IExecuteFunctions, spec, [SECRET]);
	return items.map((item) => Object.keys(item.json));
}

const sale = paymentOperations.sale.spec;
const WAIT = { waitForFinalStatus: true, pollIntervalSeconds: 0, maxWaitSeconds: 30 };

describe('every output item of a money-moving operation leads with moneyEffect and outcome', () => {
	it('a sale approved: moneyEffect, outcome, the amounts, the status; the protocol fields after', async () => {
		const [keys] = await keysOf(sale, saleParameters({ merchantOrderId: ORDER, options: WAIT }), [
			notFound,
			accepted,
			approvedSale,
		]);
		expect(keys.slice(0, 7)).toEqual([
			'moneyEffect',
			'outcome',
			'amountRequested',
			'amountCharged',
			'status',
			'amount',
			'currency',
		]);
		expect(keys).toEqual(expect.arrayContaining(['type', 'orderid', 'client_orderid', 'final', 'planId']));
	});

	it('a sale accepted, not final: moneyEffect and outcome first', async () => {
		const [keys] = await keysOf(sale, saleParameters({ merchantOrderId: ORDER }), [notFound, accepted]);
		expect(keys.slice(0, 3)).toEqual(['moneyEffect', 'outcome', 'amountRequested']);
	});

	it('an order found made already (nothing sent): moneyEffect and outcome first', async () => {
		const [keys] = await keysOf(sale, saleParameters({ merchantOrderId: ORDER }), [approvedSale]);
		expect(keys.slice(0, 2)).toEqual(['moneyEffect', 'outcome']);
		expect(keys).toContain('alreadyExisted');
	});

	it('a dry run: moneyEffect, an outcome that says nothing was sent, then what a real run would do', async () => {
		const fake = fakeContext({
			parameters: saleParameters({ merchantOrderId: ORDER, options: { dryRun: true } }),
			gateway: () => notFound,
		});
		const [item] = await runOperation(fake.ctx, sale, [SECRET]);
		expect(Object.keys(item.json).slice(0, 3)).toEqual(['moneyEffect', 'outcome', 'wouldDo']);
		expect(item.json.outcome).toBe(`Dry run, nothing sent: ${String(item.json.wouldDo)}`);
	});

	it('a return (a follow-up): moneyEffect and outcome first', async () => {
		const [keys] = await keysOf(
			paymentOperations.return.spec,
			{ resource: 'payment', operation: 'return', merchantOrderId: ORDER, gatewayOrderId: '777' },
			[approvedSale, accepted],
		);
		expect(keys.slice(0, 2)).toEqual(['moneyEffect', 'outcome']);
	});

	it('Continue On Fail: an error item leads with what became of the money, then the error', async () => {
		const items = await keysOf(sale, saleParameters({ merchantOrderId: ORDER, currency: 'DOLLARS' }), [], true);
		expect(items).toEqual([['moneyEffect', 'outcome', 'error', 'description']]);
		const fake = fakeContext({ parameters: saleParameters({ merchantOrderId: ORDER, currency: 'DOLLARS' }) });
		fake.ctx.continueOnFail = () => true;
		const [item] = await runOperation(fake.ctx, sale, [SECRET]);
		expect(item.json).toMatchObject({ moneyEffect: 'notSent', outcome: 'Failed: nothing was sent' });
		expect(String(item.json.error)).toMatch(/Currency/);
	});

	it('Continue On Fail after a lost reply: the error item says money MAY have moved, first', async () => {
		const [item] = await (async () => {
			const fake = fakeContext({
				parameters: saleParameters({ merchantOrderId: ORDER }),
				gateway: (_request, index) => [notFound][index] ?? { networkError: 'ETIMEDOUT' },
			});
			fake.ctx.continueOnFail = () => true;
			return await runOperation(fake.ctx, sale, [SECRET]);
		})();
		expect(Object.keys(item.json).slice(0, 3)).toEqual(['moneyEffect', 'outcome', 'error']);
		expect(item.json.moneyEffect).not.toBe('notSent');
	});
});

describe('reads keep their own order: the status first, no money fields added', () => {
	it('Get Status leads with the status and the amount', async () => {
		const [keys] = await keysOf(
			transactionOperations.getStatus.spec,
			{ resource: 'transaction', operation: 'getStatus', merchantOrderId: ORDER },
			[approvedSale],
		);
		expect(keys.slice(0, 3)).toEqual(['status', 'amount', 'currency']);
		expect(keys).not.toContain('moneyEffect');
	});

	it('readFirst moves only the keys it knows, and changes no value', () => {
		const json = { type: 'x', status: 'approved', difference: 'missing', outcome: 'o', moneyEffect: 'moved' };
		const led = readFirst(json);
		expect(Object.keys(led)).toEqual(['moneyEffect', 'outcome', 'status', 'type', 'difference']);
		expect(led).toEqual(json);
	});
});

describe('the node panel: required parameters marked, the claims credential only where it is used', () => {
	const description = new CardGateway().description;
	const shown = (parameters: INodeParameters) =>
		description.properties.filter((property) => NodeHelpers.displayParameter(parameters, property, null, description));

	it('Gateway Order ID and every other required parameter show the asterisk in the label', () => {
		for (const [operation, name] of [
			['return', 'gatewayOrderId'],
			['capture', 'gatewayOrderId'],
			['void', 'gatewayOrderId'],
			['return', 'merchantOrderId'],
		]) {
			const property = shown({ resource: 'payment', operation }).find((p) => p.name === name);
			expect({ operation, name, property: property?.displayName, required: property?.required }).toEqual({
				operation,
				name,
				property: expect.stringMatching(/ \*$/),
				required: true,
			});
		}
		const required = description.properties.filter((property) => property.required === true);
		expect(required.length).toBeGreaterThan(20);
		for (const property of required) expect(property.displayName).toMatch(/ \*$/);
		for (const property of description.properties.filter((p) => p.required !== true))
			expect(property.displayName).not.toMatch(/\*$/);
	});

	it('Reconcile: the record fields it requires are marked required, Expected Status is not', () => {
		const reconcile = shown({ resource: 'transaction', operation: 'reconcile', gatewaySide: 'report' });
		const marked = Object.fromEntries(reconcile.map((p) => [p.name, p.required === true]));
		expect(marked).toMatchObject({
			merchantOrderId: true,
			amount: true,
			currency: true,
			expectedStatus: false,
			createdFrom: true,
			createdTo: true,
		});
	});

	it('the claims credential has its own label and shows only once Act Once per Key is set', () => {
		const credentials = description.credentials as INodeCredentialDescription[];
		const claims = credentials.find((credential) => credential.name === 'cardGatewayClaimsApi')!;
		expect(claims.displayName).toBe('Claims Store Credential');
		// n8n sends the description to the editor as JSON: the condition must survive it.
		const sent = JSON.parse(JSON.stringify(claims)) as INodeCredentialDescription;
		const displayed = (parameters: INodeParameters) =>
			NodeHelpers.displayParameter(parameters, sent, null, description);
		expect(displayed({ resource: 'transaction', operation: 'reconcile' })).toBe(false);
		expect(displayed({ resource: 'payment', operation: 'sale', options: {} })).toBe(false);
		expect(displayed({ resource: 'payment', operation: 'sale', options: { actOncePerKey: '' } })).toBe(false);
		expect(displayed({ resource: 'payment', operation: 'sale', options: { actOncePerKey: 'refund-1' } })).toBe(true);
		expect(
			displayed({ resource: 'payment', operation: 'return', options: { actOncePerKey: '={{ $json.key }}' } }),
		).toBe(true);
		expect(credentials.find((credential) => credential.name === 'cardGatewayApi')?.displayOptions).toBeUndefined();
	});
});
