import { maskSensitive, maskText } from '../../../../shared/protocol/masking';

/** Errors must not carry card data or secrets either (messages are built without them; this is the net). */
export function scrub(error: Error, secrets: readonly string[]): Error {
	const target = error as Error & { description?: unknown; node?: { parameters?: unknown } };
	// n8n errors carry the node, parameters included: a card number typed into the workflow
	// would otherwise land in the execution log with the error.
	if (target.node?.parameters)
		target.node = { ...target.node, parameters: maskSensitive(target.node.parameters, secrets) };
	target.message = maskText(String(target.message ?? ''), secrets);
	if (typeof target.description === 'string') target.description = maskText(target.description, secrets);
	if (typeof target.stack === 'string') target.stack = maskText(target.stack, secrets);
	return target;
}
