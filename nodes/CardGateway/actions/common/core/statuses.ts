// What the status of an order says, read from the one declaration of the status words (protocol/reply.ts):
// which are final, which refused, and when the customer is at 3-D Secure.
import { replyRecord, type GatewayReply } from '../../../../shared/protocol/reply';
import { statusesWhere, statusHas } from '../../../../shared/protocol/statusWords';

/** Statuses after which an order no longer changes by itself. */
export const FINAL_STATUSES: ReadonlySet<string> = new Set(statusesWhere('final'));

export function isFinal(reply: GatewayReply): boolean {
	return statusHas(replyRecord(reply).status, 'final');
}

/** A final status in which the gateway moved no money (declined, filtered, error). */
export function isRefusal(status: string | undefined): boolean {
	return statusHas(status, 'refused');
}

/** The order waits for the customer at the issuer's 3-D Secure page. */
export function needsThreeDSecure(reply: GatewayReply): boolean {
	// `redirect-to` only: `redirect-url` is where a hosted form lives, not the issuer's 3-D Secure page.
	const { fields } = reply;
	return !isFinal(reply) && !!(replyRecord(reply).html || fields['redirect-to']);
}
