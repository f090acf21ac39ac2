// The trigger in a real n8n, shared by trigger.e2e.test.ts (one n8n on SQLite) and
// queue.e2e.test.ts (queue mode: callbacks into the webhook process, executions on a worker): the
// sandbox delivers callbacks (GET, and POST from a second sandbox) to n8n's production webhook URL;
// each genuine one starts exactly one execution with the right data, a forged one gets 403 and
// starts one execution with nothing on the Accepted output and the reason on the Rejected one, one
// the trigger's filters leave out gets 200 and starts nothing. Both node versions read a body n8n
// leaves unparsed.
import { createHash } from 'node:crypto';
import { join } from 'node:path';

import { CALLBACK_TIMEOUT_MS, MERCHANT, eventually, readWorkflows, type E2eEnvironment } from './e2e-environment';
import { scaled } from './time-scale';

const { Client } = require('./sandbox-client');
const { startSandbox } = require('../../sandbox');

const WORKFLOW = 'e2eCallbackTrigger1';
const WEBHOOK = '2f1b7c1e-0001-4000-8000-0000000000aa/callback';
const WORKFLOW_V1 = 'e2eCallbackTriggerV1';
const WEBHOOK_V1 = '2f1b7c1e-0002-4000-8000-0000000000aa/callback';
const WORKFLOW_FILTERED = 'e2eCallbackFiltered';
const WEBHOOK_FILTERED = '2f1b7c1e-0003-4000-8000-0000000000aa/callback';
const IDS = [WORKFLOW, WORKFLOW_V1, WORKFLOW_FILTERED];

/** The trigger workflows, to start an environment with. */
export const TRIGGER_WORKFLOWS = {
	workflows: readWorkflows(join(__dirname, '../e2e/workflows')).filter((w) => IDS.includes(String(w.id))),
	publish: IDS,
};

