import { OPERATIONS, type OperationId, type StatusQueryId } from '../../../../shared/protocol/catalogue';
import { MONEY_ACTIONS, type MoneyAction, type MoneyActionFacts } from '../../../../shared/protocol/money';
import type { FieldRecord } from '../../../../shared/protocol/vocabulary';
import { STATUS } from '../../../../shared/protocol/statusWords';

import { FINAL_STATUSES } from './statuses';

/** What an operation does to money: its catalogue line names the action, money.ts declares the facts. */
export function moneyFactsOf(operation: { gateway: OperationId }): MoneyActionFacts {
	return MONEY_ACTIONS[OPERATIONS[operation.gateway].money];
}

/** Money leaves or is held: the AI-agent guard, Dry Run, the limits and safe retries apply. */
export function movesMoney(operation: { gateway: OperationId }): boolean {
	return moneyFactsOf(operation).moves;
}

/**
 * Moves no money itself, but registers the order a later step pays (Payout → Check, then Pay): whether
 * the gateway keeps one order per merchant order ID is not documented, and a second payout registered
 * under a used ID would be paid by Pay again. So, as for a payment, such an order ID is asked about first.
 */
const REGISTERS_PAYMENT: ReadonlySet<OperationId> = new Set<OperationId>(['payoutCheck']);

/**
 * Each order ID is looked up before a new order is sent under it, and a repeated step is recognised:
 * operations that move money, and those that register an order a later step pays.
 */
export function ordersOnce(operation: { gateway: OperationId }): boolean {
	return movesMoney(operation) || REGISTERS_PAYMENT.has(operation.gateway);
}

/**
 * New orders that are never resent after a lost reply although a status query finds them: a charge of a
 * subscription's stored card. Its reply only says that the gateway took the request ("processing" is the
 * request's, not the charge's), so a status that does not show the order yet is no proof that it never
 * arrived (assumed: the docs say nothing either way). The charge's outcome is then reported as unknown.
 */
const NEVER_RESENT: ReadonlySet<OperationId> = new Set<OperationId>(['processRecurringPayment']);

/** What the catalogue says about the delivery's operation. */
export function factsOf(delivery: { operation: OperationId }) {
	const operation = OPERATIONS[delivery.operation];
	const money = MONEY_ACTIONS[operation.money];
	/** A status that finds the order after a lost reply is this request's order (a follow-up's order existed before). */
	const statusConfirms = !money.followUp && !!operation.statusQuery;
	return {
		money,
		statusQuery: operation.statusQuery,
		statusConfirms,
		/** Never resent automatically: follow-ups, operations whose result no status query finds, NEVER_RESENT. */
		neverResent: !statusConfirms || NEVER_RESENT.has(delivery.operation),
		rerun: RERUN_RULES[operation.money],
	};
}

/**
 * How a follow-up run again shows on the order's status, asked before it is sent (docs/safe-retries.md,
 * "A money step run again"). The gateway's own state is the fence:
 * - `done`: the order shows this step made already; nothing is sent, and the item says what the order
 *   shows (the words returned);
 * - `repeatsAfter`: a step that may be made several times on one order (a partial capture or return) is
 *   not sent without a key when the order's latest transaction is one of these (one of its own kind, or
 *   one that may follow it), or when the status names none: it may be the same step run again. Only Act
 *   Once per Key, one key for each intended step, sends it then. Any other latest transaction (the
 *   payment itself, say) goes to the gateway, which refuses what the order's state does not allow.
 */
export interface RerunRule {
	done?: (order: FieldRecord, sent: Readonly<Record<string, string>>) => string | undefined;
	repeatsAfter?: readonly string[];
	/** The status query whose reply shows what `done` reads, when it is not the operation's own. */
	statusQuery?: StatusQueryId;
}

const isApproved = (order: FieldRecord, action: MoneyAction) =>
	order.status === STATUS.approved && MONEY_ACTIONS[action].ownTypes.includes(order.transactionType ?? '');
const ZERO = /^0*(\.0*)?$/;

const RERUN_RULES: Partial<Record<MoneyAction, RerunRule>> = {
	// A partial capture; a full one is refused unless the order's latest transaction is its preauth (capture.operation.ts).
	capture: { repeatsAfter: MONEY_ACTIONS.capture.ownTypes },
	return: {
		// A full return takes everything left: once nothing is left, it was made.
		done: (order, sent) =>
			!sent.amount && isApproved(order, 'return') && ZERO.test(order.amount ?? '')
				? 'returned in full earlier: nothing is left on the order'
				: undefined,
		// A chargeback may follow a return: the return is no longer the latest transaction then.
		repeatsAfter: [...MONEY_ACTIONS.return.ownTypes, 'chargeback'],
	},
	void: { done: (order) => (isApproved(order, 'void') ? 'voided earlier' : undefined) },
	// The gateway pays a checked payout once; the order's stage tells a paid payout from a checked one. The v2
	// status shows it; the V4 status as the vendor's emulator answers it has no stage (gateway-facts §15).
	payCheckedPayout: {
		done: (order) =>
			order.status === STATUS.approved && order.orderStage === 'payout_approved' ? 'paid out earlier' : undefined,
		statusQuery: 'status',
	},
	// An upload completes a payment that waits for 3-D Secure; a final payment waits no more.
	completePending: {
		done: (order) =>
			FINAL_STATUSES.has(order.status ?? '') &&
			MONEY_ACTIONS.completePending.ownTypes.includes(order.transactionType ?? '')
				? `completed earlier (status "${order.status}")`
				: undefined,
	},
};
