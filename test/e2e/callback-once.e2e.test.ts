// One genuine callback, replayed 30 times at once and 30 times spaced out, into the example
// "refund once per callback" (examples/refund-once-per-callback.json): Card Gateway Trigger → Card
// Gateway Return 3.00 with "Act Once per Key". In one n8n (SQLite) and in n8n's queue mode with two
// webhook processes (PostgreSQL): the sandbox's ledger must show one refund of 3.00, and the node's
// outputs one refund and 59 "claimed before". The claims live in a Data Table of the same n8n,
// reached through its public API (credential "Card Gateway Claims Store API").
import { join } from 'node:path';

import { eventually, readWorkflows, startE2eEnvironment, type E2eEnvironment } from '../support/e2e-environment';
import { CallbackReceiver, saleWithCallback, type CapturedCallback } from '../support/trigger';
import { scaled } from '../support/time-scale';

const { CLAIMS_CREDENTIAL, claimsCredentialPlaceholder } = require('../../scripts/demo-setup');

const WORKFLOW_ID = 'cgExRefundOnce';
const WEBHOOK = 'c1a1e005-0000-4000-8000-0000000000aa/callback';
const TABLE = 'card_gateway_claims';
const REPLAYS = 30;

type Json = Record<string, unknown>;
interface Run {
	id: string;
	status: string;
	data: {
		resultData: {
			error?: { message: string; description?: string };
			runData: Record<string, Array<{ data?: { main: Array<Array<{ json: Json }>> } }>>;
		};
	};
}

const workflows = readWorkflows(join(__dirname, '..', '..', 'examples')).filter((w) => w.id === WORKFLOW_ID);

/** The environment with the claims credential imported (its API key does not exist before n8n runs: filled in after). */
async function startWithClaims(options: Omit<Parameters<typeof startE2eEnvironment>[0], 'credentials'>) {
	const env = await startE2eEnvironment({ ...options, credentials: [claimsCredentialPlaceholder()] });
	const apiKey: string = await env.n8n.connectClaims(CLAIMS_CREDENTIAL);
	return { env, apiKey };
}

/** Sends the captured callback as the gateway sent it (method and query string), to one webhook base URL. */
async function deliver(base: string, callback: CapturedCallback): Promise<number> {
	const response = await fetch(`${base}/webhook/${WEBHOOK}?${callback.queryString}`, { method: callback.method });
	await response.arrayBuffer();
	return response.status;
}

async function finishedRuns(env: E2eEnvironment, count: number): Promise<Run[]> {
	return await eventually(
		`${count} finished executions`,
		async () => {
			const runs: Run[] = await env.n8n.executions(WORKFLOW_ID);
			return runs.length >= count && runs.every((run) => !['running', 'new', 'waiting'].includes(run.status))
				? runs
				: undefined;
		},
		scaled(300_000),
	);
}

function refundOutput(run: Run): Json | undefined {
	return run.data.resultData.runData['Refund 3.00']?.[0]?.data?.main[0][0].json;
}

async function orderView(env: E2eEnvironment, orderid: string): Promise<{ refunded: string; transactions: Json[] }> {
	return await env.admin('GET', `orders/${orderid}`);
}

async function claimRows(env: E2eEnvironment, apiKey: string, key: string): Promise<Json[]> {
	const headers = { 'X-N8N-API-KEY': apiKey };
	const tables = (await (await fetch(`${env.n8n.baseUrl}/api/v1/data-tables?limit=250`, { headers })).json()) as {
		data: Array<{ id: string; name: string }>;
	};
	const table = tables.data.find((t) => t.name === TABLE);
	if (!table) return [];
	const filter = JSON.stringify({ type: 'and', filters: [{ columnName: 'key', condition: 'eq', value: key }] });
	const rows = await fetch(
		`${env.n8n.baseUrl}/api/v1/data-tables/${table.id}/rows?filter=${encodeURIComponent(filter)}`,
		{ headers },
	);
	return ((await rows.json()) as { data: Json[] }).data;
}

