// What Reconcile compares: the user's records, the gateway's orders, and what a transaction does to its order.

/** Which side of the gateway a run reads: the transaction report for a period, or a status query per record. */
export type GatewaySide = 'report' | 'status';

/** What a transaction does to its order, by type (compared without case or separators). */
export type Role =
	| 'sale'
	| 'preauth'
	| 'payout'
	| 'payoutCheck'
	| 'transfer'
	| 'verification'
	| 'capture'
	| 'void'
	| 'cancel'
	| 'refund'
	| 'chargeback'
	| 'dispute';

// The docs' transaction types (sale, reversal, preauth, capture, cancel, fraud, chargeback, retrieval, dispute,
// refund), the interface's "return", and what the gateway's orders also make (void, payouts, transfers,
// verifications). A type not here cannot be placed: the run stops rather than guess what it did to money.
export const ROLES: Record<string, Role> = {
	sale: 'sale',
	preauth: 'preauth',
	payout: 'payout',
	payoutcheck: 'payoutCheck',
	transfer: 'transfer',
	accountverification: 'verification',
	paneligibility: 'verification',
	capture: 'capture',
	void: 'void',
	cancel: 'cancel',
	reversal: 'refund',
	refund: 'refund',
	return: 'refund',
	chargeback: 'chargeback',
	dispute: 'dispute',
	retrieval: 'dispute',
	fraud: 'dispute',
};

/** What kind of order a transaction starts (the others follow an order). */
export const STARTS: Partial<Record<Role, OrderKind>> = {
	sale: 'sale',
	preauth: 'preauth',
	payout: 'payout',
	payoutCheck: 'payout',
	transfer: 'transfer',
	verification: 'verification',
};
export const ORDER_KINDS = ['sale', 'preauth', 'payout', 'transfer', 'verification'] as const;
export type OrderKind = (typeof ORDER_KINDS)[number];

/** One of the user's records, checked. */
export interface YourRecord {
	itemIndex: number;
	merchantOrderId: string;
	amount: string;
	currency: string;
	status: string;
}

/** What an order's approved transactions moved, in thousandths (holds are not money). */
export interface Money {
	/** Sales and captures: money taken. */
	taken: bigint;
	refunded: bigint;
	/** The money part of voids (what was taken and not yet given back). */
	voided: bigint;
	chargedBack: bigint;
	paid: bigint;
	transferred: bigint;
	held: bigint;
	released: bigint;
	voids: number;
	disputes: number;
	checked: boolean;
}

/** One gateway order: its own transaction (when the gateway's side shows it) and what followed. */
export interface GatewayOrder {
	merchantOrderId: string;
	orderId?: string;
	/** Unknown when the order's own transaction is not in the report (created before the period). */
	kind?: OrderKind;
	type?: string;
	status?: string;
	amount?: string;
	currency?: string;
	/** Report side: what its transactions moved. */
	money?: Money;
	/** Status side: the order's latest transaction and the amount its status reply reports. */
	latest?: { type: string; status: string; role: Role; left?: string };
}

export const noMoney = (): Money => ({
	taken: 0n,
	refunded: 0n,
	voided: 0n,
	chargedBack: 0n,
	paid: 0n,
	transferred: 0n,
	held: 0n,
	released: 0n,
	voids: 0,
	disputes: 0,
	checked: false,
});
