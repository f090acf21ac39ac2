// Campaign 9 — queue mode under faults (issue #17). n8n in queue mode (e2e/queue.js: PostgreSQL,
// Redis, main, a webhook process, two workers) runs examples/callback-exactly-once.json: the trigger
// and a scheduled reconciliation feed Remove Duplicates and then "Record the outcome", which posts to
// a merchant system played here. Real sandbox orders; their callbacks are sent to the webhook process
// at a fixed concurrency, resent like the gateway does when the answer is not 200. Meanwhile a worker
// is SIGKILLed and restarted, Redis is stopped for a few seconds, PostgreSQL is restarted.
// Two variants (issue 23 item 3): the trigger answers the gateway when the callback is received (n8n's
// default: once the execution is queued; a worker's death loses it, the reconciliation brings it back)
// or after the workflow finished (a failed execution or a dead worker is answered 500 and resent): then
// the reconciliation is switched off, and every outcome must come by the callback path alone.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { Pool } from 'undici';

import { startE2eEnvironment, type E2eEnvironment } from '../test/support/e2e-environment';
import { CONTROL_KEY, Tally, latencySummary, pool, sleep, type CampaignResult } from '../test/support/campaign';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the sandbox test client is CommonJS without types
const { Client } = require('../test/support/sandbox-client');

const EXAMPLE = join(__dirname, '..', 'examples/callback-exactly-once.json');
/** Gateway-style resends of a callback not answered 200 (ms after the previous attempt). */
const RESEND_DELAYS_MS = [1000, 2000, 4000, 8000, 15_000, 30_000, 30_000];
/** The merchant reconciles orders whose outcome is missing this long after their callback was first sent. */
const AWAITING_AFTER_MS = 75_000;
const RECONCILE_EVERY_S = 15;

/** The trigger's Answer the Gateway option (parameter answerGateway). */
export type AnswerGateway = 'whenReceived' | 'afterWorkflowFinished';
/** How long the campaign, playing the gateway, waits for an answer before it counts none and resends. */
const ANSWER_TIMEOUT_MS: Record<AnswerGateway, number> = {
	whenReceived: 60_000,
	// A dead worker's execution fails only once its job lock lapses (QUEUE_WORKER_LOCK_DURATION, 60 s):
	// long enough to see n8n's own 500 rather than a timeout of ours.
	afterWorkflowFinished: 120_000,
};

const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex');

interface Order {
	orderid: string;
	clientOrderId: string;
	status: 'approved' | 'declined';
	amount: string;
	firstSentAt?: number;
}

/**
 * The merchant's system: which orders await an outcome, and the outcomes n8n records. It applies each
 * Idempotency-Key once (README, "Running at scale"); repeats that still arrive are counted.
 */
class Merchant {
	readonly arrivals = new Map<string, Array<{ source: string; at: number }>>();
	readonly orders = new Map<string, Order>();
	private server?: Server;
	url = '';

	async start(): Promise<this> {
		this.server = createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (chunk) => chunks.push(chunk));
			req.on('end', () => {
				if (req.method === 'GET' && req.url?.startsWith('/payments/awaiting-outcome')) {
					const due = [...this.orders.values()].filter(
						(o) => o.firstSentAt !== undefined && Date.now() - o.firstSentAt > AWAITING_AFTER_MS && !this.applied(o),
					);
					res.setHeader('content-type', 'application/json');
					res.end(JSON.stringify(due.map((o) => ({ client_orderid: o.clientOrderId }))));
					return;
				}
				if (req.method === 'POST' && req.url === '/payments/outcomes') {
					const key = String(req.headers['idempotency-key'] ?? '');
					const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { key?: string; source?: string };
					const list = this.arrivals.get(key) ?? [];
					list.push({ source: body.key === key ? String(body.source) : 'mismatched key', at: Date.now() });
					this.arrivals.set(key, list);
					res.end('{"recorded":true}');
					return;
				}
				res.statusCode = 404;
				res.end();
			});
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
		return this;
	}

	key(order: Order): string {
		return `${order.orderid}:${order.status}:sale`;
	}

	/** Every key recorded for this order (more than one, or another one, would be a second outcome). */
	keysOf(order: Order): string[] {
		return [...this.arrivals.keys()].filter((key) => key.startsWith(`${order.orderid}:`));
	}

	applied(order: Order): boolean {
		return this.arrivals.has(this.key(order));
	}

	close(): Promise<void> {
		return new Promise((resolve) => this.server?.close(() => resolve()) ?? resolve());
	}
}

