// The callback judge (issue 31): generated deliveries of genuine callbacks into the shipped example
// "refund once per callback" in a real n8n, judged by the sandbox's ledger alone. Each genuine event
// (an approved 10.00 sale) is delivered 1–5 times, its unsigned `type` respelled at random, under
// any of its parameter names, sometimes with its unsigned amount altered; the deliveries of all events
// are shuffled and sent in concurrent bursts, with n8n restarted halfway. Forged deliveries ride along:
// a status changed under the old signature (refused), the type changed to another one (filtered out).
// Some events meet a row planted in the claims table before their first delivery (the item must stop,
// nothing refunded); the row is then removed and the event delivered again. The truth is the ledger:
// every genuine event refunded 3.00 exactly once, no other money moved. CALLBACK_JUDGE_SEED replays a case.
import { join } from 'node:path';

import { eventually, readWorkflows, startWithClaims, type E2eEnvironment } from '../support/e2e-environment';
import { scaled } from '../support/time-scale';
import { CallbackReceiver, saleWithCallback, type CapturedCallback } from '../support/trigger';

const { seeded } = require('../support/seeded') as { seeded: (seed: number) => () => number };

const SEED = Number(process.env.CALLBACK_JUDGE_SEED ?? 31);
const EVENTS = 8;
const PLANTED = 2;
const WORKFLOW_ID = 'cgExRefundOnce';
const WEBHOOK = 'c1a1e005-0000-4000-8000-0000000000aa/callback';
const TABLE = 'card_gateway_claims';
const TYPE_PARAMETERS = ['type', 'transaction-type', 'transaction_type'];

type Json = Record<string, unknown>;
interface Delivery {
	event: number;
	query: URLSearchParams;
	/** What the delivery is, for the report: a genuine (respelled) replay, or a forgery. */
	kind: 'genuine' | 'alteredAmount' | 'forgedStatus' | 'otherType';
}

const random = seeded(SEED);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];

/** `sale` as a replay may spell it: any case per letter, separators between letters, padding. */
function respell(word: string): string {
	const letters = [...word].map((letter) => (random() < 0.5 ? letter.toUpperCase() : letter));
	const joined = letters
		.map((letter, index) => (index && random() < 0.3 ? pick(['-', '_', '.', ' ']) : '') + letter)
		.join('');
	return random() < 0.2 ? ` ${joined} ` : joined;
}

function withType(callback: CapturedCallback, value: string): URLSearchParams {
	const query = new URLSearchParams(callback.query);
	query.delete('type');
	query.set(pick(TYPE_PARAMETERS), value);
	return query;
}

/** The deliveries of one event: genuine replays in any spelling, and forgeries of it. */
function deliveriesOf(event: number, callback: CapturedCallback): Delivery[] {
	const out: Delivery[] = [];
	const count = 1 + Math.floor(random() * 5);
	for (let index = 0; index < count; index++) {
		const query = withType(callback, respell('sale'));
		if (random() < 0.25) {
			query.set('amount', pick(['1.00', '99.99', '10.0']));
			out.push({ event, query, kind: 'alteredAmount' });
		} else out.push({ event, query, kind: 'genuine' });
	}
	if (random() < 0.5) {
		const query = new URLSearchParams(callback.query);
		query.set('status', 'declined');
		out.push({ event, query, kind: 'forgedStatus' });
	}
	if (random() < 0.5) out.push({ event, query: withType(callback, respell('reversal')), kind: 'otherType' });
	return out;
}

function shuffle<T>(list: T[]): T[] {
	for (let index = list.length - 1; index > 0; index--) {
		const other = Math.floor(random() * (index + 1));
		[list[index], list[other]] = [list[other], list[index]];
	}
	return list;
}

let env: E2eEnvironment;
let apiKey: string;
const receiver = new CallbackReceiver();

beforeAll(
	async () => {
		const workflows = readWorkflows(join(__dirname, '..', '..', 'examples')).filter((w) => w.id === WORKFLOW_ID);
		({ env, apiKey } = await startWithClaims({ port: 5880, workflows, publish: [WORKFLOW_ID] }));
		await receiver.start();
	},
	scaled(15 * 60_000),
);
afterAll(async () => {
	await receiver.close();
	await env?.stop();
	await require('undici').getGlobalDispatcher().close();
}, scaled(120_000));

async function deliver(query: URLSearchParams): Promise<number> {
	const response = await fetch(`${env.callbackBase}/webhook/${WEBHOOK}?${query}`);
	await response.arrayBuffer();
	return response.status;
}

/** Sends the deliveries in bursts of 1–6 at once. */
async function sendInBursts(deliveries: Delivery[]): Promise<Array<Delivery & { answer: number }>> {
	const answered: Array<Delivery & { answer: number }> = [];
	for (let start = 0; start < deliveries.length;) {
		const burst = deliveries.slice(start, start + 1 + Math.floor(random() * 6));
		start += burst.length;
		const answers = await Promise.all(burst.map(async (delivery) => await deliver(delivery.query)));
		burst.forEach((delivery, index) => answered.push({ ...delivery, answer: answers[index] }));
	}
	return answered;
}

async function settledExecutions(count: number): Promise<Array<{ status: string }>> {
	return await eventually(
		`${count} finished executions`,
		async () => {
			// A connection n8n reset (keep-alive) is asked again: reading executions changes nothing.
			const runs: Array<{ status: string }> | undefined = await env.n8n
				.executions(WORKFLOW_ID)
				.catch((error: Error) => (error.message === 'fetch failed' ? undefined : Promise.reject(error)));
			if (!runs) return undefined;
			return runs.length >= count && runs.every((run) => !['running', 'new', 'waiting'].includes(run.status))
				? runs
				: undefined;
		},
		scaled(300_000),
	);
}

