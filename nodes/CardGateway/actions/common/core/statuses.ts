// The status words of an order, spelled once: which are final, and when the customer is at 3-D Secure.
import { replyRecord, type GatewayReply } from '../../../../shared/protocol/reply';

/** Statuses after which an order no longer changes by itself. */
export const FINAL_STATUSES: ReadonlySet<string> = new Set(['approved', 'declined', 'filtered', 'error', 'unknown']);

export function isFinal(reply: GatewayReply): boolean {
	return FINAL_STATUSES.has(replyRecord(reply).status ?? '');
}

/** The order waits for the customer at the issuer's 3-D Secure page. */
export function needsThreeDSecure(reply: GatewayReply): boolean {
	// `redirect-to` only: `redirect-url` is where a hosted form lives, not the issuer's 3-D Secure page.
	const { fields } = reply;
	return !isFinal(reply) && !!(replyRecord(reply).html || fields['redirect-to']);
}
