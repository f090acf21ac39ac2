// Rehearse, approve, execute exactly the plan (issue 26): a dry run's plan and plan ID, a real run
// bound to it with "Approved Plan ID", and the whole run refused (nothing sent) when anything
// differs. The sandbox's ledger and request log are the witnesses.
import { randomBytes } from 'node:crypto';

import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeParameters, INodeType } from 'n8n-workflow';

import { CardGateway } from '../../nodes/CardGateway/CardGateway.node';
import { runOptions } from '../../nodes/CardGateway/actions/common/read/options';
import {
	newPlanNonce,
	planDifferences,
	planIdOf,
	planItemOf,
	type PlanEntry,
	type PlanItem,
} from '../../nodes/CardGateway/actions/common/rehearse/plan';

import {
	MERCHANT,
	NODE_NAME,
	NODE_TYPE,
	PAN,
	PAN2,
	TOOL_TYPE,
	WAIT,
	cardPayment,
	jsonOf,
	runNode,
	single,
	useSandbox,
	type NodeRun,
	type Sandbox,
} from '../support/harness';
import { maskSensitive, maskText } from '../../nodes/shared/protocol/masking';
import { runWorkflow } from '../support/n8n';

const env = useSandbox();

/** A plan ID as the node mints them: "plan-", a nonce of 16 letters, "-" and a keyed digest of 24 letters. */
const PLAN_ID = /^plan-[a-z]{16}-[a-z]{24}$/;
/** A well-formed plan ID no dry run gave. */
const OTHER_PLAN = `plan-${'x'.repeat(16)}-${'y'.repeat(24)}`;

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
		expect(planId).toMatch(PLAN_ID);
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
			requestDigest: expect.stringMatching(/^[a-z]{16}$/),
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

	it('every dry run draws its own plan ID; within one, the items’ order does not count, whatever is sent does', async () => {
		const rows = await paidOrders(env.sb, ['ord-a', 'ord-b', 'ord-c']);
		const first = jsonOf(await dryRun(env.sb, rows));
		const again = jsonOf(await dryRun(env.sb, rows));
		// A new dry run of the same items: another nonce, another plan ID, the same requests.
		expect(again[0].planId).not.toBe(first[0].planId);
		expect(again.map((item) => (item.planned as IDataObject).requestDigest)).toEqual(
			first.map((item) => (item.planned as IDataObject).requestDigest),
		);
		// Within a plan (the same nonce): the items’ digests, not their order
		const entries = (items: IDataObject[]) => items.map((item) => item.planned as PlanEntry);
		const idOf = (items: IDataObject[]) => planIdOf(MERCHANT.controlKey, 'n'.repeat(16), entries(items));
		expect(idOf([...first].reverse())).toBe(idOf(first));
		const digestsOf = async (change: (row: Row) => Row) =>
			jsonOf(await dryRun(env.sb, rows.map(change))).map((item) => (item.planned as IDataObject).requestDigest);
		const digests = entries(first).map((entry) => entry.requestDigest);
		// A comment is sent: another request. So is a partial return of everything left (it sends an amount).
		expect(await digestsOf((row) => ({ ...row, comment: 'other words' }))).not.toEqual(digests);
		expect(await digestsOf((row) => ({ ...row, amount: '10.00' }))).not.toEqual(digests);
		expect(await digestsOf((row) => row)).toEqual(digests);
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

	it('the digest: keyed, over the nonce and the sorted canonical items, the position left out', () => {
		const notFound = { kind: 'notFound' as const, reply: { httpStatus: 200, format: 'json' as const, fields: {} } };
		const item: PlanItem = planItemOf({
			operation: 'sale',
			values: { amount: '10.5', currency: 'USD', cardNumber: '4444555566661111' },
			clientOrderId: 'inv-1',
			order: notFound,
			requestDigest: 'a'.repeat(16),
		});
		expect(item).toMatchObject({ amount: '10.5', destination: null, orderState: 'no such order yet' });
		const payout = planItemOf({
			operation: 'payout',
			values: { amount: '5.00', currency: 'EUR', destinationCardNumber: '4444555566661111' },
			clientOrderId: 'n8n-abcdefghijklmn',
			generatedOrderId: true,
			requestDigest: 'b'.repeat(16),
		});
		// A generated order ID is the plan's (drawn with its nonce): named, and new by construction.
		expect(payout).toMatchObject({
			merchantOrderId: 'n8n-abcdefghijklmn',
			destination: 'card 444455******1111',
			orderState: 'no such order yet',
		});
		const nonce = 'q'.repeat(16);
		expect(planIdOf('k', nonce, [item, payout])).toMatch(new RegExp(`^plan-${nonce}-[a-z]{24}$`));
		expect(planIdOf('k', nonce, [item, payout])).toBe(planIdOf('k', nonce, [payout, item]));
		expect(planIdOf('other key', nonce, [item])).not.toBe(planIdOf('k', nonce, [item]));
		expect(planIdOf('k', 'r'.repeat(16), [item])).not.toBe(planIdOf('k', nonce, [item]));
		expect(planIdOf('k', nonce, [item, item])).not.toBe(planIdOf('k', nonce, [item]));
		expect(planIdOf('k', nonce, [{ ...item, requestDigest: 'c'.repeat(16) }])).not.toBe(planIdOf('k', nonce, [item]));
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
		requestDigest: `digest${item}`,
		...overrides,
	});

	it('names items added and removed, amount, currency, destination and order state changed', () => {
		const approved = [entry(1), entry(2), entry(3), entry(4)];
		const current = [
			entry(1, { amount: '12.00' }),
			entry(2, { currency: 'EUR' }),
			entry(3, { orderState: 'approved, 0.00 USD, last transaction reversal' }),
			entry(5),
			entry(6, {
				merchantOrderId: 'o-4',
				gatewayOrderId: '104',
				destination: 'card 444455******1111',
				requestDigest: 'digest4',
			}),
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
		// What the masked entry cannot show: the request differs in full
		expect(planDifferences(approved, [entry(1, { requestDigest: 'other' }), ...approved.slice(1)])).toEqual([
			'item 1 (return of 10.00 USD on order "o-1"): a value it sends differs from the approved request, compared in full and not as shown: a card or account number (even with the same first and last digits), an Extra Field or another field, the endpoint or the credential',
		]);
		// An order that did not exist and does now: the plan ran already
		expect(
			planDifferences(
				[entry(1, { orderState: 'no such order yet' })],
				[entry(1, { orderState: 'approved, 10.00 USD, last transaction payout' })],
			),
		).toEqual([
			'item 1 (return of 10.00 USD on order "o-1"): the gateway has order "o-1" now (approved, 10.00 USD, last transaction payout), which it did not have when the plan was made: an approved plan runs once',
		]);
	});
});

describe('Approved Plan ID: spelled strictly, never from the AI model', () => {
	it.each([
		[OTHER_PLAN, OTHER_PLAN],
		[`  ${OTHER_PLAN.toUpperCase()} `, OTHER_PLAN],
	])('reads %j', (value, read) => {
		const options = runOptions({ approvedPlanId: value });
		expect(options.unreadable).toEqual([]);
		expect(options.approvedPlanId).toBe(read);
	});

	it.each([
		['', 'an empty text'],
		['plan-123', 'the text "plan-123"'],
		['0123456789abcdef0123456789abcdef', 'the text'],
		[`${OTHER_PLAN}x`, 'the text'],
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
		const otherPlan = await runNode(env.sb, bulkRefund({ approvedPlanId: OTHER_PLAN, allowAiMoneyMovement: true }), {
			input: rows,
			asTool: true,
		});
		expect(otherPlan.error?.message).toContain(`not the approved plan ${OTHER_PLAN}`);
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
			/not the approved plan plan-[a-z]{16}-[a-z]{24} \(as it is now it has no plan ID: an approval could not make one item run once: item 1: it would move nothing: nothing is left on the order\); nothing was sent\. 2 difference\(s\): item 1 \(return/,
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

// ---------------------------------------------------------------------------------------------
// Issue 30: an approved plan runs what was approved, once, ever; it binds full values, not masks;
// its ID never reads as card data; a plan that moves nothing is not offered.

/** The actions that reached the sandbox after `mark` (status queries left out), as "op client_orderid". */
const actionsSince = async (sb: Sandbox, mark: number) =>
	(await sb.requests())
		.slice(mark)
		.filter((request) => request.op !== 'status')
		.map((request) => `${request.op} ${request.client_orderid ?? ''}`.trim());

const requestCount = async (sb: Sandbox) => (await sb.requests()).length;

/** Luhn check, written here (not the node's). */
const luhn = (digits: string) =>
	[...digits].reverse().reduce((sum, char, index) => {
		const digit = Number(char) * (index % 2 ? 2 : 1);
		return sum + (digit > 9 ? digit - 9 : digit);
	}, 0) %
		10 ===
	0;

/** Another card number with the same first 6 and last 4 digits (and a valid check digit). */
function sameMask(pan: string): string {
	for (let middle = 0; middle < 1_000_000; middle++) {
		const candidate = pan.slice(0, 6) + String(middle).padStart(pan.length - 10, '0') + pan.slice(-4);
		if (candidate !== pan && luhn(candidate)) return candidate;
	}
	throw new Error('no card number with the same mask');
}

const PAYOUT_CARD = { cardNumber: PAN2, expireMonth: '11', expireYear: '2033', cardholderName: 'JANE ROE' };

/** A card payout (V4) of 25.00 USD under an order ID the node generates. */
const cardPayout = (options: INodeParameters, card: INodeParameters = PAYOUT_CARD): INodeParameters => ({
	resource: 'payout',
	operation: 'sendV4',
	merchantOrderId: '',
	amount: '25.00',
	currency: 'USD',
	additionalFields: { ...card, orderDescription: 'Winnings' },
	options,
});

const payouts = async (sb: Sandbox) => (await sb.ledger()).filter((entry) => entry.kind === 'payout');

describe('an approved plan runs at most once, ever (issue 30, item 3)', () => {
	it('a payout under a generated order ID, approved once and run three times, pays once: the runs after the first send nothing', async () => {
		const [rehearsal] = jsonOf(await runNode(env.sb, cardPayout({ dryRun: true })));
		const [planId, drawn] = [String(rehearsal.planId), String(rehearsal.client_orderid)];
		expect(planId).toMatch(PLAN_ID);
		expect(drawn).toMatch(/^n8n-[a-z]{14}$/);
		const first = await runNode(env.sb, cardPayout({ approvedPlanId: planId, ...WAIT }));
		expect(first.error).toBeUndefined();
		// the order ID the approver was shown is the one sent
		expect(jsonOf(first)[0]).toMatchObject({ planId, client_orderid: drawn, moneyEffect: 'moved' });
		const mark = await requestCount(env.sb);
		for (const again of [1, 2]) {
			const run = await runNode(env.sb, cardPayout({ approvedPlanId: planId, ...WAIT }));
			expect(run.error?.message).toContain(`not the approved plan ${planId}`);
			expect(run.error?.message).toContain('the gateway already has this order ID');
			expect(run.error?.description).toContain('runs only as approved, and once');
			expect(run.error?.context?.moneyEffect).toBe('notSent');
			expect(again).toBeGreaterThan(0);
		}
		expect(await actionsSince(env.sb, mark)).toEqual([]);
		expect((await payouts(env.sb)).map((entry) => `${entry.amount} ${entry.client_orderid}`)).toEqual([
			`25.00 ${drawn}`,
		]);
	});

	it('two runs under one approval at once (Execute clicked twice) pay once', async () => {
		const [rehearsal] = jsonOf(await runNode(env.sb, cardPayout({ dryRun: true })));
		const [planId, drawn] = [String(rehearsal.planId), String(rehearsal.client_orderid)];
		const mark = await requestCount(env.sb);
		const runs = await Promise.all([1, 2].map(() => runNode(env.sb, cardPayout({ approvedPlanId: planId, ...WAIT }))));
		expect((await payouts(env.sb)).map((entry) => entry.client_orderid)).toEqual([drawn]);
		expect((await actionsSince(env.sb, mark)).filter((action) => action.startsWith('payout'))).toHaveLength(1);
		// one pays, the other finds the order and says so: nothing sent
		const outputs = runs.flatMap((run) => jsonOf(run));
		expect(outputs.map((output) => output.moneyEffect).sort()).toEqual(['moved', 'noMoneyMoved']);
		expect(outputs.find((output) => output.moneyEffect === 'noMoneyMoved')).toMatchObject({ alreadyExisted: true });
	});

	it('an old approval does not fit a later identical run: every dry run draws new order IDs and a new plan ID', async () => {
		const [old] = jsonOf(await runNode(env.sb, cardPayout({ dryRun: true })));
		expect(single(await runNode(env.sb, cardPayout({ approvedPlanId: String(old.planId), ...WAIT }))).moneyEffect).toBe(
			'moved',
		);
		// Next month, the same payout again: a new rehearsal, a new approval
		const [next] = jsonOf(await runNode(env.sb, cardPayout({ dryRun: true })));
		expect(next.planId).not.toBe(old.planId);
		expect(next.client_orderid).not.toBe(old.client_orderid);
		const mark = await requestCount(env.sb);
		expect((await runNode(env.sb, cardPayout({ approvedPlanId: String(old.planId) }))).error?.message).toContain(
			'the gateway already has this order ID',
		);
		expect(await actionsSince(env.sb, mark)).toEqual([]);
		expect(
			single(await runNode(env.sb, cardPayout({ approvedPlanId: String(next.planId), ...WAIT }))).moneyEffect,
		).toBe('moved');
		expect(await payouts(env.sb)).toHaveLength(2);
	});

	it('a partial refund approved and run, then run again under the same approval: refused, nothing sent', async () => {
		const rows = (await paidOrders(env.sb, ['once-a'])).map((row) => ({ ...row, amount: '3.00' }));
		const planId = planIdOfRun(await dryRun(env.sb, rows));
		const first = await runNode(env.sb, bulkRefund({ approvedPlanId: planId, ...WAIT }), { input: rows });
		expect(jsonOf(first)[0]).toMatchObject({ moneyEffect: 'moved', amountReturned: '3.00' });
		const mark = await requestCount(env.sb);
		const again = await runNode(env.sb, bulkRefund({ approvedPlanId: planId, ...WAIT }), { input: rows });
		expect(again.error?.message).toContain(`not the approved plan ${planId}`);
		expect(again.error?.message).toContain('it reports approved, 7.00 USD, last transaction reversal');
		expect(await actionsSince(env.sb, mark)).toEqual([]);
		expect((await moved(env.sb)).filter((line) => line.startsWith('return'))).toEqual(['return 3.00 USD once-a']);
	});
});

describe('an approved plan binds what is sent in full, not as shown (issue 30, item 4)', () => {
	const bankPayout = (options: INodeParameters, account: INodeParameters): INodeParameters => ({
		resource: 'payout',
		operation: 'send',
		merchantOrderId: '={{ $json.id }}',
		amount: '900.00',
		currency: 'USD',
		additionalFields: account,
		options,
	});
	const ACCOUNT = { accountNumber: 'GB33BUKB20201555555555', bankName: 'Demo Bank', routingNumber: '021000021' };
	const sale = (options: INodeParameters, card: INodeParameters = {}) =>
		cardPayment({ merchantOrderId: '={{ $json.id }}', amount: '250.00', ...card, options });

	it.each([
		[
			'a payout card swapped for another with the same first 6 and last 4',
			(options: INodeParameters) => cardPayout(options),
			(options: INodeParameters) => cardPayout(options, { ...PAYOUT_CARD, cardNumber: sameMask(PAN2) }),
		],
		[
			'a bank payout moved to another account ending in the same 4 digits, at another bank and routing number',
			(options: INodeParameters) => bankPayout(options, ACCOUNT),
			(options: INodeParameters) =>
				bankPayout(options, {
					accountNumber: 'DE89370400440532015555',
					bankName: 'Other Bank',
					routingNumber: '026009593',
				}),
		],
		[
			'a sale charged to another card',
			(options: INodeParameters) => sale(options),
			(options: INodeParameters) => sale(options, { cardNumber: sameMask(PAN) }),
		],
		[
			'an Extra Field naming a second destination',
			(options: INodeParameters) => bankPayout(options, ACCOUNT),
			(options: INodeParameters) => ({
				...bankPayout(options, ACCOUNT),
				extraFields: { field: [{ name: 'destination_account', value: 'GB94BARC10201530093459' }] },
			}),
		],
	])('%s: the whole run is refused, nothing is sent', async (_change, approved, changed) => {
		const input = [{ id: `bind-${Math.random().toString(36).slice(2)}` }];
		const planId = planIdOfRun(await runNode(env.sb, approved({ dryRun: true }), { input }));
		const before = await moved(env.sb);
		const mark = await requestCount(env.sb);
		const run = await runNode(env.sb, changed({ approvedPlanId: planId }), { input });
		expect(run.error?.message).toContain(`not the approved plan ${planId}`);
		expect(run.error?.context?.moneyEffect).toBe('notSent');
		expect(await actionsSince(env.sb, mark)).toEqual([]);
		expect(await moved(env.sb)).toEqual(before);
		// unchanged, the approved plan runs
		expect(single(await runNode(env.sb, approved({ approvedPlanId: planId }), { input })).planId).toBe(planId);
	});
});

describe('plan IDs never read as card data (issue 30, item 11)', () => {
	it('over 10,000 random plans: letters only, untouched by every mask', () => {
		const items = (seed: number): PlanItem[] =>
			Array.from({ length: 1 + (seed % 4) }, (_, index) => ({
				operation: 'payout',
				merchantOrderId: `inv-${seed}-${index}`,
				gatewayOrderId: null,
				amount: `${seed % 997}.${String(index).padStart(2, '0')}`,
				currency: 'USD',
				destination: 'card 555555******4444',
				target: null,
				orderState: 'no such order yet',
				requestDigest: randomBytes(8).toString('hex'),
			}));
		const masked: string[] = [];
		for (let seed = 0; seed < 10_000; seed++) {
			const id = planIdOf(randomBytes(16).toString('hex'), newPlanNonce(), items(seed));
			if (!PLAN_ID.test(id) || maskText(id) !== id || maskSensitive({ planId: id }).planId !== id) masked.push(id);
		}
		expect(masked).toEqual([]);
	});

	it('a plan ID of an earlier version (plan- and 32 hex digits) is refused, saying so; nothing is sent', async () => {
		const rows = await paidOrders(env.sb, ['old-id']);
		const mark = await requestCount(env.sb);
		const run = await runNode(env.sb, bulkRefund({ approvedPlanId: 'plan-2ef2a95e4444555566661111d41577ab' }), {
			input: rows,
		});
		expect(run.error?.message).toContain('"Approved Plan ID" cannot be read');
		expect(run.error?.message).toContain('a plan ID of an earlier version of the node');
		expect(run.error?.message).toContain('Rehearse again');
		expect(await actionsSince(env.sb, mark)).toEqual([]);
	});
});

describe('a plan that moves nothing is not offered for approval (issue 30, item 13)', () => {
	it('every refund made already: no plan ID, "nothing to approve"; a run bound to the earlier plan sends nothing', async () => {
		const rows = await paidOrders(env.sb, ['none-a', 'none-b', 'none-c', 'none-d']);
		const planId = planIdOfRun(await dryRun(env.sb, rows));
		const run = await runNode(env.sb, bulkRefund({ approvedPlanId: planId, ...WAIT }), { input: rows });
		expect(run.error).toBeUndefined();
		const rehearsal = jsonOf(await dryRun(env.sb, rows));
		expect(rehearsal.map((item) => item.planId)).toEqual([null, null, null, null]);
		expect(rehearsal[0].planSummary).toMatchObject({
			planId: null,
			items: 4,
			totals: { USD: '0.00' },
			note: expect.stringContaining('nothing to approve: no item would move money (nothing is left on the order)'),
		});
		expect((rehearsal[0].planned as IDataObject).movesNothing).toBe('nothing is left on the order');
		const before = await moved(env.sb);
		const mark = await requestCount(env.sb);
		const bound = await runNode(env.sb, bulkRefund({ approvedPlanId: planId }), { input: rows });
		expect(bound.error?.message).toContain('as it is now it has no plan ID: nothing to approve');
		expect(await actionsSince(env.sb, mark)).toEqual([]);
		expect(await moved(env.sb)).toEqual(before);
	});
});
