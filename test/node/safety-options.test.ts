// Safety options are read strictly (GitHub issue "Money truth by construction", findings 2 and 10):
// every spelling n8n may hand over — a boolean, text in any case, a number, what an expression gave,
// nothing at all — either reads with certainty or stops the run before anything is sent, naming the
// option. As an AI agent's tool, a safety option the model can fill ($fromAI) refuses the call.
// The sandbox's request log and ledger are the witnesses.
import {
	Workflow,
	type IDataObject,
	type INode,
	type INodeParameters,
	type INodeType,
	type INodeTypeDescription,
	type NodeParameterValue,
} from 'n8n-workflow';

import { CardGateway } from '../../nodes/CardGateway/CardGateway.node';
import { PACKAGE } from '../support/n8n';

import { PAN, cardPayment, runNode, useSandbox, type NodeRun } from '../support/harness';

const env = useSandbox();

beforeEach(() => env.sb.reset());

/** A parameter value as the workflow JSON holds it: a fixed value or an expression. */
type Spelling = [label: string, value: NodeParameterValue | NodeParameterValue[] | IDataObject];

/** What an expression gives, for each type n8n hands over unconverted. */
const EXPRESSION_UNREADABLE: Spelling[] = [
	['an expression giving undefined', '={{ undefined }}'],
	['an expression giving null', '={{ null }}'],
	['an expression giving a list', '={{ [] }}'],
	['an expression giving an object', '={{ {} }}'],
	['an expression giving an empty text', '={{ "" }}'],
];

let serial = 0;
/** A fresh merchant order ID per case, so that the ledger tells the cases apart. */
const orderId = (prefix: string) => `${prefix}-${++serial}`;

/** Gateway commands that reached the sandbox. */
const ops = async () => (await env.sb.requests()).map((request) => request.op);

/** The sale of 10.00 USD with these options. */
const sale = (id: string, options: INodeParameters) => cardPayment({ merchantOrderId: id, options });

async function expectCharged(run: NodeRun, id: string) {
	expect(run.error?.message).toBeUndefined();
	expect(run.items[0].json).toMatchObject({ client_orderid: id });
	expect((await env.sb.ledger(id)).map((entry) => `${entry.kind} ${entry.amount} ${entry.currency}`)).toEqual([
		'sale 10.00 USD',
	]);
}

async function expectRehearsed(run: NodeRun, id: string) {
	expect(run.error?.message).toBeUndefined();
	expect(run.items[0].json).toMatchObject({
		dryRun: true,
		client_orderid: id,
		wouldDo: expect.stringMatching(/^would charge 10.00 USD/),
	});
	// only the status query about the order; no sale
	expect(await ops()).toEqual(['status']);
	expect(await env.sb.ledger()).toEqual([]);
}

/** Stopped before anything was sent, by a NodeOperationError that names the option. */
async function expectStopped(run: NodeRun, option: string, because: RegExp | string = 'cannot be read') {
	expect(run.error?.name).toBe('NodeOperationError');
	expect(run.error?.message).toContain(`"${option}"`);
	expect(run.error?.message).toMatch(because);
	expect(run.error?.context?.itemIndex).toBe(0);
	expect(await env.sb.requests()).toEqual([]);
	expect(await env.sb.ledger()).toEqual([]);
}

