// @ts-check
'use strict';
// Initial operations that start an order: sale, preauth, rebill, account verification (also
// synchronous), payouts and transfers (the PAN eligibility checks: pan-eligibility.js).
const cards = require('../cards');
const { validateCard } = require('./card-input');
const { E_FIELD, fail } = require('./errors');
const { asyncReply, endpointFor, finalize, newOrder, replayReply, settle } = require('./orders');
const { clientOrderIdOf, field } = require('./params');
const { requireDestination } = require('./payouts');
const { statusReply } = require('./status');
const { chargeableRecurringPayment, findCardReference, makeCardReference } = require('./stored-credentials');

/** @typedef {import('./types').Handler} Handler */

/**
 * sale, preauth, rebills, account verification, payouts, transfers: a new order
 * (or, for a repeated client order id, the first reply again), final at once unless something
 * holds it back (3-D Secure, a stay-processing fault, pollsBeforeFinal).
 * @type {Handler}
 */
function startPayment(state, context) {
	const { definition, params, merchant, scope } = context;
	const existing = state.store.findByClientId(scope.key, clientOrderIdOf(definition, params));
	if (existing) return replayReply(existing, context.serial);

	const endpoint = endpointFor(scope, params.currency);
	const currency = endpoint.currency;
	let amountMinor = 0;
	if (definition.kind !== 'verify') {
		if (context.amountMinor === null || !(context.amountMinor > 0)) fail(E_FIELD, 'Amount must be greater than zero');
		amountMinor = context.amountMinor;
	}

	/** @type {import('./types').CardSummary | null} */
	let card = null;
	/** @type {string | null} */
	let sourceCardRefId = null;
	let threeDSAllowed = false;
	if (definition.card === 'required') {
		card = validateCard(params, { cvvRequired: definition.kind === 'sale' || definition.kind === 'preauth' });
		threeDSAllowed = true;
	} else if (definition.card === 'ref') {
		const cardReference = findCardReference(state, merchant, params.cardrefid);
		card = cardReference.card;
		sourceCardRefId = cardReference.id;
	} else if (definition.card === 'source-ref' && params['source-card-ref-id']) {
		const cardReference = findCardReference(state, merchant, params['source-card-ref-id']);
		card = cardReference.card;
		sourceCardRefId = cardReference.id;
	} else if (definition.card === 'recurring') {
		card = chargeableRecurringPayment(state, merchant, params['recurring-payment-id']).card;
	} else if (definition.card === 'optional' && params.credit_card_number) {
		card = validateCard(params, {});
	}
	if (params.cvv2 && !/^\d{3,4}$/.test(params.cvv2)) fail(E_FIELD, 'Invalid cvv2');
	if (definition.destination) requireDestination(state, definition, params, merchant);

	const outcome = cards.cvvOutcome(params.cvv2);
	if (outcome.threeDS && !threeDSAllowed) delete outcome.threeDS;
	const order = newOrder(state, context, { endpoint, currency, amountMinor, card, sourceCardRefId, outcome });
	order.reply = asyncReply(order, context.serial);
	settle(state, order);
	return order.reply;
}

/**
 * sync/account-verification: final at once, answered with the status reply (and a card reference
 * when approved); 3-D Secure and stay-processing faults do not apply.
 * @type {Handler}
 */
function verifyAccountNow(state, context) {
	const { params, scope } = context;
	const existing = state.store.findByClientId(scope.key, field(params, 'client_orderid'));
	if (existing) return statusReply(existing, context.serial, context.baseUrl);
	const endpoint = endpointFor(scope, params.currency);
	const card = validateCard(params, {});
	const outcome = cards.cvvOutcome(params.cvv2);
	delete outcome.threeDS;
	const order = newOrder(state, context, {
		endpoint,
		currency: endpoint.currency,
		amountMinor: 0,
		card,
		outcome,
		noStay: true,
	});
	order.pollsLeft = 0;
	finalize(state, order);
	if (order.status === 'approved') makeCardReference(state, order);
	order.reply = statusReply(order, context.serial, context.baseUrl);
	return order.reply;
}

module.exports = { startPayment, verifyAccountNow };
