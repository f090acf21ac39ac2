// A fresh demo's nightly reconciliation (examples/reconciliation-nightly.json; issue 33 item 4) in a
// real n8n whose own zone (GENERIC_TIMEZONE) is on another calendar day than the gateway's (UTC, the
// sandbox report's): the sandbox seeded as `npm run demo` seeds it (e2e/seed.js), the example as
// shipped, run from each of its triggers as the editor's Execute workflow button runs it (n8n's REST
// manual run, trigger chosen). Each alert names exactly the differences the example's note promises,
// each with what the books and the gateway say and how much was refunded; the filter settings in
// Period leave declines and payouts out, and report them when switched on. Witness: the sink's messages.
import { join } from 'node:path';

import {
	emitted,
	eventually,
	readWorkflows,
	startE2eEnvironment,
	type E2eEnvironment,
	type Json,
	type ManualRun,
} from '../support/e2e-environment';
import { scaled } from '../support/time-scale';

const { seedDemoOrders, YESTERDAY_PREFIX } = require('../../e2e/seed');
const { startSandbox } = require('../../sandbox');
const { Client } = require('../support/sandbox-client');

const EXAMPLES = join(__dirname, '..', '..', 'examples');
const NIGHTLY = 'cgExReconciliationNightly';
/** The example with both filter settings switched on (what a user does who wants declines and payouts). */
const NIGHTLY_ALL = 'cgExReconciliationNightlyAll';
/** Where the shipped examples post their messages: the demo sandbox's sink at its default address. */
const DEMO_SINK = `${require('../../scripts/demo-setup').DEFAULT_SANDBOX_URL}/sandbox/sink`;
const TODAY_PREFIX = 'demo-order-';
const DAY_MS = 86_400_000;

/** n8n's zone: on the calendar day before or after UTC's at this hour (UTC−11 before 11:00 UTC, UTC+14 from 10:00). */
const N8N_ZONE = new Date().getUTCHours() < 10 ? 'Pacific/Pago_Pago' : 'Pacific/Kiritimati';
const dayIn = (zone: string, ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(ms);
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface Seeded {
	client_orderid: string;
	orderid: string;
	status: string;
	amount: string;
}
interface SinkMessage {
	message: { text: string };
}

let env: E2eEnvironment;
let sink: { url: string; close(): Promise<void> };
let seeded: Map<string, Seeded>;
let today: string;
const zoneBefore = process.env.GENERIC_TIMEZONE;

beforeAll(
	async () => {
		// n8n (started below, and its CLI) inherits this process's environment.
		process.env.GENERIC_TIMEZONE = N8N_ZONE;
		sink = await startSandbox({ port: 0, quiet: true });
		const workflows = readWorkflows(EXAMPLES)
			.filter((workflow) => workflow.id === NIGHTLY)
			.map((workflow) => {
				const text = JSON.stringify(workflow);
				expect(text).toContain(DEMO_SINK);
				return JSON.parse(text.split(DEMO_SINK).join(`${sink.url}/sandbox/sink`)) as Json;
			});
		expect(workflows).toHaveLength(1);
		const shipped = JSON.stringify(workflows[0]);
		for (const setting of ['INCLUDE_DECLINED', 'INCLUDE_PAYOUTS']) expect(shipped).toContain(`${setting} = false`);
		workflows.push({
			...JSON.parse(shipped.split(' = false;').join(' = true;')),
			id: NIGHTLY_ALL,
			name: 'Example: nightly reconciliation, declines and payouts too',
		});
		env = await startE2eEnvironment({ port: 5980, workflows, publish: [] });
		// Seeded and run on one UTC day: a run within minutes of midnight waits for the next day.
		const untilMidnight = DAY_MS - (Date.now() % DAY_MS);
		if (untilMidnight < 15 * 60_000) await new Promise((resolve) => setTimeout(resolve, untilMidnight + 5_000));
		seeded = new Map(
			((await seedDemoOrders(env.sandbox.url)) as Seeded[]).map((order) => [order.client_orderid, order]),
		);
		today = utcDay(Date.now());
	},
	scaled(15 * 60_000) + 16 * 60_000,
);
afterAll(async () => {
	await env?.stop();
	await sink?.close();
	if (zoneBefore === undefined) delete process.env.GENERIC_TIMEZONE;
	else process.env.GENERIC_TIMEZONE = zoneBefore;
	await require('undici').getGlobalDispatcher().close();
}, scaled(60_000));

/** Runs the workflow from one trigger as the editor does (POST /rest/workflows/:id/run) and waits for its end. */
async function runFrom(workflowId: string, trigger: string): Promise<ManualRun> {
	const cookie: string = await env.n8n.ownerCookie();
	const response = await fetch(`${env.n8n.baseUrl}/rest/workflows/${workflowId}/run`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', cookie },
		body: JSON.stringify({ triggerToStartFrom: { name: trigger } }),
	});
	const body = (await response.json()) as { data?: { executionId?: string } };
	const executionId = body.data?.executionId;
	if (!response.ok || !executionId) throw new Error(`manual run: HTTP ${response.status} ${JSON.stringify(body)}`);
	return eventually(`execution ${executionId} of ${workflowId} finished`, async () => {
		const execution = (await env.n8n.api(`/executions/${executionId}?includeData=true`).catch(() => undefined)) as
			(ManualRun & { finished?: boolean }) | undefined;
		return execution && !['new', 'running', 'waiting'].includes(execution.status) ? execution : undefined;
	});
}

