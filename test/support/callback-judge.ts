// The callback judge of issue 31, shared by its two end-to-end files (one n8n: callback-judge.e2e.test.ts;
// queue mode: callback-judge-queue.e2e.test.ts): the shipped example "refund once per callback", genuine
// events (approved 10.00 sales) delivered 1–5 times each, their unsigned `type` respelled at random under
// any of its parameter names, sometimes with the unsigned amount altered, shuffled and sent in concurrent
// bursts; forgeries riding along (a status changed under the old signature, another type); rows planted
// in the claims table before an event's first delivery. The truth is the sandbox's ledger: every genuine
// event refunded 3.00 exactly once, no other money moved.
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { eventually, readWorkflows, type E2eEnvironment } from './e2e-environment';
import { scaled } from './time-scale';
import { saleWithCallback, type CallbackReceiver, type CapturedCallback } from './trigger';

const { seeded } = require('./seeded') as { seeded: (seed: number) => () => number };

export const WORKFLOW_ID = 'cgExRefundOnce';
export const WEBHOOK = 'c1a1e005-0000-4000-8000-0000000000aa/callback';
const TABLE = 'card_gateway_claims';
const TYPE_PARAMETERS = ['type', 'transaction-type', 'transaction_type'];

type Json = Record<string, unknown>;
export type Sale = Awaited<ReturnType<typeof saleWithCallback>>;
export interface Delivery {
	event: number;
	query: URLSearchParams;
	/** What the delivery is, for the report: a genuine (respelled) replay, or a forgery. */
	kind: 'genuine' | 'alteredAmount' | 'forgedStatus' | 'otherType';
}
export type Answered = Delivery & { answer: number; sends: number };

/** The example workflow, its trigger's "Answer the Gateway" set when given (the example's default otherwise). */
export function judgedWorkflows(answerGateway?: string): Array<Record<string, unknown>> {
	const workflows = readWorkflows(join(__dirname, '..', '..', 'examples')).filter((w) => w.id === WORKFLOW_ID);
	if (answerGateway)
		for (const node of workflows[0].nodes as Array<{ type: string; parameters: Json }>)
			if (node.type.endsWith('.cardGatewayEventTrigger')) node.parameters.answerGateway = answerGateway;
	return workflows;
}

/** Deliveries that start an execution with an item on the trigger's Accepted output. */
export const starts = (delivery: Delivery) => delivery.kind === 'genuine' || delivery.kind === 'alteredAmount';

/** Deliveries the trigger refuses for their signature (403): each starts an execution with one item on Rejected only. */
export const rejected = (delivery: Delivery) => delivery.kind === 'forgedStatus';

type Execution = { data?: unknown };

/** How many items a trigger put on its Accepted (output 0) and Rejected (output 1) outputs in one execution. */
export function triggerOutputs(
	execution: Execution,
	trigger = 'Card Gateway Trigger',
): { accepted: number; rejected: number } {
	// An execution a killed worker left behind may have no data.
	const runs = (
		execution.data as { resultData?: { runData?: Record<string, Array<{ data?: { main: unknown[][] } }>> } }
	)?.resultData?.runData?.[trigger];
	const main = runs?.[0]?.data?.main ?? [];
	return { accepted: main[0]?.length ?? 0, rejected: main[1]?.length ?? 0 };
}

export class CallbackJudge {
	readonly random: () => number;

	/**
	 * `bases`: the webhook base URLs the deliveries are spread over; `gateway`: how the gateway waits for
	 * an answer (`timeoutMs`, none when absent: the delivery is then abandoned and sent again) and how
	 * often it sends again after a 5xx or an abandoned delivery (`resends`, 1 s apart).
	 */
	constructor(
		readonly seed: number,
		private readonly env: E2eEnvironment,
		private readonly apiKey: string,
		private readonly bases: string[],
		private readonly gateway: { resends: number; timeoutMs?: number } = { resends: 0 },
	) {
		this.random = seeded(seed);
	}

	pick<T>(list: readonly T[]): T {
		return list[Math.floor(this.random() * list.length)];
	}

	/** `sale` as a replay may spell it: any case per letter, separators between letters, padding. */
	respell(word: string): string {
		const letters = [...word].map((letter) => (this.random() < 0.5 ? letter.toUpperCase() : letter));
		const joined = letters
			.map((letter, index) => (index && this.random() < 0.3 ? this.pick(['-', '_', '.', ' ']) : '') + letter)
			.join('');
		return this.random() < 0.2 ? ` ${joined} ` : joined;
	}

	withType(callback: CapturedCallback, value: string): URLSearchParams {
		const query = new URLSearchParams(callback.query);
		query.delete('type');
		query.set(this.pick(TYPE_PARAMETERS), value);
		return query;
	}

