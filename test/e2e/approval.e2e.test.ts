// The approval loop (issues 26 and 33) in a real n8n: examples/bulk-refund-approval.json rehearses a
// bulk refund asked for by a named requester, posts the plan and the address of n8n's approval form to
// an approver (the sandbox's message sink), waits on n8n's Wait node for that form, and runs the refund
// bound to the approved plan ID once a second person approves. The test drives the form as a browser
// does: it GETs the page from the posted address and POSTs the page's fields as multipart form data
// to the page's own address. Witnesses: the sandbox's ledger, the messages the workflow posted, and the
// execution's data in n8n's REST API.
import { join } from 'node:path';

import {
	emitted,
	eventually,
	readWorkflows,
	startE2eEnvironment,
	type E2eEnvironment,
	type ManualRun,
} from '../support/e2e-environment';
import type { LedgerEntry } from '../support/harness';
import { scaled } from '../support/time-scale';

const { Client } = require('../support/sandbox-client');

const EXAMPLES = join(__dirname, '..', '..', 'examples');
const WORKFLOW_ID = 'cgExApprovalRefund';
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

type Json = Record<string, unknown>;
interface SinkMessage {
	kind: string;
	prefix: string;
	text: string;
	planId?: string;
	formUrl?: string;
	summary?: string;
	refunds?: string;
	requestedBy?: string;
	decidedBy?: string;
	decidedAt?: string;
	approvedBy?: string;
	approvedAt?: string;
}
type Run = ManualRun & { id: string };

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

async function messagesOf(prefix: string): Promise<SinkMessage[]> {
	const { messages } = await env.admin<{ messages: Array<{ message: SinkMessage }> }>('GET', 'sink');
	return messages.map((entry) => entry.message).filter((message) => message.prefix === prefix);
}

async function messageOf(prefix: string, kind: string): Promise<SinkMessage> {
	return await eventually(`the workflow's ${kind} message for ${prefix}`, async () =>
		(await messagesOf(prefix)).find((message) => message.kind === kind),
	);
}

/** The execution started for `prefix`, once it is in one of `statuses`. */
async function runOf(prefix: string, statuses: string[]): Promise<Run> {
	return await eventually(`the execution for ${prefix} (${statuses.join(' or ')})`, async () => {
		const runs: Run[] = await env.n8n.executions(WORKFLOW_ID);
		const run = runs.find((candidate) => {
			const [start] = emitted(candidate, 'Start');
			return (start?.body as Json | undefined)?.prefix === prefix;
		});
		return run && statuses.includes(run.status) ? run : undefined;
	});
}

function start(body: Json): Promise<Response> {
	return env.n8n.webhook('bulk-refund-approval', {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({
			ordersUrl: `${env.sandbox.url}/sandbox/orders`,
			notifyUrl: `${env.sandbox.url}/sandbox/sink`,
			...body,
		}),
	});
}

/** Starts the workflow for the orders under `prefix`, asked for by `requestedBy`, and returns the approval request it posted. */
async function rehearseAndAsk(prefix: string, requestedBy: string): Promise<SinkMessage> {
	const response = await start({ prefix, requestedBy });
	expect(response.status).toBe(200);
	expect(await response.json()).toMatchObject({ accepted: true, requestedBy: requestedBy.trim() });
	const request = await messageOf(prefix, 'approvalRequest');
	expect(request.planId).toMatch(/^plan-[a-z]{16}-[a-z]{24}$/);
	expect(request.requestedBy).toBe(requestedBy.trim());
	expect(request.formUrl).toContain('/form-waiting/');
	expect(request.text).toContain(String(request.formUrl));
	return request;
}

interface FormPage {
	html: string;
	/** Field label → the name its input posts under. */
	fields: Map<string, string>;
	/** Where the page's script posts: its own path, with the signature of the address it was opened with. */
	postUrl: string;
}