async function sinkMessages(): Promise<string[]> {
	const { messages } = (await (await fetch(`${sink.url}/sandbox/sink`)).json()) as { messages: SinkMessage[] };
	return messages.map((entry) => entry.message.text);
}

/** Runs and returns the one alert it posted, after checking the run, its period and its differences. */
async function alertOf(
	workflowId: string,
	trigger: string,
	day: string,
	differences: Array<[string, string]>,
): Promise<{ text: string; reconciled: Json[] }> {
	const before = (await sinkMessages()).length;
	const run = await runFrom(workflowId, trigger);
	expect(run.data.resultData.error?.message).toBeUndefined();
	expect(run.status).toBe('success');
	expect(emitted(run, 'Period')).toEqual([expect.objectContaining({ zone: 'UTC', day })]);
	const reconciled = emitted(run, 'Reconcile');
	const found = reconciled
		.filter((item) => !item.summary)
		.map((item) => [String(item.difference), String(item.merchantOrderId)]);
	expect(found.sort()).toEqual([...differences].sort());
	const posted = (await sinkMessages()).slice(before);
	expect(posted).toHaveLength(1);
	return { text: posted[0], reconciled };
}

/** What the books say in the alert, by difference: the stand-in books copy the gateway's approved sales. */
const BOOKS: Record<string, (order?: Seeded) => string> = {
	'amount differs': () => '999.99 USD approved',
	'missing at the gateway': () => '5.00 USD approved',
	'refunded since': (order) => `${order!.amount} USD approved`,
	'unknown to you': () => 'nothing',
};

/** The alert's line of a difference; the gateway's side as a seeded order untouched since, unless given. */
function line(difference: string, merchantOrderId: string, gateway?: string): string {
	const order = seeded.get(merchantOrderId);
	const untouched =
		order &&
		`sale ${order.orderid} ${order.amount} USD ${order.status}, nothing refunded, net ${order.status === 'approved' ? order.amount : '0.00'} USD`;
	return `• ${merchantOrderId}: ${difference} | books: ${BOOKS[difference](order)} | gateway: ${gateway ?? untouched ?? 'nothing'}`;
}

/** The three differences the note promises, in the demo's orders of one day (`prefix`). */
function promised(prefix: string): { differences: Array<[string, string]>; lines: string[] } {
	return {
		differences: [
			['amountDiffers', `${prefix}4`],
			['missingAtGateway', 'books-only-order'],
			['unknownToYou', `${prefix}2`],
		],
		lines: [
			line('amount differs', `${prefix}4`),
			line('missing at the gateway', 'books-only-order'),
			line('unknown to you', `${prefix}2`),
		],
	};
}

const FRESH_MONEY =
	'Gateway money: USD net 88.49 (sales 88.49, refunds 0.00, voids 0.00, chargebacks 0.00, payouts 0.00)';
const leftOut = (count: number) =>
	`(${count} declined order(s) or payout(s) only the gateway has left out: INCLUDE_DECLINED, INCLUDE_PAYOUTS in Period)`;

