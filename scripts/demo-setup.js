'use strict';
// What `npm run demo` and `npm run queue -- up` put into n8n: the sandbox credential and the
// example workflows (examples/*.json), of which the ones with a trigger or webhook are published;
// and which of them a later start of the demo imports again (importPlan).
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const { DEFAULT_OPTIONS } = require('../sandbox/config');

const EXAMPLES = path.join(__dirname, '..', 'examples');

/**
 * The sandbox the shipped examples name (`npm run sandbox`'s default), so that they import by hand
 * as they are; the demo points them at the sandbox it started (exampleWorkflows).
 */
const DEFAULT_SANDBOX_URL = `http://${DEFAULT_OPTIONS.host}:${DEFAULT_OPTIONS.port}`;

function sandboxCredential(sandboxUrl) {
	return {
		id: 'cgSandbox000000001',
		name: 'Card Gateway sandbox',
		type: 'cardGatewayApi',
		data: {
			baseUrl: `${sandboxUrl}/paynet`,
			login: 'n8n-test-merchant',
			controlKey: 'TEST-ONLY-CONTROL-KEY-5f0c9a1e',
			privateKey: fs.readFileSync(path.join(__dirname, '../sandbox/keys/test-merchant-2048.key.pem'), 'utf8'),
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

/** The example workflows, their sandbox URLs pointed at `sandboxUrl` (by default they stay as shipped). */
function exampleWorkflows(sandboxUrl = DEFAULT_SANDBOX_URL) {
	return fs
		.readdirSync(EXAMPLES)
		.filter((name) => name.endsWith('.json'))
		.map((name) =>
			JSON.parse(fs.readFileSync(path.join(EXAMPLES, name), 'utf8').split(DEFAULT_SANDBOX_URL).join(sandboxUrl)),
		);
}

/**
 * Workflows that listen (a trigger or webhook, not the manual trigger) are published; scheduled ones
 * are not: they would call the merchant systems the examples only name (your-system.example).
 */
const listens = (workflow) =>
	workflow.nodes.some((node) => /webhook|Trigger$/i.test(node.type) && !/manualTrigger/.test(node.type)) &&
	!workflow.nodes.some((node) => node.type === 'n8n-nodes-base.scheduleTrigger');

/** JSON with every object's keys sorted: the same content gives the same text, whatever the key order. */
function canonical(value) {
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	if (value && typeof value === 'object')
		return `{${Object.keys(value)
			.filter((key) => value[key] !== undefined)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
			.join(',')}}`;
	return JSON.stringify(value);
}

/**
 * What a user edits of a workflow or a credential, hashed: n8n's export of it hashes as what the demo
 * imported until someone changes it (n8n adds only its own bookkeeping: dates, versions, sharing).
 */
function contentHash(entity) {
	const { name, nodes, connections, settings, type, data } = entity;
	return crypto
		.createHash('sha256')
		.update(canonical({ name, nodes, connections, settings, type, data }))
		.digest('hex');
}

/**
 * Which shipped workflows or credentials a start imports. `stored`: n8n's copies by ID; `imported`:
 * the hash of what the demo imported last, by ID. Imported: what n8n lacks, and what the user never
 * changed (it gets the shipped version, which may be newer); kept: a copy the user changed (or one
 * the demo has no record of that differs from the shipped version). `reset` imports everything.
 */
function importPlan(shipped, stored, imported, reset = false) {
	const plan = { imports: [], updates: [], kept: [] };
	for (const entity of shipped) {
		const theirs = stored.get(entity.id);
		if (reset || !theirs) {
			plan.imports.push(entity);
			continue;
		}
		const hash = contentHash(theirs);
		if (hash === contentHash(entity)) plan.imports.push(entity);
		else if (hash === imported[entity.id]) {
			plan.imports.push(entity);
			plan.updates.push(entity);
		} else plan.kept.push(entity);
	}
	return plan;
}

module.exports = {
	DEFAULT_SANDBOX_URL,
	sandboxCredential,
	CLAIMS_CREDENTIAL,
	claimsCredentialPlaceholder,
	exampleWorkflows,
	listens,
	contentHash,
	importPlan,
};
