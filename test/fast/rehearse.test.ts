// Stage rehearse/ alone: plan IDs (letters only, a keyed digest that changes with any full value), the
// differences between an approved plan and the current one in words, and the dry run of one item.
import { PLAN_ID_PATTERN } from '../../nodes/CardGateway/actions/common/read/planId';
import { rehearse } from '../../nodes/CardGateway/actions/common/rehearse/dryRun';
import {
	newPlanNonce,
	planDifferences,
	planIdOf,
	planItemOf,
	planNonceOf,
	requestDigestOf,
	type PlanEntry,
	type SentRequest,
} from '../../nodes/CardGateway/actions/common/rehearse/plan';
import type { StatusKnowledge } from '../../nodes/CardGateway/actions/common/core/delivery';
import { parseGatewayReply } from '../../nodes/shared/protocol/reply';
import { fakeContext } from '../support/fake-context';

const KEY = 'control-key';
const request: SentRequest = {
	method: 'POST',
	url: 'https://gateway.test/api/v2/sale/1001',
	auth: 'control',
	login: 'merchant-login',
	fields: [
		['client_orderid', 'inv-1'],
		['amount', '10.00'],
		['currency', 'USD'],
		['credit_card_number', '4444555566661111'],
	],
};
const withField = (name: string, value: string): SentRequest => ({
	...request,
	fields: request.fields.map(([field, old]) => [field, field === name ? value : old] as const),
});

const entry = (overrides: Partial<PlanEntry> = {}): PlanEntry => ({
	item: 1,
	...planItemOf({
		operation: 'sale',
		values: { amount: '10.00', currency: 'USD' },
		clientOrderId: 'inv-1',
		order: {
			kind: 'notFound',
			reply: parseGatewayReply(200, 'text/html', 'type=status-response&error-message=not+found'),
		},
		requestDigest: requestDigestOf(KEY, request),
	}),
	...overrides,
});

describe('plan IDs', () => {
	test('a plan ID is letters only, and its nonce reads back', () => {
		const nonce = newPlanNonce();
		expect(nonce).toMatch(/^[a-z]{16}$/);
		const id = planIdOf(KEY, nonce, [entry()]);
		expect(id).toMatch(PLAN_ID_PATTERN);
		expect(id).not.toMatch(/\d/);
		expect(planNonceOf(id)).toBe(nonce);
		expect(planNonceOf('plan-123')).toBeUndefined();
	});

	test('the request digest changes with any full value, even a card number with the same first 6 and last 4', () => {
		const digest = requestDigestOf(KEY, request);
		expect(digest).toMatch(/^[a-z]{16}$/);
		expect(requestDigestOf(KEY, withField('credit_card_number', '4444557766661111'))).not.toBe(digest);
		expect(requestDigestOf(KEY, withField('amount', '10.01'))).not.toBe(digest);
		expect(requestDigestOf(KEY, { ...request, url: 'https://gateway.test/api/v2/sale/1002' })).not.toBe(digest);
		expect(requestDigestOf('another key', request)).not.toBe(digest);
		expect(requestDigestOf(KEY, { ...request })).toBe(digest);
	});

	test('the plan ID changes with any item value and the key, not with the items order', () => {
		const nonce = 'abcdefghijklmnop';
		const a = entry();
		const b = entry({ item: 2, merchantOrderId: 'inv-2' });
		const id = planIdOf(KEY, nonce, [a, b]);
		expect(planIdOf(KEY, nonce, [b, a])).toBe(id);
		expect(planIdOf(KEY, nonce, [a, { ...b, amount: '10.01' }])).not.toBe(id);
		expect(planIdOf(KEY, nonce, [a, { ...b, requestDigest: 'x' }])).not.toBe(id);
		expect(planIdOf(KEY, 'bcdefghijklmnopq', [a, b])).not.toBe(id);
		expect(planIdOf('other', nonce, [a, b])).not.toBe(id);
	});
});

