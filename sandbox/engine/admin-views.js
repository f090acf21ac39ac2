'use strict';
// Sandbox-only hooks behind /sandbox/ (clear, chargeback, force a final status, release faults)
// and the masked admin view of an order.
const { formatMinor } = require('../amount');
const { E_FIELD, E_NOT_FOUND, E_STATE, GatewayError, fail } = require('./errors');

class AdminViews {
	findOrderForAdmin(orderid) {
		const order = this.store.orders.get(String(orderid));
		if (!order) throw new GatewayError(E_NOT_FOUND, `Order ${orderid} not found`);
		return order;
	}

	clearOrder(orderid) {
		const order = this.findOrderForAdmin(orderid);
		this.requireFinalApproved(order, 'Clearing');
		order.cleared = true;
		order.clearedAt = new Date().toISOString();
		return order;
	}

	chargeBack(orderid, body) {
		const order = this.findOrderForAdmin(orderid);
		this.requireFinalApproved(order, 'A chargeback');
		const left = this.refundable(order);
		if (order.voided || left <= 0) fail(E_STATE, `Nothing to charge back on order ${orderid}`);
		let amount = left;
		if (body && body.amount !== undefined) {
			amount = this.amountMinorOf(String(body.amount), order.currency);
			if (amount <= 0 || amount > left) fail(E_STATE, `Chargeback amount must be between 0 and ${formatMinor(left, order.currency)}`);
		}
		order.chargedBackMinor += amount;
		this.addTransaction(order, null, 'chargeback', amount);
		this.recordInLedger(order, 'chargeback', amount);
		this.notifyFollowUp(order, 'chargeback', amount, { name: 'chargeback' });
		return order;
	}

	/** Force the final status now (default: the status the test card decided, or approved). */
	forceFinalStatus(orderid, body) {
		const order = this.findOrderForAdmin(orderid);
		const wanted = body && body.status;
		if (wanted && !['approved', 'declined', 'error', 'filtered', 'unknown'].includes(wanted)) {
			fail(E_FIELD, `status must be approved, declined, error, filtered or unknown`);
		}
		if (order.finalized && order.status !== 'unknown') fail(E_STATE, `Order ${orderid} is already final (${order.status})`);
		if (order.finalized) {
			order.finalized = false;
			order.outcome = { status: wanted || 'approved' };
		}
		order.stayProcessing = null;
		if (order.form && order.form.pending) order.form.pending = false;
		if (order.threeDS && order.threeDS.pending) order.threeDS.pending = false;
		if (!order.outcome) order.outcome = { status: 'approved' };
		if (wanted) {
			order.outcome = wanted === 'approved' ? { status: wanted } : {
				status: wanted, errorCode: order.outcome.errorCode || '100', errorMessage: order.outcome.errorMessage || 'Declined by issuer',
			};
		}
		order.pollsLeft = 0;
		this.finalize(order);
		return order;
	}

	/** A removed stay-processing fault lets its orders go on. */
	releaseHeldOrders(removed) {
		const ids = new Set(removed.map((f) => f.id));
		for (const order of this.store.orders.values()) {
			if (order.stayProcessing && ids.has(order.stayProcessing)) {
				order.stayProcessing = null;
				this.settle(order);
			}
		}
	}

	/** Admin view of an order: masked, amounts as decimal strings. */
	adminView(order) {
		const f = (m) => formatMinor(m, order.currency);
		return {
			orderid: order.orderid,
			client_orderid: order.clientOrderId,
			merchant: order.merchant.login,
			endpoint: order.endpointId,
			group: order.groupId,
			command: order.command,
			kind: order.kind,
			status: order.finalized ? order.transactions[order.transactions.length - 1].status : 'processing',
			finalized: order.finalized,
			decided: order.outcome ? order.outcome.status : null,
			pollsLeft: order.pollsLeft,
			stayProcessing: order.stayProcessing,
			threeDS: order.threeDS,
			formPending: Boolean(order.form && order.form.pending),
			amount: f(order.amountMinor),
			currency: order.currency,
			held: f(order.heldMinor),
			charged: f(order.chargedMinor),
			refunded: f(order.refundedMinor),
			chargedBack: f(order.chargedBackMinor),
			voided: order.voided,
			cleared: order.cleared,
			paid: Boolean(order.paid),
			card: order.card ? { masked: order.card.masked, bin: order.card.bin, lastFour: order.card.lastFour, type: order.card.type, holder: order.card.holder, expMonth: order.card.expMonth, expYear: order.card.expYear } : null,
			cardRefId: order.cardRefId,
			sourceCardRefId: order.sourceCardRefId,
			recurringPaymentId: order.recurringPaymentId,
			urls: order.urls,
			params: order.params,
			transactions: order.transactions.map((t) => ({ serial: t.serial, type: t.type, status: t.status, amount: f(t.amountMinor), at: t.at })),
			createdAt: order.createdAt,
		};
	}
}

module.exports = AdminViews;
