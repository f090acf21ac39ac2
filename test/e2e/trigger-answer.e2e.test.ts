// Answer the Gateway (issue 23, item 3) in one real n8n: with "After the Workflow Finished" the
// gateway's callback is answered only when the execution ended, 200 with an empty body when it
// succeeded and non-200 when it failed (so the gateway resends); refusals are still answered at once.
// "When Received" (the default) answers 200 once the execution is stored, whatever the workflow does.
import { createHash } from 'node:crypto';

import {
	MERCHANT,
	eventually,
	settledDelivery,
	startE2eEnvironment,
	type E2eEnvironment,
} from '../support/e2e-environment';
import { scaled } from '../support/time-scale';

const { Client } = require('../support/sandbox-client');

const TRIGGER_TYPE = 'n8n-nodes-card-gateway.cardGatewayEventTrigger';
const CREDENTIALS = { cardGatewayApi: { id: 'cgSandbox000000001', name: 'Card Gateway sandbox' } };
/** How long the succeeding workflow takes: the answer cannot come sooner. */
const WORKFLOW_SECONDS = 2;

type Then = 'wait' | 'fail';
const ROUTES = {
	afterSucceeds: { answerGateway: 'afterWorkflowFinished', then: 'wait' },
	afterFails: { answerGateway: 'afterWorkflowFinished', then: 'fail' },
	receivedFails: { answerGateway: 'whenReceived', then: 'fail' },
} as const satisfies Record<string, { answerGateway: string; then: Then }>;
type Route = keyof typeof ROUTES;

const workflowId = (route: Route) => `e2eAnswer${route[0].toUpperCase()}${route.slice(1)}`;
const webhookPath = (route: Route) =>
	`3a9c0d2e-${Object.keys(ROUTES).indexOf(route)}000-4000-8000-0000000000aa/callback`;

/** Trigger → a Wait of WORKFLOW_SECONDS, or → Stop and Error. */
function workflowFor(route: Route): Record<string, unknown> {
	const { answerGateway, then } = ROUTES[route];
	const next =
		then === 'wait'
			? {
					name: 'Wait',
					type: 'n8n-nodes-base.wait',
					typeVersion: 1.1,
					parameters: { resume: 'timeInterval', amount: WORKFLOW_SECONDS, unit: 'seconds' },
				}
			: {
					name: 'Fail',
					type: 'n8n-nodes-base.stopAndError',
					typeVersion: 1,
					parameters: { errorMessage: 'the workflow failed on purpose' },
				};
	return {
		id: workflowId(route),
		name: `E2E: Answer the Gateway (${route})`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: `${workflowId(route)}-trigger`,
				name: 'Card Gateway Trigger',
				type: TRIGGER_TYPE,
				typeVersion: 2,
				position: [0, 0],
				webhookId: webhookPath(route).split('/')[0],
				parameters: { answerGateway },
				credentials: CREDENTIALS,
			},
			{ id: `${workflowId(route)}-next`, position: [240, 0], ...next },
		],
		connections: { 'Card Gateway Trigger': { main: [[{ node: next.name, type: 'main', index: 0 }]] } },
	};
}

let env: E2eEnvironment;

beforeAll(
	async () => {
		const routes = Object.keys(ROUTES) as Route[];
		env = await startE2eEnvironment({
			port: 5850,
			workflows: routes.map(workflowFor),
			publish: routes.map(workflowId),
		});
	},
	scaled(15 * 60_000),
);
afterAll(async () => {
	await env?.stop();
	await require('undici').getGlobalDispatcher().close();
}, scaled(60_000));
let sequence = 0;
/** A callback signed with the merchant's control key, as the gateway signs it. */
function signedCallback(overrides: Record<string, string> = {}): Record<string, string> {
	sequence += 1;
	const fields = {
		status: 'approved',
		orderid: String(990000 + sequence),
		merchant_order: `answer-${Date.now().toString(36)}-${sequence}`,
		type: 'sale',
		amount: '10.00',
		currency: 'USD',
		...overrides,
	};
	const control = createHash('sha1')
		.update(`${fields.status}${fields.orderid}${fields.merchant_order}${MERCHANT.controlKey}`)
		.digest('hex');
	return { ...fields, client_orderid: fields.merchant_order, control };
}