/** The claims table's rows endpoint (the test reads and writes it as any holder of the API key could). */
async function rowsEndpoint(): Promise<string> {
	const headers = { 'X-N8N-API-KEY': apiKey };
	const tables = (await (await fetch(`${env.n8n.baseUrl}/api/v1/data-tables?limit=250`, { headers })).json()) as {
		data: Array<{ id: string; name: string }>;
	};
	const table = tables.data.find((candidate) => candidate.name === TABLE);
	if (!table) throw new Error('no claims table');
	return `${env.n8n.baseUrl}/api/v1/data-tables/${table.id}/rows`;
}

async function tableRequest(path: string, init: RequestInit): Promise<void> {
	const answer = await fetch(`${await rowsEndpoint()}${path}`, {
		...init,
		headers: { 'X-N8N-API-KEY': apiKey, 'content-type': 'application/json' },
	});
	if (!answer.ok) throw new Error(`claims table: HTTP ${answer.status} ${await answer.text()}`);
}

/** What the sandbox's ledger says each order was refunded, and by how many refund transactions. */
async function ledger(orderid: string): Promise<{ refunded: string; refunds: number }> {
	const order = (await env.admin('GET', `orders/${orderid}`)) as { refunded: string; transactions: Json[] };
	const refunds = order.transactions.filter((transaction) => transaction.type === 'reversal').length;
	return { refunded: order.refunded, refunds };
}

test(
	`callback judge (seed ${SEED}): every genuine event refunded exactly once, whatever the spelling, order, bursts, restart, forgeries and planted rows`,
	async () => {
		const sales: Array<Awaited<ReturnType<typeof saleWithCallback>>> = [];
		for (let event = 0; event < EVENTS; event++)
			sales.push(await saleWithCallback(env.sandbox, receiver, { amount: '10.00' }));
		// A settled claim first, so that the table exists before rows are planted in it.
		expect(await deliver(new URLSearchParams(sales[0].callback.query))).toBe(200);
		await settledExecutions(1);
		const planted = sales.slice(1, 1 + PLANTED);
		for (const sale of planted) {
			const key = `${sale.orderid}:approved:sale`;
			const row = { key, owner: 'x', state: 'moved', execution: '1', claimedAt: '', before: '', mac: '' };
			await tableRequest('', { method: 'POST', body: JSON.stringify({ data: [row], returnType: 'count' }) });
		}

		const deliveries = shuffle(sales.flatMap((sale, event) => deliveriesOf(event, sale.callback)));
		const half = Math.ceil(deliveries.length / 2);
		const answered = await sendInBursts(deliveries.slice(0, half));
		const startsBefore = answered.filter((d) => d.kind === 'genuine' || d.kind === 'alteredAmount').length;
		await settledExecutions(1 + startsBefore);
		// n8n restarted halfway: nothing of the claims may live only in its memory.
		await env.n8n.stop();
		await env.n8n.start();
		await env.n8n.waitForWebhooks([{ path: WEBHOOK, method: 'GET' }]);
		answered.push(...(await sendInBursts(deliveries.slice(half))));
		const starts = answered.filter((d) => d.kind === 'genuine' || d.kind === 'alteredAmount').length;
		const runs = await settledExecutions(1 + starts);

		// Forgeries: a changed status fails the signature; another type is filtered out (200, nothing starts).
		expect(answered.filter((d) => d.kind === 'forgedStatus').every((d) => d.answer === 403)).toBe(true);
		expect(answered.filter((d) => d.kind !== 'forgedStatus').every((d) => d.answer === 200)).toBe(true);
		expect(runs).toHaveLength(1 + starts);

		// The planted rows stopped their events: nothing refunded, the executions failed visibly.
		const plantedIds = new Set(planted.map((sale) => sale.orderid));
		for (const sale of planted) expect(await ledger(sale.orderid)).toEqual({ refunded: '0.00', refunds: 0 });
		const plantedDeliveries = answered.filter(
			(d) => plantedIds.has(sales[d.event].orderid) && (d.kind === 'genuine' || d.kind === 'alteredAmount'),
		).length;
		expect(runs.filter((run) => run.status === 'error')).toHaveLength(plantedDeliveries);

		// Edited between steps: the planted rows are removed, and the gateway delivers those events again.
		for (const sale of planted) {
			const filter = {
				type: 'and',
				filters: [{ columnName: 'key', condition: 'eq', value: `${sale.orderid}:approved:sale` }],
			};
			await tableRequest(`/delete?filter=${encodeURIComponent(JSON.stringify(filter))}`, { method: 'DELETE' });
			expect(await deliver(withType(sale.callback, respell('sale')))).toBe(200);
		}
		await settledExecutions(1 + starts + planted.length);

		// The judge: the ledger, event by event.
		const verdicts = await Promise.all(
			sales.map(async (sale) => ({ orderid: sale.orderid, ...(await ledger(sale.orderid)) })),
		);
		const wrong = verdicts.filter((verdict) => verdict.refunded !== '3.00' || verdict.refunds !== 1);
		const kinds = answered.reduce<Record<string, number>>(
			(count, d) => ({ ...count, [d.kind]: (count[d.kind] ?? 0) + 1 }),
			{},
		);
		console.log(
			`callback judge (seed ${SEED}): ${EVENTS} events, ${answered.length + 1 + planted.length} deliveries ${JSON.stringify(kinds)}, ` +
				`${planted.length} planted rows, 1 restart; ${wrong.length} violations`,
		);
		expect(wrong).toEqual([]);
	},
	scaled(20 * 60_000),
);
