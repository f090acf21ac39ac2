// n8n's Retry of a failed execution, in a real n8n (the pinned runtime, our package installed as a
// community package) against the sandbox gateway. The retried execution runs the failed node again
// for every item; with generated merchant order IDs (Merchant Order ID empty), an item charged
// before the failure must not be charged again. The sandbox's ledger is the judge.
//
// Webhook → Code (3 items) → Card Gateway Payment → Sale (Wait for Final Status). Item 0 is
// charged; item 1 is charged too, but its reply is lost and the gateway does not answer the status
// queries (sandbox faults): the node stops the run ("money MAY have moved"), item 2 is not started.
// The failed execution is then retried through n8n's own API, as the editor's "Retry" buttons do:
// POST /rest/executions/:id/retry with { loadWorkflow } ("with original workflow": false; "with
// currently saved workflow": true), and the public API's POST /api/v1/executions/:id/retry.
import { startE2eEnvironment, CREDENTIAL, eventually, type E2eEnvironment } from '../support/e2e-environment';
import type { LedgerEntry, SandboxRequest } from '../support/harness';
import { scaled } from '../support/time-scale';

const WORKFLOW_ID = 'e2eRetryCharge01';
const WEBHOOK_PATH = 'e2e-retry-charge';

interface Fault {
	id: string;
	kind: string;
	used: number;
	remaining: number;
}
interface Execution {
	id: string;
	status: string;
	mode?: string;
	retryOf?: string | null;
}

const WORKFLOW = {
	id: WORKFLOW_ID,
	name: 'E2E: retry of a failed execution with generated order IDs',
	active: false,
	// A failed execution is kept with its data (n8n can only retry those).
	settings: {
		executionOrder: 'v1',
		saveDataErrorExecution: 'all',
		saveDataSuccessExecution: 'all',
		saveManualExecutions: false,
	},
	nodes: [
		{
			id: '5e5e0e01-0001-4000-8000-000000000001',
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			parameters: { httpMethod: 'POST', path: WEBHOOK_PATH, responseMode: 'onReceived', options: {} },
			webhookId: '5e5e0e01-0a01-4000-8000-000000000a01',
		},
		{
			id: '5e5e0e01-0002-4000-8000-000000000002',
			name: 'Three orders',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			position: [200, 0],
			parameters: {
				jsCode:
					'const prefix = $input.first().json.body.prefix;\nreturn [1, 2, 3].map((n) => ({ json: { amount: `${prefix}.0${n}` } }));',
			},
		},
		{
			id: '5e5e0e01-0003-4000-8000-000000000003',
			name: 'Charge',
			type: 'n8n-nodes-card-gateway.cardGateway',
			typeVersion: 1,
			position: [400, 0],
			parameters: {
				resource: 'payment',
				operation: 'sale',
				merchantOrderId: '',
				orderDescription: 'E2E retry',
				amount: '={{ $json.amount }}',
				currency: 'USD',
				cardNumber: '4444555566661111',
				expireMonth: '12',
				expireYear: '2035',
				cvv: '123',
				cardholderName: 'JOHN SMITH',
				email: 'payer@example.com',
				address: '1 Main St',
				city: 'Springfield',
				zipCode: '12345',
				country: 'US',
				phone: '+12065550100',
				ipAddress: '203.0.113.7',
				redirectUrl: 'https://shop.example.com/payment/return',
				options: { waitForFinalStatus: true, pollIntervalSeconds: 0.2, maxWaitSeconds: 30, timeoutSeconds: 10 },
			},
			credentials: { cardGatewayApi: CREDENTIAL },
		},
	],
	connections: {
		Webhook: { main: [[{ node: 'Three orders', type: 'main', index: 0 }]] },
		'Three orders': { main: [[{ node: 'Charge', type: 'main', index: 0 }]] },
	},
};

let env: E2eEnvironment;
let cookie: string;
let retryKey: string;

beforeAll(
	async () => {
		env = await startE2eEnvironment({ port: 5750, workflows: [WORKFLOW], publish: [WORKFLOW_ID] });
		// The owner's session (what the editor uses), and a public-API key that may retry executions.
		const login = await fetch(`${env.n8n.baseUrl}/rest/login`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ emailOrLdapLoginId: env.n8n.owner.email, password: env.n8n.owner.password }),
		});
		if (!login.ok) throw new Error(`login failed: HTTP ${login.status}`);
		cookie = String(login.headers.get('set-cookie')).split(';')[0];
		const key = await fetch(`${env.n8n.baseUrl}/rest/api-keys`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', cookie },
			body: JSON.stringify({
				label: `e2e-retry-${Date.now()}`,
				scopes: ['execution:retry', 'execution:read', 'execution:list'],
				expiresAt: null,
			}),
		});
		if (!key.ok) throw new Error(`api key failed: HTTP ${key.status} ${await key.text()}`);
		retryKey = ((await key.json()) as { data: { rawApiKey: string } }).data.rawApiKey;
	},
	scaled(15 * 60_000),
);
afterAll(async () => {
	await env?.stop();
	await require('undici').getGlobalDispatcher().close();
}, scaled(60_000));
async function ledger(): Promise<LedgerEntry[]> {
	return (await env.admin<{ entries: LedgerEntry[] }>('GET', 'ledger')).entries;
}

/** The sales booked for an amount (each item of a scenario has its own). */
async function sales(amount: string): Promise<LedgerEntry[]> {
	return (await ledger()).filter((entry) => entry.kind === 'sale' && entry.amount === amount);
}

