// Spending limits (issue #15): Max Amount per Item and Max Total per Run. The sandbox ledger is
// the witness of what left; the invariant is checked with items in flight at once.
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

import { CardGateway } from '../../nodes/CardGateway/CardGateway.node';
import { amountUnits } from '../../nodes/shared/protocol/amount';
import { runWorkflow } from '../support/n8n';

import {
	NODE_NAME,
	NODE_TYPE,
	WAIT,
	cardPayment,
	jsonOf,
	runNode,
	useSandbox,
	type LedgerEntry,
} from '../support/harness';

const env = useSandbox();

beforeEach(() => env.sb.reset());

const total = (entries: LedgerEntry[], kind: string) =>
	entries.filter((entry) => entry.kind === kind).reduce((sum, entry) => sum + amountUnits(entry.amount), 0n);
const units = (amount: string) => amountUnits(amount);

/** A deterministic spread of amounts (no Math.random: a failure must be reproducible). */
function amounts(count: number, seed: number): string[] {
	return Array.from(
		{ length: count },
		(_, index) => `${((index * 7 + seed) % 13) + 1}.${String((index * 37 + seed) % 100).padStart(2, '0')}`,
	);
}

const bulkSale = (options: INodeParameters) =>
	cardPayment({ merchantOrderId: '={{ $json.id }}', amount: '={{ $json.amount }}', options });

describe('Max Amount per Item', () => {
	it('an item above it is refused before sending, with a message naming the option', async () => {
		const run = await runNode(env.sb, bulkSale({ maxAmountPerItem: '5.00' }), {
			input: [{ id: 'lim-big', amount: '10.00' }],
		});
		expect(run.error?.message).toBe(
			'Payment → Sale of 10.00 USD is above "Max Amount per Item" (5.00 USD); nothing was sent',
		);
		expect(await env.sb.requests()).toEqual([]);
	});

	it('a list of currencies refuses an item in a currency it does not name', async () => {
		const run = await runNode(env.sb, bulkSale({ maxAmountPerItem: '500 EUR' }), {
			input: [{ id: 'lim-usd', amount: '1.00' }],
		});
		expect(run.error?.message).toMatch(/"Max Amount per Item" sets no limit for USD; nothing was sent/);
		expect(await env.sb.requests()).toEqual([]);
	});

	it.each(['ten', '-5', '5 USD, 6', '5 USD, 6 USD', '1.001 USD', '0'])(
		'"%s" is refused as a limit, naming the option',
		async (limit) => {
			const run = await runNode(env.sb, bulkSale({ maxTotalPerRun: limit }), {
				input: [{ id: 'lim-bad', amount: '1.00' }],
			});
			expect(run.error?.message).toMatch(/Max Total per Run/);
			expect(await env.sb.requests()).toEqual([]);
		},
	);
});

