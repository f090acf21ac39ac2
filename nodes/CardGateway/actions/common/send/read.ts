import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

import { signedRequest, type SignedCall, type SignedOutcome } from '../../../../shared/transport';

/** A read's answer, unparsed. */
export type ReadAnswer = Exclude<SignedOutcome, { kind: 'lost' }>;

/**
 * Sends one signed read-only request (a report window, a balance); a reply that never came is the
 * read's error, saying what could not be read and that the read moves no money (`readsOnly`).
 */
export async function readAnswer(
	ctx: IExecuteFunctions,
	call: SignedCall,
	what: string,
	readsOnly: string,
): Promise<ReadAnswer> {
	const outcome = await signedRequest(ctx, call);
	if (outcome.kind !== 'lost') return outcome;
	throw new NodeOperationError(ctx.getNode(), `${what} could not be read: ${outcome.what}`, {
		itemIndex: call.itemIndex,
		description: `${outcome.message}. ${readsOnly}`,
	});
}