/** The merchant order IDs sales for an amount were sent under (every attempt, whatever the gateway did). */
async function saleIds(amount: string): Promise<Set<string | undefined>> {
	const { requests } = await env.admin<{ requests: SandboxRequest[] }>('GET', 'requests');
	return new Set(
		requests
			.filter((request) => request.op === 'sale' && request.params?.amount === amount)
			.map((request) => request.client_orderid),
	);
}

async function executionIds(): Promise<Set<string>> {
	const page = await env.n8n.api(`/executions?workflowId=${WORKFLOW_ID}&limit=250`);
	return new Set((page.data as Execution[]).map((execution) => String(execution.id)));
}

/**
 * Runs the workflow once so that it fails after charging items 0 and 1 (the reply of item 1 lost,
 * its status unknown); returns the failed execution's ID.
 */
async function failedExecution(prefix: string): Promise<string> {
	await env.admin('DELETE', 'faults');
	// Item 0's first status query waits 4 s at the sandbox: time to arm the faults meant for item 1.
	const { faults } = await env.admin<{ faults: Fault[] }>('POST', 'faults', {
		kind: 'latency',
		op: 'status',
		count: 1,
		latencyMs: 4000,
	});
	const before = await executionIds();
	const response = await env.n8n.webhook(WEBHOOK_PATH, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ prefix }),
	});
	expect(response.status).toBe(200);
	await response.arrayBuffer();
	await eventually('item 0 charged and polling', async () => {
		const listed = await env.admin<{ faults: Fault[] }>('GET', 'faults');
		return listed.faults.find((fault) => fault.id === faults[0].id)?.used === 1 ? true : undefined;
	});
	// Item 0's status query already passed the sandbox's reset check: these hit item 1 only.
	await env.admin('POST', 'faults', [
		{ kind: 'apply-then-drop', op: 'sale', count: 1 },
		{ kind: 'reset', op: 'status', count: 4 },
	]);
	const failed = await eventually('the failed execution', async () => {
		const page = await env.n8n.api(`/executions?workflowId=${WORKFLOW_ID}&limit=250`);
		const fresh = (page.data as Execution[]).filter((execution) => !before.has(String(execution.id)));
		return fresh.find((execution) => ['error', 'success', 'crashed', 'canceled'].includes(execution.status));
	});
	expect(failed.status).toBe('error');
	const left = (await env.admin<{ faults: Fault[] }>('GET', 'faults')).faults;
	expect(left.map((fault) => [fault.kind, fault.remaining])).toEqual([
		['latency', 0],
		['apply-then-drop', 0],
		['reset', 0],
	]);
	await env.admin('DELETE', 'faults');
	// Items 0 and 1 were charged once each; item 2 was not started.
	expect(await sales(`${prefix}.01`)).toHaveLength(1);
	expect(await sales(`${prefix}.02`)).toHaveLength(1);
	expect(await sales(`${prefix}.03`)).toHaveLength(0);
	return String(failed.id);
}

/** The editor's "Retry" (owner's session); waits until the retried execution has finished. */
async function retryInEditor(executionId: string, loadWorkflow: boolean): Promise<Execution> {
	const response = await fetch(`${env.n8n.baseUrl}/rest/executions/${executionId}/retry`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', cookie },
		body: JSON.stringify({ loadWorkflow }),
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`retry ${executionId}: HTTP ${response.status} ${text}`);
	return (JSON.parse(text) as { data: Execution }).data;
}

/** The public API's retry. */
async function retryByApi(executionId: string, loadWorkflow: boolean): Promise<Execution> {
	const response = await fetch(`${env.n8n.baseUrl}/api/v1/executions/${executionId}/retry`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'X-N8N-API-KEY': retryKey },
		body: JSON.stringify({ loadWorkflow }),
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`public API retry ${executionId}: HTTP ${response.status} ${text}`);
	return JSON.parse(text) as Execution;
}

/** Every item of the scenario was charged exactly once, each under one merchant order ID. */
async function expectChargedOnce(prefix: string): Promise<void> {
	for (const amount of [`${prefix}.01`, `${prefix}.02`, `${prefix}.03`]) {
		const booked = await sales(amount);
		expect({ amount, sales: booked.length }).toEqual({ amount, sales: 1 });
		expect(await saleIds(amount)).toEqual(new Set([booked[0].client_orderid]));
	}
}

describe('n8n Retry of a failed execution with generated merchant order IDs', () => {
	test(
		'retry with the original workflow (editor, REST): items charged before the failure are not charged again',
		async () => {
			const failed = await failedExecution('31');
			const retried = await retryInEditor(failed, false);
			expect(retried).toMatchObject({ status: 'success', mode: 'retry' });
			await expectChargedOnce('31');

			// Retried again, now with the currently saved workflow: still nothing new.
			const again = await retryInEditor(failed, true);
			expect(again).toMatchObject({ status: 'success', mode: 'retry' });
			await expectChargedOnce('31');
		},
		scaled(180_000),
	);
	test(
		'retry with the currently saved workflow (public API): items charged before the failure are not charged again',
		async () => {
			const failed = await failedExecution('32');
			const retried = await retryByApi(failed, true);
			expect(retried).toMatchObject({ status: 'success', retryOf: failed });
			await expectChargedOnce('32');
			// The two failed executions generated their own order IDs: a fresh execution is a new payment.
			const first = [...(await saleIds('31.01'))][0];
			expect(first).toMatch(/^n8n-[a-z]{14}$/);
			expect(await saleIds('32.01')).not.toContain(first);
		},
		scaled(180_000),
	);
});
