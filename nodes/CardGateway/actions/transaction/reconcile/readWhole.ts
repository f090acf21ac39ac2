// How Reconcile fails: a gateway side not read whole stops the run, and no difference is claimed from it.
import { NodeApiError, NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

/** Every error of Reconcile says so: it compares, it moves nothing. */
const READS_ONLY = 'Reconcile reads only: it moves no money.';

const NOT_WHOLE = "The gateway's side could not be read whole: ";
const NO_CLAIM = `No differences are reported from a partial read. ${READS_ONLY}`;

/** The run stops: the gateway's side was not read whole, so no difference (and no "none") is claimed. */
export function notReadWhole(ctx: IExecuteFunctions, why: string, description?: string): Error {
	return new NodeOperationError(ctx.getNode(), `${NOT_WHOLE}${why}`, {
		itemIndex: 0,
		description: description ? `${description} ${NO_CLAIM}` : NO_CLAIM,
	});
}

/** A report that failed part-way says so: a gateway error keeps its kind, code and message. */
export function partialRead(ctx: IExecuteFunctions, error: Error): Error {
	if (error.message.startsWith(NOT_WHOLE)) return error;
	if (!(error instanceof NodeApiError || error instanceof NodeOperationError)) return notReadWhole(ctx, error.message);
	error.message = `${NOT_WHOLE}${error.message}`;
	error.description = error.description ? `${error.description} ${NO_CLAIM}` : NO_CLAIM;
	return error;
}
