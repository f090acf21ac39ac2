// One real n8n (the pinned runtime) with our package installed as n8n's community-package installer
// does, the sandbox gateway, and the workflows under test — started once per e2e test file, and
// handed over once the published workflows' webhooks answer.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { scaled } from './time-scale';
const { N8nInstance, ensureRuntime, packPackage, productionWebhooks, REPO } = require('../../e2e/n8n');
const { QueueTopology } = require('../../e2e/queue');
const { startSandbox } = require('../../sandbox');

/**
 * How long a sandbox callback waits for n8n's answer: as long as a loaded machine needs. A delivery
 * that timed out although n8n processed it would be sent again and start a second execution.
 */
export const CALLBACK_TIMEOUT_MS = scaled(120_000);

/** Polls until probe() returns a value; the deadline only stops a run that is broken, not slow. */
export async function eventually<T>(
	what: string,
	probe: () => Promise<T | undefined>,
	timeoutMs = scaled(180_000),
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/** One callback delivery of the sandbox gateway, with the HTTP status of each attempt. */
export interface SettledDelivery {
	state: 'failed' | 'delivered';
	attempts: Array<{ httpStatus?: number }>;
}

/** The sandbox gateway's callback delivery for an order, once it has stopped resending (delivered or failed). */
export function settledDelivery(
	env: Pick<E2eEnvironment, 'admin'>,
	orderid: string | number,
): Promise<SettledDelivery> {
	return eventually(`the settled delivery of order ${orderid}`, async () => {
		const { deliveries } = await env.admin<{
			deliveries: Array<{ state: string; attempts: SettledDelivery['attempts'] }>;
		}>('GET', `callbacks?orderid=${orderid}`);
		return deliveries.find((d): d is SettledDelivery => d.state === 'failed' || d.state === 'delivered');
	});
}

export const MERCHANT = { login: 'n8n-test-merchant', controlKey: 'TEST-ONLY-CONTROL-KEY-5f0c9a1e' };
export const CREDENTIAL = { id: 'cgSandbox000000001', name: 'Card Gateway sandbox' };
export const PRIVATE_KEY = readFileSync(join(REPO, 'sandbox/keys/test-merchant-2048.key.pem'), 'utf8');

/** A server callback's control as the gateway computes it with the sandbox merchant's key: SHA-1 of status, orderid, merchant order and the key. */
export function callbackControl(status: string, orderid: string, merchantOrder: string): string {
	return createHash('sha1').update(`${status}${orderid}${merchantOrder}${MERCHANT.controlKey}`).digest('hex');
}

/** A credential of the sandbox merchant whose Merchant Control Key is wrong: a trigger using it refuses every genuine callback. */
export const WRONG_KEY_CREDENTIAL = { id: 'cgWrongKey00000001', name: 'Card Gateway (wrong control key)' };
export const WRONG_CONTROL_KEY = 'TEST-ONLY-WRONG-CONTROL-KEY-0b7e4c11';

/** WRONG_KEY_CREDENTIAL to import; never asked (Confirm With Status Query is off): only its control key matters. */
export function wrongKeyCredential() {
	return {
		...WRONG_KEY_CREDENTIAL,
		type: 'cardGatewayApi',
		data: {
			baseUrl: 'http://127.0.0.1:1/paynet',
			login: MERCHANT.login,
			controlKey: WRONG_CONTROL_KEY,
			privateKey: PRIVATE_KEY,
			privateKeyPassphrase: '',
			endpointId: '1001',
			endpointGroupId: '',
		},
	};
}

export interface E2eEnvironment {
	/** The n8n that serves the API and editor (in queue mode: main). */
	n8n: InstanceType<typeof N8nInstance>;
	/** Where the gateway sends callbacks: n8n itself, or in queue mode the webhook process. */
	callbackBase: string;
	/** Queue mode only: the whole topology (workers, PostgreSQL, Redis). */
	topology?: InstanceType<typeof QueueTopology>;
	sandbox: { url: string; close(): Promise<void> };
	userFolder: string;
	admin<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
	stop(): Promise<void>;
}

export function readWorkflows(dir: string): Array<Record<string, unknown>> {
	return readdirSync(dir)
		.filter((name) => name.endsWith('.json'))
		.sort()
		.map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')));
}

/**
 * `queue`: n8n's queue mode (e2e/queue.js) instead of one n8n on SQLite: PostgreSQL, Redis, main,
 * a webhook process and `queue.workers` workers, main's port `port`, the rest above it.
 */
export async function startE2eEnvironment(options: {
	port: number;
	workflows: Array<Record<string, unknown>>;
	publish: string[];
	queue?: { workers: number; workerConcurrency?: number; webhookProcesses?: number };
	/** More credentials to import beside the sandbox's ({ id, name, type, data }). */
	credentials?: Array<Record<string, unknown>>;
}): Promise<E2eEnvironment> {
	const runtime: string = await ensureRuntime();
	const userFolder = mkdtempSync(join(tmpdir(), 'n8n-card-gateway-e2e-'));
	// n8n's start and its webhooks' registration bound a hang, scaled for the machine's load.
	const readyWithinMs = scaled(180_000);
	const tarball: string = await packPackage(userFolder);
	const sandbox = await startSandbox({
		port: 0,
		quiet: true,
		verifier: 'node',
		callbackRetry: { attempts: 3, delaysMs: [200, 400] },
		callbackTimeoutMs: CALLBACK_TIMEOUT_MS,
	});
	const topology = options.queue
		? await new QueueTopology({ runtime, userFolder, port: options.port, readyWithinMs, ...options.queue }).prepare()
		: undefined;
	const n8n = topology ? topology.main : new N8nInstance({ runtime, userFolder, port: options.port, readyWithinMs });
	const stopN8n = () => (topology ? topology.stop() : n8n.stop());
	try {
		await n8n.installPackage(tarball);
		await n8n.importCredentials([
			{
				...CREDENTIAL,
				type: 'cardGatewayApi',
				data: {
					baseUrl: `${sandbox.url}/paynet`,
					...MERCHANT,
					privateKey: PRIVATE_KEY,
					privateKeyPassphrase: '',
					endpointId: '1001',
					endpointGroupId: '',
				},
			},
			...(options.credentials ?? []),
		]);
		await n8n.importWorkflows(options.workflows);
		for (const id of options.publish) await n8n.publish(id);
		await (topology ?? n8n).start();
		// ready means the published workflows' webhooks answer (in queue mode: the webhook process), not just that n8n is up
		const published = options.workflows.filter((workflow) => options.publish.includes(String(workflow.id)));
		await n8n.waitForWebhooks(published.flatMap(productionWebhooks), {
			baseUrl: topology ? topology.webhookBaseUrl() : n8n.baseUrl,
		});
		await n8n.createApiKey();
	} catch (error) {
		await stopN8n();
		await sandbox.close();
		throw error;
	}
	const admin = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
		const response = await fetch(`${sandbox.url}/sandbox/${path}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		return (await response.json()) as T;
	};
	return {
		n8n,
		callbackBase: topology ? topology.webhookBaseUrl() : n8n.baseUrl,
		topology,
		sandbox,
		userFolder,
		admin,
		async stop() {
			await stopN8n();
			await sandbox.close();
			rmSync(userFolder, { recursive: true, force: true });
			if (topology) rmSync(topology.servicesDir, { recursive: true, force: true });
		},
	};
}

/**
 * The environment with the claims credential of "Act Once per Key" imported (its API key does not
 * exist before n8n runs: filled in after), and that API key.
 */
export async function startWithClaims(
	options: Omit<Parameters<typeof startE2eEnvironment>[0], 'credentials'>,
): Promise<{ env: E2eEnvironment; apiKey: string }> {
	const { CLAIMS_CREDENTIAL, claimsCredentialPlaceholder } = require('../../scripts/demo-setup');
	const env = await startE2eEnvironment({ ...options, credentials: [claimsCredentialPlaceholder()] });
	const apiKey: string = await env.n8n.connectClaims(CLAIMS_CREDENTIAL);
	return { env, apiKey };
}

export type Json = Record<string, unknown>;
export interface ManualRun {
	status: string;
	mode?: string;
	data: {
		resultData: {
			error?: { message: string; description?: string };
			runData: Record<
				string,
				Array<{ executionStatus?: string; data?: { main: Array<Array<{ json: Json }> | null> } }>
			>;
		};
	};
}

/** Runs a manual-trigger workflow with `n8n execute`; a failed run is returned (its error message alone), not thrown. */
export async function executeManual(env: E2eEnvironment, workflowId: string): Promise<ManualRun> {
	let stdout: string;
	try {
		({ stdout } = await env.n8n.cli(['execute', `--id=${workflowId}`, '--rawOutput']));
	} catch (error) {
		stdout = String((error as { stdout?: string }).stdout ?? '');
		if (!stdout.trim()) throw error;
	}
	const last = String(stdout).trim().split('\n').pop() ?? '';
	const { message } = JSON.parse(last) as { message: string };
	try {
		return JSON.parse(message) as ManualRun;
	} catch {
		return { status: 'error', data: { resultData: { error: { message }, runData: {} } } };
	}
}

/** The items a node emitted on one output, over all its runs. */
export function emitted(run: ManualRun, node: string, output = 0): Json[] {
	return (run.data.resultData.runData[node] ?? []).flatMap((task) =>
		(task.data?.main[output] ?? []).map((item) => item.json),
	);
}
