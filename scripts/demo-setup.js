'use strict';
// What `npm run demo` and `npm run queue -- up` put into n8n: the sandbox credential and the
// example workflows (examples/*.json), of which the ones with a trigger or webhook are published.
const fs = require('node:fs');
const path = require('node:path');

const { REPO } = require('../e2e/n8n');

function sandboxCredential(sandboxUrl) {
	return {
		id: 'cgSandbox000000001',
		name: 'Card Gateway sandbox',
		type: 'cardGatewayApi',
		data: {
			baseUrl: `${sandboxUrl}/paynet`,
			login: 'n8n-test-merchant',
			controlKey: 'TEST-ONLY-CONTROL-KEY-5f0c9a1e',
			privateKey: fs.readFileSync(path.join(REPO, 'sandbox/keys/test-merchant-2048.key.pem'), 'utf8'),
			privateKeyPassphrase: '',
			endpointId: '1001',
			endpointGroupId: '',
		},
	};
}

/** The claims credential of "Act Once per Key" (examples/refund-once-per-callback.json); filled in once n8n runs (N8nInstance.connectClaims). */
const CLAIMS_CREDENTIAL = { id: 'cgClaims0000000001', name: 'Card Gateway claims (this n8n)' };

function claimsCredentialPlaceholder() {
	return {
		...CLAIMS_CREDENTIAL,
		type: 'cardGatewayClaimsApi',
		data: { baseUrl: 'http://127.0.0.1:9/api/v1', apiKey: 'set-once-n8n-runs', tableName: 'card_gateway_claims' },
	};
}

function exampleWorkflows() {
	return fs
		.readdirSync(path.join(REPO, 'examples'))
		.filter((name) => name.endsWith('.json'))
		.map((name) => JSON.parse(fs.readFileSync(path.join(REPO, 'examples', name), 'utf8')));
}

/**
 * Workflows that listen (a trigger or webhook, not the manual trigger) are published; scheduled ones
 * are not: they would call the merchant systems the examples only name (your-system.example).
 */
const listens = (workflow) =>
	workflow.nodes.some((node) => /webhook|Trigger$/i.test(node.type) && !/manualTrigger/.test(node.type)) &&
	!workflow.nodes.some((node) => node.type === 'n8n-nodes-base.scheduleTrigger');

module.exports = { sandboxCredential, CLAIMS_CREDENTIAL, claimsCredentialPlaceholder, exampleWorkflows, listens };
