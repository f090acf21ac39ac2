'use strict';
// The hosted-fields flow of the vendor's current integration (payneteasy/hosted-fields-examples):
// the payer types the card into the gateway's own fields, the browser gets a single-use payment
// ticket (hosted_fields_token), and the merchant's v4 sale carries the ticket instead of card data.
// The sandbox mints tickets on POST /sandbox/hosted-fields/tokens (the browser SDK's part).
const crypto = require('node:crypto');
const { field } = require('./params');
const cards = require('../cards');
const { E_FIELD, fail } = require('./errors');

// With a ticket, sending card data is an error (go-js/paynet.go createSale).
const CARD_FIELDS = ['credit_card_number', 'expire_month', 'expire_year', 'cvv2'];

class HostedFields {
	/** The tokenize step: card fields as the payer typed them → a single-use ticket. */
	mintToken(fields) {
		const card = this.validateCard(fields, { cvvRequired: true });
		const token = `hft_${crypto.randomBytes(12).toString('hex')}`;
		this.store.tokens.set(token, { card, outcome: cards.cvvOutcome(fields.cvv2), spent: false });
		return { token, card: { masked: card.masked, type: card.type } };
	}

	saleWithToken(context) {
		const { params, scope } = context;
		const existing = this.store.findByClientId(scope.key, field(params, 'client_orderid'));
		if (existing) return this.replayReply(existing, context.serial);
		const sent = CARD_FIELDS.find((name) => params[name] !== undefined);
		if (sent) fail(E_FIELD, `Field '${sent}' must not be sent with hosted_fields_token: the ticket carries the card`);
		const ticket = this.store.tokens.get(params.hosted_fields_token);
		if (!ticket || ticket.spent) fail(E_FIELD, 'Unknown or already spent hosted_fields_token');
		const endpoint = this.endpointFor(scope, params.currency);
		if (!(context.amountMinor > 0)) fail(E_FIELD, 'Amount must be greater than zero');
		ticket.spent = true;
		const card = params.card_printed_name ? { ...ticket.card, holder: params.card_printed_name } : ticket.card;
		const order = this.newOrder(context, { endpoint, currency: endpoint.currency, amountMinor: context.amountMinor, card, outcome: { ...ticket.outcome } });
		// No type, and paynet-order-id a number here only: the shape of the v4 sale reply (gateway.ts).
		order.reply = { 'paynet-order-id': Number(order.orderid), 'merchant-order-id': order.clientOrderId, 'serial-number': context.serial };
		this.settle(order);
		return order.reply;
	}
}

module.exports = HostedFields;
