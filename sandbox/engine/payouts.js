'use strict';
// Payouts and transfers: the v4 two-step payout (check, then pay).
const { field } = require('../commands');
const { E_NOT_FOUND, E_STATE, fail } = require('./errors');

class Payouts {
	payoutPay(ctx) {
		const { p, scope, merchant } = ctx;
		const cid = field(p, 'client_orderid');
		let order = p.orderid ? this.store.orders.get(String(p.orderid)) : this.store.findByClientId(scope.key, cid);
		if (!order || order.merchant !== merchant || order.cid !== cid || order.kind !== 'payout-check') {
			fail(E_NOT_FOUND, `No payout check found for client_orderid ${cid}${p.orderid ? ` / orderid ${p.orderid}` : ''}`);
		}
		if (order.paid) return { ...order.paid.reply, 'serial-number': ctx.serial };
		if (!order.finalized || order.status !== 'approved') {
			fail(E_STATE, `Payout ${order.orderid} is not checked (${order.finalized ? order.status : 'processing'})`);
		}
		const tx = this.addTransaction(order, ctx, 'payout', order.amountMinor);
		order.chargedMinor = order.amountMinor;
		this.ledger(order, 'payout', order.amountMinor);
		order.paid = { at: tx.at, reply: this.asyncReply(order, ctx.serial) };
		if (p.server_callback_url) order.urls.serverCallback = p.server_callback_url;
		if (p.notify_url) order.urls.notify = p.notify_url;
		this.queueCallback(order, {
			urls: [order.urls.serverCallback, order.urls.notify],
			type: 'payout',
			status: 'approved',
			amountMinor: order.amountMinor,
			def: ctx.def,
		});
		return order.paid.reply;
	}
}

module.exports = Payouts;
