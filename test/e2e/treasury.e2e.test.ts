// The read-only treasury operations in a real n8n (our package installed as a community package)
// against the sandbox: Transaction → Get Many, Transaction → Reconcile, Balance → Get, each in a
// manual workflow run with `n8n execute`; then the two examples that use them: the nightly
// reconciliation (its alert reaches a chat sink of its own) and the payout run that checks the
// balance first (paid when it covers the run; stopped before paying anything when it does not).
import { join } from 'node:path';

import {
	CREDENTIAL,
	emitted,
	executeManual,
	readWorkflows,
	startE2eEnvironment,
	type E2eEnvironment,
	type Json,
	type ManualRun,
} from '../support/e2e-environment';
import type { LedgerEntry } from '../support/harness';
import { scaled } from '../support/time-scale';

const { seedDemoOrders } = require('../../e2e/seed');
const { startSandbox } = require('../../sandbox');

const EXAMPLES = join(__dirname, '..', '..', 'examples');
const RECONCILIATION = 'cgExReconciliation';
const NIGHTLY = 'cgExReconciliationNightly';
const PAYOUT_RUN = 'cgExPayoutRun';
/** Where the shipped examples post their messages: the demo sandbox's sink at its default address. */
const DEMO_SINK = `${require('../../scripts/demo-setup').DEFAULT_SANDBOX_URL}/sandbox/sink`;
/** A day of synthetic report rows of its own (the node's and the examples' orders are made today). */
const REPORT_DAY = '2026-06-01';

type Run = ManualRun;

const node = (name: string, parameters: Json, position: [number, number]) => ({
	id: `e2e-treasury-${name.toLowerCase().replace(/[^a-z]+/g, '-')}`,
	name,
	type: 'n8n-nodes-card-gateway.cardGateway',
	typeVersion: 1,
	position,
	parameters,
	credentials: { cardGatewayApi: CREDENTIAL },
});

/** Manual trigger → (Code that returns `items`) → one Card Gateway node. */
function manualWorkflow(id: string, parameters: Json, items?: Json[]) {
	const books = items && {
		id: `${id}-books`,
		name: 'Books',
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		position: [200, 0],
		parameters: { jsCode: `return ${JSON.stringify(items)}.map((json) => ({ json }));` },
	};
	const gateway = node('Card Gateway', parameters, [400, 0]);
	return {
		id,
		name: id,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: `${id}-start`,
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			...(books ? [books] : []),
			gateway,
		],
		connections: books
			? {
					Start: { main: [[{ node: 'Books', type: 'main', index: 0 }]] },
					Books: { main: [[{ node: 'Card Gateway', type: 'main', index: 0 }]] },
				}
			: { Start: { main: [[{ node: 'Card Gateway', type: 'main', index: 0 }]] } },
	};
}

const THREE_ITEMS = [{ n: 1 }, { n: 2 }, { n: 3 }];

const WORKFLOWS = {
	getMany: manualWorkflow('e2eTreasuryGetMany', {
		resource: 'transaction',
		operation: 'getMany',
		createdFrom: `${REPORT_DAY} 00:00:00`,
		createdTo: `${REPORT_DAY} 23:59:59`,
		returnAll: true,
		// the sandbox's own layout writes UTC
		options: { timeZone: 'UTC' },
	}),
	// three input items: the report is still read once for the run
	getManyLimited: manualWorkflow(
		'e2eTreasuryGetManyLimit',
		{
			resource: 'transaction',
			operation: 'getMany',
			createdFrom: REPORT_DAY,
			createdTo: REPORT_DAY,
			limit: 3,
			filters: { transactionStatuses: ['declined'] },
			options: { timeZone: 'UTC' },
		},
		THREE_ITEMS,
	),
	reconcile: manualWorkflow(
		'e2eTreasuryReconcile',
		{
			resource: 'transaction',
			operation: 'reconcile',
			gatewaySide: 'report',
			createdFrom: REPORT_DAY,
			createdTo: REPORT_DAY,
		},
		[
			{ merchantOrderId: 'never-sent-1', amount: '1.00', currency: 'USD', status: 'approved' },
			{ merchantOrderId: 'never-sent-1', amount: '1.00', currency: 'USD', status: 'approved' },
		],
	),
	// three input items: the balances are read (and output) once for the run
	balance: manualWorkflow(
		'e2eTreasuryBalance',
		{ resource: 'balance', operation: 'get', balanceOf: 'merchant' },
		THREE_ITEMS,
	),
};

