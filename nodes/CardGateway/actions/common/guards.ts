import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

import { movesMoney, type OperationSpec } from './operation';
import type { RunOptions } from './options';
import { nodeOf } from './parameters';

export function guardAiAgent(ctx: IExecuteFunctions, spec: OperationSpec, options: RunOptions, itemIndex: number): void {
	if (!nodeOf(ctx).type.endsWith('Tool') || !movesMoney(spec) || options.allowAiMoneyMovement) return;
	throw new NodeOperationError(ctx.getNode(), `${spec.label} moves money, and AI agents may not run it through this tool`, {
		itemIndex,
		description:
			'This node runs as an AI agent tool. Money-moving operations are refused unless the option "Allow AI Agents to Move Money" is on. Turn it on only if the agent\'s inputs are trusted.',
	});
}

// n8n's "Retry On Fail" re-runs the whole request after any error, including "the reply was lost":
// a generated order id would then charge again, and a repeated refund or capture moves money twice.
export function guardRetryOnFail(ctx: IExecuteFunctions, spec: OperationSpec, itemIndex: number): void {
	if (!nodeOf(ctx).retryOnFail || !movesMoney(spec)) return;
	throw new NodeOperationError(ctx.getNode(), `${spec.label} moves money and must not run with the node setting "Retry On Fail"`, {
		itemIndex,
		description:
			'Turn off Settings → Retry On Fail for this node. The node already recovers lost replies safely: it asks the gateway for the order status and resends only when the gateway has no such order.',
	});
}

