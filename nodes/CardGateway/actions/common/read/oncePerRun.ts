import { NodeOperationError, type IExecuteFunctions, type INodeProperties } from 'n8n-workflow';

import { withMoneyEffect } from '../../../../shared/moneyEffect';

/**
 * An operation that runs once for all items reads its parameters at item 0; a parameter whose
 * expression gives another item something else would be silently ignored, so it stops the run.
 */
export function sameForEveryItem(ctx: IExecuteFunctions, properties: readonly INodeProperties[], reads: string): void {
	const items = ctx.getInputData().length;
	const { parameters } = ctx.getNode();
	// Only an expression (a string starting with "=") can differ between items.
	const varying = properties.filter((property) => /"=/.test(JSON.stringify(parameters[property.name] ?? '')));
	for (const property of varying) {
		const first = JSON.stringify(ctx.getNodeParameter(property.name, 0, property.default));
		for (let itemIndex = 1; itemIndex < items; itemIndex++) {
			const value = JSON.stringify(ctx.getNodeParameter(property.name, itemIndex, property.default));
			if (value === first) continue;
			throw withMoneyEffect(
				new NodeOperationError(
					ctx.getNode(),
					`"${property.displayName}" differs between input items (item 1: ${first.slice(0, 60)}, item ${itemIndex + 1}: ${value.slice(0, 60)}), but this operation runs once for all items`,
					{
						itemIndex,
						description: `It reads ${reads} for the whole run, with the first item's parameters. Give it one item, or the same value for every item.`,
					},
				),
				'notSent',
			);
		}
	}
}