describe('Dry Run', () => {
	const REHEARSE: Spelling[] = [
		['true', true],
		['the text "true"', 'true'],
		['the text "TRUE"', 'TRUE'],
		['the text " True " (spaces around)', ' True '],
		['1', 1],
		['the text "1"', '1'],
		['the text "yes"', 'yes'],
		['an expression giving true', '={{ true }}'],
		['an expression giving "true"', '={{ "true" }}'],
		['an expression giving 1', '={{ 1 }}'],
		['String(true)', '={{ String(true) }}'],
		['an expression giving "TRUE" from the input ($json.body.dryRun)', '={{ $json.body.dryRun }}'],
	];
	it.each(REHEARSE)('%s rehearses: no money-moving request, the ledger unchanged', async (_label, dryRun) => {
		const id = orderId('dry');
		await expectRehearsed(
			await runNode(env.sb, sale(id, { dryRun } as INodeParameters), { input: [{ body: { dryRun: 'TRUE' } }] }),
			id,
		);
	});

	const REAL: Spelling[] = [
		['false', false],
		['the text "false"', 'false'],
		['the text "FALSE"', 'FALSE'],
		['0', 0],
		['the text "0"', '0'],
		['the text "no"', 'no'],
		['an expression giving false', '={{ false }}'],
		['an expression giving "false"', '={{ "false" }}'],
		['an expression giving 0', '={{ 0 }}'],
	];
	it.each(REAL)('%s runs for real: the sale is charged', async (_label, dryRun) => {
		const id = orderId('real');
		await expectCharged(await runNode(env.sb, sale(id, { dryRun } as INodeParameters)), id);
	});

	it('not set: runs for real (the default)', async () => {
		const id = orderId('real');
		await expectCharged(await runNode(env.sb, sale(id, {})), id);
	});

	const UNREADABLE: Spelling[] = [
		['empty', ''],
		['the text "maybe"', 'maybe'],
		['the text "on"', 'on'],
		['2', 2],
		['null', null],
		...EXPRESSION_UNREADABLE,
		['an expression reading a field the input lacks', '={{ $json.body.dryRun }}'],
	];
	it.each(UNREADABLE)('%s: the run stops before anything is sent, naming "Dry Run"', async (_label, dryRun) => {
		const run = await runNode(env.sb, sale(orderId('dry-bad'), { dryRun } as INodeParameters));
		await expectStopped(run, 'Dry Run');
		expect(run.error?.description).toContain('read strictly');
	});

	it('an unreadable value that could hold a card number is shown masked, and shortened', async () => {
		const run = await runNode(
			env.sb,
			sale(orderId('dry-pan'), { dryRun: '={{ "card " + $json.pan + " " + "x".repeat(80) }}' }),
			{ input: [{ pan: PAN }] },
		);
		await expectStopped(run, 'Dry Run');
		expect(run.error?.message).toContain('444455******1111');
		expect(run.error?.message).toContain('…');
		expect(JSON.stringify(run.error)).not.toContain(PAN);
	});
});

describe('Allow AI Agents to Move Money (as an AI agent tool)', () => {
	const ON: Spelling[] = [
		['true', true],
		['the text "true"', 'true'],
		['the text "TRUE"', 'TRUE'],
		['the text " true " (spaces around)', ' true '],
		['an expression giving true', '={{ true }}'],
		['an expression giving "True"', '={{ "True" }}'],
	];
	it.each(ON)('%s lets the agent charge', async (_label, allowAiMoneyMovement) => {
		const id = orderId('ai-on');
		await expectCharged(
			await runNode(env.sb, sale(id, { allowAiMoneyMovement } as INodeParameters), { asTool: true }),
			id,
		);
	});

	const OFF: Spelling[] = [
		['false', false],
		['the text "false"', 'false'],
		['0', 0],
		['the text "0"', '0'],
		['an expression giving "false"', '={{ "false" }}'],
	];
	it.each(OFF)(
		'%s refuses the agent, telling it not to retry; nothing is sent',
		async (_label, allowAiMoneyMovement) => {
			const run = await runNode(env.sb, sale(orderId('ai-off'), { allowAiMoneyMovement } as INodeParameters), {
				asTool: true,
			});
			expect(run.error?.message).toBe(
				'Payment → Sale moves money, and AI agents may not run it through this tool: refused; do not retry this call: it will be refused the same way',
			);
			expect(await env.sb.requests()).toEqual([]);
		},
	);

	// Only an explicit true turns it on: 1 or "yes" may be an accident, and the text "false" must never.
	const UNREADABLE: Spelling[] = [
		['empty', ''],
		['the text "yes"', 'yes'],
		['1', 1],
		['the text "1"', '1'],
		['the text "maybe"', 'maybe'],
		['null', null],
		...EXPRESSION_UNREADABLE,
	];
	it.each(UNREADABLE)(
		'%s: the run stops before anything is sent, naming the option',
		async (_label, allowAiMoneyMovement) => {
			await expectStopped(
				await runNode(env.sb, sale(orderId('ai-bad'), { allowAiMoneyMovement } as INodeParameters), { asTool: true }),
				'Allow AI Agents to Move Money',
			);
		},
	);

	it('outside an agent the switch is still read strictly (it is a safety option)', async () => {
		await expectStopped(
			await runNode(env.sb, sale(orderId('ai-node'), { allowAiMoneyMovement: 'maybe' })),
			'Allow AI Agents to Move Money',
		);
	});
});

