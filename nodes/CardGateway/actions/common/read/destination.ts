import { maskPan } from '../../../../shared/protocol/masking';

/** What was sent, by parameter name (checked wire values). */
export type SentValues = Readonly<Record<string, string | undefined>>;

/** Where a payout or transfer goes, masked (a card number shows its first 6 and last 4 digits at most). */
export function destinationOf(sent: SentValues): string | undefined {
	const card = sent.destinationCardNumber || sent.cardNumber;
	if (card) return `card ${maskPan(card)}`;
	if (sent.accountNumber) return `bank account ending ${sent.accountNumber.slice(-4)}`;
	const reference = sent.destinationCardReferenceId || sent.destinationRecurringPaymentId;
	if (reference) return `stored card ${reference}`;
	return undefined;
}