function replayScenario(name: string, start: () => Promise<{ env: E2eEnvironment; apiKey: string; bases: string[] }>) {
	describe(name, () => {
		let env: E2eEnvironment;
		let apiKey: string;
		let bases: string[];
		const receiver = new CallbackReceiver();

		beforeAll(
			async () => {
				({ env, apiKey, bases } = await start());
				await receiver.start();
			},
			scaled(15 * 60_000),
		);
		afterAll(async () => {
			await receiver.close();
			await env?.stop();
		}, scaled(120_000));
		test(
			`one genuine callback, ${REPLAYS}× at once and ${REPLAYS}× spaced: one refund`,
			async () => {
				// The genuine callback of an approved 10.00 sale, captured where the gateway sent it.
				const sale = await saleWithCallback(env.sandbox, receiver, { amount: '10.00' });
				const { callback } = sale;
				const concurrent = await Promise.all(
					Array.from({ length: REPLAYS }, (_, index) => deliver(bases[index % bases.length], callback)),
				);
				const spaced: number[] = [];
				for (let index = 0; index < REPLAYS; index++) {
					spaced.push(await deliver(bases[index % bases.length], callback));
					await new Promise((resolve) => setTimeout(resolve, 250));
				}
				expect([...concurrent, ...spaced].every((status) => status === 200)).toBe(true);

				const runs = await finishedRuns(env, 2 * REPLAYS);
				const outputs = runs.map(refundOutput);
				const refunds = outputs.filter((output) => output?.moneyEffect === 'moved');
				const claimedBefore = outputs.filter((output) => output?.alreadyClaimed === true);
				expect({
					refunds: refunds.length,
					claimedBefore: claimedBefore.length,
					failed: runs.filter((r) => r.status !== 'success').length,
					firstError: ((error) => error && `${error.message} — ${error.description}`)(
						runs.find((r) => r.status !== 'success')?.data.resultData.error,
					),
				}).toEqual({
					refunds: 1,
					claimedBefore: 2 * REPLAYS - 1,
					failed: 0,
					firstError: undefined,
				});
				expect(claimedBefore.every((output) => output?.moneyEffect === 'notSent')).toBe(true);
				// The ledger is the judge.
				const order = await orderView(env, sale.orderid);
				expect(order.refunded).toBe('3.00');
				const key = `${sale.orderid}:approved:sale`;
				expect(refunds[0]).toMatchObject({ claimKey: key, amountReturned: '3.00' });
				const [row, ...more] = await claimRows(env, apiKey, key);
				expect(more).toHaveLength(0);
				expect(row).toMatchObject({ key, state: 'moved' });
			},
			scaled(15 * 60_000),
		);

		test(
			'a claim whose return moved nothing is given back, so the next delivery tries again',
			async () => {
				// A 2.00 sale cannot take a 3.00 refund: the gateway refuses it, nothing moves.
				const sale = await saleWithCallback(env.sandbox, receiver, { amount: '2.00' });
				const before = (await env.n8n.executions(WORKFLOW_ID)).length;
				expect(await deliver(bases[0], sale.callback)).toBe(200);
				const runs = await finishedRuns(env, before + 1);
				expect(runs[0].status).toBe('error');
				expect(await claimRows(env, apiKey, `${sale.orderid}:approved:sale`)).toEqual([]);
				expect((await orderView(env, sale.orderid)).refunded).toBe('0.00');
			},
			scaled(5 * 60_000),
		);
	});
}

replayScenario('one n8n (SQLite)', async () => {
	const { env, apiKey } = await startWithClaims({ port: 5790, workflows, publish: [WORKFLOW_ID] });
	return { env, apiKey, bases: [env.callbackBase] };
});

replayScenario('queue mode, two webhook processes (PostgreSQL)', async () => {
	const { env, apiKey } = await startWithClaims({
		port: 5900,
		workflows,
		publish: [WORKFLOW_ID],
		queue: { workers: 2, webhookProcesses: 2 },
	});
	const bases: string[] = env.topology!.webhookBaseUrls();
	// n8n reports ready before the second webhook process serves the published webhook.
	for (const baseUrl of bases.slice(1)) {
		await env.n8n.waitForWebhooks([{ path: WEBHOOK, method: 'GET' }], { baseUrl });
	}
	return { env, apiKey, bases };
});