async function deliver(route: Route, fields: Record<string, string>) {
	const started = Date.now();
	const response = await fetch(`${env.callbackBase}/webhook/${webhookPath(route)}?${new URLSearchParams(fields)}`);
	const body = await response.text();
	return { status: response.status, body, ms: Date.now() - started };
}

interface Execution {
	status: string;
	data: { resultData: { runData: Record<string, Array<{ data: { main: Array<Array<{ json: Item }> | null> } }>> } };
}
type Item = Record<string, unknown>;

async function executionsOf(route: Route, count: number): Promise<Execution[]> {
	return eventually(`${count} finished executions of ${route}`, async () => {
		const executions: Execution[] = await env.n8n.executions(workflowId(route));
		return executions.length >= count && executions.every((e) => e.status !== 'running' && e.status !== 'new')
			? executions
			: undefined;
	});
}

test('after the workflow finished, a succeeding workflow: 200 with an empty body, once it ended', async () => {
	const answer = await deliver('afterSucceeds', signedCallback());
	expect(answer).toMatchObject({ status: 200, body: '' });
	expect(answer.ms).toBeGreaterThanOrEqual(WORKFLOW_SECONDS * 1000);
	expect((await executionsOf('afterSucceeds', 1)).map((e) => e.status)).toEqual(['success']);
});

test('after the workflow finished, a failing workflow: non-200, so the gateway resends', async () => {
	const answer = await deliver('afterFails', signedCallback());
	expect(answer.status).toBeGreaterThanOrEqual(500);
	expect(answer.body).not.toContain(MERCHANT.controlKey);
	expect((await executionsOf('afterFails', 1)).map((e) => e.status)).toEqual(['error']);
});

test('the sandbox gateway resends a callback whose workflow failed: every attempt ran it and got 500', async () => {
	const client = new Client(env.sandbox);
	const sale = await client.sale({ server_callback_url: `${env.callbackBase}/webhook/${webhookPath('afterFails')}` });
	await client.status(sale.orderid, sale.params.client_orderid);
	const delivery = await settledDelivery(env, sale.orderid);
	// Every attempt ran the workflow, failed and was answered 500: the gateway kept the callback.
	expect(delivery.state).toBe('failed');
	expect(delivery.attempts.length).toBeGreaterThan(1);
	expect(delivery.attempts.every((attempt) => attempt.httpStatus === 500)).toBe(true);
});

test('refusals are answered at once under either setting: a forged callback gets 403, and its execution runs nothing after Accepted', async () => {
	const before = (await env.n8n.executions(workflowId('afterSucceeds'))).length;
	const forged = { ...signedCallback(), control: '0'.repeat(40) };
	const answer = await deliver('afterSucceeds', forged);
	// At once: the trigger wrote the 403 itself (no empty body after the workflow, as n8n's answer would be).
	expect(answer).toMatchObject({ status: 403, body: 'Forbidden' });
	// Its execution has the reason on the Rejected output only: the Wait on Accepted never ran.
	const executions = await executionsOf('afterSucceeds', before + 1);
	const refused = executions.filter((execution) => !execution.data.resultData.runData.Wait);
	expect(refused).toHaveLength(1);
	const main = refused[0].data.resultData.runData['Card Gateway Trigger'][0].data.main;
	expect([main[0] ?? [], main[1]?.map((item) => item.json.reason)]).toEqual([[], ['signatureMismatch']]);
});

test('when received (the default): 200 "OK" although the workflow then fails', async () => {
	const answer = await deliver('receivedFails', signedCallback());
	expect(answer).toMatchObject({ status: 200, body: 'OK' });
	expect((await executionsOf('receivedFails', 1)).map((e) => e.status)).toEqual(['error']);
});