/**
 * The example, pointed at the merchant played here: its schedule shortened for the campaign, or, when
 * the trigger answers after the workflow finished, switched off (the callback path alone must do).
 */
function campaignWorkflow(merchantUrl: string, answerGateway: AnswerGateway): Record<string, unknown> {
	const text = readFileSync(EXAMPLE, 'utf8').split('https://your-system.example').join(merchantUrl);
	const workflow = JSON.parse(text) as {
		nodes: Array<{ name: string; type: string; disabled?: boolean; parameters: Record<string, unknown> }>;
	};
	const schedule = workflow.nodes.find((node) => node.name === 'Every 15 minutes')!;
	schedule.parameters = { rule: { interval: [{ field: 'seconds', secondsInterval: RECONCILE_EVERY_S }] } };
	if (answerGateway === 'afterWorkflowFinished') {
		schedule.disabled = true;
		const trigger = workflow.nodes.find((node) => node.type.endsWith('.cardGatewayTrigger'))!;
		trigger.parameters = { ...trigger.parameters, answerGateway };
	}
	return workflow as unknown as Record<string, unknown>;
}

function callbackPath(webhookId: string, order: Order): string {
	const fields = {
		status: order.status,
		merchant_order: order.clientOrderId,
		client_orderid: order.clientOrderId,
		orderid: order.orderid,
		type: 'sale',
		amount: order.amount,
		currency: 'USD',
		'last-four-digits': '1111',
		bin: '444455',
		control: sha1(`${order.status}${order.orderid}${order.clientOrderId}${CONTROL_KEY}`),
	};
	return `/webhook/${webhookId}/callback?${new URLSearchParams(fields).toString()}`;
}

async function createOrders(sandboxUrl: string, count: number, seed: number): Promise<Order[]> {
	const client = new Client({ url: sandboxUrl });
	return pool(8, count, async (index) => {
		// 1 in 7 declined (CVV 116: insufficient funds), the rest approved.
		const declined = index % 7 === 0;
		const amount = `${(index % 97) + 1}.${String(index % 100).padStart(2, '0')}`;
		const sale = await client.sale({ amount, cvv2: declined ? '116' : '123', client_orderid: `rel6-${seed}-${index}` });
		let reply = (await client.status(sale.orderid, sale.params.client_orderid)).data;
		for (let poll = 0; reply.status === 'processing' && poll < 20; poll++)
			reply = (await client.status(sale.orderid, sale.params.client_orderid)).data;
		if (reply.status !== (declined ? 'declined' : 'approved'))
			throw new Error(`sandbox order ${sale.orderid}: ${reply.status}`);
		return {
			orderid: String(sale.orderid),
			clientOrderId: String(sale.params.client_orderid),
			status: reply.status,
			amount,
		};
	});
}

interface Fault {
	name: string;
	atFraction: number;
	run(env: E2eEnvironment): Promise<void>;
}

const FAULTS: Fault[] = [
	{
		name: 'worker-1 SIGKILLed, then restarted',
		atFraction: 0.2,
		async run(env) {
			await env.topology!.workers[0].stop('SIGKILL');
			await env.topology!.startWorker(0);
		},
	},
	{
		name: 'Redis stopped for 5 s, then started on the same port',
		atFraction: 0.45,
		async run(env) {
			await env.topology!.redis.stop();
			await sleep(5000);
			await env.topology!.redis.start();
		},
	},
	{
		name: 'PostgreSQL restarted (pg_ctl stop -m fast, start)',
		atFraction: 0.7,
		async run(env) {
			await env.topology!.postgres.restart();
		},
	},
];

