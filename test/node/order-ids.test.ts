// Generated merchant order IDs (Merchant Order ID left empty) and n8n's Retry of a failed
// execution. A retry runs the failed node again for every item; the IDs it generates must be the
// ones the failed execution sent, so that an item charged before the failure is not charged again.
//
// First on a stand-in context, then in n8n-core's engine against the sandbox: a run that stops at
// item 1 after item 0 was charged, retried the way n8n's ExecutionService.retry does it (the saved
// execution data, the errored run of the failed node removed, mode 'retry', optionally the nodes
// of the current workflow), and a node that runs twice in one execution.
import { createHash } from 'node:crypto';

import {
	NodeOperationError,
	type IConnections,
	type IDataObject,
	type IExecuteFunctions,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type INodeType,
	type IRun,
	type IRunExecutionData,
	type Workflow,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import {
	deriveOrderIdsFromPlan,
	generatedIdsMayRepeat,
	generatedOrderId,
	isExecutionRetry,
} from '../../nodes/CardGateway/actions/common/read/orderIds';
import {
	NODE_NAME,
	NODE_TYPE,
	WAIT,
	cardGatewayWorkflow,
	cardPayment,
	executeOn,
	useSandbox,
} from '../support/harness';
import { freshExecutionData, retryExecutionData, type TestNode } from '../support/n8n';

type Json = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// A stand-in for n8n's execute context: one object per run of the node; `contextData` is the
// execution's (n8n keeps the node's context under "node:<name>").

const NODE = { id: 'cg', name: NODE_NAME, type: NODE_TYPE, typeVersion: 1, position: [0, 0], parameters: {} } as INode;

function runOf(execution: { contextData: Json; mode?: WorkflowExecuteMode }, runIndex = 0): IExecuteFunctions {
	return {
		getMode: () => execution.mode ?? 'webhook',
		getNode: () => NODE,
		getContext: (type: string) => {
			const key = type === 'node' ? `node:${NODE.name}` : 'flow';
			execution.contextData[key] ??= {};
			return execution.contextData[key];
		},
		getWorkflowDataProxy: () => ({ $runIndex: runIndex }),
	} as unknown as IExecuteFunctions;
}

/** Through n8n's database and back (n8n serialises execution data with flatted: JSON for what is kept here). */
const saved = <T>(data: T): T => JSON.parse(JSON.stringify(data)) as T;

const ids = (ctx: IExecuteFunctions, count = 3) =>
	Array.from({ length: count }, (_, index) => generatedOrderId(ctx, index));

describe('generatedOrderId', () => {
	it('is n8n- plus 14 letters; the same for the same item of the same run, another for every other item', () => {
		const execution = { contextData: {} };
		const run = runOf(execution);
		const first = ids(run, 50);
		for (const id of first) expect(id).toMatch(/^n8n-[a-z]{14}$/);
		expect(new Set(first).size).toBe(50);
		expect(ids(run, 50)).toEqual(first);
		// another context object of the same run (n8n makes one per run) derives the same IDs
		expect(ids(runOf(execution), 50)).toEqual(first);
	});

	it('another run of the node in the same execution (Loop Over Items) generates other IDs', () => {
		const execution = { contextData: {} };
		const runs = [0, 1, 2].map((runIndex) => ids(runOf(execution, runIndex)));
		expect(new Set(runs.flat()).size).toBe(9);
		expect(ids(runOf(execution, 1))).toEqual(runs[1]);
	});

	it('a fresh execution generates other IDs: every execution starts with its own seed', () => {
		const executions = Array.from({ length: 20 }, () => ids(runOf({ contextData: {} })));
		expect(new Set(executions.flat()).size).toBe(60);
	});

	it('a retry (mode "retry") with the failed execution\'s context generates the same IDs, for every run index', () => {
		const original = { contextData: {} as Json };
		const sent = [0, 1].map((runIndex) => ids(runOf(original, runIndex)));
		// what n8n saves and hands to the retry: the execution data, serialised in its database
		const retry = { contextData: saved(original.contextData), mode: 'retry' as const };
		expect(isExecutionRetry(runOf(retry))).toBe(true);
		expect([0, 1].map((runIndex) => ids(runOf(retry, runIndex)))).toEqual(sent);
		// a retry of that retry keeps them too
		const again = { contextData: saved(retry.contextData), mode: 'retry' as const };
		expect(ids(runOf(again, 1))).toEqual(sent[1]);
	});

	it('a retry whose first attempt left no seed refuses the item, naming "Merchant Order ID"; other modes are not retries', () => {
		const retry = { contextData: {} as Json, mode: 'retry' as const };
		let error: unknown;
		try {
			generatedOrderId(runOf(retry), 2);
		} catch (caught) {
			error = caught;
		}
		expect(error).toBeInstanceOf(NodeOperationError);
		const refused = error as NodeOperationError;
		expect(refused.message).toContain('"Merchant Order ID"');
		expect(refused.message).toContain('nothing was sent');
		expect(refused.description).toContain('Retry');
		expect(refused.context.itemIndex).toBe(2);
		// nothing was made up and kept for a later attempt
		expect(JSON.stringify(retry.contextData)).not.toMatch(/[0-9a-f]{32}/);
		for (const mode of ['manual', 'trigger', 'webhook', 'internal', 'integrated', 'cli', 'error'] as const) {
			expect(isExecutionRetry(runOf({ contextData: {}, mode }))).toBe(false);
		}
	});
});

describe('generated order IDs under a plan (issue 30)', () => {
	const planned = (nonce: string, bound: boolean, execution = { contextData: {} as Json }) => {
		const run = runOf(execution);
		deriveOrderIdsFromPlan(run, nonce, bound);
		return run;
	};

	it("come from the plan's nonce: the same in the dry run and in every run bound to it, in any execution", () => {
		const nonce = 'q'.repeat(16);
		const rehearsed = ids(planned(nonce, false), 20);
		for (const id of rehearsed) expect(id).toMatch(/^n8n-[a-z]{14}$/);
		expect(new Set(rehearsed).size).toBe(20);
		expect(ids(planned(nonce, true), 20)).toEqual(rehearsed);
		// another execution, an n8n Retry, a saved seed: the plan's IDs still
		expect(ids(planned(nonce, true, { contextData: {}, mode: 'retry' } as never), 20)).toEqual(rehearsed);
		const seeded = { contextData: {} as Json };
		ids(runOf(seeded));
		expect(ids(planned(nonce, true, seeded), 20)).toEqual(rehearsed);
		expect(ids(planned('r'.repeat(16), false), 20).some((id) => rehearsed.includes(id))).toBe(false);
	});

	it('may repeat in a run bound to a plan (each is looked up first), not in the dry run that drew the nonce', () => {
		expect(generatedIdsMayRepeat(planned('q'.repeat(16), true))).toBe(true);
		expect(generatedIdsMayRepeat(planned('q'.repeat(16), false))).toBe(false);
		expect(generatedIdsMayRepeat(runOf({ contextData: {} }))).toBe(false);
		expect(generatedIdsMayRepeat(runOf({ contextData: {}, mode: 'retry' }))).toBe(true);
	});
});

// ---------------------------------------------------------------------------------------------
// In n8n-core's engine, against the sandbox.

const env = useSandbox();

/** Passes its input through (two of them feed the Card Gateway node: it runs twice). */
class PassThrough implements INodeType {
	description = {
		displayName: 'Pass',
		name: 'pass',
		group: ['transform'],
		version: 1,
		description: 'Passes the input through',
		defaults: { name: 'Pass' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
	} as unknown as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

const workflowOf = (parameters: INodeParameters, before: TestNode[] = [], connections?: IConnections): Workflow =>
	cardGatewayWorkflow(parameters, { before, connections, nodeTypes: { 'test.pass': new PassThrough() } });

const freshData = (workflow: Workflow, input: Json[]): IRunExecutionData =>
	freshExecutionData(
		workflow,
		input.map((json) => ({ json: json as IDataObject })),
	);

const execute = (mode: WorkflowExecuteMode, workflow: Workflow, data: IRunExecutionData): Promise<IRun> =>
	executeOn(env.sb, mode, workflow, data);

const outputOf = (run: IRun, runIndex = 0) =>
	(run.data.resultData.runData[NODE_NAME]?.[runIndex]?.data?.main?.[0] ?? []).map((item) => item.json as Json);

async function salesOf(amount: string) {
	return (await env.sb.ledger()).filter((entry) => entry.kind === 'sale' && entry.amount === amount);
}

/** Three sales whose amounts and expiry years come from the items (Merchant Order ID empty). */
const SALE = cardPayment({ amount: '={{ $json.amount }}', expireYear: '={{ $json.year }}', options: WAIT });
const items = (prefix: string, secondYear: string) => [
	{ amount: `${prefix}.01`, year: '2035' },
	{ amount: `${prefix}.02`, year: secondYear },
	{ amount: `${prefix}.03`, year: '2035' },
];

/** A run that charges item 0 and stops at item 1 (an expired card: refused before sending). */
async function failedRun(prefix: string): Promise<{ workflow: Workflow; failed: IRun; firstId: string }> {
	const workflow = workflowOf(SALE);
	const failed = await execute('webhook', workflow, freshData(workflow, items(prefix, '2020')));
	expect(failed.status).toBe('error');
	expect(failed.data.resultData.lastNodeExecuted).toBe(NODE_NAME);
	expect(failed.data.resultData.error?.message).toContain('expired');
	const sales = await salesOf(`${prefix}.01`);
	expect(sales).toHaveLength(1);
	expect(await salesOf(`${prefix}.02`)).toEqual([]);
	return { workflow, failed, firstId: sales[0].client_orderid };
}

describe('n8n Retry of a failed execution (n8n-core engine, sandbox)', () => {
	it('retry with the original workflow: item 0 gets the order ID it was charged under and is not charged again', async () => {
		const { workflow, failed, firstId } = await failedRun('21');
		const retried = await execute('retry', workflow, retryExecutionData(failed));
		// item 1 still holds an expired card: the retry stops there again
		expect(retried.status).toBe('error');
		expect(await salesOf('21.01')).toEqual([expect.objectContaining({ client_orderid: firstId })]);
		expect(await salesOf('21.03')).toEqual([]);
		// every request of the retry was about item 0's order: nothing under a new ID
		const retriedIds = (await env.sb.requests())
			.filter((request) => request.params?.amount === '21.01')
			.map((request) => request.client_orderid);
		expect(new Set(retriedIds)).toEqual(new Set([firstId]));
	});

	it('retry with the current workflow (item 1 fixed): item 0 is not charged again, items 1 and 2 are charged once', async () => {
		const { failed, firstId } = await failedRun('22');
		const fixed = workflowOf({ ...SALE, expireYear: '2035' });
		const retried = await execute('retry', fixed, retryExecutionData(failed, fixed));
		expect(retried.status).toBe('success');
		const out = outputOf(retried);
		expect(out.map((item) => item.client_orderid)[0]).toBe(firstId);
		for (const amount of ['22.01', '22.02', '22.03']) expect(await salesOf(amount)).toHaveLength(1);
		expect((await salesOf('22.02'))[0].client_orderid).toBe(out[1].client_orderid);
		expect((await salesOf('22.03'))[0].client_orderid).toBe(out[2].client_orderid);

		// a second retry of the same failed execution: still nothing new
		await execute('retry', fixed, retryExecutionData(failed, fixed));
		for (const amount of ['22.01', '22.02', '22.03']) expect(await salesOf(amount)).toHaveLength(1);
	});

	it('a retry whose first attempt kept no seed (an older version of the node) refuses every item and sends nothing', async () => {
		const { workflow, failed } = await failedRun('23');
		const data = retryExecutionData(failed);
		data.executionData!.contextData = {};
		const before = (await env.sb.requests()).length;
		const retried = await execute('retry', workflow, data);
		expect(retried.status).toBe('error');
		expect(retried.data.resultData.error?.message).toContain(
			'"Merchant Order ID" is empty, and this retried execution cannot generate the order IDs',
		);
		expect((await env.sb.requests()).length).toBe(before);
		expect(await salesOf('23.01')).toHaveLength(1);
	});

	it('a fresh execution of the same workflow generates new order IDs (a new payment)', async () => {
		const workflow = workflowOf(SALE);
		const runs = [
			await execute('webhook', workflow, freshData(workflow, items('24', '2035'))),
			await execute('webhook', workflow, freshData(workflow, items('24', '2035'))),
		];
		const [a, b] = runs.map((run) => outputOf(run).map((item) => String(item.client_orderid)));
		expect(new Set([...a, ...b]).size).toBe(6);
		for (const amount of ['24.01', '24.02', '24.03']) expect(await salesOf(amount)).toHaveLength(2);
	});

	it("two runs of the node in one execution use their run index: other IDs, derived from the execution's seed", async () => {
		const pass = (name: string): TestNode => ({ name, type: 'test.pass', parameters: {} });
		const connections: IConnections = {
			Start: {
				main: [
					[
						{ node: 'A', type: 'main', index: 0 },
						{ node: 'B', type: 'main', index: 0 },
					],
				],
			},
			A: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] },
			B: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] },
		};
		const workflow = workflowOf(cardPayment({ amount: '25.00', options: WAIT }), [pass('A'), pass('B')], connections);
		const run = await execute('webhook', workflow, freshData(workflow, [{}, {}]));
		expect(run.status).toBe('success');
		expect(run.data.resultData.runData[NODE_NAME]).toHaveLength(2);
		const perRun = [0, 1].map((runIndex) => outputOf(run, runIndex).map((item) => String(item.client_orderid)));
		expect(new Set(perRun.flat()).size).toBe(4);
		const context = run.data.executionData!.contextData[`node:${NODE_NAME}`] as Record<string, string>;
		const [seed] = Object.values(context).filter((value) => typeof value === 'string' && /^[0-9a-f]{32}$/.test(value));
		// Letters only, one per digest byte (a run of digits could read as a card number).
		const letters = (digest: Buffer) =>
			Array.from(digest.subarray(0, 14), (byte) => String.fromCharCode(97 + (byte % 26))).join('');
		const derived = (runIndex: number, itemIndex: number) =>
			`n8n-${letters(createHash('sha256').update(`${seed}:${runIndex}:${itemIndex}`).digest())}`;
		expect(perRun).toEqual([
			[derived(0, 0), derived(0, 1)],
			[derived(1, 0), derived(1, 1)],
		]);
		expect(await salesOf('25.00')).toHaveLength(4);
	});
});
