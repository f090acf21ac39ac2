// Runs our nodes inside n8n-core's real engine (WorkflowExecute, WebhookContext), with the real
// credential class doing the signing, as n8n's own node tests do (see the conventions guide §3.4).
import 'reflect-metadata';

import { ExecutionLifecycleHooks, WebhookContext, WorkflowExecute } from 'n8n-core';
import {
	ICredentialsHelper,
	NodeHelpers,
	Workflow,
	type ICredentialDataDecryptedObject,
	type IHttpRequestOptions,
	type INode,
	type INodeType,
	type INodeTypes,
	type IRun,
	type IWebhookDescription,
	type IWorkflowExecuteAdditionalData,
	type IConnections,
	type INodeExecutionData,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { CardGatewayApi } from '../../credentials/CardGatewayApi.credentials';

export const PACKAGE = 'n8n-nodes-card-gateway';

// n8n-core's DI container starts an SSH client manager (a 60 s interval timer) the first time a node
// runs; every test file that uses this harness stops it so that jest can exit.
afterAll(() => {
	const { Container } = require('@n8n/di') as { Container: { get<T>(type: unknown): T } };
	const { SSHClientsManager } = require('n8n-core/dist/execution-engine/ssh-clients-manager') as { SSHClientsManager: unknown };
	Container.get<{ onShutdown(): void }>(SSHClientsManager).onShutdown();
});

class Start implements INodeType {
	description = {
		displayName: 'Start',
		name: 'start',
		group: ['trigger'],
		version: 1,
		description: 'Passes the test input through',
		defaults: { name: 'Start' },
		inputs: [],
		outputs: ['main'],
		properties: [],
	} as unknown as INodeType['description'];

	async execute(this: import('n8n-workflow').IExecuteFunctions) {
		return [this.getInputData()];
	}
}

const credentialType = new CardGatewayApi();

class TestCredentialsHelper extends ICredentialsHelper {
	constructor(private readonly credentials: Record<string, ICredentialDataDecryptedObject>) {
		super();
	}
	getParentTypes() {
		return [];
	}
	async authenticate(credentials: ICredentialDataDecryptedObject, typeName: string, requestOptions: IHttpRequestOptions) {
		if (typeName !== credentialType.name) throw new Error(`unexpected credential type ${typeName}`);
		return credentialType.authenticate(credentials, requestOptions);
	}
	async preAuthentication() {
		return undefined;
	}
	async runPreAuthentication() {
		return undefined;
	}
	isCredentialUsableByNode() {
		return true;
	}
	async getCredentials(): Promise<never> {
		throw new Error('not used');
	}
	async getDecrypted(_additionalData: unknown, _nodeCredentials: unknown, type: string) {
		const data = this.credentials[type];
		if (!data) throw new Error(`no test credentials of type ${type}`);
		return data;
	}
	async updateCredentials() {}
	async updateCredentialsOauthTokenData() {}
	getCredentialsProperties() {
		return credentialType.properties;
	}
}

function nodeTypesFor(types: Record<string, INodeType>): INodeTypes {
	const all: Record<string, INodeType> = { 'test.start': new Start(), ...types };
	return {
		getByName: (type: string) => all[type],
		getByNameAndVersion: (type: string, version?: number) => NodeHelpers.getVersionedNodeType(all[type], version),
		getKnownTypes: () => ({}),
	} as INodeTypes;
}

// Members the engine reads must exist; unknown ones become no-op functions.
function stub<T extends object>(base: T): T {
	return new Proxy(base, {
		get: (target, key) => (key in target ? (target as Record<string | symbol, unknown>)[key] : () => undefined),
	});
}

function additionalDataFor(credentials: Record<string, ICredentialDataDecryptedObject>, hooks?: ExecutionLifecycleHooks) {
	return stub({
		hooks,
		credentialsHelper: new TestCredentialsHelper(credentials),
		currentNodeParameters: undefined,
		executionId: undefined,
		encryptedRunnerIdentity: undefined,
		parentExecution: undefined,
		ssrfBridge: undefined,
		evalLlmMockHandler: undefined,
		variables: {},
		restApiUrl: 'http://localhost/rest',
		webhookBaseUrl: 'http://localhost/webhook',
		webhookWaitingBaseUrl: 'http://localhost/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost/webhook-test',
		formWaitingBaseUrl: 'http://localhost/form-waiting',
		instanceBaseUrl: 'http://localhost/',
	}) as unknown as IWorkflowExecuteAdditionalData;
}

export interface WorkflowRun {
	run: IRun;
	/** Output items of a node's first run, first output (or the given output index). */
	output(nodeName: string, outputIndex?: number): INodeExecutionData[];
}

/**
 * Executes `Start → node(s)` in n8n-core's engine. `nodes` are workflow JSON nodes (parameters may
 * hold expressions); the first node after Start receives `input`.
 */
export async function runWorkflow(options: {
	nodeTypes: Record<string, INodeType>;
	nodes: Array<Omit<INode, 'id' | 'position' | 'typeVersion'> & Partial<Pick<INode, 'typeVersion'>>>;
	connections?: IConnections;
	credentials: Record<string, ICredentialDataDecryptedObject>;
	input?: INodeExecutionData[];
}): Promise<WorkflowRun> {
	const nodes: INode[] = [
		{ id: 'start', name: 'Start', type: 'test.start', typeVersion: 1, position: [0, 0], parameters: {} },
		...options.nodes.map((node, index) => ({ typeVersion: 1, ...node, id: `n${index}`, position: [200 * (index + 1), 0] as [number, number] })),
	];
	const connections: IConnections = options.connections ?? chain(nodes.map((node) => node.name));
	const workflow = new Workflow({
		id: 'test-workflow',
		nodes,
		connections,
		nodeTypes: nodeTypesFor(options.nodeTypes),
		active: false,
		settings: { executionOrder: 'v1' },
	});
	const hooks = new ExecutionLifecycleHooks('manual', 'test-execution', stub({}) as never);
	const done = new Promise<IRun>((resolve) => hooks.addHandler('workflowExecuteAfter', (run) => resolve(run)));
	const runExecutionData = {
		startData: {},
		resultData: { runData: {} },
		executionData: {
			metadata: {},
			contextData: {},
			waitingExecution: {},
			waitingExecutionSource: null,
			nodeExecutionStack: [{ node: workflow.getNode('Start')!, data: { main: [options.input ?? [{ json: {} }]] }, source: null }],
		},
	};
	await new WorkflowExecute(additionalDataFor(options.credentials, hooks), 'manual', runExecutionData as never).processRunExecutionData(workflow);
	const run = await done;
	return {
		run,
		output: (nodeName, outputIndex = 0) => run.data.resultData.runData[nodeName]?.[0]?.data?.main?.[outputIndex] ?? [],
	};
}

function chain(names: string[]): IConnections {
	const connections: IConnections = {};
	for (let i = 0; i < names.length - 1; i++) {
		connections[names[i]] = { main: [[{ node: names[i + 1], type: 'main' as never, index: 0 }]] };
	}
	return connections;
}

export interface WebhookRequest {
	method: 'GET' | 'POST';
	query?: Record<string, string>;
	body?: unknown;
	rawBody?: string;
	headers?: Record<string, string>;
	webhookName?: string;
}

export interface WebhookResult {
	response: IWebhookResponseData;
	status?: number;
	sent?: unknown;
	redirectedTo?: string;
	headersSet: Record<string, string>;
	/** 'trigger' when webhook() wrote the answer itself, 'n8n' when it left the answer to n8n. */
	answeredBy?: 'trigger' | 'n8n';
}

/** Calls a trigger's webhook() inside n8n-core's real WebhookContext with an express-like request. */
export async function callWebhook(options: {
	nodeType: INodeType;
	typeName: string;
	parameters: INode['parameters'];
	credentials: Record<string, ICredentialDataDecryptedObject>;
	request: WebhookRequest;
}): Promise<WebhookResult> {
	const node: INode = {
		id: 'trigger',
		name: 'Trigger',
		type: options.typeName,
		typeVersion: 1,
		position: [0, 0],
		parameters: options.parameters,
		credentials: { cardGatewayApi: { id: 'cred', name: 'Card Gateway account' } },
		webhookId: '00000000-0000-4000-8000-000000000001',
	};
	const workflow = new Workflow({
		id: 'test-trigger-workflow',
		nodes: [node],
		connections: {},
		nodeTypes: nodeTypesFor({ [options.typeName]: options.nodeType }),
		active: true,
		settings: { executionOrder: 'v1' },
	});
	const { request } = options;
	const headers: Record<string, string> = { ...(request.headers ?? {}) };
	const rawBody = request.rawBody ?? (request.body === undefined ? '' : typeof request.body === 'string' ? request.body : JSON.stringify(request.body));
	const req = {
		method: request.method,
		headers,
		query: request.query ?? {},
		params: {},
		body: request.body ?? {},
		rawBody: Buffer.from(rawBody),
		readRawBody: async () => undefined,
		header: (name: string) => headers[name.toLowerCase()],
		get: (name: string) => headers[name.toLowerCase()],
		ip: '127.0.0.1',
	};
	const result: WebhookResult = { response: {}, headersSet: {} };
	const res = {
		status(code: number) {
			result.status = code;
			return res;
		},
		send(body?: unknown) {
			result.sent = body;
			return res;
		},
		end(body?: unknown) {
			if (body !== undefined) result.sent = body;
			return res;
		},
		json(body?: unknown) {
			result.sent = body;
			return res;
		},
		setHeader(name: string, value: string) {
			result.headersSet[name.toLowerCase()] = value;
			return res;
		},
		set(name: string, value: string) {
			result.headersSet[name.toLowerCase()] = value;
			return res;
		},
		type(value: string) {
			result.headersSet['content-type'] = value;
			return res;
		},
		redirect(statusOrUrl: number | string, url?: string) {
			result.status = typeof statusOrUrl === 'number' ? statusOrUrl : 302;
			result.redirectedTo = typeof statusOrUrl === 'string' ? statusOrUrl : url;
			return res;
		},
		headersSent: false,
	};
	const additionalData = additionalDataFor(options.credentials);
	(additionalData as unknown as Record<string, unknown>).httpRequest = req;
	(additionalData as unknown as Record<string, unknown>).httpResponse = res;
	const description = options.nodeType.description.webhooks?.find((hook) => hook.name === (request.webhookName ?? 'default')) as IWebhookDescription;
	const webhookData = {
		httpMethod: request.method,
		node: node.name,
		path: 'callback',
		webhookDescription: description,
		workflowId: workflow.id,
	};
	const context = new WebhookContext(workflow, node, additionalData, 'webhook', webhookData as never, [], null);
	result.response = await options.nodeType.webhook!.call(context as never);
	if (result.response.noWebhookResponse === true) {
		result.answeredBy = 'trigger';
	} else if (description.responseMode === 'onReceived') {
		// What n8n 2.x's webhook-helpers do next (the real-n8n e2e checks the wire): once the execution
		// is stored, send the description's responseData with the default 200 ('noData' = empty body).
		result.answeredBy = 'n8n';
		result.status = 200;
		result.sent = description.responseData === 'noData' ? undefined : description.responseData;
	}
	return result;
}
