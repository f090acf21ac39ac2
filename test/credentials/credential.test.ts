// The credential test as n8n runs it: the test request goes through n8n-core's RoutingNode (the
// expressions resolved, the credential's preAuthentication and `authenticate` applied by
// httpRequestWithAuthentication, the requests sent by n8n's HTTP client over real HTTP to the
// sandbox), and the verdict is read as n8n 2.41's CredentialsTester reads it (packages/cli/src/services/credentials-tester.service.ts,
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
	type IHttpRequestHelper,
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

// n8n's tester names its temp node by the description of n8n's No Operation node: 'noOp'
// (n8n-nodes-base/dist/nodes/NoOp/NoOp.node.js), not the 'n8n-nodes-base.noOp' its
// preAuthentication looks for.
const TEST_NODE_TYPE = 'noOp';

/**
 * n8n 2.41.1's CredentialsHelper.preAuthentication (n8n/dist/credentials-helper.js, lines 102–134),
 * which the engine of test/support/engine.js leaves out: with a hidden expirable field, the type's
 * preAuthentication runs (`this` restricted to httpRequest) while that field is empty, after a
 * failed request, or for a node of type 'n8n-nodes-base.noOp' (meant for the tester's node, which is
 * not of that type: TEST_NODE_TYPE); n8n stores and merges its result only when it carries that
 * field, which ours never does.
 */