let env: E2eEnvironment;
let sink: { url: string; close(): Promise<void> };

beforeAll(
	async () => {
		sink = await startSandbox({ port: 0, quiet: true });
		const examples = readWorkflows(EXAMPLES)
			.filter((workflow) => [RECONCILIATION, NIGHTLY, PAYOUT_RUN].includes(String(workflow.id)))
			.map((workflow) => {
				const text = JSON.stringify(workflow);
				return JSON.parse(text.split(DEMO_SINK).join(`${sink.url}/sandbox/sink`));
			});
		expect(examples).toHaveLength(3);
		env = await startE2eEnvironment({ port: 5800, workflows: [...examples, ...Object.values(WORKFLOWS)], publish: [] });
		// 120 synthetic transactions on the report's own day: every 10th declined.
		await env.admin('POST', 'report-rows', {
			endpoint: '1001',
			count: 120,
			from: `${REPORT_DAY} 08:00:00`,
			stepMs: 60_000,
		});
	},
	scaled(15 * 60_000),
);
afterAll(async () => {
	await env?.stop();
	await sink?.close();
	await require('undici').getGlobalDispatcher().close();
}, scaled(60_000));
const execute = (workflowId: string) => executeManual(env, workflowId);

function succeeded(run: Run): Run {
	expect(run.data.resultData.error?.message).toBeUndefined();
	expect(run.status).toBe('success');
	return run;
}

async function ledger(): Promise<LedgerEntry[]> {
	return (await env.admin<{ entries: LedgerEntry[] }>('GET', 'ledger')).entries;
}

const sinkMessages = async () =>
	((await (await fetch(`${sink.url}/sandbox/sink`)).json()) as { messages: Array<{ message: { text: string } }> })
		.messages;

