// The node as an AI agent's tool: its safety options are read from the saved node, never from the model.
import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

import { optionLabel, SAFETY_OPTIONS, storedOptions } from './options';
import { nodeOf } from './parameters';

/** Ends every refusal of a tool call: an agent that is told nothing else tends to call again. */
export const DO_NOT_RETRY = 'refused; do not retry this call: it will be refused the same way';

/** n8n names a node used as an AI agent's tool after its type, plus "Tool". */
export function runsAsTool(ctx: IExecuteFunctions): boolean {
	return nodeOf(ctx).type.endsWith('Tool');
}

/** How n8n lets the model fill a parameter: `$fromAI(…)` anywhere in its stored value, in any case (compared lower-cased). */
export const FILLED_BY_MODEL = '$fromai';

/** Whether the model fills a stored option value (define/toolDescription.ts spells the same test into its expression). */
export function filledByModel(stored: unknown): boolean {
	return stored !== undefined && JSON.stringify(stored).toLowerCase().includes(FILLED_BY_MODEL);
}

/**
 * As an AI agent's tool, the safety options must come from the saved node. One that holds
 * `$fromAI(…)` is filled by the model, which could then lift its own guard (turn the AI switch on,
 * Dry Run off, a limit to nothing): the run is refused before anything is read or sent.
 */
export function guardModelFilledSafety(ctx: IExecuteFunctions, itemIndex: number): void {
	if (!runsAsTool(ctx)) return;
	const stored = storedOptions(ctx);
	const filled = SAFETY_OPTIONS.filter((name) => filledByModel(stored[name]));
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