describe('invariant: never more than Max Total per Run leaves, with items in flight', () => {
	it.each([
		[1, '50.00'],
		[2, '37.45'],
		[3, '80 USD, 10 EUR'],
	])('20 sales at concurrency 8 (seed %i, limit %s)', async (seed, limit) => {
		const input = amounts(20, seed).map((amount, index) => ({ id: `lim-run-${seed}-${index}`, amount }));
		const run = await runNode(env.sb, bulkSale({ maxTotalPerRun: limit, concurrency: 8 }), {
			input,
			errorOutput: true,
		});
		const max = units(limit.split(' ')[0]);
		const ledger = await env.sb.ledger();
		const sent = total(ledger, 'sale');
		expect(sent).toBeLessThanOrEqual(max);
		// What the node reports as done is exactly what left; every other item names the limit.
		const done = run.items.map((item) => input[(item.pairedItem as { item: number }).item].amount);
		expect(done.reduce((sum, amount) => sum + units(amount), 0n)).toBe(sent);
		expect(run.items.length + run.errorItems.length).toBe(20);
		expect(run.errorItems.length).toBeGreaterThan(0);
		for (const item of run.errorItems) expect(String(item.json.error)).toMatch(/"Max Total per Run"/);
		// Once the limit stopped an item, nothing that started later was sent.
		const firstStopped = Math.min(...run.errorItems.map((item) => (item.pairedItem as { item: number }).item));
		expect(ledger.length).toBeLessThanOrEqual(firstStopped + 8);
	});

	it('20 full refunds at concurrency 8 count what they resolve to (learned by a status query first)', async () => {
		const input = amounts(20, 5).map((amount, index) => ({ id: `lim-ret-${index}`, amount }));
		const sales = await runNode(
			env.sb,
			cardPayment({
				merchantOrderId: '={{ $json.id }}',
				amount: '={{ $json.amount }}',
				options: { ...WAIT, concurrency: 8 },
			}),
			{ input },
		);
		const targets = jsonOf(sales).map((sale) => ({ id: sale.client_orderid, orderid: sale.orderid }));
		const refund: INodeParameters = {
			resource: 'payment',
			operation: 'return',
			merchantOrderId: '={{ $json.id }}',
			gatewayOrderId: '={{ $json.orderid }}',
			additionalFields: { comment: 'refund' },
			options: { maxTotalPerRun: '40.00', concurrency: 8 },
		};
		const run = await runNode(env.sb, refund, { input: targets, errorOutput: true });
		const ledger = await env.sb.ledger();
		const returned = total(ledger, 'return');
		expect(returned).toBeLessThanOrEqual(units('40.00'));
		// Each refund returned the whole sale, and what the node reports as refunded is what left.
		const refunded = run.items.map((item) => input[(item.pairedItem as { item: number }).item].amount);
		expect(refunded.reduce((sum, amount) => sum + units(amount), 0n)).toBe(returned);
		expect(run.errorItems.length).toBeGreaterThan(0);
		for (const item of run.errorItems) expect(String(item.json.error)).toMatch(/"Max Total per Run"/);
	});

	it('a full refund whose amount cannot be learned is refused rather than guessed', async () => {
		const run = await runNode(env.sb, {
			resource: 'payment',
			operation: 'return',
			merchantOrderId: 'lim-ghost',
			gatewayOrderId: '999999',
			options: { maxAmountPerItem: '100' },
		});
		expect(run.error?.message).toMatch(
			/the amount it would move is unknown, so the spending limits cannot be checked; nothing was sent/,
		);
		expect((await env.sb.requests()).map((request) => request.op)).toEqual(['status']);
	});

	it('without an error output the run stops, and the error names the limit and every order of the run', async () => {
		const input = ['6.00', '6.00', '6.00'].map((amount, index) => ({ id: `lim-stop-${index}`, amount }));
		const run = await runNode(env.sb, bulkSale({ maxTotalPerRun: '10' }), { input });
		expect(run.error?.message).toMatch(/would pass "Max Total per Run" \(10.00 USD\)/);
		expect(run.error?.description).toMatch(/item 1 \(order "lim-stop-0"/);
		expect(total(await env.sb.ledger(), 'sale')).toBe(units('6.00'));
	});
});

/** Loop Over Items in miniature: hands its input on in batches, one batch per run, looping back. */
class Batches implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Batches',
		name: 'batches',
		group: ['transform'],
		version: 1,
		description: 'Loop over items',
		defaults: { name: 'Batches' },
		inputs: ['main'],
		outputs: ['main', 'main'],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const context = this.getContext('node');
		if (!context.pending) context.pending = this.getInputData();
		const pending = context.pending as INodeExecutionData[];
		const batch = pending.splice(0, 5);
		return batch.length ? [batch, []] : [[], [{ json: { done: true } }]];
	}
}

describe('a node run once per batch (Loop Over Items)', () => {
	it('every batch counts against one Max Total per Run of the workflow execution', async () => {
		const input = Array.from({ length: 20 }, (_, index) => ({ json: { id: `lim-loop-${index}`, amount: '6.00' } }));
		const { run } = await runWorkflow({
			nodeTypes: { [NODE_TYPE]: new CardGateway(), 'test.batches': new Batches() },
			nodes: [
				{ name: 'Batches', type: 'test.batches', parameters: {} },
				{
					name: NODE_NAME,
					type: NODE_TYPE,
					parameters: bulkSale({ maxTotalPerRun: '40', concurrency: 3 }),
					credentials: { cardGatewayApi: { id: 'cred-1', name: 'Card Gateway account' } },
					onError: 'continueRegularOutput',
				},
			],
			connections: {
				Start: { main: [[{ node: 'Batches', type: 'main', index: 0 }]] },
				Batches: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }], []] },
				[NODE_NAME]: { main: [[{ node: 'Batches', type: 'main', index: 0 }]] },
			},
			credentials: env.sb.credentials(),
			input,
		});
		expect(run.data.resultData.runData[NODE_NAME]).toHaveLength(4);
		expect(total(await env.sb.ledger(), 'sale')).toBe(units('36.00'));
	});
});

describe('dry run with limits', () => {
	it('shows per item whether a limit would stop it; nothing is sent but status queries', async () => {
		const input = ['4.00', '4.00', '4.00', '1.00'].map((amount, index) => ({ id: `lim-dry-${index}`, amount }));
		const run = await runNode(env.sb, bulkSale({ dryRun: true, maxAmountPerItem: '5', maxTotalPerRun: '10' }), {
			input,
		});
		expect(jsonOf(run).map((item) => item.stoppedByLimit)).toEqual([false, false, true, true]);
		expect(jsonOf(run)[2].limits).toMatch(/would pass "Max Total per Run"/);
		expect(new Set((await env.sb.requests()).map((request) => request.op))).toEqual(new Set(['status']));
		expect(await env.sb.ledger()).toEqual([]);
	});
});
