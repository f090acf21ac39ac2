// Rehearse, approve, execute exactly the plan (issue 26): a dry run's plan and plan ID, a real run
// bound to it with "Approved Plan ID", and the whole run refused (nothing sent) when anything
// differs. The sandbox's ledger and request log are the witnesses.
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeParameters, INodeType } from 'n8n-workflow';

import { CardGateway } from '../../nodes/CardGateway/CardGateway.node';
import { runOptions } from '../../nodes/CardGateway/actions/common/options';
import {
	planDifferences,
	planIdOf,
	planItemOf,
	type PlanEntry,
	type PlanItem,
} from '../../nodes/CardGateway/actions/common/plan';

import {
	NODE_NAME,
	NODE_TYPE,
	TOOL_TYPE,
	WAIT,
	cardPayment,
	jsonOf,
	runNode,
	useSandbox,
	type NodeRun,
	type Sandbox,
} from '../support/harness';
import { runWorkflow } from '../support/n8n';

const env = useSandbox();

beforeEach(() => env.sb.reset());

interface Row extends IDataObject {
	id: string;
	orderid: string;
	amount?: string;
}

/** Approved sales of 10.00 USD under `ids`; the rows of a bulk refund of them (full returns). */
async function paidOrders(sb: Sandbox, ids: string[]): Promise<Row[]> {
	const run = await runNode(sb, cardPayment({ merchantOrderId: '={{ $json.id }}', options: WAIT }), {
		input: ids.map((id) => ({ id })),
	});
	return jsonOf(run).map((item, index) => ({ id: ids[index], orderid: String(item.orderid) }));
}

const bulkRefund = (options: INodeParameters): INodeParameters => ({
	resource: 'payment',
	operation: 'return',
	merchantOrderId: '={{ $json.id }}',
	gatewayOrderId: '={{ $json.orderid }}',
	additionalFields: {
		comment: '={{ $json.comment ?? "refund" }}',
		amount: '={{ $json.amount ?? "" }}',
		currency: '={{ $json.amount ? "USD" : "" }}',
	},
	options,
});

const dryRun = (sb: Sandbox, rows: Row[], options: INodeParameters = {}) =>
	runNode(sb, bulkRefund({ dryRun: true, ...options }), { input: rows });

const planIdOfRun = (run: NodeRun) => {
	expect(run.error).toBeUndefined();
	const ids = new Set(jsonOf(run).map((item) => item.planId));
	expect(ids.size).toBe(1);
	return String([...ids][0]);
};

/** Money that moved at the sandbox (returns, sales …), as "kind amount currency order". */
const moved = async (sb: Sandbox) =>
	(await sb.ledger()).map((entry) => `${entry.kind} ${entry.amount} ${entry.currency} ${entry.client_orderid}`).sort();

/** A full refund of `row` made by someone else (another execution). */
const refundElsewhere = async (sb: Sandbox, row: Row) => {
	const run = await runNode(sb, bulkRefund({}), { input: [row] });
	expect(run.error).toBeUndefined();
};

