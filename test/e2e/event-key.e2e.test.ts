// The trigger's event key in one real n8n (issue 31, items 1 and 7). One genuine approved-sale
// callback, replayed with its unsigned `type` respelled (`Sale`, `s-ale`, `sa_le`, ` SALE `, under
// `transaction-type` too), into examples/refund-once-per-callback.json, which claims
// `{{ $json.eventKey }}`: one refund of 3.00 in the sandbox's ledger, one claim row, every other
// delivery "claimed before". A refund callback whose amount was altered (12.99 → 1.00) into
// examples/refund-alert.json: the message shows 1.00 as unconfirmed, never as the gateway's figure.
import { join } from 'node:path';

import { eventually, readWorkflows, startWithClaims, type E2eEnvironment } from '../support/e2e-environment';
import { scaled } from '../support/time-scale';
import { CallbackReceiver, refund, runSale, saleWithCallback, type CapturedCallback } from '../support/trigger';

const { startSandbox } = require('../../sandbox');

const EXAMPLES = join(__dirname, '..', '..', 'examples');
const REFUND_ONCE = { id: 'cgExRefundOnce', webhook: 'c1a1e005-0000-4000-8000-0000000000aa/callback' };
const REFUND_ALERT = { id: 'cgExRefundAlert', webhook: 'b1c0e008-0000-4000-8000-0000000000aa/callback' };
/** Where the refund alert posts in the demo; this test gives it a sink of its own. */
/** Where the shipped examples post their messages: the demo sandbox's sink at its default address. */
const DEMO_SINK = `${require('../../scripts/demo-setup').DEFAULT_SANDBOX_URL}/sandbox/sink`;
const TABLE = 'card_gateway_claims';
/** The spellings of `sale` a replay may use (`type` is not signed), and the parameter it comes under. */
const RESPELLINGS: ReadonlyArray<[string, string]> = [
	['type', 'sale'],
	['type', 'Sale'],
	['type', 's-ale'],
	['type', 'sa_le'],
	['type', ' SALE '],
	['transaction-type', 'SALE'],
	['transaction_type', 'S.a.l.e'],
];

type Json = Record<string, unknown>;
interface Run {
	status: string;
	data: { resultData: { runData: Record<string, Array<{ data?: { main: Array<Array<{ json: Json }>> } }>> } };
}

let env: E2eEnvironment;
let apiKey: string;
let sink: { url: string; close(): Promise<void> };
const receiver = new CallbackReceiver();

beforeAll(
	async () => {
		sink = await startSandbox({ port: 0, quiet: true });
		const workflows = readWorkflows(EXAMPLES)
			.filter((workflow) => workflow.id === REFUND_ONCE.id || workflow.id === REFUND_ALERT.id)
			.map((workflow) => JSON.parse(JSON.stringify(workflow).split(DEMO_SINK).join(`${sink.url}/sandbox/sink`)));
		({ env, apiKey } = await startWithClaims({
			port: 5870,
			workflows,
			publish: [REFUND_ONCE.id, REFUND_ALERT.id],
		}));
		await receiver.start();
	},
	scaled(15 * 60_000),
);
afterAll(async () => {
	await receiver.close();
	await env?.stop();
	await sink?.close();
	await require('undici').getGlobalDispatcher().close();
}, scaled(120_000));

/** The callback as the gateway sent it, with `type` replaced by `value` under `parameter`. */
function respelled(callback: CapturedCallback, parameter: string, value: string): URLSearchParams {
	const query = new URLSearchParams(callback.query);
	query.delete('type');
	query.set(parameter, value);
	return query;
}

async function deliver(webhook: string, query: URLSearchParams): Promise<number> {
	const response = await fetch(`${env.callbackBase}/webhook/${webhook}?${query}`);
	await response.arrayBuffer();
	return response.status;
}

async function finishedRuns(workflowId: string, count: number): Promise<Run[]> {
	return await eventually(
		`${count} finished executions of ${workflowId}`,
		async () => {
			const runs: Run[] = await env.n8n.executions(workflowId);
			return runs.length >= count && runs.every((run) => !['running', 'new', 'waiting'].includes(run.status))
				? runs
				: undefined;
		},
		scaled(300_000),
	);
}

