// The credential test in a real n8n (the pinned runtime, n8n 2.41.1, our package installed as a
// community package): POST /rest/credentials/test, what the editor sends when a credential is saved
// or retested. n8n runs the credential's preAuthentication (the control-signed query, with an RSA
// key) and the test request, the credential signs them, the sandbox answers, and n8n's
// CredentialsTester words the verdict. Two sandboxes: the default one refuses a bad OAuth signature
// with 403 (the public docs), the other with 401 (the vendor's emulator). A published workflow shows
// that runs never send the test's query: the Card Gateway node, and n8n's HTTP Request node with the
// credential, answered and failed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { CREDENTIAL_TEST_ORDER_ID } from '../../nodes/shared/protocol/signing';
import type { SandboxRequest } from '../support/harness';
import {
	CREDENTIAL,
	MERCHANT,
	PRIVATE_KEY,
	startE2eEnvironment,
	type E2eEnvironment,
} from '../support/e2e-environment';
import { scaled } from '../support/time-scale';

const { startSandbox } = require('../../sandbox');
const { CLAIMS_CREDENTIAL, claimsCredentialPlaceholder } = require('../../scripts/demo-setup');

const OTHER_MERCHANTS_KEY = readFileSync(join(__dirname, '../../sandbox/keys/other-merchant-2048.key.pem'), 'utf8');

let env: E2eEnvironment;
let emulator: { url: string; close(): Promise<void> };
let cookie: string;

const RUN_PATH = 'e2e-credential-run';
const cardGatewayCredential = { cardGatewayApi: { id: CREDENTIAL.id, name: CREDENTIAL.name } };
/** n8n's HTTP Request node with the credential, POSTing a status query to the URL the webhook is given. */
const httpRequestNode = (name: string, x: number, clientOrderId: string, accept?: string) => ({
	id: `c7ed0001-0000-4000-8000-00000000000${x}`,
	name,
	type: 'n8n-nodes-base.httpRequest',
	typeVersion: 4.2,
	position: [x * 200, 0],
	// a failed request must not stop the run: the next node shows what n8n does after one
	onError: 'continueRegularOutput',
	parameters: {
		method: 'POST',
		url: "={{ $('Webhook').item.json.body.url }}",
		authentication: 'predefinedCredentialType',
		nodeCredentialType: 'cardGatewayApi',
		sendHeaders: accept !== undefined,
		headerParameters: { parameters: accept === undefined ? [] : [{ name: 'Accept', value: accept }] },
		sendBody: true,
		contentType: 'form-urlencoded',
		bodyParameters: {
			parameters: [
				{ name: 'login', value: 'n8n-test-merchant' },
				{ name: 'client_orderid', value: clientOrderId },
			],
		},
		options: {},
	},
	credentials: cardGatewayCredential,
});
const RUN_NODES = [
	{
		id: 'c7ed0001-0000-4000-8000-000000000001',
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [200, 0],
		parameters: { httpMethod: 'POST', path: RUN_PATH, responseMode: 'lastNode', options: {} },
		webhookId: 'c7ed0001-0a01-4000-8000-000000000a01',
	},
	{
		id: 'c7ed0001-0000-4000-8000-000000000002',
		name: 'Get Status',
		type: 'n8n-nodes-card-gateway.cardGateway',
		typeVersion: 1,
		position: [400, 0],
		onError: 'continueRegularOutput',
		parameters: { resource: 'transaction', operation: 'getStatus', merchantOrderId: 'e2e-credential-node' },
		credentials: cardGatewayCredential,
	},
	// the legacy form reply: HTTP 200 whatever it says, so the request succeeds
	httpRequestNode('HTTP Request answered', 3, 'e2e-credential-http-answered'),
	// a JSON validation-error, HTTP 400: the request fails, and n8n asks the credential again
	httpRequestNode('HTTP Request refused', 4, 'e2e-credential-http-refused', 'application/vnd.pay+json'),
];
const RUN_WORKFLOW = {
	id: 'e2eCredentialRun',
	name: 'E2E credential: runs send no credential test',
	active: false,
	settings: { executionOrder: 'v1' },
	nodes: RUN_NODES,
	connections: Object.fromEntries(
		RUN_NODES.slice(0, -1).map((node, index) => [
			node.name,
			{ main: [[{ node: RUN_NODES[index + 1].name, type: 'main', index: 0 }]] },
		]),
	),
	pinData: {},
};

