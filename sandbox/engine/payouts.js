'use strict';
// Payouts and transfers: where the money goes, and the v4 two-step payout (check, then pay).
const { field } = require('../commands');
const cards = require('../cards');
const { E_FIELD, E_NOT_FOUND, E_STATE, fail } = require('./errors');

// The complete destinations each kind of request may name; one of them must be there.
const CARD = { name: 'a card (credit_card_number, expire_month, expire_year)', present: (p) => p.credit_card_number && p.expire_month && p.expire_year };
const BANK = { name: 'a bank account (account_number)', present: (p) => p.account_number };
const CARD_REF = { name: 'a card reference (destination-card-ref-id)', present: (p) => p['destination-card-ref-id'] };
const CARD_NO = { name: 'a card number (destination-card-no)', present: (p) => p['destination-card-no'] };
const RECURRING = { name: 'a recurring payment (destination_card_recurring_payment_id)', present: (p) => p.destination_card_recurring_payment_id };
const DESTINATIONS = { payout: [CARD, BANK, CARD_REF], transfer: [CARD_NO, CARD_REF, RECURRING], 'card-ref': [CARD_REF] };

class Payouts {
	/** A payout or transfer without a complete destination is refused, as a real gateway refuses it. */
	requireDestination(def, p, merchant) {
		const options = DESTINATIONS[def.destination];
		if (!options.some((d) => d.present(p))) {
			fail(E_FIELD, `No complete destination for the ${def.kind}: send ${options.map((d) => d.name).join(', or ')}`);
		}
		if (p['destination-card-no'] && !cards.luhnValid(p['destination-card-no'])) fail(E_FIELD, "Invalid card number in 'destination-card-no'");
		if (p['destination-card-ref-id']) this.findCardRef(merchant, p['destination-card-ref-id']);
	}

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
