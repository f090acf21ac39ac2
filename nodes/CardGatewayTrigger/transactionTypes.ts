// The transaction types the trigger knows, declared once: the filter's options (filters.ts), the
// plain word on every item (`kind`) and the one spelling the item and its event key carry (`type`).
import { comparableName } from '../shared/protocol/names';

/** Transaction types compare without case or separators: `account-verification` = `Account Verification`. */
export const typeKey = comparableName;

/**
 * A transaction type a callback reports: the gateway's name (`value`, compared without case or
 * separators), the words ops people use for it (`name`, searchable in the editor), and the plain
 * word every item carries as `kind` (an IF on `kind` = `refund` matches the gateway's `reversal`).
 */
export interface TransactionTypeEntry {
	value: string;
	name: string;
	kind: string;
	description?: string;
}

export const TRANSACTION_TYPES: readonly TransactionTypeEntry[] = [
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

const BY_KEY = new Map(TRANSACTION_TYPES.map((entry) => [typeKey(entry.value), entry]));

/**
 * The one spelling of a transaction type, whatever the callback sent (`type` is not signed, so a
 * replay may respell it): a known type in the gateway's words (`Sale`, `s-ale`, ` SALE ` → `sale`;
 * `accountVerification` → `account-verification`), any other without case or separators
 * (`Foo_Bar` → `foobar`). Two spellings give one name exactly when they compare equal (typeKey).
 */
export function canonicalType(type: string): string {
	const entry = BY_KEY.get(typeKey(type));
	return entry ? entry.value.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`) : typeKey(type);
}

/** The plain word for a transaction type (`reversal` → `refund`); a type no entry names keeps its canonical name. */
export function kindOf(type: string): string {
	return BY_KEY.get(typeKey(type))?.kind ?? canonicalType(type);
}