describe('plan differences', () => {
	test('the same plan has none', () => {
		expect(planDifferences([entry()], [entry()])).toEqual([]);
	});

	test('a changed amount is named with both values', () => {
		expect(planDifferences([entry()], [entry({ amount: '12.00' })])).toEqual([
			'item 1 (sale of 10.00 USD on order "inv-1"): amount changed from "10.00" to "12.00"',
		]);
	});

	test('a value that differs only in full is named as such', () => {
		const [difference] = planDifferences([entry()], [entry({ requestDigest: 'otherdigest' })]);
		expect(difference).toMatch(/^item 1 \(sale of 10\.00 USD on order "inv-1"\): a value it sends differs/);
	});

	test('an order that appeared since the plan, an added item and a missing one', () => {
		const now = entry({ orderState: 'approved' });
		expect(planDifferences([entry()], [now])[0]).toMatch(/the gateway has order "inv-1" now \(approved\)/);
		const added = entry({ item: 2, merchantOrderId: 'inv-2' });
		expect(planDifferences([entry()], [entry(), added])).toEqual([
			'item 2 was not in the approved plan: sale of 10.00 USD on order "inv-2"',
		]);
		expect(planDifferences([entry(), added], [entry()])).toEqual([
			'approved item 2 is not in this run: sale of 10.00 USD on order "inv-2"',
		]);
	});
});

describe('dry run of one item', () => {
	const item = { label: 'Payment → Sale', gateway: 'sale' as const, values: { amount: '10.00', currency: 'USD' } };
	const call = {
		operation: 'sale' as const,
		fields: [
			['client_orderid', 'inv-1'],
			['amount', '10.00'],
			['currency', 'USD'],
			['credit_card_number', '4444555566661111'],
		] as const,
		itemIndex: 0,
	};
	const delivery = {
		itemIndex: 0,
		label: 'Payment → Sale',
		login: 'merchant-login',
		operation: 'sale' as const,
		clientOrderId: 'inv-1',
	};
	const found = parseGatewayReply(200, 'text/html', 'type=status-response&status=approved&amount=10.00&currency=USD');
	const run = async (order: StatusKnowledge | undefined, options = {}) => {
		const fake = fakeContext({ parameters: { options } });
		const output = await rehearse(fake.ctx, item, call, delivery, order);
		expect(fake.sent).toEqual([]); // a rehearsal sends nothing itself
		return output;
	};

	test('a new order: what it would move, the request described with the card number masked', async () => {
		const output = await run({ kind: 'notFound', reply: found });
		expect(output).toMatchObject({ dryRun: true, moneyEffect: 'notSent', client_orderid: 'inv-1' });
		expect(output.wouldDo).toBe(
			'would charge 10.00 USD as new order "inv-1" (the gateway does not know this order ID yet)',
		);
		const request = output.request as { url: string; fields: Record<string, string>; signature: string };
		expect(request.url).toBe('https://gateway.test/api/v2/sale/1001');
		expect(JSON.stringify(output)).not.toContain('4444555566661111');
		expect(request.signature).toMatch(/computed, not shown/);
	});

	test('an order the gateway already has: nothing would be sent', async () => {
		const output = await run({ kind: 'found', reply: found });
		expect(output.wouldDo).toMatch(/^would send nothing: the gateway already has an order "inv-1" \(status "approved"/);
	});

	test('an order status that could not be learned is said so', async () => {
		const output = await run({ kind: 'unknown', reason: 'timed out' });
		expect(output.wouldDo).toMatch(/could not be learned: timed out/);
		expect(output.order).toEqual({ known: 'could not be learned', reason: 'timed out' });
	});

	test('under a limit the item is counted as a real run would count it', async () => {
		expect(await run(undefined, { maxAmountPerItem: '5.00' })).toMatchObject({ stoppedByLimit: true });
		expect(await run(undefined, { maxAmountPerItem: '50.00' })).toMatchObject({
			stoppedByLimit: false,
			limits: 'within the spending limits',
		});
	});
});