/** Opens the approval form as a browser does and reads its fields from the served HTML. */
async function openForm(formUrl: string): Promise<FormPage> {
	const response = await fetch(formUrl);
	expect(response.status).toBe(200);
	const html = await response.text();
	const fields = new Map<string, string>();
	for (const [, name, label] of html.matchAll(/<label class='form-label[^']*' for='(field-\d+)'>([^<]*)<\/label>/g))
		fields.set(label.trim(), name);
	const url = new URL(formUrl);
	const signature = url.searchParams.get('signature');
	const postUrl = `${url.origin}${url.pathname}${signature === null ? '' : `?signature=${encodeURIComponent(signature)}`}`;
	return { html, fields, postUrl };
}

/** The options a dropdown of the page offers. */
function optionsOf(page: FormPage, label: string): string[] {
	const name = page.fields.get(label);
	const select = page.html.match(new RegExp(`<select id='${name}' name='${name}'[\\s\\S]*?</select>`))?.[0] ?? '';
	return [...select.matchAll(/<option value='([^']+)'/g)].map(([, value]) => value);
}

/**
 * Fills in the form at `formUrl` and submits it the way the page's script does (multipart form data),
 * once the run waits for it (n8n answers no request for the form of a run still running).
 */
async function answer(
	prefix: string,
	formUrl: string,
	name: string,
	decision: 'Approve' | 'Reject',
): Promise<FormPage> {
	await runOf(prefix, ['waiting']);
	const page = await openForm(formUrl);
	expect([...page.fields.keys()]).toEqual(['Your name', 'Decision']);
	expect(optionsOf(page, 'Decision')).toEqual(['Approve', 'Reject']);
	const body = new FormData();
	body.append(String(page.fields.get('Your name')), name);
	body.append(String(page.fields.get('Decision')), decision);
	const response = await fetch(page.postUrl, { method: 'POST', body });
	expect(response.status).toBe(200);
	await response.arrayBuffer();
	return page;
}

/** approvedAt: an ISO time taken when the form was submitted (between `before` and now). */
function expectSubmittedSince(time: unknown, before: number): void {
	expect(String(time)).toMatch(ISO_TIME);
	const at = Date.parse(String(time));
	expect(at).toBeGreaterThanOrEqual(before - 1000);
	expect(at).toBeLessThanOrEqual(Date.now() + 1000);
}

test(
	'a second person approves on the form: the refunds run once under the plan, and every output says who asked, who approved and when',
	async () => {
		const prefix = 'appr-same-';
		await approvedSales(prefix, ['10.00', '25.50']);
		const request = await rehearseAndAsk(prefix, 'Alice Requester');
		expect(request.text).toContain('2 refund(s), 35.50 USD in total');
		expect(JSON.parse(String(request.summary))).toMatchObject({ items: 2, totals: { USD: '35.50' } });
		// The rehearsal moved nothing.
		expect(linesOf(await ledger(), prefix)).toEqual([`sale 10.00 ${prefix}1`, `sale 25.50 ${prefix}2`]);
		const before = Date.now();
		const page = await answer(prefix, String(request.formUrl), 'Bob Approver', 'Approve');
		// The form shows what is approved: the plan, who asked, the totals.
		expect(page.html).toContain(`Plan ${request.planId}, asked by Alice Requester: 2 refund(s), 35.50 USD in total`);

		const outcome = await messageOf(prefix, 'outcome');
		expect(outcome).toMatchObject({
			planId: request.planId,
			approvedBy: 'Bob Approver',
			requestedBy: 'Alice Requester',
		});
		expectSubmittedSince(outcome.approvedAt, before);
		expect(outcome.text).toContain(`approved by Bob Approver at ${outcome.approvedAt}`);
		const refunds = JSON.parse(String(outcome.refunds)) as Json[];
		expect(refunds.map((refund) => [refund.order, refund.moneyEffect, refund.amountReturned])).toEqual([
			[`${prefix}1`, 'moved', '10.00'],
			[`${prefix}2`, 'moved', '25.50'],
		]);
		expect(linesOf(await ledger(), prefix).sort()).toEqual(
			[`sale 10.00 ${prefix}1`, `sale 25.50 ${prefix}2`, `return 10.00 ${prefix}1`, `return 25.50 ${prefix}2`].sort(),
		);

		// The execution as n8n keeps it: one decision, and every refund result carries the audit trail.
		const run = await runOf(prefix, ['success']);
		expect(emitted(run, 'Approval')).toEqual([
			{
				decidedBy: 'Bob Approver',
				decision: 'Approve',
				decidedAt: outcome.approvedAt,
				requestedBy: 'Alice Requester',
				planId: request.planId,
			},
		]);
		const results = emitted(run, 'With approval');
		expect(results.map((result) => [result.client_orderid, result.moneyEffect, result.planId])).toEqual([
			[`${prefix}1`, 'moved', request.planId],
			[`${prefix}2`, 'moved', request.planId],
		]);
		for (const result of results)
			expect(result).toMatchObject({
				approvedBy: 'Bob Approver',
				approvedAt: outcome.approvedAt,
				requestedBy: 'Alice Requester',
			});
	},
	scaled(300_000),
);
test(
	'the requester approving their own run, or an answer without a name, is refused: nothing is sent, and the form waits for a second person',
	async () => {
		const prefix = 'appr-self-';
		await approvedSales(prefix, ['11.00']);
		const request = await rehearseAndAsk(prefix, 'Carol Ops');
		const before = await ledger();
		// The same person, spelled with other spaces and case.
		await answer(prefix, String(request.formUrl), '  carol OPS ', 'Approve');
		const refused = await messageOf(prefix, 'approvalRefused');
		expect(refused).toMatchObject({ planId: request.planId, decidedBy: 'carol OPS', requestedBy: 'Carol Ops' });
		expect(refused.text).toContain(
			'the answer was refused, nothing was sent. carol OPS asked for this run and cannot approve it',
		);
		expect(refused.formUrl).toBe(request.formUrl);
		await runOf(prefix, ['waiting']);
		expect(await ledger()).toEqual(before);
		expect((await messagesOf(prefix)).map((message) => message.kind)).toEqual(['approvalRequest', 'approvalRefused']);

		// An answer without a name (a page whose required-field check was bypassed) is refused the same way.
		await answer(prefix, String(refused.formUrl), '   ', 'Approve');
		const nameless = await eventually('the refusal of the nameless answer', async () => {
			const refusals = (await messagesOf(prefix)).filter((message) => message.kind === 'approvalRefused');
			return refusals.length === 2 ? refusals[1] : undefined;
		});
		expect(nameless).toMatchObject({ planId: request.planId, decidedBy: '', requestedBy: 'Carol Ops' });
		expect(nameless.text).toContain('the answer was refused, nothing was sent. It gave no name.');
		expect(await ledger()).toEqual(before);

		// A second person approves on the same form: now the refund runs, under their name.
		const second = Date.now();
		await answer(prefix, String(nameless.formUrl), 'Dave Second', 'Approve');
		const outcome = await messageOf(prefix, 'outcome');
		expect(outcome).toMatchObject({ planId: request.planId, approvedBy: 'Dave Second', requestedBy: 'Carol Ops' });
		expectSubmittedSince(outcome.approvedAt, second);
		expect(linesOf(await ledger(), prefix).sort()).toEqual([`return 11.00 ${prefix}1`, `sale 11.00 ${prefix}1`]);
		const run = await runOf(prefix, ['success']);
		expect(emitted(run, 'Approval').map((decision) => decision.decidedBy)).toEqual(['carol OPS', '', 'Dave Second']);
		expect(emitted(run, 'With approval')).toEqual([
			expect.objectContaining({ client_orderid: `${prefix}1`, moneyEffect: 'moved', approvedBy: 'Dave Second' }),
		]);
	},
	scaled(300_000),
);
test(
	'a rejection sends nothing and is posted with who rejected and when',
	async () => {
		const prefix = 'appr-reject-';
		await approvedSales(prefix, ['9.00']);
		const request = await rehearseAndAsk(prefix, 'Alice Requester');
		const before = await ledger();
		const at = Date.now();
		await answer(prefix, String(request.formUrl), 'Erin Ops', 'Reject');
		const rejection = await messageOf(prefix, 'rejection');
		expect(rejection).toMatchObject({ planId: request.planId, decidedBy: 'Erin Ops', requestedBy: 'Alice Requester' });
		expectSubmittedSince(rejection.decidedAt, at);
		expect(rejection.text).toContain(`was rejected by Erin Ops at ${rejection.decidedAt}: nothing was sent.`);
		const run = await runOf(prefix, ['success']);
		expect(run.data.resultData.runData.Refund).toBeUndefined();
		expect(await ledger()).toEqual(before);
	},
	scaled(300_000),
);
test(
	'a start without requestedBy is refused with HTTP 400 that names it: nothing is rehearsed, posted or sent',
	async () => {
		const prefix = 'appr-anon-';
		await approvedSales(prefix, ['8.00']);
		const before = await ledger();
		for (const body of [{ prefix }, { prefix, requestedBy: '   ' }, { prefix, requestedBy: 42 }]) {
			const response = await start(body);
			expect(response.status).toBe(400);
			expect(((await response.json()) as Json).error).toMatch(/^requestedBy is required: the name of the person/);
		}
		expect(await messagesOf(prefix)).toEqual([]);
		expect(await ledger()).toEqual(before);
	},
	scaled(300_000),
);
test(
	'an order refunded elsewhere between approval and run: the whole run is refused, the ledger unchanged',
	async () => {
		const prefix = 'appr-elsewhere-';
		const [first] = await approvedSales(prefix, ['10.00', '12.99']);
		const request = await rehearseAndAsk(prefix, 'Alice Requester');
		// Someone else refunds the first order while the approver reads the message.
		const elsewhere = await client.followUp('return', first.orderid, first.cid);
		expect(elsewhere.status).toBe(200);
		await eventually('the refund elsewhere booked', async () => {
			await client.status(first.orderid, first.cid); // a gateway that finalises when asked
			return linesOf(await ledger(), prefix).includes(`return 10.00 ${first.cid}`) ? true : undefined;
		});
		const before = await ledger();
		await answer(prefix, String(request.formUrl), 'Bob Approver', 'Approve');
		const refusal = await messageOf(prefix, 'refusal');
		expect(refusal).toMatchObject({ approvedBy: 'Bob Approver', requestedBy: 'Alice Requester' });
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
		const request = await rehearseAndAsk(prefix, 'Alice Requester');
		await approvedSales(prefix, ['7.00'], 3);
		const before = await ledger();
		await answer(prefix, String(request.formUrl), 'Bob Approver', 'Approve');
		const refusal = await messageOf(prefix, 'refusal');
		expect(refusal.text).toContain(`not the approved plan ${request.planId}`);
		expect(refusal.text).toContain(`item 3 was not in the approved plan: return of 7.00 USD on order "${prefix}3"`);
		expect(await ledger()).toEqual(before);
	},
	scaled(300_000),
);
