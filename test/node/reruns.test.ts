// A money step run again (issue 30, item 10): the same inputs run a second time, one after the other
// or at once (Execute clicked twice), never move money twice, and what each run says is true against
// the sandbox's ledger: a step the gateway shows made already is reported as such with nothing sent,
// and a step that may repeat on one order (a partial return or capture) is refused, nothing sent, until
// a key says another one is intended. Each of these failed on 2ab4de6. The judge over every operation
// and fault: test/judges/rerun-judge.test.ts.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { IDataObject, INodeParameters, IRun } from 'n8n-workflow';

import { CardGateway } from '../../nodes/CardGateway/CardGateway.node';
import {
	BANK_DESTINATION,
	NODE_NAME,
	NODE_TYPE,
	WAIT,
	cardGatewayWorkflow,
	cardPayment,
	executeOn,
	runNode,
	single,
	useSandbox,
	type NodeRun,
} from '../support/harness';
import { freshExecutionData, retryExecutionData, workflowOf, type TestNode } from '../support/n8n';

const env = useSandbox();
beforeEach(() => env.sb.reset());

const ledgerOf = async (id: string) => (await env.sb.ledger(id)).map((entry) => [entry.kind, entry.amount]);
const actionsOn = async (command: string) =>
	(await env.sb.actions()).filter((request) => request.path.includes(`/${command}/`)).length;
const effectOf = (run: NodeRun) => run.error?.context?.moneyEffect;
/** A flag of the run's only output item. */
const flag = (run: NodeRun, key: string) => single(run) && run.items[0].json[key] === true;
const twice = (parameters: INodeParameters) => Promise.all([runNode(env.sb, parameters), runNode(env.sb, parameters)]);

async function approvedSale(id: string, operation: 'sale' | 'preauth' = 'sale') {
	const out = single(await runNode(env.sb, cardPayment({ merchantOrderId: id, options: WAIT }, operation)));
	return { merchantOrderId: id, gatewayOrderId: out.orderid };
}

describe('a two-step payout run again with stable order IDs', () => {
	const check = (id: string): INodeParameters => ({
		resource: 'payout',
		operation: 'check',
		merchantOrderId: id,
		amount: '195.50',
		currency: 'USD',
		additionalFields: BANK_DESTINATION,
		options: WAIT,
	});
	const pay = (id: string, orderid: string): INodeParameters => ({
		resource: 'payout',
		operation: 'pay',
		merchantOrderId: id,
		gatewayOrderId: orderid,
		options: WAIT,
	});

	it('the second run sends nothing, and says the payout was paid earlier, not "sent and accepted"', async () => {
		const checked = single(await runNode(env.sb, check('po-again')));
		const first = single(await runNode(env.sb, pay('po-again', checked.orderid)));
		expect(first.alreadyDone).toBeUndefined();
		const checkedAgain = single(await runNode(env.sb, check('po-again')));
		expect(checkedAgain).toMatchObject({ alreadyExisted: true, moneyEffect: 'noMoneyMoved', orderid: checked.orderid });
		const again = single(await runNode(env.sb, pay('po-again', checkedAgain.orderid)));
		expect(again).toMatchObject({ alreadyDone: true, moneyEffect: 'noMoneyMoved', status: 'approved' });
		expect(again.outcome).toMatch(/^Payout on order "po-again": paid out earlier .*nothing was sent/);
		expect(again.outcome).not.toMatch(/sent and accepted/);
		expect([await actionsOn('payout-check'), await actionsOn('payout-pay')]).toEqual([1, 1]);
		expect(await ledgerOf('po-again')).toEqual([['payout', '195.50']]);
	});

	it('clicked twice (two executions at once): one payout, and only one run pays', async () => {
		const [a, b] = await twice(check('po-twice'));
		const orderids = [single(a).orderid, single(b).orderid];
		expect(new Set(orderids).size).toBe(1);
		const paid = await Promise.all([
			runNode(env.sb, pay('po-twice', orderids[0])),
			runNode(env.sb, pay('po-twice', orderids[1])),
		]);
		expect(paid.map((run) => flag(run, 'alreadyDone')).sort()).toEqual([false, true]);
		expect(await actionsOn('payout-pay')).toBe(1);
		expect(await ledgerOf('po-twice')).toEqual([['payout', '195.50']]);
	});
});