beforeAll(
	async () => {
		env = await startE2eEnvironment({
			port: 5700,
			workflows: [RUN_WORKFLOW],
			publish: [RUN_WORKFLOW.id],
			credentials: [claimsCredentialPlaceholder()],
		});
		emulator = await startSandbox({ port: 0, quiet: true, oauthFailureStatus: 401 });
		const login = await fetch(`${env.n8n.baseUrl}/rest/login`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ emailOrLdapLoginId: env.n8n.owner.email, password: env.n8n.owner.password }),
		});
		expect(login.ok).toBe(true);
		cookie = String(login.headers.get('set-cookie')).split(';')[0];
	},
	scaled(15 * 60_000),
);
afterAll(async () => {
	await emulator?.close();
	await env?.stop();
}, scaled(60_000));
/** The stored credential with `changes`, tested as the editor tests it. */
async function credentialTest(changes: Record<string, string>): Promise<{ status: string; message: string }> {
	const data = {
		baseUrl: `${env.sandbox.url}/paynet`,
		...MERCHANT,
		privateKey: PRIVATE_KEY,
		privateKeyPassphrase: '',
		endpointId: '1001',
		endpointGroupId: '',
		...changes,
	};
	const response = await fetch(`${env.n8n.baseUrl}/rest/credentials/test`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', cookie },
		body: JSON.stringify({ credentials: { id: CREDENTIAL.id, name: CREDENTIAL.name, type: 'cardGatewayApi', data } }),
	});
	expect(response.status).toBe(200);
	return ((await response.json()) as { data: { status: string; message: string } }).data;
}

const RSA_REFUSED = /^The gateway refused the RSA signature \(HTTP (401|403)\): check the private key and the login\./;
const CONTROL_REFUSED =
	/^The gateway refused the test request signed with the merchant control key \(HTTP 400\): check the merchant control key, the merchant login and the endpoint ID/;

type Logged = SandboxRequest & { seq: number; http: number };

/** The gateway requests the default sandbox logged while `action` ran. */
async function requestsDuring(action: () => Promise<unknown>): Promise<Logged[]> {
	const log = async () => (await env.admin<{ requests: Logged[] }>('GET', 'requests')).requests;
	const from = Math.max(0, ...(await log()).map((request) => request.seq));
	await action();
	return (await log())
		.filter((request) => request.seq > from && request.path.startsWith('/paynet/api/'))
		.sort((a, b) => a.seq - b.seq);
}
const pathsOf = (requests: SandboxRequest[]) => requests.map((request) => request.path);