describe('a plan from every dry run', () => {
	it('gives every item the plan ID, its plan entry (the learned amount of a full return) and the summary', async () => {
		const rows = await paidOrders(env.sb, ['plan-a', 'plan-b', 'plan-c']);
		rows[1].amount = '4.00';
		const run = await dryRun(env.sb, rows, { maxTotalPerRun: '100 USD' });
		const planId = planIdOfRun(run);
		expect(planId).toMatch(/^plan-[0-9a-f]{32}$/);
		const [first, second] = jsonOf(run);
		expect(first.planned).toEqual({
			item: 1,
			operation: 'return',
			merchantOrderId: 'plan-a',
			gatewayOrderId: rows[0].orderid,
			amount: '10.00',
			currency: 'USD',
			destination: null,
			target: null,
			orderState: 'approved, 10.00 USD, last transaction sale',
		});
		expect(second.planned).toMatchObject({ item: 2, amount: '4.00', currency: 'USD' });
		expect(first.planSummary).toEqual({
			planId,
			items: 3,
			byOperation: { return: 3 },
			totals: { USD: '24.00' },
			limits: { maxAmountPerItem: 'none', maxTotalPerRun: '100 USD' },
		});
		expect(await moved(env.sb)).toEqual(rows.map((row) => `sale 10.00 USD ${row.id}`).sort());
	});

	it('is independent of the items’ order and of what does not change what moves', async () => {
		const rows = await paidOrders(env.sb, ['ord-a', 'ord-b', 'ord-c']);
		const planId = planIdOfRun(await dryRun(env.sb, rows));
		const planOf = async (change: (row: Row) => Row) => planIdOfRun(await dryRun(env.sb, rows.map(change)));
		expect(planIdOfRun(await dryRun(env.sb, [...rows].reverse(), { concurrency: 3 }))).toBe(planId);
		expect(await planOf((row) => ({ ...row, comment: 'other words' }))).toBe(planId);
		// a partial return of everything that is left moves what the full return moves
		expect(await planOf((row) => ({ ...row, amount: '10.00' }))).toBe(planId);
		expect(await planOf((row) => ({ ...row, amount: '9.99' }))).not.toBe(planId);
		expect(planIdOfRun(await dryRun(env.sb, rows.slice(1)))).not.toBe(planId);
	});

	it('names no plan ID when an item fails (Continue On Fail): such a plan cannot be approved', async () => {
		const rows = await paidOrders(env.sb, ['bad-a']);
		const run = await runNode(env.sb, bulkRefund({ dryRun: true }), {
			input: [rows[0], { id: 'bad-b', orderid: rows[0].orderid, amount: 'ten' }],
			continueOnFail: true,
		});
		const [good] = jsonOf(run);
		expect(good.planId).toBeNull();
		expect(good.planSummary).toMatchObject({ planId: null, notPlanned: [2] });
	});

	it('the hash: sorted canonical items, the merchant included, the position left out', () => {
		const item: PlanItem = planItemOf({
			operation: 'sale',
			values: { amount: '10.5', currency: 'USD', cardNumber: '4444555566661111' },
			clientOrderId: 'inv-1',
		});
		expect(item).toMatchObject({ amount: '10.5', destination: null, orderState: 'not checked' });
		const payout = planItemOf({
			operation: 'payout',
			values: { amount: '5.00', currency: 'EUR', destinationCardNumber: '4444555566661111' },
			clientOrderId: 'p-1',
			generatedOrderId: true,
		});
		expect(payout).toMatchObject({
			merchantOrderId: null,
			destination: 'card 444455******1111',
			orderState: 'new order (ID generated at run time)',
		});
		expect(planIdOf('m', [item, payout])).toBe(planIdOf('m', [payout, item]));
		expect(planIdOf('m', [item])).toBe(planIdOf('m', [{ ...item, amount: '10.50' }]));
		expect(planIdOf('other', [item])).not.toBe(planIdOf('m', [item]));
		expect(planIdOf('m', [item, item])).not.toBe(planIdOf('m', [item]));
	});
});

