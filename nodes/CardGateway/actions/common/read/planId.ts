// How an approval plan's ID is spelled: what "Approved Plan ID" must look like.

export const NONCE_LETTERS = 16;

export const DIGEST_LETTERS = 24;

export const PLAN_ID_PATTERN = new RegExp(`^plan-([a-z]{${NONCE_LETTERS}})-[a-z]{${DIGEST_LETTERS}}$`);

/** Plan IDs of the node before issue 30 ("plan-" and 32 hex digits): deterministic, bound to masked values. */
const EARLIER_PLAN_ID = /^plan-[0-9a-f]{32}$/;

/** How "Approved Plan ID" should look, for its error: an earlier version's plan ID is named as such. */
export function planIdHint(text: string | undefined): string {
	if (text !== undefined && EARLIER_PLAN_ID.test(text))
		return 'it is a plan ID of an earlier version of the node, which binds neither the order IDs it generates nor full card and account numbers, so it cannot run now. Rehearse again (Dry Run) and have the new plan ID approved';
	return 'use the planId of a dry run of these items: "plan-", 16 letters, "-" and 24 letters';
}