	/** `count` approved 10.00 sales, each with the callback the gateway sent for it. */
	async sales(receiver: CallbackReceiver, count: number): Promise<Sale[]> {
		const sales: Sale[] = [];
		for (let event = 0; event < count; event++)
			sales.push(await saleWithCallback(this.env.sandbox, receiver, { amount: '10.00' }));
		return sales;
	}

	/** Every event's deliveries (genuine replays in any spelling, forgeries of it), shuffled. */
	deliveries(sales: Sale[]): Delivery[] {
		const all = sales.flatMap((sale, event) => this.deliveriesOf(event, sale.callback));
		for (let index = all.length - 1; index > 0; index--) {
			const other = Math.floor(this.random() * (index + 1));
			[all[index], all[other]] = [all[other], all[index]];
		}
		return all;
	}

	private deliveriesOf(event: number, callback: CapturedCallback): Delivery[] {
		const out: Delivery[] = [];
		const count = 1 + Math.floor(this.random() * 5);
		for (let index = 0; index < count; index++) {
			const query = this.withType(callback, this.respell('sale'));
			if (this.random() < 0.25) {
				query.set('amount', this.pick(['1.00', '99.99', '10.0']));
				out.push({ event, query, kind: 'alteredAmount' });
			} else out.push({ event, query, kind: 'genuine' });
		}
		if (this.random() < 0.5) {
			const query = new URLSearchParams(callback.query);
			query.set('status', 'declined');
			out.push({ event, query, kind: 'forgedStatus' });
		}
		if (this.random() < 0.5)
			out.push({ event, query: this.withType(callback, this.respell('reversal')), kind: 'otherType' });
		return out;
	}

	/** One delivery, to one of the webhook processes at random (one n8n: no draw, so its seeds keep their cases). */
	async deliver(query: URLSearchParams): Promise<number> {
		const base = this.bases.length > 1 ? this.pick(this.bases) : this.bases[0];
		const { timeoutMs } = this.gateway;
		const signal = timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined;
		const response = await fetch(`${base}/webhook/${WEBHOOK}?${query}`, { signal });
		await response.arrayBuffer();
		return response.status;
	}

	/**
	 * Sends `delivery` as the gateway does: a 5xx answer (the workflow failed, its worker died) is sent
	 * again, 1 s later; so is one not answered in time or whose connection dropped (599 here).
	 */
	async send(delivery: Delivery): Promise<Answered> {
		for (let sends = 1; ; sends++) {
			const answer = await this.deliver(delivery.query).catch(() => 599);
			if (answer < 500 || sends > this.gateway.resends) return { ...delivery, answer, sends };
			await new Promise((resolve) => setTimeout(resolve, 1000));
		}
	}

	/** Sends the deliveries in bursts of 1–6 at once. */
	async sendInBursts(deliveries: Delivery[]): Promise<Answered[]> {
		const answered: Answered[] = [];
		for (let start = 0; start < deliveries.length;) {
			const burst = deliveries.slice(start, start + 1 + Math.floor(this.random() * 6));
			start += burst.length;
			answered.push(...(await Promise.all(burst.map(async (delivery) => await this.send(delivery)))));
		}
		return answered;
	}

