// The callback judge (issue 31) in n8n's queue mode: two webhook processes, two workers, PostgreSQL.
// The deliveries of test/support/callback-judge.ts are spread over both webhook processes, every refund
// is held 3 s at the gateway, and the worker running the first claim made (its answer held on the way
// back, so its refund is not sent yet) is SIGKILLed, then started again (a supervisor restarts a crashed
// worker). The trigger answers After the Workflow Finished: a delivery whose worker died is answered 500
// (once n8n finds the job stalled) or not in time, and sent again as the gateway does (with the
// example's default, When Received, the gateway had its 200 already and nothing is resent:
// docs/queue-mode.md). Planted rows stop their events until removed. The ledger judges: every genuine
// event refunded 3.00 exactly once, no other money moved. CALLBACK_JUDGE_SEED replays a case.
import { readFileSync } from 'node:fs';

import { ANSWER_GATEWAY } from '../../nodes/CardGatewayTrigger/description';
import {
	CallbackJudge,
	holdFirstClaim,
	judgedWorkflows,
	rejected,
	starts,
	tally,
	triggerOutputs,
	WEBHOOK,
	WORKFLOW_ID,
} from '../support/callback-judge';
import { startWithClaims, type E2eEnvironment } from '../support/e2e-environment';
import { scaled } from '../support/time-scale';
import { CallbackReceiver } from '../support/trigger';

const SEED = Number(process.env.CALLBACK_JUDGE_SEED ?? 31);
const EVENTS = 8;
const PLANTED = 2;
/**
 * The gateway as modelled here: it waits 30 s for an answer (its real limit is not published), less
 * than n8n takes to find a dead worker's job stalled (its 60 s lock, then a stalled-job check every
 * 30 s), and sends again after a 5xx or no answer, up to 8 times.
 */
const GATEWAY = { resends: 8, timeoutMs: 30_000 };

let env: E2eEnvironment;
let judge: CallbackJudge;
let hold: Awaited<ReturnType<typeof holdFirstClaim>>;
const receiver = new CallbackReceiver();

beforeAll(
	async () => {
		const started = await startWithClaims({
			port: 5960,
			workflows: judgedWorkflows(ANSWER_GATEWAY.afterWorkflowFinished),
			publish: [WORKFLOW_ID],
			queue: { workers: 2, webhookProcesses: 2 },
		});
		env = started.env;
		const bases: string[] = env.topology!.webhookBaseUrls();
		// n8n reports ready before the second webhook process serves the published webhook.
		for (const baseUrl of bases.slice(1))
			await env.n8n.waitForWebhooks([{ path: WEBHOOK, method: 'GET' }], { baseUrl });
		judge = new CallbackJudge(SEED, env, started.apiKey, bases, GATEWAY);
		hold = await holdFirstClaim(env, started.apiKey, 10_000);
		await receiver.start();
	},
	scaled(15 * 60_000),
);
afterAll(async () => {
	await hold?.close();
	await receiver.close();
	await env?.stop();
	await require('undici').getGlobalDispatcher().close();
}, scaled(120_000));

type Run = { id: string; status: string; stoppedAt?: string; data?: { resultData: { error?: { message: string } } } };

/**
 * The worker running the first execution whose claim is made (its answer held on the way back, its
 * refund not sent yet) is SIGKILLed, then started again (a supervisor restarts a crashed worker).
 */
async function killWorkerMidRun(): Promise<{ execution: string; worker: number; running: string[]; at: number }> {
	const execution = await hold.arm();
	const worker = env.topology!.workers.findIndex((candidate: { logFile: string }) =>
		readFileSync(candidate.logFile, 'utf8').includes(`started execution ${execution} (`),
	);
	const at = Date.now();
	await env.topology!.workers[worker].stop('SIGKILL');
	const runs: Run[] = await env.n8n.executions(WORKFLOW_ID);
	await env.topology!.startWorker(worker);
	return { execution, worker, running: runs.filter((run) => run.status === 'running').map((run) => run.id), at };
}

