import type { INodeProperties } from 'n8n-workflow';

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
	// Mirrors guardModelFilledSafety and the switch readers of read/options.ts; '$from' + 'ai' keeps n8n
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
