'use strict';
// Capture, void and return on an existing order.
const { formatMinor } = require('../amount');
const { E_FIELD, E_STATE, fail } = require('./errors');

class FollowUps {
	followUpReply(order, ctx) {
		return this.asyncReply(order, ctx.serial);
	}

	notifyFollowUp(order, type, amountMinor, def) {
		this.queueCallback(order, { urls: [order.urls.notify], type, status: 'approved', amountMinor, def });
	}

	followUpAmount(ctx, order) {
		const { p } = ctx;
		if (!p.amount) return null;
		if (String(p.currency).toUpperCase() !== order.currency) {
			fail(E_FIELD, `Currency ${p.currency} does not match the order's currency ${order.currency}`);
		}
		if (!(ctx.minor > 0)) fail(E_FIELD, 'Amount must be greater than zero');
		return ctx.minor;
	}

	capture(ctx) {
		const order = this.findOrder(ctx);
		const amount = this.followUpAmount(ctx, order);
		if (order.kind !== 'preauth') fail(E_STATE, `Capture is only allowed on a preauth (order ${order.orderid} is a ${order.kind})`);
		this.requireFinalApproved(order, 'Capture');
		if (order.heldMinor <= 0) fail(E_STATE, `Nothing left to capture on order ${order.orderid}`);
		const take = amount == null ? order.heldMinor : amount;
		if (take > order.heldMinor) {
			fail(E_STATE, `Capture amount ${formatMinor(take, order.currency)} exceeds the held ${formatMinor(order.heldMinor, order.currency)}`);
		}
		order.heldMinor -= take;
		order.chargedMinor += take;
		this.addTransaction(order, ctx, 'capture', take);
		this.ledger(order, 'capture', take);
		this.notifyFollowUp(order, 'capture', take, ctx.def);
		return this.followUpReply(order, ctx);
	}

	voidOrder(ctx) {
		const order = this.findOrder(ctx);
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
		this.addTransaction(order, ctx, 'void', amount);
		this.ledger(order, 'void', amount);
		this.notifyFollowUp(order, 'void', amount, ctx.def);
		return this.followUpReply(order, ctx);
	}

	returnOrder(ctx) {
		const order = this.findOrder(ctx);
		const amount = this.followUpAmount(ctx, order);
		if (order.kind !== 'sale' && order.kind !== 'preauth') fail(E_STATE, `Return is not allowed on a ${order.kind}`);
		this.requireFinalApproved(order, 'Return');
		if (order.voided) fail(E_STATE, `Order ${order.orderid} is voided`);
		if (order.kind === 'preauth' && order.chargedMinor === 0) {
			// Return on an uncaptured preauth is a cancel: it releases the whole hold; amount is ignored.
			if (order.heldMinor <= 0) fail(E_STATE, `Nothing held on order ${order.orderid}`);
			const released = order.heldMinor;
			order.heldMinor = 0;
			this.addTransaction(order, ctx, 'cancel', released);
			this.ledger(order, 'cancel', released);
			this.notifyFollowUp(order, 'cancel', released, ctx.def);
			return this.followUpReply(order, ctx);
		}
		const left = this.refundable(order);
		if (left <= 0) fail(E_STATE, `Nothing left to return on order ${order.orderid}`);
		const take = amount == null ? left : amount;
		if (take > left) {
			fail(E_STATE, `Return amount ${formatMinor(take, order.currency)} exceeds the refundable ${formatMinor(left, order.currency)}`);
		}
		order.refundedMinor += take;
		this.addTransaction(order, ctx, 'reversal', take);
		this.ledger(order, 'return', take);
		this.notifyFollowUp(order, 'reversal', take, ctx.def);
		return this.followUpReply(order, ctx);
	}
}

module.exports = FollowUps;
