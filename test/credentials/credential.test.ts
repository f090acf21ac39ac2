// The credential's test request, resolved as n8n resolves it, signed by the credential's
// `authenticate` and sent to the sandbox over HTTP: success, wrong control key, wrong URL.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IHttpRequestOptions } from 'n8n-workflow';

import { CardGatewayApi } from '../../credentials/CardGatewayApi.credentials';
import { SIGNING_HEADER } from '../../nodes/shared/protocol/signing';

const { startSandbox } = require('../../sandbox');

const credentialType = new CardGatewayApi();
let sandbox: { url: string; close(): Promise<void> };

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, quiet: true, verifier: 'forge' });
});
afterAll(async () => sandbox.close());

const good = () => ({
	baseUrl: `${sandbox.url}/paynet/`,
	login: 'n8n-test-merchant',
	controlKey: 'TEST-ONLY-CONTROL-KEY-5f0c9a1e',
	privateKey: readFileSync(join(__dirname, '../../sandbox/keys/test-merchant-2048.key.pem'), 'utf8'),
	privateKeyPassphrase: '',
	endpointId: '1001',
	endpointGroupId: '',
});

/** Resolves the two expressions of the test request the way n8n would for these credentials. */
function resolvedTestRequest(credentials: ReturnType<typeof good>): IHttpRequestOptions {
	const { request } = credentialType.test;
	expect(request.baseURL).toContain('$credentials.baseUrl');
	expect(request.url).toContain('$credentials.endpointId');
	const endpoint = credentials.endpointGroupId ? `group/${credentials.endpointGroupId}` : credentials.endpointId;
	return {
		method: 'POST',
		baseURL: credentials.baseUrl.trim().replace(/\/+$/, ''),
		url: `/api/v2/status/${endpoint}`,
		headers: { ...(request.headers as Record<string, string>) },
	};
}

async function runTest(credentials: ReturnType<typeof good>) {
	const signed = await credentialType.authenticate(credentials, resolvedTestRequest(credentials));
	const headers = signed.headers as Record<string, string>;
	expect(Object.keys(headers).map((name) => name.toLowerCase())).not.toContain(SIGNING_HEADER);
	const response = await fetch(`${signed.baseURL}${signed.url}`, { method: 'POST', headers, body: String(signed.body) });
	const rule = credentialType.test.rules?.find((candidate) => candidate.type === 'responseCode' && candidate.properties.value === response.status);
	return { status: response.status, body: await response.text(), ruleMessage: rule?.properties.message };
}

describe('credential test', () => {
	it('passes with the right credentials: the probe order does not exist, the signature is accepted', async () => {
		const result = await runTest(good());
		expect(result.status).toBe(200);
		expect(JSON.parse(result.body)).toMatchObject({ type: 'status-response', status: 'error', 'merchant-order-id': 'n8n-credential-test' });
		expect(result.ruleMessage).toBeUndefined();
	});

	it('tells a wrong control key apart', async () => {
		const result = await runTest({ ...good(), controlKey: 'WRONG-KEY' });
		expect(result.status).toBe(400);
		expect(result.ruleMessage).toContain('merchant control key');
		expect(result.body).not.toContain('WRONG-KEY');
	});

	it('tells a wrong base URL apart', async () => {
		const result = await runTest({ ...good(), baseUrl: `${sandbox.url}/not-the-gateway` });
		expect(result.status).toBe(404);
		expect(result.ruleMessage).toContain('base URL');
	});

	it('signs OAuth requests only when asked, and removes the marker', async () => {
		const plain: IHttpRequestOptions = { url: 'http://h/paynet/api/v2/sale/1', method: 'POST', body: 'a=1', headers: { Accept: 'x' } };
		expect(await credentialType.authenticate(good(), plain)).toBe(plain);
		const hmac = await credentialType.authenticate(good(), { ...plain, headers: { [SIGNING_HEADER]: 'HMAC-SHA1' } });
		expect((hmac.headers as Record<string, string>).Authorization).toMatch(/^OAuth oauth_consumer_key="n8n-test-merchant", oauth_nonce="[0-9a-f]{32}", oauth_signature="[^"]+", oauth_signature_method="HMAC-SHA1"/);
		await expect(credentialType.authenticate({ ...good(), privateKey: '' }, { ...plain, headers: { [SIGNING_HEADER]: 'RSA-SHA256' } })).rejects.toThrow(
			'no RSA private key',
		);
	});
});