async function n8nPreAuthentication(
	helpers: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
	_typeName: string,
	node: INode,
	credentialsExpired: boolean,
): Promise<undefined> {
	const expirable = credentialType.properties.find(
		(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
	);
	if (expirable === undefined || credentialType.preAuthentication === undefined) return undefined;
	const testing = node.parameters?.temp === '' && node.type === 'n8n-nodes-base.noOp';
	if (credentials[expirable.name] !== '' && !credentialsExpired && !testing) return undefined;
	const restricted = { helpers: { httpRequest: helpers.helpers.httpRequest } };
	const output = await credentialType.preAuthentication.call(restricted, credentials);
	if (output[expirable.name] !== undefined) throw new Error('n8n would store what preAuthentication returned');
	return undefined;
}

/** The credential as n8n hands it to a test: every field's default under the given values. */
function withDefaults(credentials: Credentials): ICredentialDataDecryptedObject {
	const defaults = Object.fromEntries(credentialType.properties.map((property) => [property.name, property.default]));
	return { ...defaults, ...credentials } as ICredentialDataDecryptedObject;
}

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
	const data = withDefaults(credentials);
	const additionalData = additionalDataFor(credentialType, { [credentialType.name]: data });
	additionalData.credentialsHelper.preAuthentication = n8nPreAuthentication;
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
const CONTROL_REFUSED =
	/^The gateway refused the test request signed with the merchant control key \(HTTP 400\): check the merchant control key, the merchant login and the endpoint ID/;

/** The control-signed V2 status query of the credential test, as the sandbox logged it. */
function controlProbe(path = '/paynet/api/v2/status/1001', http = 200) {
	return {
		path,
		http,
		params: {
			login: 'n8n-test-merchant',
			client_orderid: CREDENTIAL_TEST_ORDER_ID,
			orderid: '',
			control: expect.stringMatching(/^[0-9a-f]{40}$/),
		},
	};
}

describe('credential test with an RSA private key: a control-signed V2 status query, then an RSA-signed V4 one', () => {
	it.each([
		['the sandbox (403 on a bad signature, as the docs say)', () => docs],
		["the vendor's emulator's answer (401 text/plain)", () => emulator],
	])(
		'passes with the right keys against %s: "order not found" (HTTP 400) proves the RSA signature was accepted',
		async (_, sandbox) => {
			const from = await lastSeq(sandbox());
			expect(await n8nCredentialTest(good(sandbox()))).toEqual({ status: 'OK', message: 'Connection successful!' });
			const [control, probe, ...more] = await requestsSince(sandbox(), from);
			expect(more).toEqual([]);
			expect(control).toMatchObject(controlProbe());
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
		const from = await lastSeq(docs);
		expect(await n8nCredentialTest({ ...good(), endpointId: '', endpointGroupId: '2001' })).toMatchObject({
			status: 'OK',
		});
		const [control, probe] = await requestsSince(docs, from);
		expect(control).toMatchObject(controlProbe('/paynet/api/v2/status/group/2001'));
		expect(probe).toMatchObject({ path: '/paynet/api/v4/status/group/2001' });
	});

	it('fails with a wrong control key and the right RSA key, naming the control key, before the RSA query', async () => {
		const from = await lastSeq(docs);
		const result = await n8nCredentialTest({ ...good(), controlKey: 'WRONG-KEY' });
		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(CONTROL_REFUSED) });
		expect(result.message).not.toContain('WRONG-KEY');
		expect(await requestsSince(docs, from)).toEqual([
			expect.objectContaining(controlProbe('/paynet/api/v2/status/1001', 400)),
		]);
	});

	it.each([
		['403', () => docs, 'HTTP 403'],
		['401', () => emulator, 'HTTP 401'],
	])(
		"fails with another merchant's key and the right control key, answered %s, naming the RSA key",
		async (_, sandbox, status) => {
			const from = await lastSeq(sandbox());
			const result = await n8nCredentialTest({ ...good(sandbox()), privateKey: OTHER_MERCHANTS_KEY });
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(RSA_REFUSED);
			expect(result.message).toContain(status);
			expect(result.message).toContain('The merchant control key was accepted');
			expect(result.message).not.toContain('PRIVATE KEY');
			const [control, ...rsa] = await requestsSince(sandbox(), from);
			expect(control).toMatchObject(controlProbe());
			// once: the 401 comes from n8n's retry already, which is not retried
			expect(rsa.map((request) => request.path)).toEqual(['/paynet/api/v4/status/1001']);
		},
	);

	it.each(['other-merchant', 'not-a-merchant'])(
		'fails with the clear message when the login (%s) is not the merchant of the control key and the endpoint',
		async (login) => {
			expect(await n8nCredentialTest({ ...good(emulator), login })).toMatchObject({
				status: 'Error',
				message: expect.stringMatching(CONTROL_REFUSED),
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

	// The RSA query takes a 400 with a JSON body as an answer; the control-signed one, sent first, does not.
	it("refuses another merchant's endpoint ID (the control-signed query)", async () => {
		expect(await n8nCredentialTest({ ...good(), endpointId: '3001' })).toEqual({
			status: 'Error',
			message: expect.stringMatching(CONTROL_REFUSED),
		});
	});
});

describe('preAuthentication outside the credential test', () => {
	const sendsNothing: IHttpRequestHelper = {
		helpers: {
			httpRequest: async () => {
				throw new Error('preAuthentication sent a request');
			},
		},
	};
	const preAuthentication = (credentials: ICredentialDataDecryptedObject) =>
		credentialType.preAuthentication!.call(sendsNothing, credentials);

	it('sends nothing after a request that is no credential test (n8n calls it after any failure of the HTTP Request node)', async () => {
		const credentials = withDefaults(good());
		await credentialType.authenticate(credentials, { url: 'http://h/paynet/api/v2/status/1001', method: 'POST' });
		await expect(preAuthentication(credentials)).resolves.toEqual({});
		await expect(preAuthentication(withDefaults(good()))).resolves.toEqual({});
	});

	it('sends nothing without an RSA key: the declared test is the control-signed query then', async () => {
		const credentials = withDefaults(controlOnly());
		await credentialType.authenticate(credentials, {
			method: 'POST',
			url: 'http://h/paynet/api/v2/status/1001',
			headers: { [SIGNING_HEADER]: 'credential-test' },
		});
		await expect(preAuthentication(credentials)).resolves.toEqual({});
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
		const credentials = withDefaults(good());
		const probe: IHttpRequestOptions = {
			method: 'POST',
			baseURL: 'https://Gateway.example/paynet',
			url: '/api/v4/status/1001',
			headers: { [SIGNING_HEADER]: 'credential-test' },
		};
		// first the HTTP 401 after which n8n runs preAuthentication, which sends the control-signed query
		await expect(credentialType.authenticate(credentials, probe)).rejects.toMatchObject({ response: { status: 401 } });
		const sent: IHttpRequestOptions[] = [];
		const answers: IHttpRequestHelper = {
			helpers: {
				httpRequest: async (options: IHttpRequestOptions) => {
					sent.push(options);
					return { statusCode: 200, headers: {}, body: { type: 'status-response', status: 'error' } };
				},
			},
		};
		await credentialType.preAuthentication!.call(answers, credentials);
		expect(sent).toMatchObject([{ url: `${docs.url}/paynet/api/v2/status/1001` }]);
		const signed = await credentialType.authenticate(credentials, probe);
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