describe('differences, in words', () => {
	const entry = (item: number, overrides: Partial<PlanEntry> = {}): PlanEntry => ({
		item,
		operation: 'return',
		merchantOrderId: `o-${item}`,
		gatewayOrderId: String(100 + item),
		amount: '10.00',
		currency: 'USD',
		destination: null,
		target: null,
		orderState: 'approved, 10.00 USD, last transaction sale',
		...overrides,
	});

	it('names items added and removed, amount, currency, destination and order state changed', () => {
		const approved = [entry(1), entry(2), entry(3), entry(4)];
		const current = [
			entry(1, { amount: '12.00' }),
			entry(2, { currency: 'EUR' }),
			entry(3, { orderState: 'approved, 0.00 USD, last transaction reversal' }),
			entry(5),
			entry(6, { merchantOrderId: 'o-4', gatewayOrderId: '104', destination: 'card 444455******1111' }),
		];
		expect(planDifferences(approved, current)).toEqual([
			'item 1 (return of 10.00 USD on order "o-1"): amount changed from "10.00" to "12.00"',
			'item 2 (return of 10.00 USD on order "o-2"): currency changed from "USD" to "EUR"',
			'item 3 (return of 10.00 USD on order "o-3"): the order changed since the plan: it was approved, 10.00 USD, last transaction sale, it is now approved, 0.00 USD, last transaction reversal',
			'item 5 was not in the approved plan: return of 10.00 USD on order "o-5"',
			'item 6 (return of 10.00 USD on order "o-4"): destination changed from none to "card 444455******1111"',
		]);
		expect(planDifferences(approved, approved.slice(0, 3))).toEqual([
			'approved item 4 is not in this run: return of 10.00 USD on order "o-4"',
		]);
		expect(planDifferences(approved, [...approved].reverse())).toEqual([]);
	});
});

describe('Approved Plan ID: spelled strictly, never from the AI model', () => {
	it.each([
		['plan-0123456789abcdef0123456789abcdef', 'plan-0123456789abcdef0123456789abcdef'],
		['  PLAN-0123456789ABCDEF0123456789ABCDEF ', 'plan-0123456789abcdef0123456789abcdef'],
	])('reads %j', (value, read) => {
		const options = runOptions({ approvedPlanId: value });
		expect(options.unreadable).toEqual([]);
		expect(options.approvedPlanId).toBe(read);
	});

	it.each([
		['', 'an empty text'],
		['plan-123', 'the text "plan-123"'],
		['0123456789abcdef0123456789abcdef', 'the text'],
		[42, '42'],
		[null, 'null'],
		[{ planId: 'x' }, 'an object'],
	])('refuses %j, naming the option', (value, said) => {
		const [error] = runOptions({ approvedPlanId: value }).unreadable;
		expect(error?.field).toBe('Approved Plan ID');
		expect(error?.message).toContain(said);
	});

	it('is not set when absent', () => {
		expect(runOptions({}).approvedPlanId).toBe('');
	});

	it('a malformed plan ID stops the run before anything is sent', async () => {
		const rows = await paidOrders(env.sb, ['mal-a']);
		const mark = (await env.sb.requests()).length;
		const run = await runNode(env.sb, bulkRefund({ approvedPlanId: 'plan-nope' }), { input: rows });
		expect(run.error?.message).toMatch(/"Approved Plan ID" cannot be read.*nothing was sent/);
		expect((await env.sb.requests()).slice(mark)).toEqual([]);
	});

	it('an AI agent may plan without the money switch; a plan filled by the model, or run without the switch, is refused', async () => {
		const rows = await paidOrders(env.sb, ['ai-a']);
		const rehearsal = await runNode(env.sb, bulkRefund({ dryRun: true }), { input: rows, asTool: true });
		const planId = planIdOfRun(rehearsal);
		const before = await moved(env.sb);
		const filled = await runNode(
			env.sb,
			bulkRefund({ approvedPlanId: "={{ $fromAI('plan', 'the plan', 'string') }}", allowAiMoneyMovement: true }),
			{ input: rows, asTool: true },
		);
		expect(filled.error?.message).toMatch(/fills the safety option "Approved Plan ID"/);
		const noSwitch = await runNode(env.sb, bulkRefund({ approvedPlanId: planId }), { input: rows, asTool: true });
		expect(noSwitch.error?.message).toMatch(/AI agents may not run it/);
		const otherPlan = await runNode(
			env.sb,
			bulkRefund({ approvedPlanId: 'plan-0123456789abcdef0123456789abcdef', allowAiMoneyMovement: true }),
			{ input: rows, asTool: true },
		);
		expect(otherPlan.error?.message).toMatch(/not the approved plan plan-0123456789abcdef0123456789abcdef/);
		expect(await moved(env.sb)).toEqual(before);
		const allowed = await runNode(env.sb, bulkRefund({ approvedPlanId: planId, allowAiMoneyMovement: true, ...WAIT }), {
			input: rows,
			asTool: true,
		});
		expect(allowed.error).toBeUndefined();
		expect(jsonOf(allowed)[0]).toMatchObject({ planId, moneyEffect: 'moved', amountReturned: '10.00' });
	});
});

