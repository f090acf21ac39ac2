import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

import type { ReadMany } from '../core/operation';

/**
 * A read over many records runs once for all items and reads its parameters at item 0 (all but those
 * it reads for every item); a parameter whose expression gives another item something else would be
 * silently ignored, so it stops the run, nothing sent.
 */
export function sameForEveryItem(ctx: IExecuteFunctions, read: ReadMany): void {
	const items = ctx.getInputData().length;
	const { parameters } = ctx.getNode();
	// Only an expression (a string starting with "=") can differ between items.
	const varying = read.parameters.filter(
		(property) => !read.perItem?.includes(property.name) && /"=/.test(JSON.stringify(parameters[property.name] ?? '')),
	);
	for (const property of varying) {
		const first = JSON.stringify(ctx.getNodeParameter(property.name, 0, property.default));
		for (let itemIndex = 1; itemIndex < items; itemIndex++) {
			const value = JSON.stringify(ctx.getNodeParameter(property.name, itemIndex, property.default));
			if (value === first) continue;
			throw new NodeOperationError(
				ctx.getNode(),
				`"${property.displayName}" differs between input items (item 1: ${first.slice(0, 60)}, item ${itemIndex + 1}: ${value.slice(0, 60)}), but this operation runs once for all items`,
				{
					itemIndex,
					description: `It reads ${read.readsOnce} for the whole run, with the first item's parameters. Give it one item, or the same value for every item.`,
				},
			);
		}
	}
}