	/** At least `count` executions, none running any more. */
	async settledExecutions(count: number): Promise<Array<{ id: string; status: string; data?: unknown }>> {
		return await eventually(
			`${count} finished executions`,
			async () => {
				// A connection n8n reset (keep-alive) is asked again: reading executions changes nothing.
				const runs: Array<{ id: string; status: string; data?: unknown }> | undefined = await this.env.n8n
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

	/** A settled claim of `sale` first, so that the claims table exists before rows are planted in it. */
	async createTable(sale: Sale): Promise<void> {
		const answered = await this.send({ event: 0, query: new URLSearchParams(sale.callback.query), kind: 'genuine' });
		if (answered.answer !== 200) throw new Error(`the first delivery was answered ${answered.answer}`);
		await this.settledExecutions(1);
	}

	/** A row written into the claims table before the event's first delivery, as any API key holder could. */
	async plant(sale: Sale): Promise<void> {
		const row = { key: keyOf(sale), owner: 'x', state: 'moved', execution: '1', claimedAt: '', before: '', mac: '' };
		await this.tableRequest('', { method: 'POST', body: JSON.stringify({ data: [row], returnType: 'count' }) });
	}

	/** The planted row removed again (an editor's second edit): the event's next delivery must refund. */
	async unplant(sale: Sale): Promise<void> {
		const filter = { type: 'and', filters: [{ columnName: 'key', condition: 'eq', value: keyOf(sale) }] };
		await this.tableRequest(`/delete?filter=${encodeURIComponent(JSON.stringify(filter))}`, { method: 'DELETE' });
	}

	private async tableRequest(path: string, init: RequestInit): Promise<void> {
		const headers = { 'X-N8N-API-KEY': this.apiKey };
		const base = this.env.n8n.baseUrl;
		const tables = (await (await fetch(`${base}/api/v1/data-tables?limit=250`, { headers })).json()) as {
			data: Array<{ id: string; name: string }>;
		};
		const table = tables.data.find((candidate) => candidate.name === TABLE);
		if (!table) throw new Error('no claims table');
		const answer = await fetch(`${base}/api/v1/data-tables/${table.id}/rows${path}`, {
			...init,
			headers: { ...headers, 'content-type': 'application/json' },
		});
		if (!answer.ok) throw new Error(`claims table: HTTP ${answer.status} ${await answer.text()}`);
	}

	/** What the sandbox's ledger says each sale was refunded, and by how many refund transactions. */
	async ledger(sale: Sale): Promise<{ refunded: string; refunds: number }> {
		const order = (await this.env.admin('GET', `orders/${sale.orderid}`)) as {
			refunded: string;
			transactions: Json[];
		};
		const refunds = order.transactions.filter((transaction) => transaction.type === 'reversal').length;
		return { refunded: order.refunded, refunds };
	}

	/** The judge: every sale whose ledger is not one refund of 3.00. */
	async violations(sales: Sale[]): Promise<Array<{ orderid: string; refunded: string; refunds: number }>> {
		const verdicts = await Promise.all(
			sales.map(async (sale) => ({ orderid: sale.orderid, ...(await this.ledger(sale)) })),
		);
		return verdicts.filter((verdict) => verdict.refunded !== '3.00' || verdict.refunds !== 1);
	}
}

/** The claim key the example uses for a sale's approved callback (the trigger's eventKey). */
export function keyOf(sale: Sale): string {
	return `${sale.orderid}:approved:sale`;
}

/** How many of each word, for the report lines (delivery kinds, execution statuses). */
export function tally(words: string[]): Record<string, number> {
	return words.reduce<Record<string, number>>((count, word) => ({ ...count, [word]: (count[word] ?? 0) + 1 }), {});
}

/**
 * A slow network between the n8n processes and the claims API: every request passes, but the answer
 * to the first claim marked "claimed" after arm() is held `holdMs`. The claim is then in the table while
 * its execution has not sent its request yet: the moment issue 31 item 5 is about. `held` resolves with
 * that execution's ID. The claims credential is pointed at it (as an owner would edit it in the editor).
 */
export async function holdFirstClaim(
	env: E2eEnvironment,
	apiKey: string,
	holdMs: number,
): Promise<{ arm(): Promise<string>; close(): Promise<void> }> {
	const target = new URL(env.n8n.baseUrl);
	let armed: ((execution: string) => void) | undefined;
	const body = async (message: IncomingMessage) => {
		const chunks: Buffer[] = [];
		for await (const chunk of message) chunks.push(chunk as Buffer);
		return Buffer.concat(chunks);
	};
	const server = createServer(async (req, res) => {
		const sent = await body(req);
		const upstream = request({
			host: target.hostname,
			port: target.port,
			method: req.method,
			path: req.url,
			headers: { ...req.headers, host: target.host },
		});
		upstream.end(sent);
		const answer = await new Promise<IncomingMessage>((resolve, reject) =>
			upstream.on('response', resolve).on('error', reject),
		).catch(() => undefined);
		if (!answer) return void res.destroy();
		const answered = await body(answer);
		const marked =
			req.method === 'PATCH' && req.url?.includes('/rows/update') && /"state":"claimed"/.test(String(sent));
		if (marked && armed) {
			armed(String((JSON.parse(String(sent)) as { data: { execution: string } }).data.execution));
			armed = undefined;
			await new Promise((resolve) => setTimeout(resolve, holdMs));
		}
		res.writeHead(answer.statusCode ?? 502, answer.headers).end(answered);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	const { CLAIMS_CREDENTIAL } = require('../../scripts/demo-setup');
	const cookie: string = await env.n8n.ownerCookie();
	const patched = await fetch(`${env.n8n.baseUrl}/rest/credentials/${CLAIMS_CREDENTIAL.id}`, {
		method: 'PATCH',
		headers: { 'content-type': 'application/json', cookie },
		body: JSON.stringify({
			name: CLAIMS_CREDENTIAL.name,
			type: 'cardGatewayClaimsApi',
			data: { baseUrl: `http://127.0.0.1:${port}/api/v1`, apiKey, tableName: TABLE },
		}),
	});
	if (!patched.ok) throw new Error(`claims credential: HTTP ${patched.status} ${await patched.text()}`);
	return {
		arm: async () => await new Promise<string>((resolve) => (armed = resolve)),
		close: async () =>
			await new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