const output = (run: Run, node: string): Json | undefined =>
	run.data.resultData.runData[node]?.[0]?.data?.main[0][0].json;

async function claimRows(key: string): Promise<Json[]> {
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

test(
	'a genuine callback replayed with its type respelled refunds once: one key, one claim row',
	async () => {
		const sale = await saleWithCallback(env.sandbox, receiver, { amount: '10.00' });
		const before = (await env.n8n.executions(REFUND_ONCE.id)).length;
		// Each spelling twice: once all at the same moment, once one after the other.
		const queries = RESPELLINGS.map(([parameter, value]) => respelled(sale.callback, parameter, value));
		const concurrent = await Promise.all(queries.map((query) => deliver(REFUND_ONCE.webhook, query)));
		const spaced: number[] = [];
		for (const query of queries) spaced.push(await deliver(REFUND_ONCE.webhook, query));
		expect([...concurrent, ...spaced].every((status) => status === 200)).toBe(true);

		const deliveries = 2 * RESPELLINGS.length;
		const runs = (await finishedRuns(REFUND_ONCE.id, before + deliveries)).slice(0, deliveries);
		const key = `${sale.orderid}:approved:sale`;
		expect(new Set(runs.map((run) => output(run, 'Card Gateway Trigger')?.eventKey))).toEqual(new Set([key]));
		expect(new Set(runs.map((run) => output(run, 'Card Gateway Trigger')?.type))).toEqual(new Set(['sale']));
		const refunds = runs.map((run) => output(run, 'Refund 3.00'));
		expect({
			failed: runs.filter((run) => run.status !== 'success').length,
			moved: refunds.filter((item) => item?.moneyEffect === 'moved').length,
			claimedBefore: refunds.filter((item) => item?.alreadyClaimed === true).length,
		}).toEqual({ failed: 0, moved: 1, claimedBefore: deliveries - 1 });
		// The ledger is the judge.
		expect(((await env.admin('GET', `orders/${sale.orderid}`)) as { refunded: string }).refunded).toBe('3.00');
		// The winner holds every row of the key (its own and the free ones it took), all settled "moved".
		const rows = await claimRows(key);
		expect(rows.length).toBeGreaterThan(0);
		expect(new Set(rows.map((row) => row.owner)).size).toBe(1);
		expect(rows.every((row) => row.key === key && row.state === 'moved')).toBe(true);
	},
	scaled(10 * 60_000),
);

test(
	'a refund callback altered 12.99 → 1.00 is confirmed as a refund, its amount shown as unconfirmed',
	async () => {
		const sinkMessages = async () =>
			((await (await fetch(`${sink.url}/sandbox/sink`)).json()) as { messages: Array<{ message: { text: string } }> })
				.messages;
		const sale = await runSale(env.sandbox, { amount: '12.99', notifyUrl: receiver.url });
		await refund(env.sandbox, sale, '12.99');
		const [, reversal] = await receiver.waitFor(sale.orderid, 2);
		expect(reversal.query).toMatchObject({ type: 'reversal', amount: '12.99', status: 'approved' });
		const before = (await sinkMessages()).length;
		const runsBefore = (await env.n8n.executions(REFUND_ALERT.id)).length;

		const forged = new URLSearchParams({ ...reversal.query, amount: '1.00' });
		expect(await deliver(REFUND_ALERT.webhook, forged)).toBe(200);
		const [run] = await finishedRuns(REFUND_ALERT.id, runsBefore + 1);
		expect(run.status).toBe('success');
		const item = output(run, 'Card Gateway Trigger')!;
		expect(item).toMatchObject({
			confirmed: true,
			amountConfirmed: false,
			eventKey: `${sale.orderid}:approved:reversal`,
			eventKeyConfirmed: true,
		});
		expect(item).not.toHaveProperty('amount');
		const messages = (await sinkMessages()).slice(before);
		expect(messages).toHaveLength(1);
		const { text } = messages[0].message;
		expect(text).toContain(
			'1.00 USD refunded as the callback reports (unconfirmed); 0.00 USD left on the order, confirmed by the gateway',
		);
		expect(text).not.toContain('amount confirmed by the gateway');
	},
	scaled(5 * 60_000),
);
