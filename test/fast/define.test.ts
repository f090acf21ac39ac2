// Stage define/ alone: the Tool Description of a money-moving operation is an n8n expression that copies
// the option reader (read/options.ts) and the $fromAI guard (read/asTool.ts) from their declarations.
// Here the copy, evaluated by n8n-workflow's expression engine, and the readers must agree on every
// spelling of the options it looks at.
import {
	Workflow,
	type IDataObject,
	type INode,
	type INodeType,
	type INodeTypes,
	type NodeParameterValue,
} from 'n8n-workflow';

import { toolDescriptionProperty } from '../../nodes/CardGateway/actions/common/define/toolDescription';
import { filledByModel } from '../../nodes/CardGateway/actions/common/read/asTool';
import { optionsCollection, runOptions, SAFETY_OPTIONS } from '../../nodes/CardGateway/actions/common/read/options';

const ACTION = 'Charge a card';
const expression = toolDescriptionProperty('payment', 'sale', ACTION, true).default as string;

/** What the model reads with these options saved in the node (n8n resolves `$parameter` to the saved node). */
function modelReads(options: IDataObject): string {
	const node: INode = {
		id: 't',
		name: 'Card Gateway',
		type: 'test.tool',
		typeVersion: 1,
		position: [0, 0],
		parameters: { options } as INode['parameters'],
	};
	// `$parameter` gives the parameters the node's type declares: the options collection as the node offers it.
	const properties = [
		optionsCollection({ movesMoney: true, waitable: true, schemeChoice: true, defaultScheme: 'control' }),
	];
	const type = { description: { properties } } as unknown as INodeType;
	const nodeTypes: INodeTypes = {
		getByName: () => type,
		getByNameAndVersion: () => type,
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({ id: 'w', nodes: [node], connections: {}, active: false, nodeTypes });
	return String(workflow.expression.getParameterValue(expression, null, 0, 0, node.name, [], 'internal', {}));
}

/** Which of the four texts the model reads. */
function verdict(text: string): 'modelFilled' | 'rehearses' | 'runs' | 'refused' {
	if (text.includes('the model may not fill')) return 'modelFilled';
	if (text.includes('as a rehearsal only')) return 'rehearses';
	if (text.endsWith('It moves real money.')) return 'runs';
	expect(text).toContain('refused for AI agents');
	return 'refused';
}

// Spelled here, not taken from read/options.ts: a second opinion on what a user may type or an expression give.
const SPELLINGS: Array<NodeParameterValue | undefined> = [
	undefined,
	true,
	false,
	1,
	0,
	2,
	'true',
	'TRUE',
	' True ',
	'1',
	'yes',
	'YES',
	'false',
	'FALSE',
	'0',
	'no',
	' No ',
	'on',
	'maybe',
	'',
];

describe('the Tool Description agrees with the option reader', () => {
	const cases = SPELLINGS.flatMap((dryRun) => SPELLINGS.map((allow) => [dryRun, allow] as const));

	test(`Dry Run × Allow AI Agents to Move Money, ${cases.length} spellings: the text says what the run does`, () => {
		let stopped = 0;
		for (const [dryRun, allowAiMoneyMovement] of cases) {
			const saved: IDataObject = {};
			if (dryRun !== undefined) saved.dryRun = dryRun;
			if (allowAiMoneyMovement !== undefined) saved.allowAiMoneyMovement = allowAiMoneyMovement;
			const read = runOptions(saved, saved);
			// A switch that cannot be read stops the run itself; the text then follows the other switch, but never
			// reads an AI switch that cannot be read as on.
			if (read.unreadable.length) {
				stopped++;
				const aiUnreadable = read.unreadable.some((error) => error.field === 'Allow AI Agents to Move Money');
				if (aiUnreadable) expect([saved, verdict(modelReads(saved))]).not.toEqual([saved, 'runs']);
				continue;
			}
			const expected = read.dryRun ? 'rehearses' : read.allowAiMoneyMovement ? 'runs' : 'refused';
			expect([JSON.stringify(saved), verdict(modelReads(saved))]).toEqual([JSON.stringify(saved), expected]);
		}
		// both halves were exercised
		expect(stopped).toBeGreaterThan(0);
		expect(stopped).toBeLessThan(cases.length);
	});

	test.each(
		SAFETY_OPTIONS.flatMap((name) =>
			["={{ $fromAI('x') }}", "={{ $FROMAI('x', '', 'string') }}"].map((value) => [name, value]),
		),
	)('"%s" filled with %s: refused as the guard refuses it', (name, value) => {
		const saved = { allowAiMoneyMovement: true, [name]: value };
		expect(filledByModel(saved[name])).toBe(true);
		expect(verdict(modelReads(saved))).toBe('modelFilled');
	});

	test('$fromAI in an option that is not a safety option is not refused by the text', () => {
		const saved = { allowAiMoneyMovement: true, timeoutSeconds: "={{ $fromAI('timeout') }}" };
		expect(SAFETY_OPTIONS).not.toContain('timeoutSeconds');
		expect(verdict(modelReads(saved))).toBe('runs');
	});

	test('the expression holds no literal $fromAI, so n8n does not take the default for one the model fills', () => {
		expect(expression.toLowerCase()).not.toContain('$fromai');
		expect(expression).toContain(ACTION);
	});
});
