// The example workflows (examples/*.json) imported into a real n8n and run there against the
// sandbox gateway: the manual ones with `n8n execute`, the callback alert through a callback the
// sandbox delivers, the card-on-file one through its webhook. Every assertion is about what really
// happened: the sandbox's ledger and callbacks, the sink's messages, the workflows' outputs.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import {
	emitted,
	eventually,
	executeManual,
	readWorkflows,
	startE2eEnvironment,
	type E2eEnvironment,
} from '../support/e2e-environment';
import type { LedgerEntry } from '../support/harness';
import { scaled } from '../support/time-scale';

const { seedDemoOrders } = require('../../e2e/seed');
const { startSandbox } = require('../../sandbox');
const { Client, CARD2 } = require('../support/sandbox-client');

const EXAMPLES = join(__dirname, '..', '..', 'examples');
const ID = {
	bulkRefund: 'cgExBulkRefund',
	payoutRun: 'cgExPayoutRun',
	reconciliation: 'cgExReconciliation',
	callbackAlert: 'cgExCallbackAlert',
	refundAlert: 'cgExRefundAlert',
	cardOnFile: 'cgExCardOnFile',
	rehearsedRefund: 'cgExRehearsedRefund',
	// imported here; run under faults in n8n's queue mode by reliability campaign 6 (reliability/queue.ts)
	exactlyOnce: 'cgExExactlyOnce1',
	// imported here; run with the balance-checked payout run in test/e2e/treasury.e2e.test.ts
	reconciliationNightly: 'cgExReconciliationNightly',
	// imported here; its approval loop runs in test/e2e/approval.e2e.test.ts
	approvalRefund: 'cgExApprovalRefund',
	// imported here; replayed 60 times into a real n8n (SQLite and queue mode) by test/e2e/callback-once.e2e.test.ts
	refundOnce: 'cgExRefundOnce',
};
/** The rehearsed refund with its setting flipped to a real run (what the user does after rehearsing). */
const LIVE_REFUND = 'cgExRehearsedRefundLive';
const ALERT_WEBHOOK = 'b1c0e004-0000-4000-8000-0000000000aa/callback';
const REFUND_ALERT_WEBHOOK = 'b1c0e008-0000-4000-8000-0000000000aa/callback';
/** Where the callback-alert and refund-alert examples post; the test gives them a sink of their own. */
/** Where the shipped examples post their messages: the demo sandbox's sink at its default address. */
const DEMO_SINK = `${require('../../scripts/demo-setup').DEFAULT_SANDBOX_URL}/sandbox/sink`;

type Json = Record<string, unknown>;
interface TaskData {
	executionStatus?: string;
	error?: { message: string };
	data?: { main: Array<Array<{ json: Json }> | null> };
}
interface Run {
	status: string;
	mode: string;
	data: { resultData: { error?: { message: string }; runData: Record<string, TaskData[]> } };
}

let env: E2eEnvironment;
let sink: { url: string; close(): Promise<void> };

beforeAll(
	async () => {
		sink = await startSandbox({ port: 0, quiet: true });
		const workflows = readWorkflows(EXAMPLES).map((workflow) => {
			if (workflow.id !== ID.callbackAlert && workflow.id !== ID.refundAlert) return workflow;
			const text = JSON.stringify(workflow);
			expect(text).toContain(DEMO_SINK);
			return JSON.parse(text.split(DEMO_SINK).join(`${sink.url}/sandbox/sink`));
		});
		expect(workflows.map((w) => w.id).sort()).toEqual(Object.values(ID).sort());
		const rehearsed = JSON.stringify(workflows.find((w) => w.id === ID.rehearsedRefund));
		expect(rehearsed).toContain('rehearse: true');
		workflows.push({
			...JSON.parse(rehearsed.split('rehearse: true').join('rehearse: false')),
			id: LIVE_REFUND,
			name: 'Example: bulk refund, live',
		});
		env = await startE2eEnvironment({
			port: 5720,
			workflows,
			publish: [ID.callbackAlert, ID.refundAlert, ID.cardOnFile],
		});
		const seeded = await seedDemoOrders(env.sandbox.url);
		// Today's five and the same five on the previous day (the nightly reconciliation's).
		expect(seeded.map((o: Json) => `${o.client_orderid}:${o.status}:${o.amount}`)).toEqual(
			['demo-order-', 'demo-yesterday-'].flatMap((prefix) => [
				`${prefix}1:approved:10.00`,
				`${prefix}2:approved:25.50`,
				`${prefix}3:declined:15.00`,
				`${prefix}4:approved:40.00`,
				`${prefix}5:approved:12.99`,
			]),
		);
		// Seeding again creates nothing (the sandbox dedupes by client_orderid).
		await seedDemoOrders(env.sandbox.url);
		expect(await ledger()).toHaveLength(8);
	},
	scaled(15 * 60_000),
);
afterAll(async () => {
	await env?.stop();
	await sink?.close();
	await require('undici').getGlobalDispatcher().close();
}, scaled(60_000));
/** Runs a manual-trigger workflow with `n8n execute` and returns its run, which must have succeeded. */
async function execute(workflowId: string): Promise<Run> {
	const run = (await executeManual(env, workflowId)) as Run;
	expect(run.data.resultData.error?.message).toBeUndefined();
	expect(run.status).toBe('success');
	return run;
}