describe('a partial return or capture run again', () => {
	const partialReturn = (ids: IDataObject, options: INodeParameters = WAIT): INodeParameters => ({
		resource: 'payment',
		operation: 'return',
		...ids,
		additionalFields: { amount: '3.00', currency: 'USD', comment: 'refund' },
		options,
	});

	it('a partial return executed twice returns once: the second run is refused, naming the return on the order', async () => {
		const ids = await approvedSale('ret-twice');
		expect(single(await runNode(env.sb, partialReturn(ids)))).toMatchObject({ amountReturned: '3.00' });
		const again = await runNode(env.sb, partialReturn(ids));
		expect(again.error?.message).toBe(
			'Payment → Return on order "ret-twice": the order\'s latest transaction is "reversal" (the gateway reports status "approved", last transaction "reversal", amount 7.00 USD), so this return may be one made before, run again; nothing was sent',
		);
		expect(again.error?.description).toMatch(/Act Once per Key/);
		expect(effectOf(again)).toBe('notSent');
		expect(await actionsOn('return')).toBe(1);
		expect(await ledgerOf('ret-twice')).toEqual([
			['sale', '10.00'],
			['return', '3.00'],
		]);
	});

	it('a partial return clicked twice (two executions at once) returns once', async () => {
		const ids = await approvedSale('ret-click');
		const runs = await twice(partialReturn(ids));
		expect(runs.map((run) => (run.error ? 'refused' : single(run).moneyEffect)).sort()).toEqual(['moved', 'refused']);
		expect(await ledgerOf('ret-click')).toEqual([
			['sale', '10.00'],
			['return', '3.00'],
		]);
	});

	it('with Act Once per Key another partial return is intended: not refused, the key is claimed first', async () => {
		const ids = await approvedSale('ret-key');
		single(await runNode(env.sb, partialReturn(ids)));
		const keyed = await runNode(env.sb, partialReturn(ids, { ...WAIT, actOncePerKey: 'refund-ticket-2' }));
		// The harness has no claims store: the claim, not the re-run rule, stops it (nothing sent).
		expect(keyed.error?.message).toMatch(/Claims Store API" credential: nothing was sent/);
		expect(effectOf(keyed)).toBe('notSent');
		expect(await actionsOn('return')).toBe(1);
	});

	it('a full return run again: the order shows nothing left, so it says so and sends nothing', async () => {
		const ids = await approvedSale('ret-full');
		const full = { resource: 'payment', operation: 'return', ...ids, options: WAIT };
		expect(single(await runNode(env.sb, full))).toMatchObject({ amountReturned: '10.00', returnedInFull: true });
		const again = single(await runNode(env.sb, full));
		expect(again).toMatchObject({ alreadyDone: true, moneyEffect: 'noMoneyMoved' });
		expect(again.outcome).toMatch(/returned in full earlier: nothing is left on the order/);
		expect(await actionsOn('return')).toBe(1);
	});

	it('a partial capture run again: refused, one capture; a full capture run again: refused, naming the capture', async () => {
		const ids = await approvedSale('cap-twice', 'preauth');
		const capture = (extra: IDataObject = {}): INodeParameters => ({
			resource: 'payment',
			operation: 'capture',
			...ids,
			...extra,
			options: WAIT,
		});
		const partial = capture({ additionalFields: { amount: '4.00', currency: 'USD' } });
		expect(single(await runNode(env.sb, partial))).toMatchObject({ amountCaptured: '4.00' });
		const again = await runNode(env.sb, partial);
		expect(again.error?.message).toMatch(/latest transaction is "capture".*nothing was sent/);
		expect(effectOf(again)).toBe('notSent');
		const full = await runNode(env.sb, capture());
		expect(full.error?.message).toMatch(/it was captured before/);
		expect(effectOf(full)).toBe('notSent');
		expect(await ledgerOf('cap-twice')).toEqual([['capture', '4.00']]);
	});
});

describe('a new order under a typed order ID clicked twice', () => {
	it.each([
		['a sale', cardPayment({ merchantOrderId: 'sale-click', options: WAIT }), 'sale-click', [['sale', '10.00']]],
		[
			'a payout',
			{
				resource: 'payout',
				operation: 'sendV4',
				merchantOrderId: 'payout-click',
				amount: '3.00',
				currency: 'USD',
				additionalFields: BANK_DESTINATION,
				options: WAIT,
			},
			'payout-click',
			[['payout', '3.00']],
		],
	])('%s: moved once, and only one run says it moved money', async (_what, parameters, id, ledger) => {
		const runs = await twice(parameters as INodeParameters);
		expect(runs.map((run) => single(run).moneyEffect).sort()).toEqual(['moved', 'noMoneyMoved']);
		expect(runs.map((run) => flag(run, 'alreadyExisted')).sort()).toEqual([false, true]);
		expect(await ledgerOf(id)).toEqual(ledger);
	});
});

describe("n8n's Retry of an execution whose follow-up lost its reply", () => {
	const retryOf = async (parameters: INodeParameters) => {
		const workflow = cardGatewayWorkflow(parameters);
		const failed = await executeOn(env.sb, 'manual', workflow, freshExecutionData(workflow, [{ json: {} }]));
		expect(failed.status).toBe('error');
		expect(failed.data.resultData.error?.message).toMatch(/MAY have moved/);
		const retried = await executeOn(env.sb, 'retry', workflow, retryExecutionData(failed));
		const runs = retried.data.resultData.runData[NODE_NAME];
		return { retried, last: runs[runs.length - 1] };
	};

	it('a partial return applied before its reply was lost is not returned again: refused, nothing sent', async () => {
		const ids = await approvedSale('retry-partial');
		await env.sb.fault({ kind: 'apply-then-drop', op: 'v2/return', count: 1 });
		const { retried } = await retryOf({
			resource: 'payment',
			operation: 'return',
			...ids,
			additionalFields: { amount: '3.00', currency: 'USD' },
			options: { timeoutSeconds: 1 },
		});
		expect(retried.data.resultData.error?.message).toMatch(/may be one made before, run again; nothing was sent/);
		expect(await actionsOn('return')).toBe(1);
		expect(await ledgerOf('retry-partial')).toEqual([
			['sale', '10.00'],
			['return', '3.00'],
		]);
	});

	it('a void applied before its reply was lost: the retry says it was voided earlier, nothing sent', async () => {
		const ids = await approvedSale('retry-void');
		await env.sb.fault({ kind: 'apply-then-drop', op: 'v2/void', count: 1 });
		const { retried, last } = await retryOf({
			resource: 'payment',
			operation: 'void',
			...ids,
			comment: 'duplicate order',
			options: { timeoutSeconds: 1 },
		});
		expect(retried.status).toBe('success');
		expect(last.data?.main[0]?.[0].json).toMatchObject({ alreadyDone: true, moneyEffect: 'noMoneyMoved' });
		expect(await actionsOn('void')).toBe(1);
	});
});

// ---------------------------------------------------------------------------------------------
// examples/payout-run.json: its two Card Gateway nodes as the example sets them, fed by its own Recipients.

describe('examples/payout-run.json', () => {
	const example = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'examples', 'payout-run.json'), 'utf8')) as {
		nodes: Array<{ name: string; parameters: IDataObject }>;
	};
	const nodeOf = (name: string) => example.nodes.find((node) => node.name === name)!;
	/** The Recipients code node's items (the code returns them). */
	const recipients = (
		new Function(String(nodeOf('Recipients').parameters.jsCode)) as () => Array<{ json: IDataObject }>
	)();
	const cardGateway = (name: string): TestNode => ({
		name,
		type: NODE_TYPE,
		parameters: nodeOf(name).parameters as INodeParameters,
		credentials: { cardGatewayApi: { id: 'cred-1', name: 'Card Gateway account' } },
		onError: 'continueErrorOutput',
	});
	const workflow = workflowOf({
		nodeTypes: { [NODE_TYPE]: new CardGateway() },
		nodes: [cardGateway('Payout: Check'), cardGateway('Payout: Pay')],
		connections: {
			Start: { main: [[{ node: 'Payout: Check', type: 'main', index: 0 }]] },
			'Payout: Check': { main: [[{ node: 'Payout: Pay', type: 'main', index: 0 }]] },
		},
	});
	const execute = () => executeOn(env.sb, 'manual', workflow, freshExecutionData(workflow, recipients));
	const paysOf = (run: IRun) =>
		(run.data.resultData.runData['Payout: Pay']?.[0]?.data?.main?.[0] ?? []).map((item) => item.json);
	/** The example's If conditions after Pay, evaluated on an output as n8n would (`={{ … }}`). */
	const condition = (name: string) => {
		const { conditions } = nodeOf(name).parameters as { conditions: { conditions: Array<{ leftValue: string }> } };
		const left = conditions.conditions[0].leftValue;
		return new Function('$json', `return (${left.replace(/^=\{\{([\s\S]*)\}\}$/, '$1')});`) as (
			json: IDataObject,
		) => unknown;
	};
	const route = (json: IDataObject) =>
		condition('Paid?')(json) === true ? 'Paid' : condition('Paid earlier?')(json) === true ? 'Paid earlier' : 'Failed';
	const payouts = async () => (await env.sb.ledger()).filter((entry) => entry.kind === 'payout');

	it('order IDs come from the data: run again, nobody is paid twice, and the second run lists them as paid earlier', async () => {
		const first = paysOf(await execute());
		expect(first.map(route)).toEqual(['Paid', 'Paid']);
		const second = paysOf(await execute());
		expect(second.map(route)).toEqual(['Paid earlier', 'Paid earlier']);
		expect((await payouts()).map((entry) => [entry.client_orderid, entry.amount])).toEqual([
			['payout-2026-11-r1', '120.00'],
			['payout-2026-11-r2', '75.50'],
		]);
	});

	it('Execute clicked twice (two executions at once): each recipient is paid once', async () => {
		const runs = await Promise.all([execute(), execute()]);
		const routes = runs.flatMap((run) => paysOf(run).map(route)).sort();
		expect(routes).toEqual(['Paid', 'Paid', 'Paid earlier', 'Paid earlier']);
		expect((await payouts()).map((entry) => entry.amount).sort()).toEqual(['120.00', '75.50']);
	});
});