test(
	`callback judge in queue mode (seed ${SEED}): every genuine event refunded exactly once, over two webhook processes, with a worker killed mid-run`,
	async () => {
		const sales = await judge.sales(receiver, EVENTS);
		await judge.createTable(sales[0]);
		const planted = sales.slice(1, 1 + PLANTED);
		for (const sale of planted) await judge.plant(sale);

		// Every refund held 3 s at the gateway: executions are in flight when the worker dies.
		await env.admin('POST', 'faults', { kind: 'latency', op: 'return', count: -1, latencyMs: 3000 });
		const started = Date.now();
		const killing = killWorkerMidRun();
		const answered = await judge.sendInBursts(judge.deliveries(sales));
		const killed = await killing;
		await env.admin('DELETE', 'faults');

		// Forgeries: a changed status fails the signature (403, Rejected only); another type is filtered out (200, nothing starts).
		expect(answered.filter((d) => d.kind === 'forgedStatus').every((d) => d.answer === 403)).toBe(true);
		expect(answered.filter((d) => d.kind === 'otherType').every((d) => d.answer === 200)).toBe(true);
		// Genuine deliveries end in 200 (resent after a dead worker's 500); a planted row's stay 500, nothing moved.
		const isPlanted = (event: number) => planted.includes(sales[event]);
		expect(answered.filter((d) => starts(d) && !isPlanted(d.event)).map((d) => d.answer)).toEqual(
			answered.filter((d) => starts(d) && !isPlanted(d.event)).map(() => 200),
		);
		expect(answered.filter((d) => starts(d) && isPlanted(d.event)).every((d) => d.answer === 500)).toBe(true);
		for (const sale of planted) expect(await judge.ledger(sale)).toEqual({ refunded: '0.00', refunds: 0 });

		// Edited between steps: the planted rows are removed, and the gateway delivers those events again.
		for (const sale of planted) {
			await judge.unplant(sale);
			const again = await judge.send({
				event: sales.indexOf(sale),
				query: judge.withType(sale.callback, judge.respell('sale')),
				kind: 'genuine',
			});
			expect(again.answer).toBe(200);
		}

		// What n8n made of the executions the killed worker may have run.
		const runs: Run[] = await env.n8n.executions(WORKFLOW_ID);
		const fate = [killed.execution, ...killed.running.filter((id) => id !== killed.execution)].map((id) => {
			const run = runs.find((candidate) => candidate.id === id);
			const after = run?.stoppedAt
				? ` ${((Date.parse(run.stoppedAt) - killed.at) / 1000).toFixed(0)} s after the kill`
				: '';
			const error = run?.data?.resultData.error?.message;
			return `${id}: ${run?.status ?? 'gone'}${after}${error ? ` ("${error}")` : ''}`;
		});
		const wrong = await judge.violations(sales);
		console.log(
			`callback judge, queue mode (seed ${SEED}): ${EVENTS} events, ${answered.length + 1 + planted.length} deliveries ` +
				`${JSON.stringify(tally(answered.map((d) => d.kind)))}, ${answered.reduce((sum, d) => sum + d.sends - 1, 0)} resends, ` +
				`${planted.length} planted rows; worker ${killed.worker + 1} SIGKILLed ${((killed.at - started) / 1000).toFixed(1)} s in, the claim of execution ${killed.execution} made and its refund not sent; ` +
				`executions running then: ${fate.join('; ')}; ` +
				`${runs.length} executions ${JSON.stringify(tally(runs.map((run) => run.status)))}; ` +
				`${wrong.length} violations`,
		);
		// A forgery never reaches Accepted: an execution with a Rejected item has nothing else.
		const refused = runs.map((run) => triggerOutputs(run)).filter((outputs) => outputs.rejected > 0);
		expect(refused.filter((outputs) => outputs.accepted > 0 || outputs.rejected > 1)).toEqual([]);
		expect(refused.length).toBeLessThanOrEqual(answered.filter(rejected).length);
		// The kill hit the execution between its claim and its refund.
		expect(runs.find((run) => run.id === killed.execution)?.status).not.toBe('success');
		expect(wrong).toEqual([]);
	},
	scaled(30 * 60_000),
);
