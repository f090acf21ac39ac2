// Status and transaction-type filters. An event that does not pass is still acknowledged (HTTP 200)
// but starts no execution.
import type { INodePropertyOptions } from 'n8n-workflow';

import { normaliseStatus, typeKey } from './normalise';

export const STATUS_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Approved', value: 'approved', description: 'Final: the payment or payout went through' },
	{ name: 'Declined', value: 'declined', description: 'Final: the issuer or the gateway refused it' },
	{ name: 'Error', value: 'error', description: 'Final: declined because something went wrong' },
	{ name: 'Filtered', value: 'filtered', description: 'Final: refused by fraud control' },
	{ name: 'Processing', value: 'processing', description: 'Not final yet' },
	{ name: 'Unknown', value: 'unknown', description: 'The acquirer did not answer; ask the gateway later' },
];

export const ANY_TYPE = 'any';

/**
 * A transaction type a callback reports: the gateway's name (`value`, compared without case or
 * separators), the words ops people use for it (`name`, searchable in the editor), and the plain
 * word every item carries as `kind` (an IF on `kind` = `refund` matches the gateway's `reversal`).
 */
interface TransactionTypeEntry {
	value: string;
	name: string;
	kind: string;
	description?: string;
}

const TRANSACTION_TYPES: readonly TransactionTypeEntry[] = [
	{
		value: 'accountVerification',
		name: 'Card Check (Account Verification)',
		kind: 'cardCheck',
		description: 'A zero-amount check that the card is valid; no money moves',
	},
	{
		value: 'cancel',
		name: 'Hold Released (Cancel)',
		kind: 'holdReleased',
		description: 'The whole hold of a preauth released; sent to a notify_url only',
	},
	{
		value: 'capture',
		name: 'Hold Captured (Capture)',
		kind: 'capture',
		description: 'All or part of a preauth hold charged; sent to a notify_url only',
	},
	{
		value: 'chargeback',
		name: 'Chargeback (Dispute)',
		kind: 'chargeback',
		description: 'The cardholder’s bank took the money back; sent to a notify_url only',
	},
	{ value: 'fraud', name: 'Fraud Report', kind: 'fraud' },
	{
		value: 'panEligibility',
		name: 'PAN Eligibility Check',
		kind: 'eligibilityCheck',
		description: 'Whether a card can send or receive transfers; no money moves',
	},
	{ value: 'payout', name: 'Payout', kind: 'payout', description: 'Money sent to a card or bank account' },
	{
		value: 'preauth',
		name: 'Hold / Authorization (Preauth)',
		kind: 'hold',
		description: 'Money held on the card, not charged until captured',
	},
	{
		value: 'reversal',
		name: 'Refund / Return (Reversal)',
		kind: 'refund',
		description:
			'Refund of a sale or capture (the Card Gateway node’s Return; the gateway calls it reversal); sent to a notify_url only',
	},
	{ value: 'retrievalRequest', name: 'Retrieval Request (Dispute Inquiry)', kind: 'retrievalRequest' },
	{ value: 'sale', name: 'Payment (Sale)', kind: 'payment', description: 'A card payment, charged at once' },
	{ value: 'transfer', name: 'Transfer', kind: 'transfer', description: 'Card to card' },
	{
		value: 'void',
		name: 'Payment Voided (Void)',
		kind: 'void',
		description: 'A sale or capture cancelled in full before settlement; sent to a notify_url only',
	},
];

export const TRANSACTION_TYPE_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Any', value: ANY_TYPE, description: 'Every transaction type (same as leaving the list empty)' },
	...TRANSACTION_TYPES.map(({ name, value, description }) =>
		description ? { name, value, description } : { name, value },
	),
].sort((a, b) => a.name.localeCompare(b.name));

const KIND_BY_TYPE = new Map(TRANSACTION_TYPES.map((entry) => [typeKey(entry.value), entry.kind]));

/** The plain word for a transaction type (`reversal` → `refund`); a type no entry names keeps its own name. */
export function kindOf(type: string): string {
	return KIND_BY_TYPE.get(typeKey(type)) ?? type.trim().toLowerCase();
}

export interface FilterSettings {
	statuses: readonly string[];
	transactionTypes: readonly string[];
}

export interface FilterSubject {
	status?: string;
	/** Absent for customer returns, which carry no type: the type filter does not apply to them. */
	type?: string;
}

/** True when the event should start the workflow. Empty lists (or "Any") let everything through. */
export function passesFilters(subject: FilterSubject, settings: FilterSettings): boolean {
	const statuses = settings.statuses.map(normaliseStatus).filter(Boolean);
	if (statuses.length > 0 && !statuses.includes(normaliseStatus(subject.status))) return false;
	const types = settings.transactionTypes.map(typeKey).filter(Boolean);
	if (types.length === 0 || types.includes(ANY_TYPE) || subject.type === undefined) return true;
	return types.includes(typeKey(subject.type));
}