/** '150–179: 12, 270–299: 40': how many values fall into each `width`-wide bucket, in order. */
function bucketed(values: number[], width: number): string {
	const counts = new Map<number, number>();
	for (const value of values) {
		const start = Math.floor(value / width) * width;
		counts.set(start, (counts.get(start) ?? 0) + 1);
	}
	return [...counts]
		.sort(([a], [b]) => a - b)
		.map(([start, count]) => `${start}–${start + width - 1}: ${count}`)
		.join(', ');
}

async function executionStatuses(env: E2eEnvironment, workflowId: string): Promise<Record<string, number>> {
	const counts: Record<string, number> = {};
	let cursor: string | undefined;
	do {
		const page = (await env.n8n.api(
			`/executions?workflowId=${workflowId}&limit=250${cursor ? `&cursor=${cursor}` : ''}`,
		)) as { data: Array<{ status: string }>; nextCursor?: string };
		for (const execution of page.data) counts[execution.status] = (counts[execution.status] ?? 0) + 1;
		cursor = page.nextCursor ?? undefined;
	} while (cursor);
	return counts;
}

export async function queueCampaign({
	seed,
	runs,
	concurrency,
	port,
	answerGateway = 'whenReceived',
}: {
	seed: number;
	runs: number;
	concurrency: number;
	port: number;
	answerGateway?: AnswerGateway;
}): Promise<CampaignResult> {
	const startedAll = Date.now();
	const afterFinished = answerGateway === 'afterWorkflowFinished';
	// After the workflow finished the trigger answers with an empty body (issue 23 item 3); on receipt, "OK".
	const okBody = afterFinished ? '' : 'OK';
	const ACKNOWLEDGED = 'acknowledged 200 in the end (every other answer resent)';
	const OK_BODY = afterFinished ? "a 200 is always the trigger's (empty body)" : 'a 200 is always the trigger\'s "OK"';
	const NOT_LOST = afterFinished
		? 'no acknowledged callback lost, by the callback path alone (reconciliation off)'
		: 'no acknowledged callback lost (outcome recorded, after reconciliation)';
	const ONE_OUTCOME = afterFinished
		? "one outcome per order, the gateway's"
		: "one outcome per order, the gateway's (the same key from the callback and the reconciliation)";
	const NONE_TWICE = 'no outcome reached the merchant twice';
	const PROCESSES_UP = 'every n8n process up at the end';
	const tally = new Tally([
		ACKNOWLEDGED,
		OK_BODY,
		NOT_LOST,
		ONE_OUTCOME,
		...(afterFinished ? [NONE_TWICE] : []),
		PROCESSES_UP,
	]);
	const merchant = await new Merchant().start();
	const example = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as {
		id: string;
		nodes: Array<{ name: string; webhookId?: string }>;
	};
	const webhookId = example.nodes.find((node) => node.name === 'Card Gateway Trigger')!.webhookId!;
	const env = await startE2eEnvironment({
		port,
		workflows: [campaignWorkflow(merchant.url, answerGateway)],
		publish: [example.id],
		queue: { workers: 2 },
	});
	const answers = new Map<string, number>();
	const resentAfter = new Map<string, number>();
	/** Per answer other than 200: the orders that got it, and when (s into the campaign) those attempts were sent. */
	const notOk = new Map<string, { orders: Set<Order>; sentAtS: number[] }>();
	const faultLog: string[] = [];
	const latencies: number[] = [];
	let resends = 0;
	let loadS = 0;
	try {
		const orders = await createOrders(env.sandbox.url, runs, seed);
		for (const order of orders) merchant.orders.set(order.clientOrderId, order);
		// Unsigned: 403 once the webhook process knows the trigger (n8n registers it after start). The
		// refusal starts one execution, with one item on the trigger's Rejected output and none on Accepted.
		await (await env.topology!.webhook(`${webhookId}/callback`)).text();

		const dispatcher = new Pool(env.callbackBase, { connections: concurrency, pipelining: 1 });
		let firstAttempts = 0;
		let chaos = Promise.resolve();
		let nextFault = 0;
		const started = performance.now();
		await pool(concurrency, runs, async (index) => {
			firstAttempts++;
			while (nextFault < FAULTS.length && firstAttempts >= FAULTS[nextFault].atFraction * runs) {
				const fault = FAULTS[nextFault++];
				chaos = chaos.then(async () => {
					const t0 = Date.now();
					await fault.run(env);
					faultLog.push(
						`${fault.name}: at callback ${firstAttempts} of ${runs}, ${((t0 - startedAll) / 1000).toFixed(0)} s into the campaign, took ${((Date.now() - t0) / 1000).toFixed(1)} s`,
					);
				});
			}
			const order = orders[index];
			order.firstSentAt = Date.now();
			for (let attempt = 0; ; attempt++) {
				const t0 = performance.now();
				let status = 0;
				let body = '';
				try {
					const response = await dispatcher.request({
						method: 'GET',
						path: callbackPath(webhookId, order),
						headersTimeout: ANSWER_TIMEOUT_MS[answerGateway],
						bodyTimeout: ANSWER_TIMEOUT_MS[answerGateway],
					});
					status = response.statusCode;
					body = await response.body.text();
				} catch (error) {
					body = (error as Error).message;
				}
				latencies.push(performance.now() - t0);
				const label = status === 0 ? 'no answer' : String(status);
				if (status !== 200) {
					const seen = notOk.get(label) ?? { orders: new Set<Order>(), sentAtS: [] };
					seen.orders.add(order);
					seen.sentAtS.push(Math.round((Date.now() - startedAll - (performance.now() - t0)) / 1000));
					notOk.set(label, seen);
				}
				answers.set(label, (answers.get(label) ?? 0) + 1);
				tally.check(
					OK_BODY,
					status !== 200 || body === okBody,
					() => `${order.clientOrderId}: 200 ${body.slice(0, 60)}`,
				);
				if (status === 200) break;
				if (attempt >= RESEND_DELAYS_MS.length) {
					tally.check(ACKNOWLEDGED, false, () => `${order.clientOrderId}: last answer ${label} ${body.slice(0, 80)}`);
					return;
				}
				resends++;
				resentAfter.set(label, (resentAfter.get(label) ?? 0) + 1);
				await sleep(RESEND_DELAYS_MS[attempt]);
			}
			tally.check(ACKNOWLEDGED, true, () => '');
		});
		loadS = (performance.now() - started) / 1000;
		await chaos;
		await dispatcher.close();

		// Wait until every order has its outcome, or nothing changed for two reconciliation rounds
		// after the last order became due (what is still missing then is lost). Without the
		// reconciliation the same wait gives a late execution its time.
		const deadline = Date.now() + 10 * 60_000;
		let lastCount = -1;
		let lastChange = Date.now();
		while (Date.now() < deadline) {
			const done = orders.filter((o) => merchant.applied(o)).length;
			if (done === orders.length) break;
			if (done !== lastCount) [lastCount, lastChange] = [done, Date.now()];
			else if (Date.now() - lastChange > AWAITING_AFTER_MS + 3 * RECONCILE_EVERY_S * 1000) break;
			await sleep(2000);
		}
		await sleep(2 * RECONCILE_EVERY_S * 1000);
		for (const order of orders) {
			const arrivals = merchant.arrivals.get(merchant.key(order)) ?? [];
			tally.check(NOT_LOST, arrivals.length >= 1, () => `${order.clientOrderId}: no outcome recorded`);
			const keys = merchant.keysOf(order);
			tally.check(
				ONE_OUTCOME,
				keys.length <= 1 && (keys.length === 0 || keys[0] === merchant.key(order)),
				() => `${order.clientOrderId}: expected ${merchant.key(order)}, recorded ${keys.join(', ')}`,
			);
			if (afterFinished)
				tally.check(
					NONE_TWICE,
					arrivals.length <= 1,
					() => `${order.clientOrderId}: ${arrivals.length} arrivals (${arrivals.map((a) => a.source).join(', ')})`,
				);
		}
		const processes = [env.topology!.main, env.topology!.webhookProcess, ...env.topology!.workers];
		for (const process of processes)
			tally.check(PROCESSES_UP, process.running(), () => `${process.name} exited; see ${process.logFile}`);

		const statuses = await executionStatuses(env, example.id);
		const bySource = new Map<string, number>();
		for (const list of merchant.arrivals.values())
			for (const { source } of list) bySource.set(source, (bySource.get(source) ?? 0) + 1);
		const lost = orders.filter((o) => !merchant.applied(o)).length;
		return {
			id: afterFinished ? 'queue-after-finished' : 'queue',
			title: afterFinished
				? 'Queue mode under faults, the gateway answered after the workflow finished'
				: 'Queue mode under faults',
			seed,
			cases: runs,
			injected: `${runs} real sandbox orders (1 in 7 declined); their genuine GET callbacks sent at ${concurrency} in flight to the webhook process of n8n in queue mode (main, webhook process, 2 workers × concurrency 10, PostgreSQL, Redis; e2e/queue.js settings), each resent after ${RESEND_DELAYS_MS.map((d) => d / 1000).join(', ')} s while the answer is not 200 (no answer within ${ANSWER_TIMEOUT_MS[answerGateway] / 1000} s counts as none); workflow examples/callback-exactly-once.json, ${afterFinished ? 'the trigger\'s Answer the Gateway set to "after the workflow finished" (answerGateway: afterWorkflowFinished) and the scheduled reconciliation switched off' : `the trigger answering when the callback is received (the default) and the reconciliation every ${RECONCILE_EVERY_S} s for orders without an outcome ${AWAITING_AFTER_MS / 1000} s after their first callback`}. Faults during the load: ${FAULTS.map((f) => `${f.name} (at ${f.atFraction * 100} % of the callbacks)`).join('; ')}`,
			invariants: tally.list(),
			figures: {
				faults: faultLog.join('; '),
				'answers (HTTP status → count, resends included)': [...answers]
					.map(([status, count]) => `${status}: ${count}`)
					.join(', '),
				'callbacks resent': resends,
				'answers other than 200: when those attempts were sent (s into the campaign, 30 s buckets: count)': [...notOk]
					.map(([label, { sentAtS }]) => `${label}: ${bucketed(sentAtS, 30)}`)
					.join('; '),
				'orders that got an answer other than 200, and of those the ones whose outcome reached the merchant twice': [
					...notOk,
				]
					.map(
						([label, { orders: got }]) =>
							`${label}: ${got.size} orders, ${[...got].filter((o) => (merchant.arrivals.get(merchant.key(o))?.length ?? 0) > 1).length} twice`,
					)
					.join('; '),
				'resends, by the answer that caused them': [...resentAfter]
					.map(([status, count]) => `${status}: ${count}`)
					.join(', '),
				'load: first attempts and resends done after': `${loadS.toFixed(1)} s`,
				'answer latency p50 / p95 / p99 / max': latencySummary(latencies, 0),
				'outcomes recorded, by path': [...bySource].map(([source, count]) => `${source}: ${count}`).join(', '),
				'repeats that passed Remove Duplicates (refused by the Idempotency-Key)': [
					...merchant.arrivals.values(),
				].reduce((sum, list) => sum + list.length - 1, 0),
				'orders whose outcome the reconciliation recorded first (callback acknowledged, its execution lost or not done yet)':
					orders.filter((o) => merchant.arrivals.get(merchant.key(o))?.[0]?.source === 'reconciliation').length,
				[afterFinished
					? 'acknowledged callbacks lost (no reconciliation to bring them back)'
					: 'acknowledged callbacks lost after the reconciliation']: lost,
				"executions of the workflow by status (the unsigned probe's Rejected execution among the successes)":
					Object.entries(statuses)
						.map(([status, count]) => `${status}: ${count}`)
						.join(', '),
			},
			wallMs: Date.now() - startedAll,
			outputs: [],
		};
	} finally {
		await env.stop();
		await merchant.close();
	}
}
