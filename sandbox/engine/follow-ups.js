'use strict';
// Capture, void and return on an existing order.
const { formatMinor } = require('../amount');
const { E_FIELD, E_STATE, fail } = require('./errors');

class FollowUps {
	followUpReply(order, context) {
		return this.asyncReply(order, context.serial);
	}

	notifyFollowUp(order, type, amountMinor, definition) {
		this.queueCallback(order, { urls: [order.urls.notify], type, status: 'approved', amountMinor, definition });
	}

	followUpAmount(context, order) {
		const { params } = context;
		if (!params.amount) return null;
		if (String(params.currency).toUpperCase() !== order.currency) {
			fail(E_FIELD, `Currency ${params.currency} does not match the order's currency ${order.currency}`);
		}
		if (!(context.amountMinor > 0)) fail(E_FIELD, 'Amount must be greater than zero');
		return context.amountMinor;
	}

	capture(context) {
		const order = this.findOrder(context);
		const amount = this.followUpAmount(context, order);
		if (order.kind !== 'preauth') fail(E_STATE, `Capture is only allowed on a preauth (order ${order.orderid} is a ${order.kind})`);
		this.requireFinalApproved(order, 'Capture');
		if (order.heldMinor <= 0) fail(E_STATE, `Nothing left to capture on order ${order.orderid}`);
		const take = amount == null ? order.heldMinor : amount;
		if (take > order.heldMinor) {
			fail(E_STATE, `Capture amount ${formatMinor(take, order.currency)} exceeds the held ${formatMinor(order.heldMinor, order.currency)}`);
		}
		order.heldMinor -= take;
		order.chargedMinor += take;
		this.addTransaction(order, context, 'capture', take);
		this.recordInLedger(order, 'capture', take);
		this.notifyFollowUp(order, 'capture', take, context.definition);
		return this.followUpReply(order, context);
	}

	voidOrder(context) {
		const order = this.findOrder(context);
		if (order.kind !== 'sale' && order.kind !== 'preauth') fail(E_STATE, `Void is not allowed on a ${order.kind}`);
		this.requireFinalApproved(order, 'Void');
		if (order.voided) fail(E_STATE, `Order ${order.orderid} is already voided`);
		if (order.cleared) fail(E_STATE, `Void is not allowed: order ${order.orderid} is already cleared (settled)`);
		if (order.refundedMinor > 0 || order.chargedBackMinor > 0) fail(E_STATE, 'Void is not allowed after a return or chargeback (full amount only)');
		const amount = this.refundable(order) + order.heldMinor;
		if (amount <= 0) fail(E_STATE, `Nothing left to void on order ${order.orderid}`);
		order.voidedMinor += this.refundable(order);
		order.heldMinor = 0;
		order.voided = true;
		this.addTransaction(order, context, 'void', amount);
		this.recordInLedger(order, 'void', amount);
		this.notifyFollowUp(order, 'void', amount, context.definition);
		return this.followUpReply(order, context);
	}

	returnOrder(context) {
		const order = this.findOrder(context);
		const amount = this.followUpAmount(context, order);
		if (order.kind !== 'sale' && order.kind !== 'preauth') fail(E_STATE, `Return is not allowed on a ${order.kind}`);
		this.requireFinalApproved(order, 'Return');
		if (order.voided) fail(E_STATE, `Order ${order.orderid} is voided`);
		if (order.kind === 'preauth' && order.chargedMinor === 0) {
			// Return on an uncaptured preauth is a cancel: it releases the whole hold; amount is ignored.
			if (order.heldMinor <= 0) fail(E_STATE, `Nothing held on order ${order.orderid}`);
			const released = order.heldMinor;
			order.heldMinor = 0;
			this.addTransaction(order, context, 'cancel', released);
			this.recordInLedger(order, 'cancel', released);
			this.notifyFollowUp(order, 'cancel', released, context.definition);
			return this.followUpReply(order, context);
		}
		const left = this.refundable(order);
		if (left <= 0) fail(E_STATE, `Nothing left to return on order ${order.orderid}`);
		const take = amount == null ? left : amount;
		if (take > left) {
			fail(E_STATE, `Return amount ${formatMinor(take, order.currency)} exceeds the refundable ${formatMinor(left, order.currency)}`);
		}
		order.refundedMinor += take;
		this.addTransaction(order, context, 'reversal', take);
		this.recordInLedger(order, 'return', take);
		this.notifyFollowUp(order, 'reversal', take, context.definition);
		return this.followUpReply(order, context);
	}
}

module.exports = FollowUps;