test(
	'Balance → Get: every balance of the merchant once for three input items, as decimal strings, with what is available for payouts and from which fields',
	async () => {
		const balances = emitted(succeeded(await execute(WORKFLOWS.balance.id)), 'Card Gateway');
		expect(balances.find((balance) => balance.currency === 'USD')).toMatchObject({
			name: 'n8n-test-merchant-USD',
			amount: '10000.00',
			onlineLiveAmount: '10000.00',
			pendingPayouts: '0.00',
			availableForPayouts: '10000.00',
			availableFrom: 'online-balance-live-amount − amount-buffer-hold',
		});
		expect(balances.map((balance) => balance.currency).sort()).toEqual(['EUR', 'JPY', 'USD']);
	},
	scaled(120_000),
);
test(
	'Transaction → Get Many: one item per transaction of the day, named fields, times in UTC read in the Report Time Zone, the card masked; Limit and filters; read once for three input items',
	async () => {
		const all = emitted(succeeded(await execute(WORKFLOWS.getMany.id)), 'Card Gateway');
		expect(all).toHaveLength(120);
		expect(all[0]).toMatchObject({
			orderId: expect.stringMatching(/^\d+$/),
			merchantOrderId: expect.stringMatching(/^synthetic-\d+$/),
			type: 'sale',
			status: 'approved',
			amount: expect.stringMatching(/^\d+\.\d\d$/),
			currency: 'USD',
			createdDate: `${REPORT_DAY} 08:00:00`,
			createdAt: `${REPORT_DAY}T08:00:00.000Z`,
			timeZone: 'UTC',
			reportLayout: 'sandbox',
			cardNumber: '444455******1111',
		});
		expect(all.filter((item) => item.status === 'declined')).toHaveLength(12);
		const declined = emitted(succeeded(await execute(WORKFLOWS.getManyLimited.id)), 'Card Gateway');
		expect(declined).toEqual(all.filter((item) => item.status === 'declined').slice(0, 3));
	},
	scaled(120_000),
);
test(
	'Transaction → Reconcile: the books against the day’s report; only differences, then the summary',
	async () => {
		const items = emitted(succeeded(await execute(WORKFLOWS.reconcile.id)), 'Card Gateway');
		const summary = items.at(-1)!;
		expect(summary).toMatchObject({
			summary: true,
			gatewaySide: 'report',
			yourRecords: 2,
			gatewayOrders: 120,
			matching: 0,
			differences: { missingAtGateway: 1, duplicateInYourRecords: 1, unknownToYou: 120 },
			unknownToYouLeftOut: 0,
			totals: { yours: { USD: '2.00' } },
		});
		expect(items.filter((item) => item.difference === 'missingAtGateway')).toEqual([
			expect.objectContaining({
				merchantOrderId: 'never-sent-1',
				gateway: null,
				message: 'missing at the gateway: yours 1.00 USD approved, gateway —',
			}),
		]);
		// Every row is an order only the gateway has, said in words with its net: an approved sale nets its
		// amount, a declined one nothing.
		const unknown = items.filter((item) => item.difference === 'unknownToYou');
		const [batch] = (await env.admin<{ batches: Array<{ firstOrderId: number; count: number }> }>('GET', 'report-rows'))
			.batches;
		expect(unknown.map((item) => (item.gateway as Json).orderId)).toEqual(
			Array.from({ length: batch.count }, (_, n) => String(batch.firstOrderId + n)),
		);
		for (const item of unknown) {
			const gateway = item.gateway as Json;
			const net = gateway.status === 'approved' ? String(gateway.amount) : '0.00';
			expect(gateway).toMatchObject({ kind: 'sale', type: 'sale', currency: 'USD', net });
			expect(item.message).toBe(
				`unknown to you: yours —, gateway sale ${gateway.orderId} ${gateway.amount} USD ${gateway.status}; net ${net} USD`,
			);
		}
		// the gateway's money is the day's approved rows, added exactly: sales and net, nothing else moved
		const approved = unknown.filter((item) => (item.gateway as Json).status === 'approved');
		expect(approved).toHaveLength(108);
		const cents = approved.reduce(
			(sum, item) => sum + BigInt(String((item.gateway as Json).amount).replace('.', '')),
			0n,
		);
		const sales = `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
		expect((summary.totals as Json).gateway).toEqual({
			USD: {
				sales,
				refunds: '0.00',
				voids: '0.00',
				chargebacks: '0.00',
				payouts: '0.00',
				transfers: '0.00',
				net: sales,
			},
		});
	},
	scaled(120_000),
);
test(
	"reconciliation example: the books against each order's status; only demo-order-5 differs",
	async () => {
		await seedDemoOrders(env.sandbox.url);
		const items = emitted(succeeded(await execute(RECONCILIATION)), 'Reconcile with the gateway');
		expect(items.map((item) => item.difference ?? 'summary')).toEqual(['amountDiffers', 'summary']);
		expect(items[0]).toMatchObject({
			merchantOrderId: 'demo-order-5',
			yours: { amount: '13.99' },
			gateway: { amount: '12.99' },
		});
		expect(items[1]).toMatchObject({ yourRecords: 5, matching: 4 });
	},
	scaled(120_000),
);
test(
	'nightly reconciliation example: Run now reads today so far in the gateway’s zone against the stand-in books; one alert says what differs and the day’s money',
	async () => {
		// Run now reads today so far in the gateway's zone (UTC for the sandbox): five approved sales at the
		// start of today, besides the demo orders the tests above made. Seeded and run on one UTC day.
		const untilMidnight = 86_400_000 - (Date.now() % 86_400_000);
		if (untilMidnight < 120_000) await new Promise((resolve) => setTimeout(resolve, untilMidnight + 5_000));
		const today = new Date().toISOString().slice(0, 10);
		await env.admin('POST', 'report-rows', { endpoint: '1001', count: 5, from: `${today} 00:00:00`, stepMs: 1_000 });
		const run = succeeded(await execute(NIGHTLY));
		expect(emitted(run, 'Period')).toEqual([
			{
				zone: 'UTC',
				day: today,
				from: `${today} 00:00:00`,
				to: expect.stringMatching(new RegExp(`^${today} \\d\\d:\\d\\d:\\d\\d$`)),
				// the example's filter settings as shipped: declines and payouts nobody booked left out
				unknownKinds: ['sale', 'preauth'],
				unknownStatuses: ['approved'],
			},
		]);
		const transactions = emitted(run, "Gateway's transactions");
		expect(transactions.filter((item) => String(item.merchantOrderId).startsWith('synthetic-'))).toHaveLength(5);
		const sales = transactions.filter((item) => item.type === 'sale' && item.status === 'approved');
		// Declines and payouts nobody booked are left out of the differences (still in the totals).
		const leftOut = new Set(transactions.filter((item) => !sales.includes(item)).map((item) => item.merchantOrderId));
		const reconciled = emitted(run, 'Reconcile');
		const differences = reconciled.filter((item) => !item.summary);
		expect(differences.map((item) => [item.difference, item.merchantOrderId])).toEqual([
			['amountDiffers', sales[2].merchantOrderId],
			['missingAtGateway', 'books-only-order'],
			['unknownToYou', sales[1].merchantOrderId],
		]);
		expect(reconciled.at(-1)).toMatchObject({ summary: true, unknownToYouLeftOut: leftOut.size });

		// The day's money, added exactly from the report's rows: every approved sale, nothing else moved.
		const cents = sales.reduce((sum, item) => sum + BigInt(String(item.amount).replace('.', '')), 0n);
		const total = `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
		const messages = await sinkMessages();
		expect(messages).toHaveLength(1);
		expect(messages[0].message.text).toBe(
			[
				`:warning: Reconciliation of ${today} (UTC): 3 difference(s)`,
				`• ${sales[2].merchantOrderId}: amount differs | books: 999.99 USD approved | gateway: sale ${sales[2].orderId} ${sales[2].amount} USD approved, nothing refunded, net ${sales[2].amount} USD`,
				'• books-only-order: missing at the gateway | books: 5.00 USD approved | gateway: nothing',
				`• ${sales[1].merchantOrderId}: unknown to you | books: nothing | gateway: sale ${sales[1].orderId} ${sales[1].amount} USD approved, nothing refunded, net ${sales[1].amount} USD`,
				`Gateway money: USD net ${total} (sales ${total}, refunds 0.00, voids 0.00, chargebacks 0.00, payouts 0.00)${
					leftOut.size
						? `\n(${leftOut.size} declined order(s) or payout(s) only the gateway has left out: INCLUDE_DECLINED, INCLUDE_PAYOUTS in Period)`
						: ''
				}`,
			].join('\n'),
		);
	},
	scaled(300_000),
);
test(
	'payout run example: the balance covers the run, so the valid payouts are paid; a low balance stops it before paying anything',
	async () => {
		const paid = succeeded(await execute(PAYOUT_RUN));
		expect(emitted(paid, 'Balance: Get')).toEqual([
			expect.objectContaining({ currency: 'USD', requiredAmount: '195.50', requiredCurrency: 'USD', sufficient: true }),
		]);
		expect(emitted(paid, 'Paid').map((item) => [item.recipient, item.amount])).toEqual([
			['Northwind Traders', '120.00'],
			['Contoso Ltd', '75.50'],
		]);
		const payoutsBefore = (await ledger()).filter((entry) => entry.kind === 'payout').length;
		expect(payoutsBefore).toBe(2);

		// Leaves 100.00 USD: less than the run's 195.50 (whatever the other tests' orders added).
		const { balances } = await env.admin<{
			balances: Array<{ merchant: string; currency: string; amountMinor: number }>;
		}>('GET', 'balances');
		const usd = balances.find((balance) => balance.merchant === 'n8n-test-merchant' && balance.currency === 'USD')!;
		const adjustment = 10_000 - usd.amountMinor;
		const { amount } = await env.admin<{ amount: string }>('POST', 'balance-adjustments', {
			merchant: 'n8n-test-merchant',
			currency: 'USD',
			amount: `${adjustment < 0 ? '-' : ''}${Math.floor(Math.abs(adjustment) / 100)}.${String(Math.abs(adjustment) % 100).padStart(2, '0')}`,
		});
		expect(amount).toBe('100.00');
		const stopped = await execute(PAYOUT_RUN);
		expect(stopped.status).toBe('error');
		expect(stopped.data.resultData.error?.message).toBe(
			'Payout run stopped before paying anything: 100.00 USD available (online-balance-live-amount − amount-buffer-hold) is short of the 195.50 USD the run needs. The payouts were only checked: no money moved.',
		);
		expect((await ledger()).filter((entry) => entry.kind === 'payout')).toHaveLength(payoutsBefore);
	},
	scaled(180_000),
);