describe('a real run bound to the approved plan', () => {
	it('runs when nothing changed, and every output names the plan and its item', async () => {
		const rows = await paidOrders(env.sb, ['run-a', 'run-b']);
		const planId = planIdOfRun(await dryRun(env.sb, rows));
		const run = await runNode(env.sb, bulkRefund({ approvedPlanId: planId.toUpperCase(), concurrency: 2, ...WAIT }), {
			input: [...rows].reverse(),
		});
		expect(run.error).toBeUndefined();
		expect(jsonOf(run)).toEqual([
			expect.objectContaining({ planId, planned: expect.objectContaining({ item: 1, merchantOrderId: 'run-b' }) }),
			expect.objectContaining({ planId, moneyEffect: 'moved', amountReturned: '10.00', client_orderid: 'run-a' }),
		]);
		expect((await moved(env.sb)).filter((line) => !line.startsWith('sale'))).toHaveLength(2);
	});

	it('a run without a plan says so', async () => {
		const rows = await paidOrders(env.sb, ['free-a']);
		const [output] = jsonOf(await runNode(env.sb, bulkRefund(WAIT), { input: rows }));
		expect(output).toMatchObject({ planId: null, planned: expect.stringMatching(/^no plan/), moneyEffect: 'moved' });
	});

	it.each([
		['an order refunded elsewhere', 'changed since the plan'],
		['a row added', 'not in the approved plan'],
		['a row removed', 'is not in this run'],
		['an amount changed', 'amount changed from "10.00" to "3.00"'],
	])('%s: the whole run is refused, nothing is sent (in another execution)', async (change) => {
		const rows = await paidOrders(env.sb, ['chg-a', 'chg-b', 'chg-c']);
		const planId = planIdOfRun(await dryRun(env.sb, rows.slice(0, 2)));
		let now = rows.slice(0, 2);
		if (change === 'an order refunded elsewhere') await refundElsewhere(env.sb, rows[1]);
		if (change === 'a row added') now = rows;
		if (change === 'a row removed') now = rows.slice(0, 1);
		if (change === 'an amount changed') now = [rows[0], { ...rows[1], amount: '3.00' }];
		const before = await moved(env.sb);
		const mark = (await env.sb.actions()).length;
		const run = await runNode(env.sb, bulkRefund({ approvedPlanId: planId }), { input: now, continueOnFail: true });
		// every item is refused (Continue On Fail makes each one an error item), none was sent
		expect(jsonOf(run)).toHaveLength(now.length);
		for (const item of jsonOf(run))
			expect(item.error).toMatch(new RegExp(`not the approved plan ${planId}.*nothing was sent`));
		expect(await moved(env.sb)).toEqual(before);
		expect((await env.sb.actions()).slice(mark)).toEqual([]);
	});

	it('in another execution than the dry run, the error lists this run’s plan instead of the differences', async () => {
		const rows = await paidOrders(env.sb, ['other-a']);
		const planId = planIdOfRun(await dryRun(env.sb, rows));
		const run = await runNode(env.sb, bulkRefund({ approvedPlanId: planId }), {
			input: [{ ...rows[0], amount: '2.00' }],
		});
		expect(run.error?.context?.moneyEffect).toBe('notSent');
		expect(run.error?.description).toContain('cannot be named one by one');
		expect(run.error?.description).toContain('item 1: return of 2.00 USD on order "other-a"');
	});
});

