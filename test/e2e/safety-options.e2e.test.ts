// Safety options in a real n8n (the pinned 2.41.1 runtime, our package installed as a community
// package), where nothing converts a parameter to its declared type: Dry Run saved as the text
// "true", given by an expression as "TRUE" or 1, saved as the number 1, and a spending limit whose
// expression gives nothing. One manual workflow runs them in a row with `n8n execute` (no server is
// started); the sandbox's ledger and request log say what reached the gateway. The last test builds
// the tool an AI agent gets from the node with n8n 2.41's own code, and reads its description.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { CREDENTIAL, MERCHANT, PRIVATE_KEY } from '../support/e2e-environment';
import { scaled } from '../support/time-scale';

const { N8nInstance, ensureRuntime, packPackage, REPO } = require('../../e2e/n8n');
const { startSandbox } = require('../../sandbox');

const PORT = 5750;
const WORKFLOW_ID = 'e2eSafetyOptions1';
const SALE_NODE = 'n8n-nodes-card-gateway.cardGateway';
const CARD = {
	cardNumber: '4444555566661111',
	expireMonth: '12',
	expireYear: '2035',
	cvv: '123',
	cardholderName: 'JOHN SMITH',
};
const CUSTOMER = {
	email: 'john@example.com',
	phone: '+12065550100',
	ipAddress: '203.0.113.7',
	address: '1 Main St',
	city: 'Springfield',
	zipCode: '12345',
	country: 'US',
};

type Json = Record<string, unknown>;
interface Run {
	status: string;
	data: {
		resultData: {
			error?: { message: string; description?: string };
			lastNodeExecuted?: string;
			runData: Record<string, Array<{ data?: { main: Array<Array<{ json: Json }> | null> } }>>;
		};
	};
}

/** Each Card Gateway node of the workflow: its name, the order it sells and its options as saved. */
const SALES: Array<{ name: string; order: string; options: Json }> = [
	{ name: 'Dry Run saved as the text "true"', order: 'safe-text', options: { dryRun: 'true' } },
	{
		name: 'Dry Run from an expression giving "TRUE"',
		order: 'safe-expression',
		options: { dryRun: "={{ $('Input').first().json.dryRunText }}" },
	},
	{
		name: 'Dry Run from an expression giving 1',
		order: 'safe-one',
		options: { dryRun: "={{ $('Input').first().json.one }}" },
	},
	{ name: 'Dry Run saved as the number 1', order: 'safe-number', options: { dryRun: 1 } },
	{
		name: 'Limit from an expression giving undefined',
		order: 'safe-limit',
		options: { maxAmountPerItem: "={{ $('Input').first().json.noSuchField }}" },
	},
];

function workflow(): Json {
	const assignment = (name: string, value: string | number, type: string) => ({
		id: `5afe0000-0000-4000-8000-${name.padStart(12, '0').slice(-12)}`,
		name,
		value,
		type,
	});
	const nodes: Json[] = [
		{
			id: '5afe0001-0000-4000-8000-000000000001',
			name: 'Run',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: '5afe0001-0000-4000-8000-000000000002',
			name: 'Input',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [200, 0],
			parameters: {
				assignments: { assignments: [assignment('dryRunText', 'TRUE', 'string'), assignment('one', 1, 'number')] },
				options: {},
			},
		},
		...SALES.map((sale, index) => ({
			id: `5afe0001-0000-4000-8000-00000000010${index}`,
			name: sale.name,
			type: SALE_NODE,
			typeVersion: 1,
			position: [400 + 200 * index, 0],
			parameters: {
				resource: 'payment',
				operation: 'sale',
				merchantOrderId: sale.order,
				orderDescription: 'Safety options',
				amount: '900.00',
				currency: 'USD',
				...CARD,
				...CUSTOMER,
				redirectUrl: 'https://shop.example.com/return',
				options: sale.options,
			},
			credentials: { cardGatewayApi: CREDENTIAL },
		})),
	];
	const chain = ['Run', 'Input', ...SALES.map((sale) => sale.name)];
	const connections = Object.fromEntries(
		chain.slice(0, -1).map((from, index) => [from, { main: [[{ node: chain[index + 1], type: 'main', index: 0 }]] }]),
	);
	return {
		id: WORKFLOW_ID,
		name: 'E2E safety options',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes,
		connections,
	};
}

let n8n: InstanceType<typeof N8nInstance>;
let sandbox: { url: string; close(): Promise<void> };
let userFolder: string;

beforeAll(
	async () => {
		const runtime: string = await ensureRuntime();
		userFolder = mkdtempSync(join(tmpdir(), 'n8n-card-gateway-safety-'));
		sandbox = await startSandbox({ port: 0, quiet: true, verifier: 'node' });
		n8n = new N8nInstance({ runtime, userFolder, port: PORT });
		await n8n.installPackage(await packPackage(userFolder));
		await n8n.importCredentials([
			{
				...CREDENTIAL,
				type: 'cardGatewayApi',
				data: {
					baseUrl: `${sandbox.url}/paynet`,
					...MERCHANT,
					privateKey: PRIVATE_KEY,
					privateKeyPassphrase: '',
					endpointId: '1001',
					endpointGroupId: '',
				},
			},
		]);
		await n8n.importWorkflows([workflow()]);
	},
	scaled(15 * 60_000),
);
afterAll(async () => {
	await sandbox?.close();
	if (userFolder) rmSync(userFolder, { recursive: true, force: true });
	await require('undici').getGlobalDispatcher().close();
}, scaled(60_000));
async function sandboxAdmin<T>(route: string): Promise<T> {
	return (await (await fetch(`${sandbox.url}/sandbox/${route}`)).json()) as T;
}

