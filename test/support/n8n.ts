// Runs our nodes inside n8n-core's real engine (WorkflowExecute, WebhookContext), with the real
// credential class doing the signing, as n8n's own node tests do (see the conventions guide §3.4).
import 'reflect-metadata';

import { WebhookContext } from 'n8n-core';
import {
	Workflow,
	type ICredentialDataDecryptedObject,
	type IConnections,
	type INode,
	type INodeExecutionData,
	type INodeType,
	type IRun,
	type IRunExecutionData,
	type IWebhookDescription,
	type IWebhookResponseData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { CardGatewayApi } from '../../credentials/CardGatewayApi.credentials';

import * as engine from './engine';

export type { TestNode, WorkflowRun } from './engine';
export { freshExecutionData, retryExecutionData, workflowOf } from './engine';

export const PACKAGE = 'n8n-nodes-card-gateway';

const credentialType = new CardGatewayApi();

// every test file that uses this harness stops n8n-core's timers so that jest can exit
afterAll(() => engine.stopEngineTimers());

/**
 * Executes `Start → node(s)` in n8n-core's engine, the credential signing from the sources.
 * `nodes` are workflow JSON nodes (parameters may hold expressions); the first node after Start
 * receives `input`.
 */
export async function runWorkflow(options: {
	nodeTypes: Record<string, INodeType>;
	nodes: engine.TestNode[];
	connections?: IConnections;
	credentials: Record<string, ICredentialDataDecryptedObject>;
	input?: INodeExecutionData[];
}): Promise<engine.WorkflowRun> {
	return engine.runWorkflow({ ...options, credentialType });
}

/**
 * One execution in n8n-core's engine, step by step: `data` from freshExecutionData for a new
 * execution, or from retryExecutionData and `mode: 'retry'` for n8n's Retry of a failed one.
 */
export async function executeWorkflow(options: {
	workflow: Workflow;
	data: IRunExecutionData;
	mode: WorkflowExecuteMode;
	credentials: Record<string, ICredentialDataDecryptedObject>;
}): Promise<IRun> {
	return (await engine.executeWorkflow({ ...options, credentialType })).run;
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
		nodeTypes: engine.nodeTypesFor({ [options.typeName]: options.nodeType }),
		active: true,
		settings: { executionOrder: 'v1' },
	});
	const { request } = options;
	const headers: Record<string, string> = { ...(request.headers ?? {}) };
	const rawBody =
		request.rawBody ??
		(request.body === undefined ? '' : typeof request.body === 'string' ? request.body : JSON.stringify(request.body));
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
	const additionalData = engine.additionalDataFor(credentialType, options.credentials);
	(additionalData as unknown as Record<string, unknown>).httpRequest = req;
	(additionalData as unknown as Record<string, unknown>).httpResponse = res;
	const description = options.nodeType.description.webhooks?.find(
		(hook) => hook.name === (request.webhookName ?? 'default'),
	) as IWebhookDescription;
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
	} else if (evaluate(workflow, node, description.responseMode, 'onReceived') === 'onReceived') {
		// What n8n 2.x's webhook-helpers do next (the real-n8n e2e checks the wire): once the execution
		// is stored, send the description's responseData with the default 200 ('noData' = empty body).
		const responseData = evaluate(workflow, node, description.responseData, 'firstEntryJson');
		result.answeredBy = 'n8n';
		result.status = 200;
		result.sent = responseData === 'noData' ? undefined : responseData;
	}
	return result;
}

/** A webhook description field as n8n evaluates it for the node (a literal, or an expression on its parameters). */
function evaluate(workflow: Workflow, node: INode, value: unknown, fallback: string): unknown {
	return workflow.expression.getSimpleParameterValue(node, value as string, 'webhook', {}, undefined, fallback);
}
