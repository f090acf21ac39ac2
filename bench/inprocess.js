'use strict';
// The same bulk job in process: n8n-core's WorkflowExecute (the engine of test/helpers/n8n.ts, with
// the real credential class signing) runs Start → Card Gateway over the built dist/, against the
// sandbox in this process. No n8n server, no webhook, no database, no task runner: what is left is
// the engine, the request helper and our node. Writes bench/out/inprocess.json.
//
//   node bench/inprocess.js [--quick] [--cpu-prof-cell=getStatus:0:16]
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
// n8n-core's instance settings would otherwise create ~/.n8n/config
const USER_FOLDER = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-card-gateway-inprocess-'));
process.env.N8N_USER_FOLDER = USER_FOLDER;
require('reflect-metadata');
const { ExecutionLifecycleHooks, WorkflowExecute } = require('n8n-core');
const { ICredentialsHelper, NodeHelpers, Workflow } = require('n8n-workflow');

const { startSandbox } = require('../sandbox');
const { ROOT, MERCHANT, summary, median, seedSales, writeJson, log } = require('./common');

const { CardGatewayApi } = require(path.join(ROOT, 'dist/credentials/CardGatewayApi.credentials.js'));
const { CardGateway } = require(path.join(ROOT, 'dist/nodes/CardGateway/CardGateway.node.js'));
const { MAX_CONCURRENCY } = require(path.join(ROOT, 'dist/nodes/CardGateway/actions/common/options.js'));

const QUICK = process.argv.includes('--quick');
const RUNS = QUICK ? 1 : 3;
const LATENCIES = [0, 20, 100];
const CONCURRENCY = [1, 4, 16, 64];
const MAX_ITEMS = QUICK ? 1000 : 10000;
const MIN_ITEMS = QUICK ? 100 : 300;
const TARGET_SECS = QUICK ? 3 : 10;

const credentialType = new CardGatewayApi();

