import { NodeOperationError, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { runSettings } from '../read/runSettings';
import { movesMoney, type OperationSpec } from '../pipeline/item';
import { optionLabel, refuseUnreadable, SAFETY_OPTIONS, storedOptions, type RunOptions } from '../read/options';
import { nodeOf } from '../read/parameters';

/** Ends every refusal of a tool call: an agent that is told nothing else tends to call again. */
export const DO_NOT_RETRY = 'refused; do not retry this call: it will be refused the same way';

/** n8n names a node used as an AI agent's tool after its type, plus "Tool". */
export function runsAsTool(ctx: IExecuteFunctions): boolean {
	return nodeOf(ctx).type.endsWith('Tool');
}

/**
 * Before a real run of an item: its own options must be readable, and an AI agent may move money
 * only when the node's "Allow AI Agents to Move Money" (read from the first item, like every
 * safety option) is on.
 */
export function guardAiAgent(
	ctx: IExecuteFunctions,
	spec: OperationSpec,
	options: RunOptions,
	itemIndex: number,
): void {
	refuseUnreadable(ctx, options, itemIndex);
	if (!runsAsTool(ctx) || !movesMoney(spec) || runSettings(ctx, itemIndex).allowAiMoneyMovement) return;
	throw new NodeOperationError(
		ctx.getNode(),
		`${spec.label} moves money, and AI agents may not run it through this tool: ${DO_NOT_RETRY}`,
		{
			itemIndex,
			description:
				'This node runs as an AI agent tool. Money-moving operations are refused unless the option "Allow AI Agents to Move Money" is on. Turn it on only if the agent\'s inputs are trusted.',
		},
	);
}

/** How n8n lets the model fill a parameter: `$fromAI(…)` anywhere in its stored value, in any spelling. */
const FILLED_BY_MODEL = /\$fromai/i;

/**
 * As an AI agent's tool, the safety options must come from the saved node. One that holds
 * `$fromAI(…)` is filled by the model, which could then lift its own guard (turn the AI switch on,
 * Dry Run off, a limit to nothing): the run is refused before anything is read or sent.
 */
export function guardModelFilledSafety(ctx: IExecuteFunctions, itemIndex: number): void {
	if (!runsAsTool(ctx)) return;
	const stored = storedOptions(ctx);
	const filled = SAFETY_OPTIONS.filter(
		(name) => stored[name] !== undefined && FILLED_BY_MODEL.test(JSON.stringify(stored[name])),
	);
	if (!filled.length) return;
	const names = filled.map((name) => `"${optionLabel(name)}"`).join(', ');
	throw new NodeOperationError(
		ctx.getNode(),
		`The AI model fills the safety option ${names} of this tool, so it could lift its own guard: ${DO_NOT_RETRY}`,
		{
			itemIndex,
			description: `As an AI agent tool, this node takes its safety options (${SAFETY_OPTIONS.map(optionLabel).join(', ')}) from the node as saved, never from the model. Replace $fromAI() in ${names} with a fixed value.`,
		},
	);
}

const NODE_NAME = 'Card Gateway';

/**
 * The "Tool Description" of one operation, shown only when the node is used as a tool: what the
 * agent's model reads about the tool. n8n adds its own (the action, or the node's description)
 * unless the node has one; ours follows the safety options of a money-moving operation, so that
 * the model reads whether a call will be refused, rehearsed or run. n8n (2.41 and later) resolves
 * the expression when it hands the tool to the agent; `$parameter` there gives the options as
 * saved, expressions unresolved.
 */
export function toolDescriptionProperty(
	resource: string,
	operation: string,
	action: string,
	money: boolean,
): INodeProperties {
	const it = `${action} in ${NODE_NAME}`;
	const texts = {
		runs: `${it}. It moves real money.`,
		rehearses: `${it}, as a rehearsal only (Dry Run is on): nothing that moves money is sent; the reply says what a real run would do.`,
		refused: `${it}: refused for AI agents, this node does not allow them to move money. Do not call this tool for it: every call is refused the same way.`,
		modelFilled: `${it}: refused, the model may not fill the safety options of this tool. Do not call this tool: every call is refused the same way.`,
	};
	const quoted = (text: string) => JSON.stringify(text);
	// Mirrors guardModelFilledSafety and the switch readers of options.ts; '$from' + 'ai' keeps n8n
	// from taking this default for a parameter the model fills.
	const expression =
		'={{ ((o) => JSON.stringify([o.allowAiMoneyMovement, o.approvedPlanId, o.dryRun, o.maxAmountPerItem, o.maxTotalPerRun]).toLowerCase().includes("$from" + "ai") ? ' +
		`${quoted(texts.modelFilled)} : ["true", "1", "yes"].includes(String(o.dryRun).trim().toLowerCase()) ? ${quoted(texts.rehearses)} : ` +
		`String(o.allowAiMoneyMovement).trim().toLowerCase() === "true" ? ${quoted(texts.runs)} : ${quoted(texts.refused)})($parameter.options ?? {}) }}`;
	const byDefault = money ? expression : it;
	return {
		displayName: 'Tool Description',
		name: 'toolDescription',
		type: 'string',
		typeOptions: { rows: 3 },
		default: byDefault,
		placeholder: `e.g. ${action} for the order the customer confirmed`,
		description: money
			? 'What the AI agent reads about this tool. By default it says whether a call is refused, rehearsed (Dry Run) or run, following the options of this node.'
			: 'What the AI agent reads about this tool',
		displayOptions: { show: { '@tool': [true], resource: [resource], operation: [operation] } },
	};
}

// n8n's "Retry On Fail" re-runs the whole request after any error, including "the reply was lost":
// a generated order id would then charge again, and a repeated refund or capture moves money twice.
export function guardRetryOnFail(ctx: IExecuteFunctions, spec: OperationSpec, itemIndex: number): void {
	if (!nodeOf(ctx).retryOnFail || !movesMoney(spec)) return;
	throw new NodeOperationError(
		ctx.getNode(),
		`${spec.label} moves money and must not run with the node setting "Retry On Fail"`,
		{
			itemIndex,
			description:
				'Turn off Settings → Retry On Fail for this node. The node already recovers lost replies safely: it asks the gateway for the order status and resends only when the gateway has no such order.',
		},
	);
}
