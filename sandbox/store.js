'use strict';
// In-memory state: orders (by orderid and by scope + client_orderid), card references, recurring
// payments, hosted-fields payment tickets and the money ledger. Counters survive a reset so that
// no id is ever reused.

class Store {
	constructor() {
		this.serialSeq = 0;
		this.orderSeq = 100000;
		this.cardRefSeq = 500000;
		this.recurringSeq = 700000;
		this.ledgerSeq = 0;
		this.reset();
	}

	reset() {
		this.orders = new Map();
		this.byClientId = new Map();
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

	addOrder(order) {
		this.orders.set(order.orderid, order);
		this.byClientId.set(`${order.scopeKey}\u0000${order.clientOrderId}`, order);
	}

	findByClientId(scopeKey, clientOrderId) {
		return this.byClientId.get(`${scopeKey}\u0000${clientOrderId}`);
	}

	/** Status by client_orderid alone: any scope of the merchant, if the id is unambiguous. */
	findUniqueForMerchant(merchant, clientOrderId) {
		let found = null;
		for (const order of this.orders.values()) {
			if (order.merchant === merchant && order.clientOrderId === clientOrderId) {
				if (found) return null;
				found = order;
			}
		}
		return found;
	}

	record(order, kind, amountMinor, formatMinor) {
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