// ---------------------------------------------------------------------------------------------
// The approval loop in one execution: Start → Dry Run → Approval (a node that may change the world
// while the approver reads) → the real run bound to the plan ID the dry run gave.

function approvalStep(meddle: () => Promise<Row[]>): INodeType {
	return {
		description: {
			displayName: 'Approval',
			name: 'approval',
			group: ['transform'],
			version: 1,
			description: 'test: the rows to run after approval',
			defaults: { name: 'Approval' },
			inputs: ['main'],
			outputs: ['main'],
			properties: [],
		},
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			const planId = this.getInputData()[0]?.json.planId;
			const rows = await meddle();
			return [rows.map((json, index) => ({ json: { ...json, planId }, pairedItem: { item: index } }))];
		},
	} as INodeType;
}

async function approvalLoop(sb: Sandbox, rows: Row[], meddle: () => Promise<Row[]>) {
	const node = new CardGateway();
	const credentials = { cardGatewayApi: { id: 'cred-1', name: 'Card Gateway account' } };
	const { run, output } = await runWorkflow({
		nodeTypes: { [NODE_TYPE]: node, [TOOL_TYPE]: node, 'test.approval': approvalStep(meddle) },
		nodes: [
			{ name: 'Dry Run', type: NODE_TYPE, parameters: bulkRefund({ dryRun: true }), credentials },
			{ name: 'Approval', type: 'test.approval', parameters: {} },
			{
				name: NODE_NAME,
				type: NODE_TYPE,
				parameters: bulkRefund({ approvedPlanId: '={{ $json.planId }}', ...WAIT }),
				credentials,
			},
		],
		connections: {
			Start: { main: [[{ node: 'Dry Run', type: 'main', index: 0 }]] },
			'Dry Run': { main: [[{ node: 'Approval', type: 'main', index: 0 }]] },
			Approval: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] },
		},
		credentials: sb.credentials(),
		input: rows.map((json) => ({ json })),
	});
	return { error: run.data.resultData.error, items: output(NODE_NAME).map((item) => item.json) };
}

describe('the approval loop in one execution: every difference named', () => {
	it('approved and unchanged: executed under the plan', async () => {
		const rows = await paidOrders(env.sb, ['loop-a', 'loop-b']);
		const { error, items } = await approvalLoop(env.sb, rows, async () => rows);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.moneyEffect)).toEqual(['moved', 'moved']);
		expect(items[0].planId).toMatch(/^plan-/);
	});

	it('an order refunded elsewhere and a row added: refused, both named, the ledger unchanged', async () => {
		const rows = await paidOrders(env.sb, ['loop-c', 'loop-d', 'loop-e']);
		let before: string[] = [];
		const { error, items } = await approvalLoop(env.sb, rows.slice(0, 2), async () => {
			await refundElsewhere(env.sb, rows[0]);
			before = await moved(env.sb);
			return rows;
		});
		expect(items).toEqual([]);
		expect(error?.message).toMatch(
			/not the approved plan plan-[0-9a-f]{32} \(it is plan-[0-9a-f]{32}\); nothing was sent\. 2 difference\(s\): item 1 \(return/,
		);
		const description = String((error as { description?: string }).description);
		expect(description).toContain(
			'item 1 (return of 10.00 USD on order "loop-c"): amount changed from "10.00" to "0.00"; the order changed since the plan: it was approved, 10.00 USD, last transaction sale, it is now approved, 0.00 USD, last transaction reversal',
		);
		expect(description).toContain('item 3 was not in the approved plan: return of 10.00 USD on order "loop-e"');
		expect(description).toContain('the whole run is refused');
		expect((error as { context?: IDataObject }).context?.moneyEffect).toBe('notSent');
		expect(await moved(env.sb)).toEqual(before);
	});
});