/** Registers the trigger tests against the environment `start()` returns (started once). */
export function triggerSuite(start: () => Promise<E2eEnvironment>): { env: () => E2eEnvironment } {
	let env: E2eEnvironment;

	beforeAll(
		async () => {
			// start() returns once the published workflows' webhooks answer (e2e-environment.ts).
			env = await start();
		},
		scaled(15 * 60_000),
	);
	afterAll(async () => {
		await env?.stop();
		await require('undici').getGlobalDispatcher().close();
	}, scaled(60_000));

	type Execution = {
		id: string;
		status: string;
		mode: string;
		data: {
			resultData: {
				runData: Record<string, Array<{ data: { main: Array<Array<{ json: Record<string, unknown> }> | null> } }>>;
			};
		};
	};

	async function executionsSettled(expected: number, workflow = WORKFLOW): Promise<Execution[]> {
		return eventually(`${expected} finished executions of ${workflow}`, async () => {
			const executions: Execution[] = await env.n8n.executions(workflow);
			return executions.length >= expected && executions.every((e) => e.status !== 'running' && e.status !== 'new')
				? executions
				: undefined;
		});
	}

	/** The item on the trigger's output (0: Accepted, 1: Rejected), if any. */
	function emitted(execution: Execution, output = 0): Record<string, unknown> | undefined {
		return execution.data.resultData.runData['Card Gateway Trigger'][0].data.main[output]?.[0]?.json;
	}

	async function saleWithCallback(sandbox: { url: string }, amount: string, cvv2 = '123') {
		const client = new Client(sandbox);
		const sale = await client.sale({ amount, cvv2, server_callback_url: `${env.callbackBase}/webhook/${WEBHOOK}` });
		await client.status(sale.orderid, sale.params.client_orderid);
		return sale as { orderid: string; params: { client_orderid: string } };
	}

	async function deliveredTo200(sandbox: { url: string }, orderid: string) {
		return eventually(`a settled callback delivery for order ${orderid}`, async () => {
			const response = await fetch(`${sandbox.url}/sandbox/callbacks?orderid=${orderid}`);
			const { deliveries } = (await response.json()) as {
				deliveries: Array<{ state: string; attempts: Array<{ httpStatus?: number; method?: string }> }>;
			};
			return deliveries.find((d) => d.state === 'delivered' || d.state === 'failed');
		});
	}

	test(
		'genuine GET and POST callbacks each start exactly one execution; a forged one gets 403 and only a Rejected one',
		async () => {
			const approved = await saleWithCallback(env.sandbox, '12.34');
			expect(await deliveredTo200(env.sandbox, approved.orderid)).toMatchObject({
				state: 'delivered',
				attempts: [{ httpStatus: 200, method: 'GET' }],
			});
			const declined = await saleWithCallback(env.sandbox, '5.00', '116');
			expect(await deliveredTo200(env.sandbox, declined.orderid)).toMatchObject({ state: 'delivered' });

			const postSandbox = await startSandbox({
				port: 0,
				quiet: true,
				verifier: 'node',
				callbackMethod: 'POST',
				callbackTimeoutMs: CALLBACK_TIMEOUT_MS,
			});
			let posted: { orderid: string; params: { client_orderid: string } };
			try {
				posted = await saleWithCallback(postSandbox, '7.77');
				expect(await deliveredTo200(postSandbox, posted.orderid)).toMatchObject({
					state: 'delivered',
					attempts: [{ httpStatus: 200, method: 'POST' }],
				});
			} finally {
				await postSandbox.close();
			}

			// What the gateway reads on the wire: n8n's own answer, sent once the execution is stored.
			const control = createHash('sha1').update(`declined997e2e-direct${MERCHANT.controlKey}`).digest('hex');
			const direct = await fetch(
				`${env.callbackBase}/webhook/${WEBHOOK}?status=declined&orderid=997&merchant_order=e2e-direct&amount=3.00&control=${control}`,
			);
			expect(direct.status).toBe(200);
			expect(direct.headers.get('content-type')).toBe('text/plain; charset=utf-8');
			expect(await direct.text()).toBe('OK');

			const forged = await fetch(
				`${env.callbackBase}/webhook/${WEBHOOK}?status=approved&orderid=999&merchant_order=x&amount=1000.00&control=${'0'.repeat(40)}`,
			);
			expect(forged.status).toBe(403);
			expect(await forged.text()).not.toContain('1000.00');
			const unsigned = await fetch(`${env.callbackBase}/webhook/${WEBHOOK}`, {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: 'status=approved&orderid=998&merchant_order=y',
			});
			expect(unsigned.status).toBe(403);

			const executions = await executionsSettled(6);
			expect(executions).toHaveLength(6);
			expect(executions.every((e) => e.status === 'success' && e.mode === 'webhook')).toBe(true);
			// The two refusals: nothing on Accepted, why on Rejected, nothing the forger sent but an ID.
			const refused = executions.filter((e) => emitted(e) === undefined);
			expect(refused.map((e) => emitted(e, 1)?.reason).sort()).toEqual(['noSignature', 'signatureMismatch']);
			expect(refused.map((e) => emitted(e, 1)?.orderid).sort()).toEqual(['998', '999']);
			expect(JSON.stringify(refused.map((e) => e.data.resultData.runData))).not.toMatch(/1000\.00|approved/);
			const items = executions.map((e) => emitted(e)).filter((item) => item !== undefined);
			const byOrder = Object.fromEntries(items.map((item) => [String(item.client_orderid), item]));
			expect(byOrder[approved.params.client_orderid]).toMatchObject({
				status: 'approved',
				type: 'sale',
				amount: '12.34',
				method: 'GET',
				verified: true,
				client_orderid: approved.params.client_orderid,
			});
			expect(byOrder[declined.params.client_orderid]).toMatchObject({
				status: 'declined',
				amount: '5.00',
				method: 'GET',
			});
			expect(byOrder[posted!.params.client_orderid]).toMatchObject({
				status: 'approved',
				amount: '7.77',
				method: 'POST',
			});
			expect(byOrder['e2e-direct']).toMatchObject({ status: 'declined', orderid: '997', verified: true });
			expect(JSON.stringify(executions)).not.toContain('4444555566661111');

			const health = await fetch(`${env.n8n.baseUrl}/healthz`);
			expect(health.status).toBe(200);
		},
		scaled(5 * 60_000),
	);

	test(
		'a signed POST whose body n8n leaves unparsed (no content type) starts one execution, in both node versions',
		async () => {
			const signedBody = (merchantOrder: string) =>
				new TextEncoder().encode(
					`status=approved&orderid=996&merchant_order=${merchantOrder}&amount=2.00&control=${createHash('sha1').update(`approved996${merchantOrder}${MERCHANT.controlKey}`).digest('hex')}`,
				);
			for (const [workflow, webhook, already] of [
				[WORKFLOW, WEBHOOK, 6],
				[WORKFLOW_V1, WEBHOOK_V1, 0],
			] as const) {
				const merchantOrder = `e2e-raw-${workflow}`;
				// a Uint8Array body goes out without a content-type header
				const answer = await fetch(`${env.callbackBase}/webhook/${webhook}`, {
					method: 'POST',
					body: signedBody(merchantOrder),
				});
				expect([workflow, answer.status, await answer.text()]).toEqual([workflow, 200, 'OK']);
				const executions = await executionsSettled(already + 1, workflow);
				expect(executions).toHaveLength(already + 1);
				const raw = executions.map((e) => emitted(e)).find((item) => item?.client_orderid === merchantOrder);
				expect(raw).toMatchObject({
					status: 'approved',
					orderid: '996',
					amount: '2.00',
					method: 'POST',
					verified: true,
				});
			}
		},
		scaled(2 * 60_000),
	);

	test(
		'a genuine callback the filters leave out gets 200 (the gateway stops resending) and starts nothing',
		async () => {
			const signed = (status: string, merchantOrder: string) =>
				`status=${status}&orderid=995&merchant_order=${merchantOrder}&type=sale&amount=4.00&control=${createHash('sha1').update(`${status}995${merchantOrder}${MERCHANT.controlKey}`).digest('hex')}`;
			const declined = await webhook(`${WEBHOOK_FILTERED}?${signed('declined', 'e2e-filtered-out')}`);
			expect([declined.status, await declined.text()]).toEqual([200, 'OK']);
			const approved = await webhook(`${WEBHOOK_FILTERED}?${signed('approved', 'e2e-filtered-in')}`);
			expect([approved.status, await approved.text()]).toEqual([200, 'OK']);
			const executions = await executionsSettled(1, WORKFLOW_FILTERED);
			expect(executions.map((e) => emitted(e)?.client_orderid)).toEqual(['e2e-filtered-in']);
		},
		scaled(2 * 60_000),
	);

	test(
		'multipart POSTs to /callback and /return are refused unread: 4xx or a redirect, never 500, nothing stored (issue #13, item 8)',
		async () => {
			const count = async () =>
				Promise.all([WORKFLOW, WORKFLOW_V1].map(async (workflow) => (await env.n8n.executions(workflow)).length));
			const before = await count();
			const control = createHash('sha1').update(`approved995e2e-multipart${MERCHANT.controlKey}`).digest('hex');
			for (const path of [WEBHOOK, WEBHOOK_V1, WEBHOOK.replace(/callback$/, 'return')]) {
				for (let n = 0; n < 3; n++) {
					const form = new FormData();
					for (const [name, value] of Object.entries({
						status: 'approved',
						orderid: '995',
						merchant_order: 'e2e-multipart',
						amount: '3.00',
						control,
					}))
						form.append(name, value);
					form.append('file', new Blob(['4444555566661111']), 'card.txt');
					const answer = await webhook(path, { method: 'POST', body: form, redirect: 'manual' });
					await answer.arrayBuffer();
					expect([path, answer.status < 500]).toEqual([path, true]);
					if (path.endsWith('callback')) expect(answer.status).toBe(400);
				}
			}
			// Each refusal is answered after the trigger returned: an execution it started would be stored by now.
			expect(await count()).toEqual(before);
		},
		scaled(2 * 60_000),
	);

	/** A production webhook (start() waited until they answer). */
	function webhook(path: string, init: RequestInit = {}): Promise<Response> {
		return fetch(`${env.callbackBase}/webhook/${path}`, init);
	}

	return { env: () => env };
}
