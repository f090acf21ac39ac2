// Runs the Card Gateway node in n8n-core's engine (test/support/n8n.ts) against the sandbox
// gateway over real HTTP on loopback. Keys and merchant secrets are read from the sandbox's files.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { Agent } from 'undici';

import type {
	ICredentialDataDecryptedObject,
	IConnections,
	IDataObject,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IRun,
	IRunExecutionData,
	Workflow,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import { CardGateway } from '../../nodes/CardGateway/CardGateway.node';
import { PACKAGE, executeWorkflow, runWorkflow, workflowOf, type TestNode } from './n8n';

const { startSandbox } = require('../../sandbox') as {
	startSandbox(options: Record<string, unknown>): Promise<{ url: string; close(): Promise<void> }>;
};

const SANDBOX_DIR = path.join(__dirname, '..', '..', 'sandbox');
const config = JSON.parse(readFileSync(path.join(SANDBOX_DIR, 'config', 'default.json'), 'utf8')) as {
	merchants: Array<{ login: string; controlKey: string }>;
};

export const MERCHANT = config.merchants[0];
export const OTHER_MERCHANT = config.merchants[1];
export const readKey = (name: string) => readFileSync(path.join(SANDBOX_DIR, 'keys', name), 'utf8');
export const MERCHANT_PEM = readKey('test-merchant-2048.key.pem');

export const NODE_TYPE = `${PACKAGE}.cardGateway`;
export const TOOL_TYPE = `${PACKAGE}.cardGatewayTool`;
export const NODE_NAME = 'Card Gateway';

/** Test cards: Luhn-valid; the CVV picks the sandbox outcome. */
export const PAN = '4444555566661111';
export const PAN2 = '5555555555554444';
export const CARD = { cardNumber: PAN, expireMonth: '12', expireYear: '2035', cardholderName: 'JOHN SMITH' };
export const CUSTOMER = {
	email: 'john@example.com',
	address: '1 Main St',
	city: 'Springfield',
	zipCode: '12345',
	country: 'US',
	phone: '+12065550100',
	ipAddress: '203.0.113.7',
};

export interface SandboxRequest {
	op: string | null;
	path: string;
	result: string;
	client_orderid?: string;
	params?: Record<string, string>;
}

export interface LedgerEntry {
	orderid: string;
	client_orderid: string;
	kind: string;
	amount: string;
	currency: string;
}

/** A sandbox per test file, started before and closed after its tests. */
export function useSandbox(options: Record<string, unknown> = {}): { readonly sb: Sandbox } {
	const holder = {} as { sb: Sandbox };
	beforeAll(async () => {
		holder.sb = await Sandbox.start(options);
	});
	afterAll(async () => {
		await holder.sb?.close();
	});
	return holder;
}

/**
 * The tests' calls to the sandbox's admin API, each on a new connection: a kept-alive one can be closed
 * by the sandbox (10 s idle) just as a call reuses it, and a loaded machine's event-loop lag widens that
 * moment (read ECONNRESET in the ledger judge at load 14). undici's types and those of Node's fetch
 * differ in version only.
 */
const FRESH_CONNECTIONS = new Agent({ pipelining: 0 }) as unknown as RequestInit['dispatcher'];

export class Sandbox {
	private constructor(
		readonly url: string,
		private readonly handle: { close(): Promise<void> },
	) {}

	static async start(options: Record<string, unknown> = {}): Promise<Sandbox> {
		const handle = await startSandbox({ port: 0, quiet: true, verifier: 'node', pollsBeforeFinal: 0, ...options });
		return new Sandbox(handle.url, handle);
	}

	close() {
		return this.handle.close();
	}

	async admin<T = IDataObject>(method: 'GET' | 'POST' | 'DELETE', route: string, body?: unknown): Promise<T> {
		const response = await fetch(`${this.url}/sandbox/${route}`, {
			dispatcher: FRESH_CONNECTIONS,
			method,
			headers: body === undefined ? undefined : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const json = (await response.json()) as T;
		if (!response.ok) throw new Error(`sandbox ${method} ${route}: ${response.status} ${JSON.stringify(json)}`);
		return json;
	}

	reset() {
		return this.admin('POST', 'reset');
	}

	fault(spec: { kind: string; op?: string; count?: number; latencyMs?: number }) {
		return this.admin('POST', 'faults', spec);
	}

	/** Gateway API requests that reached the sandbox (admin calls left out). */
	async requests(): Promise<SandboxRequest[]> {
		const { requests } = await this.admin<{ requests: SandboxRequest[] }>('GET', 'requests');
		return requests.filter((request) => request.op !== 'sandbox');
	}

	/** Requests that act (everything but status queries: the node asks one before a new order under a typed order ID). */
	async actions(): Promise<SandboxRequest[]> {
		return (await this.requests()).filter((request) => request.op !== 'status');
	}

	async ledger(clientOrderId?: string): Promise<LedgerEntry[]> {
		const query = clientOrderId ? `?client_orderid=${encodeURIComponent(clientOrderId)}` : '';
		return (await this.admin<{ entries: LedgerEntry[] }>('GET', `ledger${query}`)).entries;
	}

	order(orderid: string) {
		return this.admin<IDataObject>('GET', `orders/${orderid}`);
	}

	credentials(overrides: IDataObject = {}): Record<string, ICredentialDataDecryptedObject> {
		return {
			cardGatewayApi: {
				baseUrl: `${this.url}/paynet`,
				login: MERCHANT.login,
				controlKey: MERCHANT.controlKey,
				privateKey: MERCHANT_PEM,
				privateKeyPassphrase: '',
				endpointId: '1001',
				endpointGroupId: '',
				...overrides,
			},
		};
	}
}

export interface NodeRun {
	items: INodeExecutionData[];
	/** Items routed to the error output ("On Error: Continue (using error output)"). */
	errorItems: INodeExecutionData[];
	/** The error that stopped the workflow (without Continue On Fail). */
	error?: {
		message: string;
		description?: string | null;
		httpCode?: string | null;
		name?: string;
		context?: IDataObject;
	};
	/** The whole run result, serialised (for masking checks). */
	serialised: string;
}

interface NodeOptions {
	continueOnFail?: boolean;
	errorOutput?: boolean;
	asTool?: boolean;
	retryOnFail?: boolean;
}

/** The Card Gateway node of a test workflow, its credential named (the secrets come with the run). */
function cardGatewayNode(parameters: INodeParameters, options: NodeOptions = {}): TestNode {
	return {
		name: NODE_NAME,
		type: options.asTool ? TOOL_TYPE : NODE_TYPE,
		parameters,
		credentials: { cardGatewayApi: { id: 'cred-1', name: 'Card Gateway account' } },
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		...(options.errorOutput ? { onError: 'continueErrorOutput' as const } : {}),
		...(options.retryOnFail ? { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 } : {}),
	};
}

const cardGatewayTypes = (): Record<string, INodeType> => {
	const node = new CardGateway();
	return { [NODE_TYPE]: node, [TOOL_TYPE]: node };
};

/** Runs Start → Card Gateway with the given parameters and input items. */
export async function runNode(
	sandbox: Sandbox,
	parameters: INodeParameters,
	options: NodeOptions & { input?: IDataObject[]; credentials?: IDataObject } = {},
): Promise<NodeRun> {
	const { run, output } = await runWorkflow({
		nodeTypes: cardGatewayTypes(),
		nodes: [cardGatewayNode(parameters, options)],
		credentials: sandbox.credentials(options.credentials),
		input: (options.input ?? [{}]).map((json) => ({ json })),
	});
	const error = run.data.resultData.error as NodeRun['error'];
	return { items: output(NODE_NAME), errorItems: output(NODE_NAME, 1), error, serialised: JSON.stringify(run) };
}

/**
 * Start → (`before`, wired by `connections`) → Card Gateway as n8n-core's Workflow, for executions
 * run step by step (executeOn): n8n's Retry of a failed execution, a node that runs twice.
 */
export function cardGatewayWorkflow(
	parameters: INodeParameters,
	options: { before?: TestNode[]; connections?: IConnections; nodeTypes?: Record<string, INodeType> } = {},
): Workflow {
	return workflowOf({
		nodeTypes: { ...cardGatewayTypes(), ...options.nodeTypes },
		nodes: [...(options.before ?? []), cardGatewayNode(parameters)],
		connections: options.connections,
	});
}

/**
 * One execution of `workflow` against the sandbox: `mode` 'webhook' (or another) with
 * freshExecutionData for a new execution, 'retry' with retryExecutionData for n8n's Retry.
 */
export function executeOn(
	sandbox: Sandbox,
	mode: WorkflowExecuteMode,
	workflow: Workflow,
	data: IRunExecutionData,
	credentials: IDataObject = {},
): Promise<IRun> {
	return executeWorkflow({ workflow, data, mode, credentials: sandbox.credentials(credentials) });
}

/** A stored card: a sale under `merchantOrderId`, then a card reference made from it; its cardRefId. */
export async function storedCard(
	sandbox: Sandbox,
	merchantOrderId: string,
	options: INodeParameters = {},
): Promise<string> {
	const sale = await runNode(sandbox, cardPayment({ merchantOrderId, options }));
	const ref = await runNode(sandbox, {
		resource: 'cardReference',
		operation: 'create',
		merchantOrderId,
		gatewayOrderId: String(sale.items[0]?.json.orderid),
	});
	const id = String(ref.items[0]?.json.cardRefId ?? '');
	if (!/^\d+$/.test(id))
		throw new Error(
			`no card reference for order ${merchantOrderId}: ${ref.error?.message ?? sale.error?.message ?? 'none in the output'}`,
		);
	return id;
}

/** The JSON of the items, without pairedItem. */
export const jsonOf = (run: NodeRun) => run.items.map((item) => item.json);

/** The node's output summary: strings (ids, statuses, amounts) and a few flags. */
export type Output = Record<string, string>;

/** The only output item's JSON of a run that must have succeeded. */
export function single(run: NodeRun): Output {
	if (run.error) throw new Error(`the node failed: ${run.error.message} (${run.error.description ?? ''})`);
	expect(run.items).toHaveLength(1);
	expect(run.items[0].pairedItem).toEqual({ item: 0 });
	return run.items[0].json as unknown as Output;
}

export const RETURN_URL = 'https://shop.example.com/return';

/** A complete payout destination (payouts need exactly one). */
export const BANK_DESTINATION = { accountNumber: 'GB33BUKB20201555555555', bankName: 'Demo Bank' };

/** Parameters of a card sale (or preauth) with every required field. */
export function cardPayment(overrides: INodeParameters = {}, operation = 'sale'): INodeParameters {
	return {
		resource: 'payment',
		operation,
		merchantOrderId: '',
		orderDescription: 'Test order',
		amount: '10.00',
		currency: 'USD',
		...CARD,
		cvv: '123',
		...CUSTOMER,
		redirectUrl: RETURN_URL,
		...overrides,
	};
}

/** Options that make Wait for Final Status poll without pauses. */
export const WAIT = { waitForFinalStatus: true, pollIntervalSeconds: 0, maxWaitSeconds: 30 };
