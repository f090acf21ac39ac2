// Stage guard/ alone: the AI-agent guard, spending limits (admit, reserve), duplicate order IDs and
// one money step per order at a time.
import { NodeOperationError } from 'n8n-workflow';

import { operations } from '../../nodes/CardGateway/actions/payment';
import { guardAiAgent } from '../../nodes/CardGateway/actions/common/guard/guards';
import { admit, reserveSpending, stakeOf } from '../../nodes/CardGateway/actions/common/guard/limits';
import { oneAtATime } from '../../nodes/CardGateway/actions/common/guard/oneAtATime';
import { refuseDuplicateOrderIds } from '../../nodes/CardGateway/actions/common/guard/runReport';
import { runOptions } from '../../nodes/CardGateway/actions/common/read/options';
import { withMoneyEffect } from '../../nodes/shared/moneyEffect';
import { parseGatewayReply } from '../../nodes/shared/protocol/reply';
import { fakeContext, saleParameters } from '../support/fake-context';

const sale = operations.sale.spec;
const voidSpec = operations.void.spec;

describe('AI agent guard', () => {
	const asTool = (options: Record<string, unknown>) =>
		fakeContext({ asTool: true, parameters: saleParameters({ options }) }).ctx;

	test('an agent may not move money unless the switch is on', () => {
		expect(() => guardAiAgent(asTool({}), sale, runOptions({}), 0)).toThrow(/AI agents may not run it/);
		expect(() =>
			guardAiAgent(asTool({ allowAiMoneyMovement: true }), sale, runOptions({ allowAiMoneyMovement: true }), 0),
		).not.toThrow();
	});

	test('outside an agent the switch is not needed', () => {
		const { ctx } = fakeContext({ parameters: saleParameters() });
		expect(() => guardAiAgent(ctx, sale, runOptions({}), 0)).not.toThrow();
	});

	test('a model that fills a safety option is refused, naming it', () => {
		const ctx = asTool({ allowAiMoneyMovement: "={{ $fromAI('allow') }}" });
		expect(() => guardAiAgent(ctx, sale, runOptions({ allowAiMoneyMovement: true }), 0)).toThrow(
			/fills the safety option "Allow AI Agents to Move Money"/,
		);
	});

	test("the item's own unreadable option stops it first", () => {
		const { ctx } = fakeContext({ parameters: saleParameters() });
		expect(() => guardAiAgent(ctx, voidSpec, runOptions({ timeoutSeconds: 'never' }), 0)).toThrow(/cannot be read/);
	});
});

