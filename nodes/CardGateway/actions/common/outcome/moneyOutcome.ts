import type { IDataObject } from 'n8n-workflow';

import type { MoneyEffect } from '../../../../shared/moneyEffect';
import { OPERATIONS, type OperationId } from '../../../../shared/protocol/catalogue';
import { MONEY_ACTIONS, type MoneyActionFacts } from '../../../../shared/protocol/money';
import { replyRecord } from '../../../../shared/protocol/reply';
import { STATUS } from '../../../../shared/protocol/statusWords';

import type { Delivered, StatusKnowledge } from '../core/delivery';
import { isRefusal, needsThreeDSecure } from '../core/statuses';
import { destinationOf, type SentValues } from '../read/destination';

/**
 * What THIS request did to the money, from what was sent and what the gateway replied: the amount
 * asked for, the amount moved (only when the gateway says that this very operation was approved),
 * what is left, where a payout went (masked), `moneyEffect` and a one-line `outcome`. Nothing is
 * claimed that the reply does not support. Empty for operations that move no money.
 */
export function moneyOutcome(
	gateway: OperationId,
	delivered: Delivered,
	sent: SentValues,
	before?: StatusKnowledge,
): IDataObject {
	const facts = MONEY_ACTIONS[OPERATIONS[gateway].money];
	if (!facts.moves) return {};
	const { reply } = delivered;
	const fields = replyRecord(reply);
	const currency = fields.currency || sent.currency || '';
	const output: IDataObject = {};
	if (sent.amount) output.amountRequested = sent.amount;
	if (!fields.currency && sent.currency) output.currency = sent.currency;
	const destination = facts.destinationKey ? destinationOf(sent) : undefined;
	if (destination) output[facts.destinationKey!] = destination;

	const status = fields.status ?? '';
	const asked = sent.amount
		? `${facts.noun} of ${money(sent.amount, currency)}`
		: facts.whole
			? `${facts.noun} of ${facts.whole}`
			: facts.noun;
	const settle = (effect: MoneyEffect, outcome: string) => Object.assign(output, { moneyEffect: effect, outcome });

	if (needsThreeDSecure(reply)) {
		return settle(
			'pending',
			`${asked} waits for the customer's 3-D Secure check; nothing is final until it is done (send the customer to redirectUrl)`,
		);
	}
	const refused = isRefusal(status);
	if (facts.movesLater) {
		if (refused) return settle('noMoneyMoved', `${asked} not done: the gateway answered ${status}`);
		return settle('pending', `${asked} accepted by the gateway; no money moved yet: ${facts.movesLater}`);
	}
	const own = aboutThisOperation(facts, delivered, before);
	if (!own) {
		return settle(
			'pending',
			`${asked} sent and accepted; the status the gateway gave is about the order, not about this request, so it is not confirmed yet (ask Transaction → Get Status later)`,
		);
	}
	if (refused) return settle('noMoneyMoved', `${asked} not done: the gateway answered ${status}`);
	if (status === STATUS.unknown)
		return settle(
			'mayHaveMoved',
			`${asked}: the gateway reports status unknown, so money MAY have moved; check the order before acting on it`,
		);
	if (status !== STATUS.approved) {
		return settle(
			'pending',
			`${asked} sent and accepted; not final yet, so the money may still move (turn on Wait for Final Status, or ask Transaction → Get Status later)`,
		);
	}

	// What it turned out to be: a return on an uncaptured preauth releases the hold; a completed 3-D Secure payment charges or holds.
	const type = fields.transactionType ?? '';
	const done = MONEY_ACTIONS[facts.turnsInto?.[type] ?? OPERATIONS[gateway].money];
	if (done.doneFlag) {
		output[done.doneFlag] = true;
		return settle('moved', done.done);
	}
	const moved = movedAmount(delivered, sent);
	if (moved && done.movedKey) output[done.movedKey] = moved;
	if (!sent.amount && facts.inFullFlag) output[facts.inFullFlag] = true;
	const left = facts.reportsRemaining && delivered.orderAfter ? replyRecord(delivered.orderAfter).amount : undefined;
	if (left) output.amountRemaining = left;
	const what = moved ? money(moved, currency) : (facts.whole ?? 'the amount asked');
	const where = destination ? ` to ${destination}` : '';
	const remaining = left ? `; ${money(left, currency)} left on the order` : '';
	return settle('moved', `${done.done} ${what}${where}${remaining}`);
}

/**
 * Whether the reply speaks about this operation's own transaction: the gateway's direct answer to
 * the request, a status naming this request's serial number, or a status of the order when the
 * operation is the only one of its kind on it and was not there before (money.ts `confirmation`).
 */
function aboutThisOperation(
	facts: MoneyActionFacts,
	delivered: Delivered,
	before: StatusKnowledge | undefined,
): boolean {
	const fields = replyRecord(delivered.reply);
	if (delivered.direct) return true;
	if (delivered.serial && fields.requestSerialNumber === delivered.serial) return true;
	const isOwn = (type: string | undefined) => !!type && facts.ownTypes.includes(type);
	if (facts.confirmation === 'order') return !fields.transactionType || isOwn(fields.transactionType);
	if (facts.confirmation !== 'ownType' || !isOwn(fields.transactionType) || before?.kind !== 'found') return false;
	// Only if the order was not approved with such a transaction already before this request (a repeated void or upload).
	const earlier = replyRecord(before.reply);
	return !(earlier.status === STATUS.approved && isOwn(earlier.transactionType));
}

/**
 * The amount moved: what the gateway reports for this transaction (a rebill may settle on another of
 * its Enumerate Amounts; a full return names what it returned), else what was sent. A status of the
 * whole order reports what is left on it, never the part a follow-up moved.
 */
function movedAmount(delivered: Delivered, sent: SentValues): string | undefined {
	const fields = replyRecord(delivered.reply);
	const ownSerial = !!delivered.serial && fields.requestSerialNumber === delivered.serial;
	return (ownSerial || !delivered.direct ? fields.amount : undefined) || sent.amount;
}

function money(amount: string, currency: string): string {
	return currency ? `${amount} ${currency}` : amount;
}
