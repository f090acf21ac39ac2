import type { IDataObject } from 'n8n-workflow';

import type { OperationId } from '../../../shared/protocol/catalogue';
import { maskPan } from '../../../shared/protocol/masking';
import type { GatewayReply } from '../../../shared/protocol/reply';

import { needsThreeDSecure } from './output';

/** What a money-moving request does to the money, in the words its output uses. */
type Effect = 'charge' | 'hold' | 'capture' | 'return' | 'void' | 'payout' | 'transfer';

const EFFECTS: Partial<Record<OperationId, Effect>> = {
	sale: 'charge',
	saleV4: 'charge',
	makeRebill: 'charge',
	makeRebillSale: 'charge',
	preauth: 'hold',
	makeRebillPreauth: 'hold',
	capture: 'capture',
	return: 'return',
	void: 'void',
	payout: 'payout',
	payoutV4: 'payout',
	payoutPay: 'payout',
	transfer: 'transfer',
	transferByRefV2: 'transfer',
	transferByRef: 'transfer',
};

/** The gateway's transaction types a follow-up's own transaction may carry in a status reply. */
const FOLLOW_UP_TYPES: Partial<Record<Effect, readonly string[]>> = {
	capture: ['capture'],
	return: ['reversal', 'cancel', 'return', 'refund'],
	void: ['void'],
};

const VERBS: Record<Effect, { done: string; noun: string }> = {
	charge: { done: 'Charged', noun: 'Charge' },
	hold: { done: 'Held', noun: 'Hold' },
	capture: { done: 'Captured', noun: 'Capture' },
	return: { done: 'Returned', noun: 'Return' },
	void: { done: 'Voided', noun: 'Void' },
	payout: { done: 'Paid out', noun: 'Payout' },
	transfer: { done: 'Transferred', noun: 'Transfer' },
};

/** The output key holding the amount this operation moved, once the gateway approved it. */
const MOVED_KEY: Record<Exclude<Effect, 'void'>, string> = {
	charge: 'amountCharged',
	hold: 'amountHeld',
	capture: 'amountCaptured',
	return: 'amountReturned',
	payout: 'amountPaidOut',
	transfer: 'amountTransferred',
};

/** What was sent, by parameter name (checked wire values). */
export type SentValues = Readonly<Record<string, string | undefined>>;

/**
 * What THIS request did to the money, from what was sent and what the gateway replied: the amount
 * asked for, the amount moved (only when the gateway says approved, and for a follow-up only when
 * the reply is about its own transaction), what is left, where a payout went (masked) and a
 * one-line `outcome`. Nothing is claimed that the reply does not support. Empty for operations
 * that move no money.
 */
export function moneyOutcome(gateway: OperationId, reply: GatewayReply, sent: SentValues): IDataObject {
	const effect = EFFECTS[gateway];
	if (!effect) return {};
	const { fields } = reply;
	const currency = fields.currency || sent.currency || '';
	const output: IDataObject = {};
	if (sent.amount) output.amountRequested = sent.amount;
	if (!fields.currency && sent.currency) output.currency = sent.currency;
	const destination = destinationOf(effect, sent);
	if (destination) output[effect === 'payout' ? 'paidTo' : 'transferredTo'] = destination;

	const status = fields.status ?? '';
	const ownTransaction = !FOLLOW_UP_TYPES[effect] || !fields['transaction-type'] || FOLLOW_UP_TYPES[effect]!.includes(fields['transaction-type']);
	const { done, noun } = VERBS[effect];
	const asked = sent.amount ? `${noun} of ${money(sent.amount, currency)}` : wholeRequest(effect);

	if (needsThreeDSecure(reply)) {
		output.outcome = `${asked} waits for the customer's 3-D Secure check; nothing is final until it is done (send the customer to redirectUrl)`;
		return output;
	}
	if (status !== 'approved' || !ownTransaction) {
		output.outcome = pendingOrRefused(asked, status, ownTransaction);
		return output;
	}
	if (effect === 'void') {
		output.voided = true;
		output.outcome = 'Voided: the gateway approved the void of the whole payment';
		return output;
	}
	if (effect === 'return' && fields['transaction-type'] === 'cancel') {
		output.holdReleased = true;
		output.outcome = 'Hold released: the return cancelled the uncaptured preauthorization, so nothing was charged to return';
		return output;
	}
	// An initial transaction's status reply carries its own amount (a rebill may settle on another
	// of its Enumerate Amounts); a follow-up's reply carries the order's amount left, not the part moved.
	const moved = FOLLOW_UP_TYPES[effect] ? sent.amount : fields.amount || sent.amount;
	if (moved) output[MOVED_KEY[effect]] = moved;
	else output[effect === 'capture' ? 'capturedInFull' : 'returnedInFull'] = true;
	const left = effect === 'return' && fields.type === 'status-response' && fields.amount ? fields.amount : undefined;
	if (left) output.amountRemaining = left;

	const what = moved ? money(moved, currency) : effect === 'capture' ? 'everything still held' : 'everything that was left';
	const where = destination ? ` to ${destination}` : '';
	const remaining = left ? `; ${money(left, currency)} left on the order` : '';
	output.outcome = `${done} ${what}${where}${remaining}`;
	return output;
}

function wholeRequest(effect: Effect): string {
	if (effect === 'void') return 'Void of the whole payment';
	return `${VERBS[effect].noun} of everything that is left`;
}

function pendingOrRefused(asked: string, status: string, ownTransaction: boolean): string {
	if (!ownTransaction) return `${asked} sent; the status the gateway gave is about another transaction of the order, so this one is not confirmed yet`;
	if (status === 'declined' || status === 'filtered' || status === 'error') return `${asked} not done: the gateway answered ${status}`;
	if (status === 'unknown') return `${asked}: the gateway reports status unknown; check the order before acting on it`;
	return `${asked} sent and accepted; not final yet, so the money may still move (turn on Wait for Final Status, or ask Transaction → Get Status later)`;
}

function money(amount: string, currency: string): string {
	return currency ? `${amount} ${currency}` : amount;
}

/** Where a payout or transfer goes, masked (a card number shows its first 6 and last 4 digits at most). */
function destinationOf(effect: Effect, sent: SentValues): string | undefined {
	if (effect !== 'payout' && effect !== 'transfer') return undefined;
	const card = sent.destinationCardNumber || sent.cardNumber;
	if (card) return `card ${maskPan(card)}`;
	if (sent.accountNumber) return `bank account ending ${sent.accountNumber.slice(-4)}`;
	const reference = sent.destinationCardReferenceId || sent.destinationRecurringPaymentId;
	if (reference) return `stored card ${reference}`;
	return undefined;
}
