// The approval loop (issue 26) in a real n8n: examples/bulk-refund-approval.json rehearses a bulk
// refund, posts the plan to an approver (the sandbox's message sink), waits on n8n's Wait node,
// and runs the refund bound to the plan ID the approver sends back to the resume URL. Witnesses:
// the sandbox's ledger and the messages the workflow posted.
import { join } from 'node:path';

import { eventually, readWorkflows, startE2eEnvironment, type E2eEnvironment } from '../support/e2e-environment';
import type { LedgerEntry } from '../support/harness';
import { scaled } from '../support/time-scale';

const { Client } = require('../support/sandbox-client');

const EXAMPLES = join(__dirname, '..', '..', 'examples');
const WORKFLOW_ID = 'cgExApprovalRefund';

type Json = Record<string, unknown>;
interface SinkMessage {
	kind: string;
	prefix: string;
	text: string;
	planId?: string;
	resumeUrl?: string;
	summary?: string;
	refunds?: string;
}

let env: E2eEnvironment;
let client: InstanceType<typeof Client>;

beforeAll(async () => {
	const workflows = readWorkflows(EXAMPLES).filter((workflow) => workflow.id === WORKFLOW_ID);
	expect(workflows).toHaveLength(1);
	env = await startE2eEnvironment({ port: 5860, workflows, publish: [WORKFLOW_ID] });
	client = new Client(env.sandbox);
}, scaled(600_000));
afterAll(async () => {
	await env?.stop();
});

const ledger = async () => (await env.admin<{ entries: LedgerEntry[] }>('GET', 'ledger')).entries;
const linesOf = (entries: LedgerEntry[], prefix: string) =>
	entries
		.filter((entry) => entry.client_orderid.startsWith(prefix))
		.map((entry) => `${entry.kind} ${entry.amount} ${entry.client_orderid}`);

/** Approved sales of `amounts` under `<prefix><n>`; waits until the gateway reports each approved. */
async function approvedSales(
	prefix: string,
	amounts: string[],
	from = 1,
): Promise<Array<{ cid: string; orderid: string }>> {
	const sales = [];
	for (const [index, amount] of amounts.entries()) {
		const cid = `${prefix}${from + index}`;
		const sale = await client.sale({ client_orderid: cid, amount });
		await eventually(`sale ${cid} approved`, async () => {
			const status = await client.status(sale.orderid, cid);
			return status.data?.status === 'approved' ? true : undefined;
		});
		sales.push({ cid, orderid: String(sale.orderid) });
	}
	return sales;
}

async function messageOf(prefix: string, kind: string): Promise<SinkMessage> {
	return await eventually(`the workflow's ${kind} message for ${prefix}`, async () => {
		const { messages } = await env.admin<{ messages: Array<{ message: SinkMessage }> }>('GET', 'sink');
		return messages.map((entry) => entry.message).find((message) => message.prefix === prefix && message.kind === kind);
	});
}

/** Starts the workflow for the orders under `prefix` and returns the approval request it posted. */
async function rehearseAndAsk(prefix: string): Promise<SinkMessage> {
	const response = await env.n8n.webhook('bulk-refund-approval', {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({
			prefix,
			ordersUrl: `${env.sandbox.url}/sandbox/orders`,
			notifyUrl: `${env.sandbox.url}/sandbox/sink`,
		}),
	});
	expect(response.status).toBe(200);
	const request = await messageOf(prefix, 'approvalRequest');
	expect(request.planId).toMatch(/^plan-[a-z]{16}-[a-z]{24}$/);
	expect(request.resumeUrl).toContain('/webhook-waiting/');
	return request;
}

async function approve(request: SinkMessage): Promise<void> {
	const response = await fetch(String(request.resumeUrl), {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ approve: request.planId }),
	});
	expect(response.status).toBe(200);
}

test(
	'approved and unchanged: the refunds run under the approved plan, and the outcome is posted back',
	async () => {
		const prefix = 'appr-same-';
		await approvedSales(prefix, ['10.00', '25.50']);
		const request = await rehearseAndAsk(prefix);
		expect(request.text).toContain('2 refund(s), 35.50 USD in total');
		expect(JSON.parse(String(request.summary))).toMatchObject({ items: 2, totals: { USD: '35.50' } });
		// The rehearsal moved nothing.
		expect(linesOf(await ledger(), prefix)).toEqual([`sale 10.00 ${prefix}1`, `sale 25.50 ${prefix}2`]);
		await approve(request);
		const outcome = await messageOf(prefix, 'outcome');
		expect(outcome.planId).toBe(request.planId);
		const refunds = JSON.parse(String(outcome.refunds)) as Json[];
		expect(refunds.map((refund) => [refund.order, refund.moneyEffect, refund.amountReturned])).toEqual([
			[`${prefix}1`, 'moved', '10.00'],
			[`${prefix}2`, 'moved', '25.50'],
		]);
		expect(linesOf(await ledger(), prefix).sort()).toEqual(
			[`sale 10.00 ${prefix}1`, `sale 25.50 ${prefix}2`, `return 10.00 ${prefix}1`, `return 25.50 ${prefix}2`].sort(),
		);
	},
	scaled(300_000),
);
test(
	'an order refunded elsewhere between approval and run: the whole run is refused, the ledger unchanged',
	async () => {
		const prefix = 'appr-elsewhere-';
		const [first] = await approvedSales(prefix, ['10.00', '12.99']);
		const request = await rehearseAndAsk(prefix);
		// Someone else refunds the first order while the approver reads the message.
		const elsewhere = await client.followUp('return', first.orderid, first.cid);
		expect(elsewhere.status).toBe(200);
		await eventually('the refund elsewhere booked', async () => {
			await client.status(first.orderid, first.cid); // a gateway that finalises when asked
			return linesOf(await ledger(), prefix).includes(`return 10.00 ${first.cid}`) ? true : undefined;
		});
		const before = await ledger();
		await approve(request);
		const refusal = await messageOf(prefix, 'refusal');
		expect(refusal.text).toContain(`not the approved plan ${request.planId}`);
		expect(refusal.text).toContain('nothing was sent');
		expect(refusal.text).toContain(
			`on order "${first.cid}"): amount changed from "10.00" to "0.00"; the order changed since the plan`,
		);
		expect(await ledger()).toEqual(before);
	},
	scaled(300_000),
);
test(
	'a row added between approval and run: the whole run is refused, the ledger unchanged',
	async () => {
		const prefix = 'appr-added-';
		await approvedSales(prefix, ['10.00', '40.00']);
		const request = await rehearseAndAsk(prefix);
		await approvedSales(prefix, ['7.00'], 3);
		const before = await ledger();
		await approve(request);
		const refusal = await messageOf(prefix, 'refusal');
		expect(refusal.text).toContain(`not the approved plan ${request.planId}`);
		expect(refusal.text).toContain(`item 3 was not in the approved plan: return of 7.00 USD on order "${prefix}3"`);
		expect(await ledger()).toEqual(before);
	},
	scaled(300_000),
);
