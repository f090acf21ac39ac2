import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

import { movesMoney } from '../core/facts';
import type { OperationSpec } from '../core/operation';
import { DO_NOT_RETRY, runsAsTool } from '../read/asTool';
import { refuseUnreadable, type RunOptions } from '../read/options';
import { nodeOf } from '../read/parameters';
import { runSettings } from '../read/runSettings';

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
