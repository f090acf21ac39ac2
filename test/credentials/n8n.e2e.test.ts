// The credential test in a real n8n (the pinned runtime, n8n 2.41.1, our package installed as a
// community package): POST /rest/credentials/test, what the editor sends when a credential is saved
// or retested. n8n runs the test request, the credential signs it, the sandbox answers, and n8n's
// CredentialsTester words the verdict. Two sandboxes: the default one refuses a bad OAuth signature
// with 403 (the public docs), the other with 401 (the vendor's emulator).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

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

beforeAll(
	async () => {
		env = await startE2eEnvironment({
			port: 5700,
			workflows: [],
			publish: [],
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

test(
	'the right RSA key passes: the gateway answers "order not found", so it accepted the signature',
	async () => {
		expect(await credentialTest({})).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(await credentialTest({ baseUrl: `${emulator.url}/paynet` })).toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
	},
	scaled(60_000),
);
test(
	"another merchant's key fails with the clear message, answered 403 or 401",
	async () => {
		const docs = await credentialTest({ privateKey: OTHER_MERCHANTS_KEY });
		expect(docs).toEqual({ status: 'Error', message: expect.stringMatching(RSA_REFUSED) });
		expect(docs.message).toContain('HTTP 403');
		const vendor = await credentialTest({ baseUrl: `${emulator.url}/paynet`, privateKey: OTHER_MERCHANTS_KEY });
		expect(vendor).toEqual({ status: 'Error', message: expect.stringMatching(RSA_REFUSED) });
		expect(vendor.message).toContain('HTTP 401');
	},
	scaled(60_000),
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
