// @ts-check
'use strict';
// In-memory state: orders (by orderid, by scope + client_orderid and by client_orderid alone), card
// references, recurring payments, hosted-fields payment tickets, the money ledger and the admin API's
// report settings. Counters survive a reset so that no id is ever reused.

/** @typedef {import('./engine/types').Order} Order */
/** @typedef {import('./engine/types').Merchant} Merchant */

/**
 * One movement of money.
 * @typedef {object} LedgerEntry
 * @property {number} seq
 * @property {string} orderid
 * @property {string} client_orderid
 * @property {string} merchant        the merchant's login
 * @property {string} endpoint
 * @property {string | null | undefined} kind   sale, rebill, payout, transfer, capture, void, cancel, return, chargeback
 * @property {string} amount          decimal
 * @property {number} amountMinor
 * @property {string} currency
 * @property {string} at
 */

/**
 * A balance adjustment made through the admin API (a real gateway's "Add adjustment").
 * @typedef {object} BalanceAdjustment
 * @property {string} merchant   login
 * @property {string} currency
 * @property {number} amountMinor   signed
 * @property {string} at
 */

/**
 * What the admin API set for one balance (merchant and currency): money held inside its amount, and
 * the fields its reply leaves out (a gateway whose reply lacks them).
 * @typedef {object} BalanceTerms
 * @property {number} shortTermHoldMinor
 * @property {number} rollingReserveMinor
 * @property {string[]} omit   reply field names
 */

/**
 * N synthetic transaction-report rows, described rather than stored (engine/report.js generates them).
 * @typedef {object} SyntheticReportBatch
 * @property {string} merchant     login
 * @property {string} endpointId
 * @property {string} currency
 * @property {number} count
 * @property {number} fromMs       creation time of the first row
 * @property {number} stepMs       between two rows
 * @property {number} firstOrderId
 */

class Store {
	constructor() {
		this.serialSeq = 0;
		this.orderSeq = 100000;
		this.cardRefSeq = 500000;
		this.recurringSeq = 700000;
		this.ledgerSeq = 0;
		/** @type {Map<string, Order>} by orderid */
		this.orders = new Map();
		/** @type {Map<string, Order>} by scope key + client order id */
		this.byClientId = new Map();
		/** @type {Map<string, Order[]>} by client order id alone (any merchant, any scope), oldest first */
		this.byMerchantOrderId = new Map();
		/** @type {Map<string, import('./engine/types').ReportSettings>} by merchant login: the admin API's report settings */
		this.reportSettings = new Map();
		/** @type {Map<string, import('./engine/types').CardReference>} */
		this.cardRefs = new Map();
		/** @type {Map<string, import('./engine/types').RecurringPayment>} */
		this.recurring = new Map();
		/** @type {Map<string, import('./engine/types').RecurringPayment>} by scope key + client order id */
		this.recurringByClientId = new Map();
		/** @type {Map<string, import('./engine/types').PaymentTicket>} hosted-fields tickets */
		this.tokens = new Map();
		/** @type {LedgerEntry[]} */
		this.ledger = [];
		/** @type {BalanceAdjustment[]} admin adjustments of get-balance */
		this.balanceAdjustments = [];
		/** @type {Map<string, BalanceTerms>} by `<login>-<CURRENCY>` (get-balance) */
		this.balanceTerms = new Map();
		/** @type {SyntheticReportBatch[]} report rows seeded by the admin API, generated when read */
		this.syntheticReportBatches = [];
	}

	reset() {
		this.balanceAdjustments = [];
		this.balanceTerms = new Map();
		this.syntheticReportBatches = [];
		this.orders = new Map();
		this.byClientId = new Map();
		this.byMerchantOrderId = new Map();
		this.reportSettings = new Map();
		this.cardRefs = new Map();
		this.recurring = new Map();
		this.recurringByClientId = new Map();
		this.tokens = new Map();
		this.ledger = [];
	}

	/** `00000000-0000-0000-0000-` + 12 hex digits, one per API request. */
	nextSerial() {
		this.serialSeq++;
		return `00000000-0000-0000-0000-${this.serialSeq.toString(16).padStart(12, '0')}`;
	}

	nextOrderId() {
		return String(++this.orderSeq);
	}

	nextCardRefId() {
		return String(++this.cardRefSeq);
	}

	nextRecurringId() {
		return String(++this.recurringSeq);
	}

	/** @param {Order} order */
	addOrder(order) {
		this.orders.set(order.orderid, order);
		this.byClientId.set(`${order.scopeKey}\u0000${order.clientOrderId}`, order);
		const sameId = this.byMerchantOrderId.get(String(order.clientOrderId));
		if (sameId) sameId.push(order);
		else this.byMerchantOrderId.set(String(order.clientOrderId), [order]);
	}

	/**
	 * Every order under a client order id, any merchant's, oldest first.
	 * @param {string | undefined} clientOrderId
	 * @returns {Order[]}
	 */
	ordersWithClientId(clientOrderId) {
		return this.byMerchantOrderId.get(String(clientOrderId)) || [];
	}

	/**
	 * @param {string} scopeKey
	 * @param {string | undefined} clientOrderId
	 * @returns {Order | undefined}
	 */
	findByClientId(scopeKey, clientOrderId) {
		return this.byClientId.get(`${scopeKey}\u0000${clientOrderId}`);
	}

	/**
	 * Status by client_orderid alone: any scope of the merchant, if the id is unambiguous.
	 * @param {Merchant} merchant
	 * @param {string | undefined} clientOrderId
	 * @returns {Order | null}
	 */
	findUniqueForMerchant(merchant, clientOrderId) {
		const orders = this.ordersWithClientId(clientOrderId).filter(
			(order) => order.merchant === merchant && order.clientOrderId === clientOrderId,
		);
		return orders.length === 1 ? orders[0] : null;
	}

	/**
	 * @param {Order} order
	 * @param {string | null | undefined} kind
	 * @param {number} amountMinor
	 * @param {(minor: number, currency: string) => string} formatMinor
	 */
	record(order, kind, amountMinor, formatMinor) {
		/** @type {LedgerEntry} */
		const entry = {
			seq: ++this.ledgerSeq,
			orderid: order.orderid,
			client_orderid: order.clientOrderId,
			merchant: order.merchant.login,
			endpoint: order.endpointId,
			kind,
			amount: formatMinor(amountMinor, order.currency),
			amountMinor,
			currency: order.currency,
			at: new Date().toISOString(),
		};
		this.ledger.push(entry);
		return entry;
	}
}

module.exports = { Store };