test(
	'the right keys pass: the control-signed query, then the RSA-signed one the gateway answers "order not found"',
	async () => {
		const sent = await requestsDuring(async () =>
			expect(await credentialTest({})).toEqual({ status: 'OK', message: 'Connection successful!' }),
		);
		expect(pathsOf(sent)).toEqual(['/paynet/api/v2/status/1001', '/paynet/api/v4/status/1001']);
		expect(sent.map((request) => request.params?.client_orderid)).toEqual([
			CREDENTIAL_TEST_ORDER_ID,
			CREDENTIAL_TEST_ORDER_ID,
		]);
		expect(await credentialTest({ baseUrl: `${emulator.url}/paynet` })).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
	},
	scaled(60_000),
);
test(
	'a wrong control key with the right RSA key fails naming the control key, and the RSA query is not sent',
	async () => {
		const sent = await requestsDuring(async () => {
			const result = await credentialTest({ controlKey: 'WRONG-KEY' });
			expect(result).toEqual({ status: 'Error', message: expect.stringMatching(CONTROL_REFUSED) });
			expect(result.message).not.toContain('WRONG-KEY');
		});
		expect(pathsOf(sent)).toEqual(['/paynet/api/v2/status/1001']);
	},
	scaled(60_000),
);
test(
	"another merchant's key with the right control key fails naming the RSA key, answered 403 or 401",
	async () => {
		const docs = await credentialTest({ privateKey: OTHER_MERCHANTS_KEY });
		expect(docs).toEqual({ status: 'Error', message: expect.stringMatching(RSA_REFUSED) });
		expect(docs.message).toContain('HTTP 403');
		expect(docs.message).toContain('The merchant control key was accepted');
		const vendor = await credentialTest({ baseUrl: `${emulator.url}/paynet`, privateKey: OTHER_MERCHANTS_KEY });
		expect(vendor).toEqual({ status: 'Error', message: expect.stringMatching(RSA_REFUSED) });
		expect(vendor.message).toContain('HTTP 401');
	},
	scaled(60_000),
);
test(
	"runs never send the credential test's query: the Card Gateway node, the HTTP Request node answered and failed",
	async () => {
		const sent = await requestsDuring(async () => {
			const response = await env.n8n.webhook(RUN_PATH, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ url: `${env.sandbox.url}/paynet/api/v2/status/1001` }),
			});
			expect(response.status).toBe(200);
		});
		expect(sent.map((request) => request.params?.client_orderid)).toEqual([
			'e2e-credential-node',
			'e2e-credential-http-answered',
			'e2e-credential-http-refused',
		]);
		expect(sent.map((request) => request.http)).toEqual([200, 200, 400]);
	},
	scaled(120_000),
);
test(
	'a garbage private key fails with a clear message, and nothing reaches the gateway',
	async () => {
		const before = await env.admin<{ requests: Array<{ path: string }> }>('GET', 'requests');
		for (const privateKey of ['not a key', '-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----']) {
			const result = await credentialTest({ privateKey });
			expect(result).toEqual({ status: 'Error', message: expect.stringMatching(/RSA private key/) });
			expect(result.message).toContain('empty the field if you only use control-signed operations');
		}
		const after = await env.admin<{ requests: Array<{ path: string }> }>('GET', 'requests');
		const api = (log: { requests: Array<{ path: string }> }) =>
			log.requests.filter((entry) => entry.path.startsWith('/paynet/api/')).length;
		expect(api(after)).toBe(api(before));
	},
	scaled(60_000),
);
test(
	'without a private key the test passes on the control key alone, and a wrong control key fails',
	async () => {
		expect(await credentialTest({ privateKey: '' })).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(await credentialTest({ privateKey: '', controlKey: 'WRONG-KEY' })).toEqual({
			status: 'Error',
			message: expect.stringContaining('merchant control key'),
		});
	},
	scaled(60_000),
);
test(
	'a wrong base URL is named',
	async () => {
		expect(await credentialTest({ baseUrl: `${env.sandbox.url}/not-the-gateway` })).toEqual({
			status: 'Error',
			message: expect.stringContaining('base URL'),
		});
	},
	scaled(60_000),
);
test(
	'the claims credential (Act Once per Key): the right API key passes, a wrong one fails',
	async () => {
		const apiKey: string = await env.n8n.claimsApiKey(cookie);
		const claimsTest = async (key: string) => {
			const response = await fetch(`${env.n8n.baseUrl}/rest/credentials/test`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', cookie },
				body: JSON.stringify({
					credentials: {
						...CLAIMS_CREDENTIAL,
						type: 'cardGatewayClaimsApi',
						data: { baseUrl: `${env.n8n.baseUrl}/api/v1/`, apiKey: key, tableName: 'card_gateway_claims' },
					},
				}),
			});
			expect(response.status).toBe(200);
			return ((await response.json()) as { data: { status: string } }).data.status;
		};
		expect(await claimsTest(apiKey)).toBe('OK');
		expect(await claimsTest(`${apiKey}x`)).toBe('Error');
	},
	scaled(60_000),
);
