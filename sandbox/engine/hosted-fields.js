// @ts-check
'use strict';
// The hosted-fields flow of the vendor's current integration (payneteasy/hosted-fields-examples):
// the payer types the card into the gateway's own fields, the browser gets a single-use payment
// ticket (hosted_fields_token), and the merchant's v4 sale carries the ticket instead of card data.
// The sandbox mints tickets on POST /sandbox/hosted-fields/tokens (the browser SDK's part).
const crypto = require('node:crypto');
const cards = require('../cards');
const { validateCard } = require('./card-input');
const { E_FIELD, fail } = require('./errors');
const { endpointFor, newOrder, replayReply, settle } = require('./orders');
const { field } = require('./params');

// With a ticket, sending card data is an error (go-js/paynet.go createSale).
const CARD_FIELDS = ['credit_card_number', 'expire_month', 'expire_year', 'cvv2'];

/**
 * The tokenize step: card fields as the payer typed them → a single-use ticket.
 * @param {import('./types').GatewayState} state
 * @param {import('./types').Params} fields
 */
function mintToken(state, fields) {
	const card = validateCard(fields, { cvvRequired: true });
	const token = `hft_${crypto.randomBytes(12).toString('hex')}`;
	state.store.tokens.set(token, { card, outcome: cards.cvvOutcome(fields.cvv2), spent: false });
	return { token, card: { masked: card.masked, type: card.type } };
}

/**
 * v4/sale: a sale paid with a ticket, which is spent; the outcome is the one the ticket's CVV decided.
 * @type {import('./types').Handler}
 */
function saleWithToken(state, context) {
	const { params, scope } = context;
	const existing = state.store.findByClientId(scope.key, field(params, 'client_orderid'));
	if (existing) return replayReply(existing, context.serial);
	const sent = CARD_FIELDS.find((name) => params[name] !== undefined);
	if (sent) fail(E_FIELD, `Field '${sent}' must not be sent with hosted_fields_token: the ticket carries the card`);
	const ticket = state.store.tokens.get(params.hosted_fields_token);
	if (!ticket || ticket.spent) fail(E_FIELD, 'Unknown or already spent hosted_fields_token');
	const endpoint = endpointFor(scope, params.currency);
	if (context.amountMinor === null || !(context.amountMinor > 0)) fail(E_FIELD, 'Amount must be greater than zero');
	ticket.spent = true;
	const card = params.card_printed_name ? { ...ticket.card, holder: params.card_printed_name } : ticket.card;
	const order = newOrder(state, context, {
		endpoint,
		currency: endpoint.currency,
		amountMinor: context.amountMinor,
		card,
		outcome: { ...ticket.outcome },
	});
	// No type, and paynet-order-id a number here only: the shape of the v4 sale reply (gateway.ts).
	order.reply = {
		'paynet-order-id': Number(order.orderid),
		'merchant-order-id': order.clientOrderId,
		'serial-number': context.serial,
	};
	settle(state, order);
	return order.reply;
}

module.exports = { mintToken, saleWithToken };