describe.each([
	['Max Amount per Item', 'maxAmountPerItem'],
	['Max Total per Run', 'maxTotalPerRun'],
])('%s', (label, name) => {
	const limit = (value: Spelling[1]) => ({ [name]: value }) as INodeParameters;

	const ABOVE: Spelling[] = [
		['the text "5.00"', '5.00'],
		['5', 5],
		['an expression giving 5', '={{ 5 }}'],
		['an expression giving "5 USD"', '={{ "5 USD" }}'],
	];
	it.each(ABOVE)('%s refuses the 10.00 sale before anything is sent', async (_label, value) => {
		const run = await runNode(env.sb, sale(orderId('lim'), limit(value)));
		expect(run.error?.message).toContain(`"${label}"`);
		expect(run.error?.message).toContain('nothing was sent');
		expect(await env.sb.requests()).toEqual([]);
	});

	const WITHIN: Spelling[] = [
		['the text "500"', '500'],
		['500 (a number: read as "500")', 500],
		['an expression giving 500', '={{ 500 }}'],
	];
	it.each(WITHIN)('%s lets the 10.00 sale through', async (_label, value) => {
		const id = orderId('lim-ok');
		await expectCharged(await runNode(env.sb, sale(id, limit(value))), id);
	});

	const UNREADABLE: Spelling[] = [
		['empty', ''],
		['spaces only', '   '],
		['false', false],
		['0', 0],
		['-5', -5],
		['null', null],
		['an expression giving false', '={{ false }}'],
		...EXPRESSION_UNREADABLE,
	];
	it.each(UNREADABLE)(
		'%s: the run stops before anything is sent ("set a limit or remove the option")',
		async (_label, value) => {
			await expectStopped(
				await runNode(env.sb, sale(orderId('lim-bad'), limit(value))),
				label,
				/set a limit .* or remove the option/,
			);
		},
	);

	it('in a dry run too: an unreadable limit stops it (the rehearsal would say "within the limits")', async () => {
		await expectStopped(
			await runNode(env.sb, sale(orderId('lim-dry'), { dryRun: true, ...limit('={{ undefined }}') })),
			label,
		);
	});
});

