'use strict';
// n8n-core's real engine (WorkflowExecute) in this process, shared by the node tests
// (test/support/n8n.ts, over the TypeScript sources) and the in-process benchmark
// (bench/inprocess.js, over dist/). Credentials are handed out decrypted; the given credential class
// signs, as in n8n.
require('reflect-metadata');
const { ExecutionLifecycleHooks, WorkflowExecute } = require('n8n-core');
const { ICredentialsHelper, NodeHelpers, Workflow } = require('n8n-workflow');

const START_TYPE = 'test.start';

class Start {
	constructor() {
		this.description = {
			displayName: 'Start',
			name: 'start',
			group: ['trigger'],
			version: 1,
			description: 'Passes the input through',
			defaults: { name: 'Start' },
			inputs: [],
			outputs: ['main'],
			properties: [],
		};
	}

	async execute() {
		return [this.getInputData()];
	}
}

class FixedCredentialsHelper extends ICredentialsHelper {
	constructor(credentialType, credentials) {
		super();
		this.credentialType = credentialType;
		this.credentials = credentials;
		this.reads = 0;
	}
	getParentTypes() {
		return [];
	}
	async authenticate(credentials, typeName, requestOptions) {
		if (typeName !== this.credentialType.name) throw new Error(`unexpected credential type ${typeName}`);
		return this.credentialType.authenticate(credentials, requestOptions);
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
	async getDecrypted(_additionalData, _nodeCredentials, type) {
		// n8n reads the database and decrypts on every call: the count is what a node costs it
		this.reads++;
		const data = this.credentials[type];
		if (!data) throw new Error(`no test credentials of type ${type}`);
		return data;
	}
	async updateCredentials() {}
	async updateCredentialsOauthTokenData() {}
	getCredentialsProperties() {
		return this.credentialType.properties;
	}
}

function nodeTypesFor(types) {
	const all = { [START_TYPE]: new Start(), ...types };
	return {
		getByName: (type) => all[type],
		getByNameAndVersion: (type, version) => NodeHelpers.getVersionedNodeType(all[type], version),
		getKnownTypes: () => ({}),
	};
}

// Members the engine reads must exist; unknown ones become no-op functions.
function stub(base) {
	return new Proxy(base, { get: (target, key) => (key in target ? target[key] : () => undefined) });
}

function additionalDataFor(credentialType, credentials, hooks) {
	return stub({
		hooks,
		credentialsHelper: new FixedCredentialsHelper(credentialType, credentials),
		currentNodeParameters: undefined,
		executionId: undefined,
		encryptedRunnerIdentity: undefined,
		parentExecution: undefined,
		ssrfBridge: undefined,
		evalLlmMockHandler: undefined,
		variables: {},
		restApiUrl: 'http://localhost/rest',
		webhookBaseUrl: 'http://localhost/webhook',
		webhookWaitingBaseUrl: 'http://localhost/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost/webhook-test',
		formWaitingBaseUrl: 'http://localhost/form-waiting',
		instanceBaseUrl: 'http://localhost/',
	});
}

function chain(names) {
	const connections = {};
	for (let i = 0; i < names.length - 1; i++)
		connections[names[i]] = { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] };
	return connections;
}

let executions = 0;

/** `Start → nodes…` as n8n-core's Workflow; without `connections`, the nodes run in a chain. */
function workflowOf({ nodeTypes, nodes, connections, id = 'test-workflow', name }) {
	const all = [
		{ id: 'start', name: 'Start', type: START_TYPE, typeVersion: 1, position: [0, 0], parameters: {} },
		...nodes.map((node, index) => ({ typeVersion: 1, ...node, id: `n${index}`, position: [200 * (index + 1), 0] })),
	];
	return new Workflow({
		id,
		name,
		nodes: all,
		connections: connections ?? chain(all.map((node) => node.name)),
		nodeTypes: nodeTypesFor(nodeTypes),
		active: false,
		settings: { executionOrder: 'v1' },
	});
}

/** The data of a new execution of `workflow`: Start receives `input` (items). */
function freshExecutionData(workflow, input) {
	return {
		startData: {},
		resultData: { runData: {} },
		executionData: {
			metadata: {},
			contextData: {},
			waitingExecution: {},
			waitingExecutionSource: null,
			nodeExecutionStack: [
				{ node: workflow.getNode('Start'), data: { main: [input ?? [{ json: {} }]] }, source: null },
			],
		},
	};
}

/**
 * What n8n 2.41's ExecutionService.retry hands to the workflow runner for a failed execution: its
 * saved data (through JSON, as n8n's database keeps it), the error removed and the errored run of
 * the last node dropped; with `current`, the stacked nodes replaced by the current workflow's
 * ("retry with currently saved workflow"). Run it with executeWorkflow in mode 'retry'.
 */
function retryExecutionData(failed, current) {
	const data = JSON.parse(JSON.stringify(failed.data));
	const { lastNodeExecuted } = data.resultData;
	if (lastNodeExecuted) {
		delete data.resultData.error;
		const nodeRunData = data.resultData.runData?.[lastNodeExecuted];
		if (nodeRunData && nodeRunData.length > 0 && nodeRunData[nodeRunData.length - 1].error !== undefined)
			nodeRunData.pop();
	}
	if (current) for (const stack of data.executionData.nodeExecutionStack) stack.node = current.getNode(stack.node.name);
	return data;
}

/**
 * One execution of `workflow` from `data` (freshExecutionData, or retryExecutionData for n8n's
 * Retry), in `mode` as n8n's workflow runner starts it ('manual', 'webhook', 'retry', …).
 */
async function executeWorkflow({ credentialType, credentials, workflow, data, mode = 'manual' }) {
	const hooks = new ExecutionLifecycleHooks(
		mode,
		`test-execution-${++executions}`,
		stub({ id: workflow.id, name: workflow.name }),
	);
	const done = new Promise((resolve) => hooks.addHandler('workflowExecuteAfter', (run) => resolve(run)));
	const additionalData = additionalDataFor(credentialType, credentials, hooks);
	await new WorkflowExecute(additionalData, mode, data).processRunExecutionData(workflow);
	return { run: await done, credentialReads: additionalData.credentialsHelper.reads };
}

/** Executes `Start → nodes…` (mode 'manual'); the first node after Start receives `input`. */
async function runWorkflow({ credentialType, nodeTypes, nodes, connections, credentials, input }) {
	const workflow = workflowOf({ nodeTypes, nodes, connections });
	const { run, credentialReads } = await executeWorkflow({
		credentialType,
		credentials,
		workflow,
		data: freshExecutionData(workflow, input),
	});
	return {
		run,
		credentialReads,
		output: (nodeName, outputIndex = 0) => run.data.resultData.runData[nodeName]?.[0]?.data?.main?.[outputIndex] ?? [],
	};
}

/** n8n-core's DI container starts an SSH client manager (a 60 s interval timer) when a node first runs. */
function stopEngineTimers() {
	const { Container } = require('@n8n/di');
	const { SSHClientsManager } = require('n8n-core/dist/execution-engine/ssh-clients-manager');
	Container.get(SSHClientsManager).onShutdown();
}

module.exports = {
	nodeTypesFor,
	additionalDataFor,
	workflowOf,
	freshExecutionData,
	retryExecutionData,
	executeWorkflow,
	runWorkflow,
	stopEngineTimers,
};
