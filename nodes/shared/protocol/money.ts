import { STATUS } from './statusWords';

/**
 * What a gateway operation can do to money, declared once per kind of action. Every operation in
 * the catalogue names one action; the guards (AI agents, Retry On Fail, spending limits), Dry Run,
 * lost-reply handling and the outputs all read these facts from here.
 */
export type MoneyAction =
	| 'charge'
	| 'hold'
	| 'capture'
	| 'return'
	| 'releaseHold'
	| 'void'
	| 'payout'
	| 'payCheckedPayout'
	| 'transfer'
	| 'completePending'
	| 'setUpRecurring'
	| 'changeRecurring'
	| 'openPayoutForm'
	| 'none';

/** How a status reply is known to speak about this operation's own transaction. */
export type Confirmation =
	/** The order is this operation's (it created it): its status is this operation's, unless its latest transaction is of another type. */
	| 'order'
	/** Once per order: the latest transaction must be of one of the action's own types. */
	| 'ownType'
	/** Repeatable on one order (partial captures and returns): only a reply about this request's serial number counts. */
	| 'serial'
	/** Nothing the gateway replies confirms it (recurring set-ups, forms, operations that move nothing). */
	| 'never';

export interface MoneyActionFacts {
	/** Money leaves, is held, or will be charged on a schedule: every money guard applies. */
	moves: boolean;
	/** Acts on an existing order: a lost reply is reported, never resent. */
	followUp: boolean;
	/** A follow-up: the order status the gateway accepts it on. */
	acceptsStatus?: typeof STATUS.approved | typeof STATUS.processing;
	/** Dry run: "would <verb> 10.00 USD". */
	verb: string;
	/** Outputs: "<noun> of 10.00 USD not done", "<done> 10.00 USD". */
	noun: string;
	done: string;
	/** Output key of the amount this operation moved, once the gateway approved it. */
	movedKey?: string;
	/** Output key naming where the money went (masked). */
	destinationKey?: 'paidTo' | 'transferredTo';
	/** Output flag set when it was approved without an amount to report (a void, a released hold). */
	doneFlag?: string;
	/** What it moves when no amount is sent. */
	whole?: string;
	/** Output flag of an approved follow-up sent without an amount. */
	inFullFlag?: string;
	/** Transaction types in a status reply that are this operation's own. */
	ownTypes: readonly string[];
	confirmation: Confirmation;
	/** Money moves later, not by this request (set-ups and forms): when. */
	movesLater?: string;
	/** Report what is left on the order once it was approved. */
	reportsRemaining?: boolean;
	/** Own transaction type → the action it turned out to be (a return on a preauth releases the hold). */
	turnsInto?: Readonly<Record<string, MoneyAction>>;
}

export const MONEY_ACTIONS: Readonly<Record<MoneyAction, MoneyActionFacts>> = {
	charge: {
		moves: true,
		followUp: false,
		verb: 'charge',
		noun: 'Charge',
		done: 'Charged',
		movedKey: 'amountCharged',
		ownTypes: ['sale'],
		confirmation: 'order',
	},
	hold: {
		moves: true,
		followUp: false,
		verb: 'hold',
		noun: 'Hold',
		done: 'Held',
		movedKey: 'amountHeld',
		ownTypes: ['preauth'],
		confirmation: 'order',
	},
	capture: {
		moves: true,
		followUp: true,
		acceptsStatus: STATUS.approved,
		verb: 'capture',
		noun: 'Capture',
		done: 'Captured',
		movedKey: 'amountCaptured',
		whole: 'everything still held',
		inFullFlag: 'capturedInFull',
		ownTypes: ['capture'],
		confirmation: 'serial',
	},
	return: {
		moves: true,
		followUp: true,
		acceptsStatus: STATUS.approved,
		verb: 'return',
		noun: 'Return',
		done: 'Returned',
		movedKey: 'amountReturned',
		whole: 'everything that is left',
		inFullFlag: 'returnedInFull',
		ownTypes: ['reversal', 'cancel', 'return', 'refund'],
		confirmation: 'serial',
		reportsRemaining: true,
		turnsInto: { cancel: 'releaseHold' },
	},
	releaseHold: {
		moves: true,
		followUp: true,
		acceptsStatus: STATUS.approved,
		verb: 'release',
		noun: 'Release',
		done: 'Hold released: the return cancelled the uncaptured preauthorization, so nothing was charged to return',
		doneFlag: 'holdReleased',
		ownTypes: ['cancel'],
		confirmation: 'serial',
	},
	void: {
		moves: true,
		followUp: true,
		acceptsStatus: STATUS.approved,
		verb: 'void',
		noun: 'Void',
		done: 'Voided: the gateway approved the void of the whole payment',
		doneFlag: 'voided',
		whole: 'the whole payment',
		ownTypes: ['void'],
		confirmation: 'ownType',
	},
	payout: {
		moves: true,
		followUp: false,
		verb: 'pay out',
		noun: 'Payout',
		done: 'Paid out',
		movedKey: 'amountPaidOut',
		destinationKey: 'paidTo',
		ownTypes: ['payout'],
		confirmation: 'order',
	},
	payCheckedPayout: {
		moves: true,
		followUp: true,
		acceptsStatus: STATUS.approved,
		verb: 'pay out',
		noun: 'Payout',
		done: 'Paid out',
		movedKey: 'amountPaidOut',
		destinationKey: 'paidTo',
		whole: 'the checked amount',
		ownTypes: ['payout'],
		// Paying a checked payout again is answered like the first pay: only this request's serial number confirms it.
		confirmation: 'serial',
	},
	transfer: {
		moves: true,
		followUp: false,
		verb: 'transfer',
		noun: 'Transfer',
		done: 'Transferred',
		movedKey: 'amountTransferred',
		destinationKey: 'transferredTo',
		ownTypes: ['transfer'],
		confirmation: 'order',
	},
	completePending: {
		moves: true,
		followUp: true,
		acceptsStatus: STATUS.processing,
		verb: 'complete the pending 3-D Secure payment of',
		noun: 'Completion of the pending 3-D Secure payment',
		done: 'Completed',
		ownTypes: ['sale', 'preauth'],
		confirmation: 'ownType',
		turnsInto: { sale: 'charge', preauth: 'hold' },
	},
	setUpRecurring: {
		moves: true,
		followUp: false,
		verb: 'set up recurring charges of',
		noun: 'Recurring charges',
		done: 'Set up',
		movesLater: 'the gateway charges the card on the schedule',
		ownTypes: [],
		confirmation: 'never',
	},
	changeRecurring: {
		moves: true,
		followUp: false,
		verb: 'set the recurring charge to',
		noun: 'Change of the recurring charge',
		done: 'Changed',
		movesLater: 'the gateway charges the card on the schedule',
		ownTypes: [],
		confirmation: 'never',
	},
	openPayoutForm: {
		moves: true,
		followUp: false,
		verb: 'open a payout form for',
		noun: 'Payout form',
		done: 'Opened',
		movesLater: 'the payout is made when the recipient completes the form',
		ownTypes: [],
		confirmation: 'never',
	},
	none: {
		moves: false,
		followUp: false,
		verb: 'send',
		noun: 'Request',
		done: 'Done',
		ownTypes: [],
		confirmation: 'never',
	},
};