describe('Act Once per Key (issue 31 item 2): a key that names nothing stops the item, it never turns the guard off', () => {
	// The callback as the trigger emits it: lower-case field names.
	const CALLBACK = { orderid: 'ord-1', status: 'approved', type: 'sale' };

	const NAMES_NOTHING: Spelling[] = [
		['empty', ''],
		['spaces only', '   '],
		['a dash', '-'],
		['separators and spaces', ': :'],
		['an expression reading a field the item lacks ($json.orderId, the field is orderid)', '={{ $json.orderId }}'],
		['a template whose every field the item lacks', '={{ $json.orderId }}:{{ $json.Status }}:{{ $json.Type }}'],
		['an expression giving "::"', '={{ "::" }}'],
		...EXPRESSION_UNREADABLE,
	];
	it.each(NAMES_NOTHING)(
		'%s: the item stops before anything is sent, naming "Act Once per Key"',
		async (_label, actOncePerKey) => {
			const run = await runNode(env.sb, sale(orderId('key-bad'), { actOncePerKey } as INodeParameters), {
				input: [CALLBACK],
			});
			await expectStopped(run, 'Act Once per Key');
			expect(run.error?.description).toContain('read strictly');
		},
	);

	it('a key that names something goes on to its claim (the harness has no claims store: that stops it, no sale sent)', async () => {
		const run = await runNode(
			env.sb,
			sale(orderId('key-ok'), { actOncePerKey: '={{ $json.orderid }}:{{ $json.status }}:{{ $json.type }}' }),
			{ input: [CALLBACK] },
		);
		expect(run.error?.message).toMatch(/Claims Store API" credential: nothing was sent/);
		expect(await ops()).not.toContain('sale');
		expect(await env.sb.ledger()).toEqual([]);
	});

	it('not added: no claim, the sale is charged', async () => {
		const id = orderId('key-none');
		await expectCharged(await runNode(env.sb, sale(id, {}), { input: [CALLBACK] }), id);
	});
});

describe('the other options: text is read like the value it spells, never as the default', () => {
	it('Include Raw Reply and Wait for Final Status given as text "true" are honoured', async () => {
		const id = orderId('text-on');
		const run = await runNode(
			env.sb,
			sale(id, {
				includeRawReply: 'TRUE',
				waitForFinalStatus: '={{ "true" }}',
				pollIntervalSeconds: '0',
				maxWaitSeconds: '30',
			}),
		);
		await expectCharged(run, id);
		expect(run.items[0].json).toMatchObject({ final: true, raw: expect.objectContaining({ status: 'approved' }) });
		expect((await env.sb.actions()).map((request) => request.op)).toEqual(['sale']);
	});

	it('numbers given as text are read as numbers', async () => {
		const id = orderId('numbers');
		await expectCharged(await runNode(env.sb, sale(id, { timeoutSeconds: '20', concurrency: '={{ "2" }}' })), id);
	});

	it.each<[string, INodeParameters, string]>([
		['Include Raw Reply "maybe"', { includeRawReply: 'maybe' }, 'Include Raw Reply'],
		[
			'Wait for Final Status from an expression giving undefined',
			{ waitForFinalStatus: '={{ undefined }}' },
			'Wait for Final Status',
		],
		['Timeout "soon"', { timeoutSeconds: 'soon' }, 'Timeout (Seconds)'],
		['Timeout 0', { timeoutSeconds: 0 }, 'Timeout (Seconds)'],
		['Concurrency as a list', { concurrency: '={{ [2] }}' }, 'Concurrency'],
		['Endpoint ID as an object', { endpointId: '={{ { id: 1001 } }}' }, 'Endpoint ID'],
	])('%s stops the run before anything is sent, naming the option', async (_label, options, option) => {
		await expectStopped(await runNode(env.sb, sale(orderId('other-bad'), options)), option);
	});

	it('an unreadable option of a later item stops that item before it sends (the first item ran)', async () => {
		const first = orderId('per-item');
		const run = await runNode(
			env.sb,
			cardPayment({ merchantOrderId: '={{ $json.id }}', options: { includeRawReply: '={{ $json.raw }}' } }),
			{
				input: [
					{ id: first, raw: 'false' },
					{ id: orderId('per-item'), raw: 'sometimes' },
				],
			},
		);
		expect(run.error?.message).toContain('"Include Raw Reply" cannot be read: it is the text "sometimes"');
		expect((await env.sb.ledger()).map((entry) => entry.client_orderid)).toEqual([first]);
	});
});

describe('as an AI agent tool, safety options come from the saved node, never from the model', () => {
	// What the model would answer for each $fromAI key: every one lifts a guard.
	const MODEL = { allow: true, dry: false, limit: '', total: '' };
	const FILLED: Array<[string, INodeParameters]> = [
		[
			'Allow AI Agents to Move Money',
			{ allowAiMoneyMovement: "={{ $fromAI('allow', 'May the agent move money?', 'boolean') }}" },
		],
		['Dry Run', { allowAiMoneyMovement: true, dryRun: "={{ $FROMAI ( 'dry' ) }}" }],
		['Max Amount per Item', { allowAiMoneyMovement: true, maxAmountPerItem: "={{ $fromai('limit') || '' }}" }],
		['Max Total per Run', { allowAiMoneyMovement: true, maxTotalPerRun: '={{ $fromAI("total", "", "string") }}' }],
	];
	it.each(FILLED)(
		'"%s" filled with $fromAI: refused, telling the agent not to retry; nothing is sent',
		async (option, options) => {
			const run = await runNode(env.sb, sale(orderId('from-ai'), options), { asTool: true, input: [MODEL] });
			expect(run.error?.name).toBe('NodeOperationError');
			expect(run.error?.message).toBe(
				`The AI model fills the safety option "${option}" of this tool, so it could lift its own guard: refused; do not retry this call: it will be refused the same way`,
			);
			expect(run.error?.description).toContain(`Replace $fromAI() in "${option}"`);
			expect(await env.sb.requests()).toEqual([]);
			expect(await env.sb.ledger()).toEqual([]);
		},
	);

	it('a dry run the model could switch is refused as well', async () => {
		const run = await runNode(
			env.sb,
			sale(orderId('from-ai-dry'), { dryRun: "={{ $fromAI('dry', '', 'boolean') }}" }),
			{ asTool: true, input: [{ dry: true }] },
		);
		expect(run.error?.message).toContain('"Dry Run" of this tool');
		expect(await env.sb.requests()).toEqual([]);
	});

	it('outside an agent $fromAI reads the input item, and the options are read as usual', async () => {
		const id = orderId('from-ai-node');
		await expectCharged(
			await runNode(env.sb, sale(id, { dryRun: "={{ $fromAI('dry', '', 'boolean') }}" }), {
				input: [{ dry: 'false' }],
			}),
			id,
		);
	});

	it('$fromAI in an option that is not a safety option does not refuse the call', async () => {
		const id = orderId('from-ai-other');
		await expectCharged(
			await runNode(
				env.sb,
				sale(id, { allowAiMoneyMovement: true, timeoutSeconds: "={{ $fromAI('timeout', '', 'number') }}" }),
				{ asTool: true, input: [{ timeout: 20 }] },
			),
			id,
		);
	});
});

describe('what the model reads: the tool description of a money-moving operation follows its options', () => {
	const gateway = new CardGateway();
	// n8n makes the tool variant of a usableAsTool node by renaming its type "…Tool" (convertNodeToAiTool);
	// the "@tool" display condition then shows our Tool Description, which n8n resolves when it hands the
	// tool to the agent (test/e2e/safety-options.e2e.test.ts does the same with n8n 2.41's own code).
	const toolDescription: INodeTypeDescription = {
		...gateway.description,
		name: `${gateway.description.name}Tool`,
		inputs: [],
		outputs: ['ai_tool'],
	};
	const toolType = { description: toolDescription, execute: gateway.execute } as INodeType;
	const nodeTypes = { getByName: () => toolType, getByNameAndVersion: () => toolType, getKnownTypes: () => ({}) };

	/** What the agent's model reads about this node as a tool. */
	function modelReads(parameters: INodeParameters): string {
		const node: INode = {
			id: 't',
			name: 'Card Gateway',
			type: `${PACKAGE}.cardGatewayTool`,
			typeVersion: 1,
			position: [0, 0],
			parameters,
		};
		const workflow = new Workflow({ id: 'tool', nodes: [node], connections: {}, active: false, nodeTypes });
		const filled = workflow.getNode('Card Gateway')!;
		return String(
			workflow.expression.getParameterValue(
				filled.parameters.toolDescription as string,
				null,
				0,
				0,
				filled.name,
				[],
				'internal',
				{},
			),
		);
	}

	it.each<[string, INodeParameters, RegExp]>([
		[
			'the AI switch off (the default)',
			{},
			/^Charge a card in Card Gateway: refused for AI agents, .* Do not call this tool for it: every call is refused the same way\.$/,
		],
		['the AI switch off as text', { allowAiMoneyMovement: 'false' }, /: refused for AI agents/],
		['the AI switch on', { allowAiMoneyMovement: true }, /^Charge a card in Card Gateway\. It moves real money\.$/],
		[
			'the AI switch on as text',
			{ allowAiMoneyMovement: ' TRUE ' },
			/^Charge a card in Card Gateway\. It moves real money\.$/,
		],
		[
			'Dry Run on',
			{ dryRun: 'yes' },
			/^Charge a card in Card Gateway, as a rehearsal only \(Dry Run is on\): nothing that moves money is sent/,
		],
		[
			'the switch filled by the model',
			{ allowAiMoneyMovement: "={{ $fromAI('allow', '', 'boolean') }}" },
			/: refused, the model may not fill the safety options of this tool\. Do not call this tool/,
		],
		[
			'a limit filled by the model',
			{ allowAiMoneyMovement: true, maxAmountPerItem: "={{ $fromAI('limit') }}" },
			/: refused, the model may not fill/,
		],
	])('%s', (_label, options, reads) => {
		expect(modelReads(cardPayment({ options }))).toMatch(reads);
	});

	it('a read-only operation reads as its action', () => {
		expect(modelReads({ resource: 'transaction', operation: 'getStatus', merchantOrderId: 'x' })).toBe(
			'Get the status of a transaction in Card Gateway',
		);
	});

	it('the node outside an agent has no Tool Description', () => {
		const node: INode = {
			id: 'n',
			name: 'Card Gateway',
			type: `${PACKAGE}.cardGateway`,
			typeVersion: 1,
			position: [0, 0],
			parameters: cardPayment(),
		};
		const plainType = { description: gateway.description, execute: gateway.execute } as INodeType;
		const workflow = new Workflow({
			id: 'node',
			nodes: [node],
			connections: {},
			active: false,
			nodeTypes: { getByName: () => plainType, getByNameAndVersion: () => plainType, getKnownTypes: () => ({}) },
		});
		expect(workflow.getNode('Card Gateway')!.parameters.toolDescription).toBeUndefined();
	});
});
