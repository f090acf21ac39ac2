// A fake n8n context for the fast tier: one stage of the action pipeline runs alone, without n8n-core's
// engine, the sandbox or the network. It answers exactly what node code asks of `this` (parameters, the
// node, the credential, input items, the node's context) and fakes the one door to the gateway the
// transport uses: `helpers.httpRequestWithAuthentication` (nodes/shared/transport.ts), which here hands
// each request to a scripted gateway and records what was sent.
import { generateKeyPairSync } from 'node:crypto';

import type { IDataObject, IExecuteFunctions, IHttpRequestOptions, INode, INodeExecutionData } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../../nodes/shared/transport';

/** One request as the fake gateway received it: the URL and the form body's fields. */
export interface SentRequest {
	url: string;
	fields: Record<string, string>;
}

/**
 * What the fake gateway does with a request: an answer (status code, content type, body), or a thrown
 * network error (a lost reply: `{ code: 'ETIMEDOUT' }`; one that never connected: `{ code: 'ECONNREFUSED' }`).
 */
export type FakeAnswer =
	{ statusCode?: number; contentType?: string; body: string | IDataObject } | { networkError: string };

export type FakeGateway = (request: SentRequest, index: number) => FakeAnswer;

export interface FakeContextOptions {
	/** The node's parameters as saved (a string starting with "=" counts as an expression). */
	parameters?: IDataObject;
	/** What n8n resolves a parameter to for an item; defaults to the saved parameter. */
	resolve?: (name: string, itemIndex: number) => unknown;
	items?: INodeExecutionData[];
	credentials?: IDataObject;
	gateway?: FakeGateway;
	mode?: string;
	/** The node sits in an AI agent's tool slot (n8n names such a node's type "…Tool"). */
	asTool?: boolean;
}

export const FAKE_CREDENTIALS = {
	baseUrl: 'https://gateway.test',
	login: 'merchant-login',
	controlKey: 'control-key-not-a-secret-in-tests',
	endpointId: '1001',
};

let rsaKey: string | undefined;

/** The credential with an RSA private key (made once per test file), for the V4 operations' OAuth RSA-SHA256. */
export function rsaCredentials(): IDataObject {
	rsaKey ??= generateKeyPairSync('rsa', { modulusLength: 2048 })
		.privateKey.export({ type: 'pkcs8', format: 'pem' })
		.toString();
	return { privateKey: rsaKey };
}

/** The fake context and what it saw. */
export interface FakeContext {
	ctx: IExecuteFunctions;
	sent: SentRequest[];
	/** The node's context (`getContext('node')`), kept across calls like n8n keeps it for one execution. */
	nodeContext: IDataObject;
}

function readPath(source: IDataObject, path: string): unknown {
	let value: unknown = source;
	for (const part of path.split('.'))
		value = value !== null && typeof value === 'object' ? (value as IDataObject)[part] : undefined;
	return value;
}

export function fakeContext(options: FakeContextOptions = {}): FakeContext {
	const parameters = options.parameters ?? {};
	const sent: SentRequest[] = [];
	const nodeContext: IDataObject = {};
	const node: INode = {
		id: 'fake-node',
		name: 'Card Gateway',
		type: options.asTool ? 'n8n-nodes-card-gateway.cardGatewayTool' : 'n8n-nodes-card-gateway.cardGateway',
		typeVersion: 1,
		position: [0, 0],
		parameters: parameters as INode['parameters'],
		credentials: { [CREDENTIAL_TYPE]: { id: 'fake-credential', name: 'Fake gateway' } },
	};
	const httpRequestWithAuthentication = async (_type: string, request: IHttpRequestOptions) => {
		const fields = Object.fromEntries(new URLSearchParams(String(request.body ?? '')));
		const entry = { url: String(request.url), fields };
		sent.push(entry);
		if (!options.gateway) throw new Error('the fake gateway was not expected to be called');
		const answer = options.gateway(entry, sent.length - 1);
		if ('networkError' in answer)
			throw Object.assign(new Error(`fake network error ${answer.networkError}`), { code: answer.networkError });
		const json = typeof answer.body !== 'string';
		return {
			statusCode: answer.statusCode ?? 200,
			headers: { 'content-type': answer.contentType ?? (json ? 'application/json' : 'text/html') },
			body: json ? JSON.stringify(answer.body) : answer.body,
		};
	};
	const ctx = {
		getNode: () => structuredClone(node),
		getNodeParameter: (name: string, itemIndex: number, fallback?: unknown) => {
			const value = options.resolve ? options.resolve(name, itemIndex) : readPath(parameters, name);
			return value === undefined ? fallback : structuredClone(value);
		},
		getInputData: () => options.items ?? [{ json: {} }],
		getCredentials: async (type: string) => {
			if (type !== CREDENTIAL_TYPE) throw new Error(`no credential of type ${type} in the fake context`);
			return { ...FAKE_CREDENTIALS, ...options.credentials };
		},
		getContext: () => nodeContext,
		getMode: () => options.mode ?? 'manual',
		getExecutionId: () => 'fake-execution',
		continueOnFail: () => false,
		getWorkflowDataProxy: () => ({ $runIndex: 0 }),
		getParentNodes: () => [],
		helpers: { httpRequestWithAuthentication },
	};
	return { ctx: ctx as unknown as IExecuteFunctions, sent, nodeContext };
}

/** A v2 gateway reply as the legacy form-encoded body the gateway sends. */
export function formReply(fields: Record<string, string>): FakeAnswer {
	return { contentType: 'text/html', body: new URLSearchParams(fields).toString() };
}

/** Parameters of a complete card sale (Payment → Sale), as a user saves them. */
export function saleParameters(overrides: IDataObject = {}): IDataObject {
	return {
		resource: 'payment',
		operation: 'sale',
		merchantOrderId: '',
		orderDescription: 'Test order',
		amount: '10.00',
		currency: 'USD',
		cardNumber: '4444555566661111',
		expireMonth: '12',
		expireYear: '2035',
		cardholderName: 'JOHN SMITH',
		cvv: '123',
		email: 'john@example.com',
		address: '1 Main St',
		city: 'Springfield',
		zipCode: '12345',
		country: 'US',
		phone: '+12065550100',
		ipAddress: '203.0.113.7',
		redirectUrl: 'https://shop.example.com/return',
		...overrides,
	};
}

/** The gateway's answers along one sale of 10.00 USD under `order`: unknown before, accepted, approved. */
export function saleReplies(order: string): Record<'notFound' | 'accepted' | 'approved', FakeAnswer> {
	return {
		notFound: formReply({ type: 'status-response', status: 'error', 'error-message': 'Order not found' }),
		accepted: formReply({
			type: 'async-response',
			'merchant-order-id': order,
			'paynet-order-id': '777',
			'serial-number': 'sn-1',
		}),
		approved: formReply({
			type: 'status-response',
			status: 'approved',
			'transaction-type': 'sale',
			'merchant-order-id': order,
			'paynet-order-id': '777',
			amount: '10.00',
			currency: 'USD',
		}),
	};
}
