'use strict';
// Payouts and transfers: where the money goes, and the v4 two-step payout (check, then pay).
const { field } = require('./params');
const cards = require('../cards');
const { E_FIELD, E_NOT_FOUND, E_STATE, fail } = require('./errors');

// The complete destinations each kind of request may name; one of them must be there.
const CARD = { name: 'a card (credit_card_number, expire_month, expire_year)', present: (params) => params.credit_card_number && params.expire_month && params.expire_year };
const BANK = { name: 'a bank account (account_number)', present: (params) => params.account_number };
const CARD_REF = { name: 'a card reference (destination-card-ref-id)', present: (params) => params['destination-card-ref-id'] };
const CARD_NO = { name: 'a card number (destination-card-no)', present: (params) => params['destination-card-no'] };
const RECURRING = { name: 'a recurring payment (destination_card_recurring_payment_id)', present: (params) => params.destination_card_recurring_payment_id };
const DESTINATIONS = { payout: [CARD, BANK, CARD_REF], transfer: [CARD_NO, CARD_REF, RECURRING], 'card-ref': [CARD_REF] };

class Payouts {
	/** A payout or transfer without a complete destination is refused, as a real gateway refuses it. */
	requireDestination(definition, params, merchant) {
		const options = DESTINATIONS[definition.destination];
		if (!options.some((d) => d.present(params))) {
			fail(E_FIELD, `No complete destination for the ${definition.kind}: send ${options.map((d) => d.name).join(', or ')}`);
		}
		if (params['destination-card-no'] && !cards.luhnValid(params['destination-card-no'])) fail(E_FIELD, "Invalid card number in 'destination-card-no'");
		if (params['destination-card-ref-id']) this.findCardReference(merchant, params['destination-card-ref-id']);
	}

	payCheckedPayout(context) {
		const { params, scope, merchant } = context;
		const clientOrderId = field(params, 'client_orderid');
		let order = params.orderid ? this.store.orders.get(String(params.orderid)) : this.store.findByClientId(scope.key, clientOrderId);
		if (!order || order.merchant !== merchant || order.clientOrderId !== clientOrderId || order.kind !== 'payout-check') {
			fail(E_NOT_FOUND, `No payout check found for client_orderid ${clientOrderId}${params.orderid ? ` / orderid ${params.orderid}` : ''}`);
		}
		if (order.paid) return { ...order.paid.reply, 'serial-number': context.serial };
		if (!order.finalized || order.status !== 'approved') {
			fail(E_STATE, `Payout ${order.orderid} is not checked (${order.finalized ? order.status : 'processing'})`);
		}
		const tx = this.addTransaction(order, context, 'payout', order.amountMinor);
		order.chargedMinor = order.amountMinor;
		this.recordInLedger(order, 'payout', order.amountMinor);
		order.paid = { at: tx.at, reply: this.asyncReply(order, context.serial) };
		if (params.server_callback_url) order.urls.serverCallback = params.server_callback_url;
		if (params.notify_url) order.urls.notify = params.notify_url;
		this.queueCallback(order, {
			urls: [order.urls.serverCallback, order.urls.notify],
			type: 'payout',
			status: 'approved',
			amountMinor: order.amountMinor,
			definition: context.definition,
		});
		return order.paid.reply;
	}
}

module.exports = Payouts;
