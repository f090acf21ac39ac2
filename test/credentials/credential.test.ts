// The credential test as n8n runs it: the test request goes through n8n-core's RoutingNode (the
// expressions resolved, the credential's `authenticate` applied by httpRequestWithAuthentication, the
// request sent by n8n's HTTP client over real HTTP to the sandbox), and the verdict is read as n8n
// 2.41's CredentialsTester reads it (packages/cli/src/services/credentials-tester.service.ts,
// runRequestTest): an HTTP error is looked up in the responseCode rules, then any other non-2xx is
// an error; a response that passed is looked up in the responseSuccessBody rules; otherwise OK with
// n8n's fixed words.
import 'reflect-metadata';

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ExecuteContext, RoutingNode } from 'n8n-core';
import {
	Workflow,
	createEmptyRunExecutionData,
	type IAuthenticateRuleResponseCode,
	type IAuthenticateRuleResponseSuccessBody,
	type ICredentialDataDecryptedObject,
	type IHttpRequestOptions,
	type INode,
	type INodeCredentialTestResult,
	type INodeExecutionData,
	type INodeType,
} from 'n8n-workflow';

import { CardGatewayApi } from '../../credentials/CardGatewayApi.credentials';
import { CREDENTIAL_TEST_ORDER_ID, SIGNING_HEADER } from '../../nodes/shared/protocol/signing';

const { startSandbox } = require('../../sandbox');
const { additionalDataFor, nodeTypesFor, stopEngineTimers } = require('../support/engine');

const credentialType = new CardGatewayApi();
const KEYS = join(__dirname, '../../sandbox/keys');
const OWN_KEY = readFileSync(join(KEYS, 'test-merchant-2048.key.pem'), 'utf8');
const OTHER_MERCHANTS_KEY = readFileSync(join(KEYS, 'other-merchant-2048.key.pem'), 'utf8');

/** The sandbox's default answer to a bad OAuth signature (403) and the vendor emulator's (401). */
let docs: Sandbox;
let emulator: Sandbox;
interface Sandbox {
	url: string;
	close(): Promise<void>;
}

beforeAll(async () => {
	docs = await startSandbox({ port: 0, quiet: true, verifier: 'forge' });
	emulator = await startSandbox({ port: 0, quiet: true, verifier: 'forge', oauthFailureStatus: 401 });
});
afterAll(async () => {
	await docs.close();
	await emulator.close();
	stopEngineTimers();
});

type Credentials = {
	baseUrl: string;
	login: string;
	controlKey: string;
	privateKey: string;
	privateKeyPassphrase: string;
	endpointId: string;
	endpointGroupId: string;
};

const good = (sandbox: Sandbox = docs): Credentials => ({
	baseUrl: `${sandbox.url}/paynet/`,
	login: 'n8n-test-merchant',
	controlKey: 'TEST-ONLY-CONTROL-KEY-5f0c9a1e',
	privateKey: OWN_KEY,
	privateKeyPassphrase: '',
	endpointId: '1001',
	endpointGroupId: '',
});
const controlOnly = (sandbox: Sandbox = docs): Credentials => ({ ...good(sandbox), privateKey: '' });

const TEST_NODE_TYPE = 'n8n-nodes-base.noOp';

