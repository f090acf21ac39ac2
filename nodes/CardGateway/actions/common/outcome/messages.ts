// The outcome of an item that found its step made already: nothing sent, nothing new moved.
import type { MoneyEffect } from '../../../../shared/moneyEffect';
import type { MoneyActionFacts } from '../../../../shared/protocol/money';
import { replyRecord, type GatewayReply } from '../../../../shared/protocol/reply';
import { STATUS } from '../../../../shared/protocol/statusWords';

import type { Delivery } from '../core/delivery';
import { describeStatus } from '../core/moneyError';

/** The outcome of an item whose order the gateway already had: nothing was sent, nothing new moved. */
export function alreadyExistedOutcome(
	facts: MoneyActionFacts,
	delivery: Delivery,
	reply: GatewayReply,
): { moneyEffect: MoneyEffect; outcome: string } {
	const { status, amount, currency } = replyRecord(reply);
	const was =
		status === STATUS.approved && facts.movedKey
			? `${facts.done.toLowerCase()} earlier`
			: `status "${status || STATUS.processing}"`;
	const figure = amount ? `, ${`${amount} ${currency ?? ''}`.trim()}` : '';
	return {
		moneyEffect: 'noMoneyMoved',
		outcome: `Order "${delivery.clientOrderId}" already existed at the gateway (${was}${figure}): nothing was sent, and this run moved nothing new`,
	};
}

/** The outcome of a follow-up whose step the order shows made already: nothing was sent, nothing new moved. */
export function alreadyDoneOutcome(
	facts: MoneyActionFacts,
	delivery: Delivery,
	reply: GatewayReply,
	done: string,
): { alreadyDone: true; moneyEffect: MoneyEffect; outcome: string } {
	return {
		alreadyDone: true,
		moneyEffect: 'noMoneyMoved',
		outcome: `${facts.noun} on order "${delivery.clientOrderId}": ${done} (the gateway reports ${describeStatus(reply)}): nothing was sent, and this run moved nothing new`,
	};
}