test('the demo is seeded on two gateway days, and n8n runs on another calendar day than the gateway', () => {
	const yesterday = utcDay(Date.now() - DAY_MS);
	expect(yesterday).not.toBe(today);
	expect(dayIn(N8N_ZONE, Date.now())).not.toBe(today);
	expect([...seeded.values()].map((order) => `${order.client_orderid}:${order.status}:${order.amount}`)).toEqual(
		[TODAY_PREFIX, YESTERDAY_PREFIX].flatMap((prefix) => [
			`${prefix}1:approved:10.00`,
			`${prefix}2:approved:25.50`,
			`${prefix}3:declined:15.00`,
			`${prefix}4:approved:40.00`,
			`${prefix}5:approved:12.99`,
		]),
	);
});

test(
	'nightly path (from Every night): yesterday in the gateway’s zone, exactly the three promised differences, in words with the refunded amount',
	async () => {
		const yesterday = utcDay(Date.parse(`${today}T00:00:00Z`) - DAY_MS);
		const { differences, lines } = promised(YESTERDAY_PREFIX);
		const { text } = await alertOf(NIGHTLY, 'Every night', yesterday, differences);
		expect(text).toBe(
			[`:warning: Reconciliation of ${yesterday} (UTC): 3 difference(s)`, ...lines, FRESH_MONEY, leftOut(1)].join('\n'),
		);
	},
	scaled(300_000),
);

test(
	'Run now: today so far in the gateway’s zone, exactly the three promised differences',
	async () => {
		const { differences, lines } = promised(TODAY_PREFIX);
		const { text } = await alertOf(NIGHTLY, 'Run now', today, differences);
		expect(text).toBe(
			[`:warning: Reconciliation of ${today} (UTC): 3 difference(s)`, ...lines, FRESH_MONEY, leftOut(1)].join('\n'),
		);
	},
	scaled(300_000),
);

test(
	'after a partial refund and a payout: the refund is a difference with its amount; the payout is left out unless INCLUDE_PAYOUTS, the decline unless INCLUDE_DECLINED',
	async () => {
		const refunded = seeded.get(`${TODAY_PREFIX}1`)!;
		const client = new Client(env.sandbox);
		await client.followUp('return', refunded.orderid, refunded.client_orderid, { amount: '4.00', currency: 'USD' });
		await eventually(`the refund of ${refunded.client_orderid} booked`, async () => {
			await client.status(refunded.orderid, refunded.client_orderid);
			const { entries } = await env.admin<{ entries: Array<{ kind: string }> }>(
				'GET',
				`ledger?client_orderid=${refunded.client_orderid}`,
			);
			return entries.some((entry) => entry.kind === 'return') ? true : undefined;
		});
		const {
			histories: [payout],
		} = await env.admin<{ histories: Array<{ orderid: string }> }>('POST', 'histories', {
			merchantOrderId: 'demo-payout-1',
			operation: 'payout',
			amount: '7.00',
		});
		const { differences, lines } = promised(TODAY_PREFIX);
		const refundLine = line(
			'refunded since',
			refunded.client_orderid,
			`sale ${refunded.orderid} 10.00 USD approved, refunded 4.00 USD, net 6.00 USD`,
		);
		const money =
			'Gateway money: USD net 77.49 (sales 88.49, refunds 4.00, voids 0.00, chargebacks 0.00, payouts 7.00)';

		const defaults = await alertOf(NIGHTLY, 'Run now', today, [
			['refundedSince', refunded.client_orderid],
			...differences,
		]);
		expect(defaults.text).toBe(
			[`:warning: Reconciliation of ${today} (UTC): 4 difference(s)`, refundLine, ...lines, money, leftOut(2)].join(
				'\n',
			),
		);

		const declined = seeded.get(`${TODAY_PREFIX}3`)!;
		const all = await alertOf(NIGHTLY_ALL, 'Run now', today, [
			['refundedSince', refunded.client_orderid],
			...differences,
			['unknownToYou', declined.client_orderid],
			['unknownToYou', 'demo-payout-1'],
		]);
		const [header, ...rest] = all.text.split('\n');
		expect(header).toBe(`:warning: Reconciliation of ${today} (UTC): 6 difference(s)`);
		expect(rest.sort()).toEqual(
			[
				refundLine,
				...lines,
				line('unknown to you', declined.client_orderid),
				line(
					'unknown to you',
					'demo-payout-1',
					`payout ${payout.orderid} 7.00 USD approved, nothing refunded, net -7.00 USD`,
				),
				money,
			].sort(),
		);
	},
	scaled(300_000),
);