/** n8n's runRequestTest: a one-property node whose routing is the test request, run by RoutingNode. */
async function n8nCredentialTest(credentials: Credentials): Promise<INodeCredentialTestResult> {
	const { request, rules = [] } = credentialType.test;
	const nodeType: INodeType = {
		description: {
			displayName: 'No Operation, do nothing',
			name: TEST_NODE_TYPE,
			group: ['organization'],
			version: 1,
			description: '',
			defaults: {},
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: credentialType.name, required: true }],
			properties: [{ displayName: 'Temp', name: 'temp', type: 'string', routing: { request }, default: '' }],
		},
	};
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: TEST_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [credentialType.name]: { id: 'cred', name: 'Card Gateway account' } },
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: nodeTypesFor({ [TEST_NODE_TYPE]: nodeType }),
	});
	const data = credentials as unknown as ICredentialDataDecryptedObject;
	const additionalData = additionalDataFor(credentialType, { [credentialType.name]: data });
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		createEmptyRunExecutionData(),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	const routingNode = new RoutingNode(context, nodeType, {
		id: 'cred',
		name: 'Card Gateway account',
		type: credentialType.name,
		data,
	});

	let response: INodeExecutionData[][] | null | undefined;
	try {
		response = await routingNode.runNode();
	} catch (caught) {
		// n8n 2.41 reads the status from the axios error (cause.response); the n8n-core this project
		// compiles against keeps it as the error's httpCode only.
		const error = caught as {
			message: string;
			httpCode?: string;
			cause?: { response?: { status: number; statusText?: string }; code?: string };
		};
		const status = error.cause?.response?.status ?? (Number(error.httpCode) || undefined);
		if (status !== undefined) {
			const rule = (rules as IAuthenticateRuleResponseCode[]).find(
				(candidate) => candidate.type === 'responseCode' && candidate.properties.value === status,
			);
			if (rule) return { status: 'Error', message: rule.properties.message };
			if (status < 199 || status > 299)
				return {
					status: 'Error',
					message: error.cause?.response?.statusText || `Received HTTP status code: ${status}`,
				};
		} else if (error.cause?.code) {
			return { status: 'Error', message: error.cause.code };
		}
		return { status: 'Error', message: String(error.message) };
	}
	const body = response![0][0].json;
	for (const rule of rules as IAuthenticateRuleResponseSuccessBody[]) {
		if (rule.type === 'responseSuccessBody' && lodashGet(body, rule.properties.key) === rule.properties.value) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}

/** lodash's get for a dotted path: follows properties of any value, primitives included. */
function lodashGet(value: unknown, path: string): unknown {
	let current = value as Record<string, unknown> | null | undefined;
	for (const name of path.split('.')) {
		if (current === null || current === undefined) return undefined;
		current = (current as Record<string, unknown>)[name] as Record<string, unknown> | undefined;
	}
	return current;
}

/** The gateway requests the sandbox logged since `from` (its own admin requests left out). */
async function requestsSince(
	sandbox: Sandbox,
	from: number,
): Promise<Array<{ seq: number; path: string; result: string; http: number; params: Record<string, string> }>> {
	const { requests } = (await (await fetch(`${sandbox.url}/sandbox/requests`)).json()) as {
		requests: Array<{ seq: number; path: string; result: string; http: number; params: Record<string, string> }>;
	};
	return requests
		.filter((entry) => entry.seq > from && entry.path.startsWith('/paynet/api/'))
		.sort((a, b) => a.seq - b.seq);
}
async function lastSeq(sandbox: Sandbox): Promise<number> {
	const { requests } = (await (await fetch(`${sandbox.url}/sandbox/requests`)).json()) as {
		requests: Array<{ seq: number }>;
	};
	return requests.reduce((max, entry) => Math.max(max, entry.seq), 0);
}

const RSA_REFUSED = /^The gateway refused the RSA signature \(HTTP 40[13]\): check the private key and the login\./;