async function ledger(query = ''): Promise<LedgerEntry[]> {
	return (await env.admin<{ entries: LedgerEntry[] }>('GET', `ledger${query}`)).entries;
}

const entriesOf = async (clientOrderId: string) =>
	(await ledger(`?client_orderid=${encodeURIComponent(clientOrderId)}`)).map(
		(e) => `${e.kind} ${e.amount} ${e.currency}`,
	);

test(
	'reconciliation: every order is looked up, only the deliberate difference is reported in words, then the summary',
	async () => {
		const run = await execute(ID.reconciliation);
		const [difference, summary, ...more] = emitted(run, 'Reconcile with the gateway');
		expect(more).toEqual([]);
		const [sale] = await ledger('?client_orderid=demo-order-5');
		expect(sale).toMatchObject({ kind: 'sale', amount: '12.99', currency: 'USD' });
		expect(difference).toEqual({
			difference: 'amountDiffers',
			differences: ['amountDiffers'],
			merchantOrderId: 'demo-order-5',
			message: `amount differs: yours 13.99 USD approved, gateway sale ${sale.orderid} 12.99 USD approved`,
			yours: { amount: '13.99', currency: 'USD', status: 'approved' },
			gateway: {
				orderId: sale.orderid,
				kind: 'sale',
				type: 'sale',
				status: 'approved',
				amount: '12.99',
				currency: 'USD',
				latest: { type: 'sale', status: 'approved', amount: '12.99' },
			},
		});
		expect(summary).toMatchObject({
			summary: true,
			gatewaySide: 'status',
			notSeen: expect.stringContaining('orders only the gateway has'),
			yourRecords: 5,
			gatewayOrders: 5,
			matching: 4,
			unknownToYouLeftOut: 0,
		});
		expect(Object.entries(summary.differences as Json).filter(([, count]) => count !== 0)).toEqual([
			['amountDiffers', 1],
		]);
		// the status side shows each order's latest transaction, not the money it moved: your total only
		expect(summary.totals).toEqual({ yours: { USD: '104.49' } });
	},
	scaled(120_000),
);
test(
	'bulk refund: the four approved orders are refunded once with their reason, the declined one is skipped; a second run refunds nothing',
	async () => {
		const run = await execute(ID.bulkRefund);
		const [summary] = emitted(run, 'Summary');
		expect(summary).toMatchObject({
			refundedCount: 4,
			skippedCount: 1,
			skipped: [{ merchantOrderId: 'demo-order-3', status: 'declined', amount: '15.00' }],
		});
		expect((summary.refunded as Json[]).map((r) => [r.merchantOrderId, r.refundStatus])).toEqual([
			['demo-order-1', 'approved'],
			['demo-order-2', 'approved'],
			['demo-order-4', 'approved'],
			['demo-order-5', 'approved'],
		]);
		expect(await entriesOf('demo-order-1')).toEqual(['sale 10.00 USD', 'return 10.00 USD']);
		expect(await entriesOf('demo-order-2')).toEqual(['sale 25.50 USD', 'return 25.50 USD']);
		expect(await entriesOf('demo-order-3')).toEqual([]);
		expect(await entriesOf('demo-order-4')).toEqual(['sale 40.00 USD', 'return 40.00 USD']);
		expect(await entriesOf('demo-order-5')).toEqual(['sale 12.99 USD', 'return 12.99 USD']);
		const { requests } = await env.admin<{ requests: Array<{ op: string; client_orderid?: string; params?: Json }> }>(
			'GET',
			'requests',
		);
		expect(requests.find((r) => r.op === 'return' && r.client_orderid === 'demo-order-2')?.params).toMatchObject({
			comment: 'Item out of stock',
		});

		const again = await execute(ID.bulkRefund);
		expect(emitted(again, 'Summary')[0]).toMatchObject({ refundedCount: 0, skippedCount: 5 });
		expect(emitted(again, 'Refund')).toEqual([]);
		expect((await ledger()).filter((e) => e.kind === 'return')).toHaveLength(4);
	},
	scaled(120_000),
);
test(
	'payout run: each valid recipient is checked and paid exactly once; the malformed row ends in Failed recipients; run again, nobody is paid twice',
	async () => {
		for (let round = 0; round < 2; round++) {
			const run = await execute(ID.payoutRun);
			// Order IDs come from the data: the second run finds every payout paid and lists it under "Paid earlier".
			const [now, earlier] = round === 0 ? ['Paid', 'Paid earlier'] : ['Paid earlier', 'Paid'];
			expect(emitted(run, earlier)).toEqual([]);
			const paid = emitted(run, now);
			expect(paid.map((p) => [p.recipient, p.amount, p.currency, p.status])).toEqual([
				['Northwind Traders', '120.00', 'USD', 'approved'],
				['Contoso Ltd', '75.50', 'USD', 'approved'],
			]);
			for (const p of paid) {
				expect(p.merchantOrderId).toMatch(/^payout-2026-11-r[12]$/);
				expect(await entriesOf(String(p.merchantOrderId))).toEqual([`payout ${p.amount} USD`]);
			}
			const failed = [...emitted(run, 'Failed recipients')];
			expect(failed).toEqual([
				expect.objectContaining({
					recipient: 'Fabrikam Inc',
					ref: 'payout-2026-11-r3',
					amount: '30.0O',
					status: 'not sent',
				}),
			]);
			expect(failed[0].reason).toMatch(/Amount/);
		}
		expect((await ledger()).filter((e) => e.kind === 'payout')).toHaveLength(2);
	},
	scaled(120_000),
);
test(
	'callback alert: a declined sale posts exactly one alert to the chat sink; an approved one posts none',
	async () => {
		const client = new Client(env.sandbox);
		const callbackUrl = `${env.n8n.baseUrl}/webhook/${ALERT_WEBHOOK}`;
		const approved = await client.sale({ amount: '7.00', cvv2: '123', server_callback_url: callbackUrl });
		const declined = await client.sale({
			amount: '5.00',
			cvv2: '116',
			server_callback_url: callbackUrl,
			credit_card_number: CARD2,
		});
		for (const sale of [approved, declined]) {
			await client.status(sale.orderid, sale.params.client_orderid);
			expect(await delivered(sale.orderid)).toMatchObject({ state: 'delivered', attempts: [{ httpStatus: 200 }] });
		}
		const executions = await settled(ID.callbackAlert, 2);
		expect(executions.map((e) => [e.mode, e.status])).toEqual([
			['webhook', 'success'],
			['webhook', 'success'],
		]);
		const { messages } = (await (await fetch(`${sink.url}/sandbox/sink`)).json()) as {
			messages: Array<{ message: { text: string } }>;
		};
		expect(messages).toHaveLength(1);
		const { text } = messages[0].message;
		expect(text).toContain(`order ${declined.params.client_orderid} (gateway order ${declined.orderid})`);
		expect(text).toContain('Payment declined');
		expect(text).toContain('5.00 USD');
		expect(text).toContain('Insufficient funds (code 116)');
		expect(text).not.toContain(approved.params.client_orderid);
	},
	scaled(120_000),
);
test(
	'refund alert: a refund posts one confirmed message with the masked card; the sale before it posts none',
	async () => {
		const client = new Client(env.sandbox);
		const sinkMessages = async () =>
			((await (await fetch(`${sink.url}/sandbox/sink`)).json()) as { messages: Array<{ message: { text: string } }> })
				.messages;
		const before = (await sinkMessages()).length;
		const sale = await client.sale({
			amount: '10.00',
			notify_url: `${env.n8n.baseUrl}/webhook/${REFUND_ALERT_WEBHOOK}`,
			credit_card_number: CARD2,
		});
		await client.status(sale.orderid, sale.params.client_orderid);
		await client.followUp('return', sale.orderid, sale.params.client_orderid, { amount: '3.00', currency: 'USD' });
		const deliveries = await eventually(`both callbacks of order ${sale.orderid} delivered`, async () => {
			const { deliveries } = await env.admin<{ deliveries: Array<{ type: string; state: string }> }>(
				'GET',
				`callbacks?orderid=${sale.orderid}`,
			);
			return deliveries.length === 2 && deliveries.every((d) => d.state === 'delivered') ? deliveries : undefined;
		});
		expect(deliveries.map((d) => d.type)).toEqual(['sale', 'reversal']);
		// The sale callback is filtered out (acknowledged, nothing started); the reversal starts one execution.
		expect((await settled(ID.refundAlert, 1)).map((e) => [e.mode, e.status])).toEqual([['webhook', 'success']]);
		const messages = (await sinkMessages()).slice(before);
		expect(messages).toHaveLength(1);
		const { text } = messages[0].message;
		expect(text).toContain(`Refund of order ${sale.params.client_orderid} (gateway order ${sale.orderid})`);
		expect(text).toContain(`card ${CARD2.slice(0, 6)}…${CARD2.slice(-4)}`);
		expect(text).not.toContain(CARD2);
		expect(text).toContain(
			'3.00 USD refunded as the callback reports (unconfirmed); 7.00 USD left on the order, confirmed by the gateway',
		);
	},
	scaled(120_000),
);
test(
	'card on file: the first payment, the stored card and the rebill through the webhook; a declined card stops at the sale; no execution is kept',
	async () => {
		const body = {
			merchantOrderId: `cof-${Date.now().toString(36)}`,
			amount: '19.99',
			rebillAmount: '9.99',
			currency: 'USD',
			cardNumber: CARD2,
			expireMonth: '11',
			expireYear: '2033',
			cvv: '123',
			cardholderName: 'JANE ROE',
			email: 'jane@example.com',
			address: '2 Side St',
			city: 'Shelbyville',
			zipCode: '54321',
			country: 'US',
			phone: '+12065550111',
			ipAddress: '203.0.113.9',
		};
		const response = await env.n8n.webhook('card-on-file', {
			method: 'POST',
			headers: { 'content-type': 'application/octet-stream' },
			body: JSON.stringify(body),
		});
		const text = await response.text();
		expect(response.status).toBe(200);
		expect(text).not.toContain(CARD2);
		const result = JSON.parse(text) as Json;
		expect(result).toEqual({
			saleOrderId: body.merchantOrderId,
			saleGatewayOrderId: expect.stringMatching(/^\d+$/),
			saleStatus: 'approved',
			saleAmount: '19.99',
			cardRefId: expect.stringMatching(/^\d+$/),
			rebillOrderId: `${body.merchantOrderId}-rebill`,
			rebillGatewayOrderId: expect.stringMatching(/^\d+$/),
			rebillStatus: 'approved',
			rebillAmount: '9.99',
			currency: 'USD',
		});
		expect(await entriesOf(body.merchantOrderId)).toEqual(['sale 19.99 USD']);
		expect(await entriesOf(`${body.merchantOrderId}-rebill`)).toEqual(['rebill 9.99 USD']);
		const info = await env.admin<Json>('GET', `orders/${result.saleGatewayOrderId}`);
		expect(info).toMatchObject({ cardRefId: result.cardRefId });

		// A declined first payment stores no card and charges nothing more.
		const declinedBody = { ...body, merchantOrderId: `${body.merchantOrderId}-declined`, cvv: '116' };
		const declined = await env.n8n.webhook('card-on-file', {
			method: 'POST',
			headers: { 'content-type': 'application/octet-stream' },
			body: JSON.stringify(declinedBody),
		});
		expect(await declined.json()).toEqual({
			saleOrderId: declinedBody.merchantOrderId,
			saleGatewayOrderId: expect.stringMatching(/^\d+$/),
			saleStatus: 'declined',
			errorMessage: 'Insufficient funds',
			threeDSecureRequired: false,
		});
		expect(await entriesOf(declinedBody.merchantOrderId)).toEqual([]);
		expect(await entriesOf(`${declinedBody.merchantOrderId}-rebill`)).toEqual([]);

		expect(await env.n8n.executions(ID.cardOnFile)).toEqual([]);
		// Nothing of the card stayed behind: not in the database, the log or the binary data folder.
		const n8nFolder = join(env.userFolder, '.n8n');
		const files = [
			join(n8nFolder, 'database.sqlite'),
			join(n8nFolder, 'database.sqlite-wal'),
			join(env.userFolder, 'n8n.log'),
			...walk(join(n8nFolder, 'storage')),
		];
		expect(files.filter((file) => readFileSync(file).includes(Buffer.from(CARD2)))).toEqual([]);
	},
	scaled(120_000),
);
function walk(dir: string): string[] {
	if (!existsSync(dir)) return [];
	return readdirSync(dir).flatMap((name) =>
		statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)],
	);
}

