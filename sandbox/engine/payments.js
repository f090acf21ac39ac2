'use strict';
// Initial operations that start an order: sale, preauth, rebill, account verification (also
// synchronous), payouts, transfers and the PAN eligibility check.
const { field } = require('./params');
const cards = require('../cards');
const { E_FIELD, fail } = require('./errors');

class Payments {
	startPayment(context) {
		const { definition, params, merchant, scope } = context;
		const clientOrderId = definition.name === 'pan-eligibility/send' ? field(params, 'client-order-id') : field(params, 'client_orderid');
		const existing = this.store.findByClientId(scope.key, clientOrderId);
		if (existing) return this.replayReply(existing, context.serial);

		let endpoint;
		let currency;
		let amountMinor = 0;
		if (definition.kind === 'verify' || definition.kind === 'eligibility') {
			endpoint = this.endpointFor(scope, params.currency);
			currency = endpoint.currency;
		} else {
			endpoint = this.endpointFor(scope, params.currency);
			currency = endpoint.currency;
			amountMinor = context.amountMinor;
			if (!(amountMinor > 0)) fail(E_FIELD, 'Amount must be greater than zero');
		}

		let card = null;
		let sourceCardRefId = null;
		let threeDSAllowed = false;
		if (definition.card === 'required') {
			card = this.validateCard(params, { cvvRequired: definition.kind === 'sale' || definition.kind === 'preauth' });
			threeDSAllowed = true;
		} else if (definition.card === 'ref') {
			const cardReference = this.findCardReference(merchant, params.cardrefid);
			card = cardReference.card;
			sourceCardRefId = cardReference.id;
		} else if (definition.card === 'source-ref' && params['source-card-ref-id']) {
			const cardReference = this.findCardReference(merchant, params['source-card-ref-id']);
			card = cardReference.card;
			sourceCardRefId = cardReference.id;
		} else if (definition.card === 'optional' && params.credit_card_number) {
			card = this.validateCard(params, {});
		}
		if (params.cvv2 && !/^\d{3,4}$/.test(params.cvv2)) fail(E_FIELD, 'Invalid cvv2');
		if (definition.destination) this.requireDestination(definition, params, merchant);
		if (definition.kind === 'eligibility') {
			if (params['sending-card-number'] && !cards.luhnValid(params['sending-card-number'])) fail(E_FIELD, "Invalid card number in 'sending-card-number'");
			if (params['sending-card-ref-id']) card = this.findCardReference(merchant, params['sending-card-ref-id']).card;
			else if (params['sending-card-number']) card = cards.cardSummary(params['sending-card-number'], params.expire_month, params.expire_year, params['card-printed-name']);
		}

		const outcome = cards.cvvOutcome(params.cvv2);
		if (outcome.threeDS && !threeDSAllowed) delete outcome.threeDS;
		const order = this.newOrder(context, { endpoint, currency, amountMinor, card, sourceCardRefId, outcome });
		order.reply = this.asyncReply(order, context.serial);
		this.settle(order);
		return order.reply;
	}

	verifyAccountNow(context) {
		const { params, scope } = context;
		const existing = this.store.findByClientId(scope.key, field(params, 'client_orderid'));
		if (existing) return this.statusReply(existing, context.serial, context.baseUrl);
		const endpoint = this.endpointFor(scope, params.currency);
		const card = this.validateCard(params, {});
		const outcome = cards.cvvOutcome(params.cvv2);
		delete outcome.threeDS;
		const order = this.newOrder(context, { endpoint, currency: endpoint.currency, amountMinor: 0, card, outcome, noStay: true });
		order.pollsLeft = 0;
		this.finalize(order);
		if (order.status === 'approved') this.makeCardReference(order);
		order.reply = this.statusReply(order, context.serial, context.baseUrl);
		return order.reply;
	}
}

module.exports = Payments;
