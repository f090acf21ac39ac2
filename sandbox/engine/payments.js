'use strict';
// Initial operations that start an order: sale, preauth, rebill, account verification (also
// synchronous), payouts, transfers and the PAN eligibility check.
const { field } = require('../commands');
const cards = require('../cards');
const { E_FIELD, fail } = require('./errors');

class Payments {
	validateCard(p, { cvvRequired, numberField = 'credit_card_number' } = {}) {
		const pan = p[numberField];
		if (!cards.luhnValid(pan)) fail(E_FIELD, `Invalid card number in '${numberField}'`);
		if (p.expire_month !== undefined || p.expire_year !== undefined) {
			const err = cards.expiryError(p.expire_month, p.expire_year);
			if (err) fail(E_FIELD, err);
		}
		if (p.cvv2 !== undefined && p.cvv2 !== '' && !/^\d{3,4}$/.test(p.cvv2)) fail(E_FIELD, 'Invalid cvv2');
		if (cvvRequired && !p.cvv2) fail(E_FIELD, "Field 'cvv2' is required");
		return cards.cardSummary(pan, p.expire_month, p.expire_year, p.card_printed_name);
	}

	payment(ctx) {
		const { def, p, merchant, scope } = ctx;
		const cid = def.name === 'pan-eligibility/send' ? field(p, 'client-order-id') : field(p, 'client_orderid');
		const existing = this.store.findByClientId(scope.key, cid);
		if (existing) return this.replayReply(existing, ctx.serial);

		let endpoint;
		let currency;
		let amountMinor = 0;
		if (def.kind === 'verify' || def.kind === 'eligibility') {
			endpoint = this.endpointFor(scope, p.currency);
			currency = endpoint.currency;
		} else {
			endpoint = this.endpointFor(scope, p.currency);
			currency = endpoint.currency;
			amountMinor = ctx.minor;
			if (!(amountMinor > 0)) fail(E_FIELD, 'Amount must be greater than zero');
		}

		let card = null;
		let sourceCardRefId = null;
		let threeDSAllowed = false;
		if (def.card === 'required') {
			card = this.validateCard(p, { cvvRequired: def.kind === 'sale' || def.kind === 'preauth' });
			threeDSAllowed = true;
		} else if (def.card === 'ref') {
			const ref = this.findCardRef(merchant, p.cardrefid);
			card = ref.card;
			sourceCardRefId = ref.id;
		} else if (def.card === 'source-ref' && p['source-card-ref-id']) {
			const ref = this.findCardRef(merchant, p['source-card-ref-id']);
			card = ref.card;
			sourceCardRefId = ref.id;
		} else if (def.card === 'optional' && p.credit_card_number) {
			card = this.validateCard(p, {});
		}
		if (p.cvv2 && !/^\d{3,4}$/.test(p.cvv2)) fail(E_FIELD, 'Invalid cvv2');
		if (def.destination) this.requireDestination(def, p, merchant);
		if (def.kind === 'eligibility') {
			if (p['sending-card-number'] && !cards.luhnValid(p['sending-card-number'])) fail(E_FIELD, "Invalid card number in 'sending-card-number'");
			if (p['sending-card-ref-id']) card = this.findCardRef(merchant, p['sending-card-ref-id']).card;
			else if (p['sending-card-number']) card = cards.cardSummary(p['sending-card-number'], p.expire_month, p.expire_year, p['card-printed-name']);
		}

		const outcome = cards.cvvOutcome(p.cvv2);
		if (outcome.threeDS && !threeDSAllowed) delete outcome.threeDS;
		const order = this.newOrder(ctx, { endpoint, currency, amountMinor, card, sourceCardRefId, outcome });
		order.reply = this.asyncReply(order, ctx.serial);
		this.settle(order);
		return order.reply;
	}

	syncVerify(ctx) {
		const { p, scope } = ctx;
		const existing = this.store.findByClientId(scope.key, field(p, 'client_orderid'));
		if (existing) return this.statusReply(existing, ctx.serial, ctx.baseUrl);
		const endpoint = this.endpointFor(scope, p.currency);
		const card = this.validateCard(p, {});
		const outcome = cards.cvvOutcome(p.cvv2);
		delete outcome.threeDS;
		const order = this.newOrder(ctx, { endpoint, currency: endpoint.currency, amountMinor: 0, card, outcome, noStay: true });
		order.pollsLeft = 0;
		this.finalize(order);
		if (order.status === 'approved') this.makeCardRef(order);
		order.reply = this.statusReply(order, ctx.serial, ctx.baseUrl);
		return order.reply;
	}
}

module.exports = Payments;