/** Runs the workflow once with `n8n execute`; a run that fails prints its IRun too, among its log lines. */
async function execute(): Promise<Run> {
	const stdout: string = await n8n.cli(['execute', `--id=${WORKFLOW_ID}`, '--rawOutput']).then(
		(result: { stdout: string }) => result.stdout,
		(error: { stdout?: string }) => error.stdout ?? '',
	);
	const runs = String(stdout)
		.split('\n')
		.map((line) => {
			try {
				const message = (JSON.parse(line) as { message?: unknown }).message;
				return typeof message === 'string' && message.startsWith('{') ? (JSON.parse(message) as Run) : undefined;
			} catch {
				return undefined; // not a log line, or a message that is not an IRun
			}
		})
		.filter((run): run is Run => !!run?.data?.resultData);
	if (runs.length !== 1) throw new Error(`n8n execute printed no run:\n${stdout}`);
	return runs[0];
}

test(
	'Dry Run as text "true", as "TRUE" or 1 from an expression, as the number 1: rehearsed, nothing charged; a limit giving undefined stops the run, naming it',
	async () => {
		const run = await execute();
		for (const sale of SALES.slice(0, 4)) {
			const [item] = run.data.resultData.runData[sale.name]?.[0]?.data?.main[0] ?? [];
			expect([sale.name, item?.json]).toEqual([
				sale.name,
				expect.objectContaining({
					dryRun: true,
					client_orderid: sale.order,
					wouldDo: expect.stringMatching(/^would charge 900.00 USD/),
				}),
			]);
		}
		expect(run.status).toBe('error');
		expect(run.data.resultData.lastNodeExecuted).toBe('Limit from an expression giving undefined');
		expect(run.data.resultData.error?.message).toMatch(
			/^"Max Amount per Item" cannot be read: it is nothing \(undefined\); set a limit .* or remove the option; nothing was sent$/,
		);

		const { entries } = await sandboxAdmin<{ entries: unknown[] }>('ledger');
		expect(entries).toEqual([]);
		const { requests } = await sandboxAdmin<{ requests: Array<{ op: string; client_orderid?: string }> }>('requests');
		const gateway = requests.filter((request) => request.op !== 'sandbox');
		// the rehearsals asked whether their order IDs are known; nothing else reached the gateway
		expect(gateway.map((request) => `${request.op} ${request.client_orderid}`).sort()).toEqual(
			SALES.slice(0, 4)
				.map((sale) => `status ${sale.order}`)
				.sort(),
		);
	},
	scaled(5 * 60_000),
);

test("what an AI agent's model reads about the node as a tool, built by n8n 2.41's own code: refused, run or rehearsed as the options say", () => {
	const runtime = join(n8n.runtime, 'n8n/node_modules');
	const { convertNodeToAiTool } = require(join(runtime, 'n8n/dist/tool-generation/ai-tools.js'));
	const { createNodeAsTool } = require(
		join(runtime, 'n8n-core/dist/execution-engine/node-execution-context/utils/create-node-as-tool.js'),
	);
	const { Workflow } = require(join(runtime, 'n8n-workflow'));
	const { CardGateway } = require(join(REPO, 'dist/nodes/CardGateway/CardGateway.node.js'));
	// as n8n's NodeTypes.getByNameAndVersion makes the "…Tool" type of a usableAsTool node
	const base = new CardGateway();
	const description = Object.create(base.description, {
		properties: { value: Object.create(base.description.properties), writable: false },
	});
	const tool = convertNodeToAiTool(Object.create(base, { description: { value: description } }));
	const nodeTypes = { getByName: () => tool, getByNameAndVersion: () => tool, getKnownTypes: () => ({}) };

	const modelReads = (options: Json) => {
		const parameters = { resource: 'payment', operation: 'sale', options };
		const workflow = new Workflow({
			id: 'agent',
			nodes: [
				{ id: 't', name: 'Card Gateway', type: `${SALE_NODE}Tool`, typeVersion: 1, position: [0, 0], parameters },
			],
			connections: {},
			active: false,
			nodeTypes,
		});
		const node = workflow.getNode('Card Gateway');
		// the agent's context resolves the tool's parameters (here: no input data)
		const context = {
			getNodeParameter: (name: string, itemIndex: number, fallback: unknown) =>
				workflow.expression.getParameterValue(
					node.parameters[name] ?? fallback,
					null,
					0,
					itemIndex,
					node.name,
					[{ json: {} }],
					'internal',
					{},
				),
		};
		const { response } = createNodeAsTool({
			node,
			nodeType: tool,
			handleToolInvocation: async () => '',
			context,
			itemIndex: 0,
		});
		return { description: response.description as string, inputs: Object.keys(response.schema.shape) };
	};

	expect(modelReads({})).toEqual({
		description: expect.stringMatching(
			/^Charge a card in Card Gateway: refused for AI agents, .* every call is refused the same way\.$/,
		),
		inputs: [],
	});
	expect(modelReads({ allowAiMoneyMovement: 'false' }).description).toContain(': refused for AI agents');
	expect(modelReads({ allowAiMoneyMovement: true }).description).toBe(
		'Charge a card in Card Gateway. It moves real money.',
	);
	expect(modelReads({ dryRun: 'TRUE' }).description).toMatch(
		/^Charge a card in Card Gateway, as a rehearsal only \(Dry Run is on\)/,
	);
	// n8n still offers the model the input; the description (and the node, when called) refuse it
	expect(
		modelReads({ allowAiMoneyMovement: "={{ $fromAI('allow', 'May the agent move money?', 'boolean') }}" }),
	).toEqual({
		description: expect.stringMatching(
			/: refused, the model may not fill the safety options of this tool\. Do not call this tool/,
		),
		inputs: ['allow'],
	});
});