class BenchCredentialsHelper extends ICredentialsHelper {
	constructor(data) {
		super();
		this.data = data;
	}
	getParentTypes() {
		return [];
	}
	async authenticate(credentials, typeName, requestOptions) {
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
	async getCredentials() {
		throw new Error('not used');
	}
	async getDecrypted() {
		return this.data;
	}
	async updateCredentials() {}
	async updateCredentialsOauthTokenData() {}
	getCredentialsProperties() {
		return credentialType.properties;
	}
}

class Start {
	constructor() {
		this.description = { displayName: 'Start', name: 'start', group: ['trigger'], version: 1, description: '', defaults: { name: 'Start' }, inputs: [], outputs: ['main'], properties: [] };
	}
	async execute() {
		return [this.getInputData()];
	}
}

const stub = (base) => new Proxy(base, { get: (target, key) => (key in target ? target[key] : () => undefined) });
const types = { 'bench.start': new Start(), 'n8n-nodes-card-gateway.cardGateway': new CardGateway() };
const nodeTypes = {
	getByName: (type) => types[type],
	getByNameAndVersion: (type, version) => NodeHelpers.getVersionedNodeType(types[type], version),
	getKnownTypes: () => ({}),
};

async function runBulk(credentials, op, orders, concurrency) {
	const [resource, operation] = op === 'getStatus' ? ['transaction', 'getStatus'] : ['payment', 'return'];
	const nodes = [
		{ id: 's', name: 'Start', type: 'bench.start', typeVersion: 1, position: [0, 0], parameters: {} },
		{
			id: 'g', name: 'Card Gateway', type: 'n8n-nodes-card-gateway.cardGateway', typeVersion: 1, position: [200, 0],
			parameters: { resource, operation, merchantOrderId: '={{ $json.cid }}', gatewayOrderId: '={{ $json.oid }}', options: { concurrency } },
			credentials: { cardGatewayApi: { id: 'c', name: 'bench' } },
		},
	];
	const workflow = new Workflow({
		id: 'bench', nodes, connections: { Start: { main: [[{ node: 'Card Gateway', type: 'main', index: 0 }]] } }, nodeTypes, active: false, settings: { executionOrder: 'v1' },
	});
	const hooks = new ExecutionLifecycleHooks('manual', 'bench-execution', stub({}));
	const done = new Promise((resolve) => hooks.addHandler('workflowExecuteAfter', (run) => resolve(run)));
	const additionalData = stub({
		hooks, credentialsHelper: new BenchCredentialsHelper(credentials), currentNodeParameters: undefined, executionId: undefined,
		encryptedRunnerIdentity: undefined, parentExecution: undefined, ssrfBridge: undefined, evalLlmMockHandler: undefined, variables: {},
		restApiUrl: 'http://localhost/rest', webhookBaseUrl: 'http://localhost/webhook', webhookWaitingBaseUrl: 'http://localhost/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost/webhook-test', formWaitingBaseUrl: 'http://localhost/form-waiting', instanceBaseUrl: 'http://localhost/',
	});
	const input = orders.map((o) => ({ json: o }));
	const runExecutionData = {
		startData: {},
		resultData: { runData: {} },
		executionData: {
			metadata: {}, contextData: {}, waitingExecution: {}, waitingExecutionSource: null,
			nodeExecutionStack: [{ node: workflow.getNode('Start'), data: { main: [input] }, source: null }],
		},
	};
	const t0 = process.hrtime.bigint();
	await new WorkflowExecute(additionalData, 'manual', runExecutionData).processRunExecutionData(workflow);
	const run = await done;
	const secs = Number(process.hrtime.bigint() - t0) / 1e9;
	const error = run.data.resultData.error;
	if (error) throw new Error(`in-process ${op}: ${error.message}`);
	const out = run.data.resultData.runData['Card Gateway'][0].data.main[0];
	if (out.length !== orders.length) throw new Error(`in-process ${op}: ${out.length} of ${orders.length} items`);
	return orders.length / secs;
}

async function main() {
	const started = Date.now();
	const sandbox = await startSandbox({ port: 0, quiet: true, verifier: 'node', latencyMs: 0 });
	const credentials = { baseUrl: `${sandbox.url}/paynet`, ...MERCHANT, privateKey: '', privateKeyPassphrase: '', endpointGroupId: '' };
	const rows = [];
	try {
		const statusPool = await seedSales(sandbox, MAX_ITEMS, 'ip');
		await runBulk(credentials, 'getStatus', statusPool.slice(0, 300), 4); // warm-up
		const prof = (process.argv.find((a) => a.startsWith('--cpu-prof-cell=')) || '').slice(16);
		for (const op of ['getStatus', 'return']) {
			for (const latency of LATENCIES) {
				for (const c of CONCURRENCY) {
					if (prof && prof !== `${op}:${latency}:${c}`) continue;
					const nominal = latency ? (c * 1000) / latency : Infinity;
					const n = Math.min(MAX_ITEMS, Math.max(MIN_ITEMS, Number.isFinite(nominal) ? Math.round(nominal * TARGET_SECS) : MAX_ITEMS));
					const rates = [];
					for (let run = 0; run < RUNS; run++) {
						const orders = op === 'getStatus' ? statusPool.slice(0, n) : await seedSales(sandbox, n, `ipr${run}`);
						sandbox.options.latencyMs = latency;
						rates.push(await runBulk(credentials, op, orders, c));
						sandbox.options.latencyMs = 0;
					}
					const row = { op, latency, c, effectiveC: Math.min(c, MAX_CONCURRENCY), items: n, nominal, rate: summary(rates), ofNominal: Number.isFinite(nominal) ? median(rates) / nominal : null };
					rows.push(row);
					log(`in-process ${op.padEnd(9)} ${String(latency).padStart(3)} ms c=${String(c).padEnd(2)} n=${String(n).padEnd(5)} ${row.rate.median.toFixed(1)}/s${row.ofNominal ? ` (${(row.ofNominal * 100).toFixed(0)} % of c/latency)` : ''}`);
				}
			}
		}
	} finally {
		await sandbox.close();
		const { Container } = require('@n8n/di');
		const { SSHClientsManager } = require('n8n-core/dist/execution-engine/ssh-clients-manager');
		Container.get(SSHClientsManager).onShutdown();
		fs.rmSync(USER_FOLDER, { recursive: true, force: true });
	}
	const result = { quick: QUICK, runs: RUNS, n8nCore: require('n8n-core/package.json').version, rows, wallSecs: (Date.now() - started) / 1000 };
	writeJson(QUICK ? 'inprocess.quick' : 'inprocess', result);
	log(`in-process done in ${result.wallSecs.toFixed(0)} s`);
}

main().catch((e) => {
	process.stderr.write(`${e.stack || e}\n`);
	process.exit(1);
});