describe('credential test with an RSA private key: an RSA-signed V4 status query', () => {
	it.each([
		['the sandbox (403 on a bad signature, as the docs say)', () => docs],
		["the vendor's emulator's answer (401 text/plain)", () => emulator],
	])(
		'passes with the right key against %s: "order not found" (HTTP 400) proves the signature was accepted',
		async (_, sandbox) => {
			const from = await lastSeq(sandbox());
			expect(await n8nCredentialTest(good(sandbox()))).toEqual({ status: 'OK', message: 'Connection successful!' });
			const [probe, ...more] = await requestsSince(sandbox(), from);
			expect(more).toEqual([]);
			expect(probe).toMatchObject({
				path: '/paynet/api/v4/status/1001',
				http: 400,
				result: expect.stringMatching(/^validation-error\(3: /),
				params: { login: 'n8n-test-merchant', client_orderid: CREDENTIAL_TEST_ORDER_ID, orderid: '0' },
			});
			expect(probe.params).not.toHaveProperty('control');
		},
	);

	it('passes for an endpoint group too', async () => {
		expect(await n8nCredentialTest({ ...good(), endpointId: '', endpointGroupId: '2001' })).toMatchObject({
			status: 'OK',
		});
	});

	it.each([
		['403', () => docs, 'HTTP 403'],
		['401', () => emulator, 'HTTP 401'],
	])("fails with another merchant's key, answered %s, with the clear message", async (_, sandbox, status) => {
		const result = await n8nCredentialTest({ ...good(sandbox()), privateKey: OTHER_MERCHANTS_KEY });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(RSA_REFUSED);
		expect(result.message).toContain(status);
		expect(result.message).not.toContain('PRIVATE KEY');
	});

	it.each(['other-merchant', 'not-a-merchant'])(
		'fails with the clear message when the login (%s) is not the one the key is registered for',
		async (login) => {
			expect(await n8nCredentialTest({ ...good(emulator), login })).toMatchObject({
				status: 'Error',
				message: expect.stringMatching(RSA_REFUSED),
			});
		},
	);

	it.each([
		['text that is not PEM', 'my-private-key', 'no RSA private key in PEM form'],
		[
			'a PEM block of garbage',
			'-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----',
			'The RSA private key could not be read',
		],
		['a public key', readFileSync(join(KEYS, 'test-merchant-2048.pub.pem'), 'utf8'), 'no RSA private key in PEM form'],
	])('fails before sending anything, with a clear message, for %s', async (_, privateKey, words) => {
		const from = await lastSeq(docs);
		const result = await n8nCredentialTest({ ...good(), privateKey });
		expect(result.status).toBe('Error');
		expect(result.message).toContain(words);
		expect(result.message).toContain('empty the field if you only use control-signed operations');
		expect(result.message).not.toContain('bm90IGEga2V5');
		expect(await requestsSince(docs, from)).toEqual([]);
	});

	it('fails for a wrong passphrase of an encrypted key, naming the passphrase', async () => {
		const { createPrivateKey } = await import('node:crypto');
		const encrypted = createPrivateKey(OWN_KEY).export({
			type: 'pkcs8',
			format: 'pem',
			cipher: 'aes-256-cbc',
			passphrase: 'right',
		}) as string;
		expect(await n8nCredentialTest({ ...good(), privateKey: encrypted, privateKeyPassphrase: 'right' })).toMatchObject({
			status: 'OK',
		});
		expect(await n8nCredentialTest({ ...good(), privateKey: encrypted, privateKeyPassphrase: 'wrong' })).toMatchObject({
			status: 'Error',
			message: expect.stringContaining('check the private key passphrase'),
		});
	});

	it('tells a wrong base URL apart', async () => {
		expect(await n8nCredentialTest({ ...good(), baseUrl: `${docs.url}/not-the-gateway` })).toMatchObject({
			status: 'Error',
			message: expect.stringContaining('base URL'),
		});
	});

	it('does not pass an answer that is not JSON, whatever its status', async () => {
		const { createServer } = await import('node:http');
		const server = createServer((req, res) => {
			const status = req.url?.includes('/ok/') ? 200 : 400;
			res.writeHead(status, { 'Content-Type': 'text/html' }).end('<html><body>Bad Request</body></html>');
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as { port: number };
		try {
			for (const path of ['ok', 'bad']) {
				expect(await n8nCredentialTest({ ...good(), baseUrl: `http://127.0.0.1:${port}/${path}` })).toEqual({
					status: 'Error',
					message: expect.stringContaining('not a gateway reply'),
				});
			}
			// the control-signed probe too (its 400 is the control key's rule; a 200 page is no reply)
			expect(await n8nCredentialTest({ ...controlOnly(), baseUrl: `http://127.0.0.1:${port}/ok` })).toMatchObject({
				message: expect.stringContaining('not a gateway reply'),
			});
		} finally {
			await new Promise((resolve) => server.close(resolve));
		}
	});

	// The limits, as they are: one credential test sends one request, and a 400 with a JSON body is
	// an answer (the sandbox refuses another merchant's endpoint with one, after the signature).
	it('does not check the control key', async () => {
		expect(await n8nCredentialTest({ ...good(), controlKey: 'WRONG-KEY' })).toMatchObject({ status: 'OK' });
	});

	it('does not check the endpoint ID', async () => {
		expect(await n8nCredentialTest({ ...good(), endpointId: '3001' })).toMatchObject({ status: 'OK' });
	});
});

describe('credential test without an RSA private key: a control-signed V2 status query', () => {
	it.each(['', '   \n'])('passes on the control key alone (private key %j is not an error)', async (privateKey) => {
		const from = await lastSeq(docs);
		expect(await n8nCredentialTest({ ...controlOnly(), privateKey })).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		const [probe, ...more] = await requestsSince(docs, from);
		expect(more).toEqual([]);
		expect(probe).toMatchObject({
			path: '/paynet/api/v2/status/1001',
			http: 200,
			params: { login: 'n8n-test-merchant', client_orderid: CREDENTIAL_TEST_ORDER_ID },
		});
		expect(probe.params.control).toMatch(/^[0-9a-f]{40}$/);
	});

	it('tells a wrong control key apart', async () => {
		const result = await n8nCredentialTest({ ...controlOnly(), controlKey: 'WRONG-KEY' });
		expect(result).toMatchObject({ status: 'Error', message: expect.stringContaining('merchant control key') });
		expect(result.message).not.toContain('WRONG-KEY');
	});

	it('tells a wrong base URL apart', async () => {
		expect(await n8nCredentialTest({ ...controlOnly(), baseUrl: `${docs.url}/not-the-gateway` })).toMatchObject({
			status: 'Error',
			message: expect.stringContaining('base URL'),
		});
	});
});

describe('authenticate', () => {
	it('signs OAuth requests only when asked, and removes the marker', async () => {
		const plain: IHttpRequestOptions = {
			url: 'http://h/paynet/api/v2/sale/1',
			method: 'POST',
			body: 'a=1',
			headers: { Accept: 'x' },
		};
		expect(await credentialType.authenticate(good(), plain)).toBe(plain);
		const hmac = await credentialType.authenticate(good(), { ...plain, headers: { [SIGNING_HEADER]: 'HMAC-SHA1' } });
		expect((hmac.headers as Record<string, string>).Authorization).toMatch(
			/^OAuth oauth_consumer_key="n8n-test-merchant", oauth_nonce="[0-9a-f]{32}", oauth_signature="[^"]+", oauth_signature_method="HMAC-SHA1"/,
		);
		await expect(
			credentialType.authenticate(
				{ ...good(), privateKey: '' },
				{ ...plain, headers: { [SIGNING_HEADER]: 'RSA-SHA256' } },
			),
		).rejects.toThrow('no RSA private key');
	});

	it('signs the RSA probe for the URL the HTTP client calls (base URL and path joined), and sends that URL', async () => {
		const signed = await credentialType.authenticate(good(), {
			method: 'POST',
			baseURL: 'https://Gateway.example/paynet',
			url: '/api/v4/status/1001',
			headers: { [SIGNING_HEADER]: 'credential-test' },
		});
		expect(signed.url).toBe('https://Gateway.example/paynet/api/v4/status/1001');
		expect(signed).not.toHaveProperty('baseURL');
		expect(signed.body).toBe(`login=n8n-test-merchant&client_orderid=${CREDENTIAL_TEST_ORDER_ID}&orderid=0`);
		expect((signed.headers as Record<string, string>).Authorization).toMatch(/oauth_signature_method="RSA-SHA256"/);
		expect(Object.keys(signed.headers ?? {}).map((name) => name.toLowerCase())).not.toContain(SIGNING_HEADER);
		const { ignoreHttpStatusErrors } = signed as { ignoreHttpStatusErrors: { ignore: boolean; except: number[] } };
		expect(ignoreHttpStatusErrors.ignore).toBe(true);
		expect(ignoreHttpStatusErrors.except).toEqual(expect.arrayContaining([401, 403, 404, 500, 502, 503]));
		expect(ignoreHttpStatusErrors.except).not.toContain(400);
	});
});