describe('spending limits', () => {
	const limited = (options: Record<string, unknown>) => fakeContext({ parameters: { options } }).ctx;

	test('above Max Amount per Item is refused; at it is admitted', () => {
		const ctx = limited({ maxAmountPerItem: '10.00' });
		expect(admit(ctx, 'Sale', 0, { amount: '10.00', currency: 'USD' }).admitted).toBe(true);
		const refused = admit(ctx, 'Sale', 1, { amount: '10.01', currency: 'USD' });
		expect(refused).toMatchObject({ admitted: false, message: expect.stringMatching(/above "Max Amount per Item"/) });
	});

	test('the run total counts admitted items at once; a release gives back; past the limit the run stops', () => {
		const ctx = limited({ maxTotalPerRun: '25.00' });
		const first = admit(ctx, 'Sale', 0, { amount: '10.00', currency: 'USD' });
		const second = admit(ctx, 'Sale', 1, { amount: '10.00', currency: 'USD' });
		expect([first.admitted, second.admitted]).toEqual([true, true]);
		expect(admit(ctx, 'Sale', 2, { amount: '10.00', currency: 'USD' }).admitted).toBe(false);
		// stopped for good: even an item that would fit after a release is not sent
		if (second.admitted) second.release();
		expect(admit(ctx, 'Sale', 3, { amount: '1.00', currency: 'USD' })).toMatchObject({
			admitted: false,
			message: expect.stringMatching(/was reached earlier in this run/),
		});
	});

	test('a release before the limit is reached frees the amount', () => {
		const ctx = limited({ maxTotalPerRun: '15.00' });
		const first = admit(ctx, 'Sale', 0, { amount: '10.00', currency: 'USD' });
		if (first.admitted) first.release();
		expect(admit(ctx, 'Sale', 1, { amount: '15.00', currency: 'USD' }).admitted).toBe(true);
	});

	test('a currency the limit does not list, or an unknown amount, is refused', () => {
		const ctx = limited({ maxAmountPerItem: '500 USD, 450 EUR' });
		expect(admit(ctx, 'Sale', 0, { amount: '1.00', currency: 'GBP' })).toMatchObject({
			admitted: false,
			message: expect.stringMatching(/sets no limit for GBP/),
		});
		expect(admit(ctx, 'Sale', 0, { amount: '450.00', currency: 'EUR' }).admitted).toBe(true);
		expect(admit(ctx, 'Sale', 0, { unknown: 'no amount' }).admitted).toBe(false);
	});

	test('the stake: the largest amount a rebill tries, or what the gateway reports on the order', () => {
		expect(stakeOf({ amount: '5.00', currency: 'USD', enumerateAmounts: '7.50, 2.00' }, undefined)).toEqual({
			amount: '7.50',
			currency: 'USD',
		});
		const order = parseGatewayReply(200, 'text/html', 'type=status-response&status=approved&amount=12.34&currency=eur');
		expect(stakeOf({}, { kind: 'found', reply: order })).toEqual({ amount: '12.34', currency: 'EUR' });
		expect(stakeOf({}, { kind: 'notFound', reply: order })).toHaveProperty('unknown');
		expect(stakeOf({}, undefined)).toHaveProperty('unknown');
	});

	test('reserveSpending: refused with nothing sent; undone only when nothing left the machine', () => {
		const delivery = { itemIndex: 0, label: 'Sale', login: 'l', operation: 'sale' as const };
		const next = { ...delivery, itemIndex: 1 };
		const ctx = limited({ maxTotalPerRun: '10.00' });
		const undo = reserveSpending(ctx, 'Sale', delivery, { amount: '10.00', currency: 'USD' }, undefined);
		undo(withMoneyEffect(new Error('timeout'), 'mayHaveMoved'));
		expect(() => reserveSpending(ctx, 'Sale', next, { amount: '0.01', currency: 'USD' }, undefined)).toThrow(
			/nothing was sent/,
		);
		const other = limited({ maxTotalPerRun: '10.00' });
		const undoNotSent = reserveSpending(other, 'Sale', delivery, { amount: '10.00', currency: 'USD' }, undefined);
		undoNotSent(withMoneyEffect(new Error('refused'), 'notSent'));
		expect(() => reserveSpending(other, 'Sale', next, { amount: '10.00', currency: 'USD' }, undefined)).not.toThrow();
	});
});

describe('duplicate order IDs', () => {
	const items = (ids: string[]) => {
		const { ctx } = fakeContext({
			parameters: saleParameters({ merchantOrderId: '={{ $json.id }}' }),
			items: ids.map((id) => ({ json: { id } })),
			resolve: (name, itemIndex) => (name === 'merchantOrderId' ? ids[itemIndex] : undefined),
		});
		return () => refuseDuplicateOrderIds(ctx, sale, ids.length);
	};

	test('two items with one order ID stop the batch, naming both', () => {
		expect(items(['a-1', 'b-2', 'a-1'])).toThrow(NodeOperationError);
		expect(items(['a-1', 'b-2', 'a-1'])).toThrow(/Items 1 and 3 have the same "Order ID \(Merchant\)" "a-1"/);
	});

	test('distinct or empty (generated) order IDs pass', () => {
		expect(items(['a-1', 'b-2', '', ''])).not.toThrow();
	});
});

describe('one money step per order at a time', () => {
	test('steps under one key take turns in arrival order, even when an earlier one fails', async () => {
		const log: string[] = [];
		const gate: Array<() => void> = [];
		const step =
			(name: string, fail = false) =>
			async () => {
				log.push(`${name} start`);
				await new Promise<void>((resolve) => gate.push(resolve));
				log.push(`${name} end`);
				if (fail) throw new Error(name);
				return name;
			};
		const a = oneAtATime('order-1', step('a', true));
		const b = oneAtATime('order-1', step('b'));
		const other = oneAtATime('order-2', step('other'));
		await Promise.resolve();
		await Promise.resolve();
		expect(log).toEqual(['a start', 'other start']);
		gate.shift()!();
		await expect(a).rejects.toThrow('a');
		gate.shift()!(); // 'other'
		await expect(other).resolves.toBe('other');
		expect(log).toContain('b start');
		gate.shift()!();
		await expect(b).resolves.toBe('b');
		expect(log.indexOf('b start')).toBeGreaterThan(log.indexOf('a end'));
	});

	test('without a key steps run at once', async () => {
		let running = 0;
		let most = 0;
		const step = async () => {
			most = Math.max(most, ++running);
			await Promise.resolve();
			running--;
		};
		await Promise.all([oneAtATime(undefined, step), oneAtATime(undefined, step)]);
		expect(most).toBe(2);
	});
});
