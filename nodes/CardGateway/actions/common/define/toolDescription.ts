import type { INodeProperties } from 'n8n-workflow';

import { FILLED_BY_MODEL } from '../read/asTool';
import { SAFETY_OPTIONS, SWITCHES } from '../read/options';

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
	const byDefault = money ? optionsExpression(texts) : it;
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

/**
 * An n8n expression that picks the text the run would earn, from the options as saved: refused when the
 * model fills a safety option (read/asTool.ts), rehearsed when Dry Run is on, run when the AI switch is
 * on (read/options.ts). n8n evaluates it where no node code runs, so it is spelled from their
 * declarations here rather than calling them. A switch that cannot be read stops the run itself; the
 * text then says what its other options would do. The marker is split ('$from' + 'ai') so that n8n
 * does not take this default for a parameter the model fills.
 */
function optionsExpression(texts: Record<'runs' | 'rehearses' | 'refused' | 'modelFilled', string>): string {
	const quoted = (text: unknown) => JSON.stringify(text);
	const marker = `${quoted(FILLED_BY_MODEL.slice(0, 5))} + ${quoted(FILLED_BY_MODEL.slice(5))}`;
	const safety = `[${SAFETY_OPTIONS.map((name) => `o.${name}`).join(', ')}]`;
	const on = (name: 'dryRun' | 'allowAiMoneyMovement') =>
		`${quoted(SWITCHES[name].on)}.includes(String(o.${name}).trim().toLowerCase())`;
	return (
		`={{ ((o) => JSON.stringify(${safety}).toLowerCase().includes(${marker}) ? ${quoted(texts.modelFilled)} : ` +
		`${on('dryRun')} ? ${quoted(texts.rehearses)} : ${on('allowAiMoneyMovement')} ? ${quoted(texts.runs)} : ` +
		`${quoted(texts.refused)})($parameter.options ?? {}) }}`
	);
}