type Execution = { id: string; status: string; mode: string };

async function settled(workflowId: string, expected: number): Promise<Execution[]> {
	return eventually(`${expected} finished executions of ${workflowId}`, async () => {
		const executions: Execution[] = await env.n8n.executions(workflowId);
		return executions.length >= expected && executions.every((e) => e.status !== 'running' && e.status !== 'new')
			? executions
			: undefined;
	});
}

async function delivered(orderid: string) {
	return eventually(`a settled callback delivery for order ${orderid}`, async () => {
		const { deliveries } = await env.admin<{
			deliveries: Array<{ state: string; attempts: Array<{ httpStatus?: number }> }>;
		}>('GET', `callbacks?orderid=${orderid}`);
		return deliveries.find((d) => d.state === 'delivered' || d.state === 'failed');
	});
}

// Last, on fresh demo orders (the bulk refund above refunded them all).
test(
	'rehearsed bulk refund: the dry run moves nothing and shows where the limit stops; the real run stops at Max Total per Run',
	async () => {
		await env.admin('POST', 'reset');
		await seedDemoOrders(env.sandbox.url);
		const before = await ledger();

		const rehearsal = await execute(ID.rehearsedRefund);
		expect(emitted(rehearsal, 'Refunded or rehearsed')).toEqual([
			{
				merchantOrderId: 'demo-order-1',
				dryRun: true,
				result: 'would return 10.00 USD (all that is left)',
				stoppedByLimit: false,
			},
			{
				merchantOrderId: 'demo-order-2',
				dryRun: true,
				result: 'would return 25.50 USD (all that is left)',
				stoppedByLimit: false,
			},
			{
				merchantOrderId: 'demo-order-4',
				dryRun: true,
				result: 'would return 40.00 USD (all that is left)',
				stoppedByLimit: true,
			},
			{
				merchantOrderId: 'demo-order-5',
				dryRun: true,
				result: 'would return 12.99 USD (all that is left)',
				stoppedByLimit: true,
			},
		]);
		expect(await ledger()).toEqual(before);
		const { requests } = await env.admin<{ requests: Array<{ op: string }> }>('GET', 'requests');
		expect(requests.filter((r) => r.op === 'return')).toEqual([]);

		const live = await execute(LIVE_REFUND);
		expect(emitted(live, 'Refunded or rehearsed').map((r) => [r.merchantOrderId, r.dryRun])).toEqual([
			['demo-order-1', false],
			['demo-order-2', false],
		]);
		const stopped = emitted(live, 'Not refunded');
		expect(stopped.map((r) => r.merchantOrderId)).toEqual(['demo-order-4', 'demo-order-5']);
		for (const row of stopped) expect(String(row.reason)).toMatch(/"Max Total per Run"/);
		const returns = (await ledger()).filter((e) => e.kind === 'return').map((e) => `${e.client_orderid} ${e.amount}`);
		expect(returns).toEqual(['demo-order-1 10.00', 'demo-order-2 25.50']);
	},
	scaled(180_000),
);
