// @ts-check
'use strict';
// The stored credentials the gateway keeps for a merchant: card references (made from the card of
// an approved order) and recurring payments; found by id for the merchant who asks, or refused.
// The commands that create and read them are card-refs.js and recurring.js.
const { E_NOT_FOUND, E_STATE, fail } = require('./errors');

/** @typedef {import('./types').GatewayState} GatewayState */
/** @typedef {import('./types').CardReference} CardReference */
/** @typedef {import('./types').RecurringPayment} RecurringPayment */

/**
 * The merchant's card reference, or a refusal (code 3).
 * @param {GatewayState} state
 * @param {import('./types').Merchant} merchant
 * @param {string | undefined} id
 * @returns {CardReference}
 */
function findCardReference(state, merchant, id) {
	const cardReference = state.store.cardRefs.get(String(id));
	if (!cardReference || cardReference.merchant !== merchant) fail(E_NOT_FOUND, `Card reference ${id} not found`);
	return cardReference;
}

/**
 * The card a recurring payment charges (its own, or its card reference's), or a refusal: unknown to
 * the merchant (code 3), not active or without a card (code 4).
 * @param {GatewayState} state
 * @param {import('./types').Merchant} merchant
 * @param {string | undefined} id
 * @returns {{ recurringPayment: RecurringPayment, card: import('./types').CardSummary }}
 */
function chargeableRecurringPayment(state, merchant, id) {
	const recurringPayment = state.store.recurring.get(String(id));
	if (!recurringPayment || recurringPayment.merchant !== merchant)
		fail(E_NOT_FOUND, `Recurring payment ${id} not found`);
	if (recurringPayment.status !== 'active')
		fail(E_STATE, `Recurring payment ${id} is ${recurringPayment.status}, not active`);
	const card =
		recurringPayment.card ||
		(recurringPayment.cardRefId ? findCardReference(state, merchant, recurringPayment.cardRefId).card : null);
	if (!card) fail(E_STATE, `Recurring payment ${id} has no card to charge`);
	return { recurringPayment, card };
}

/**
 * The order's card reference, made the first time (the order must have a card).
 * @param {GatewayState} state
 * @param {import('./types').Order} order
 * @returns {CardReference}
 */
function makeCardReference(state, order) {
	if (order.cardRefId) return /** @type {CardReference} */ (state.store.cardRefs.get(order.cardRefId));
	/** @type {CardReference} */
	const cardReference = {
		id: state.store.nextCardRefId(),
		merchant: order.merchant,
		card: /** @type {import('./types').CardSummary} */ (order.card),
		orderid: order.orderid,
		createdAt: new Date().toISOString(),
	};
	state.store.cardRefs.set(cardReference.id, cardReference);
	order.cardRefId = cardReference.id;
	return cardReference;
}

/**
 * What a new recurring payment is made of besides the request.
 * @typedef {object} NewRecurringPaymentFields
 * @property {string} endpointId
 * @property {string} [clientOrderId]
 * @property {string} [cardRefId]
 * @property {import('./types').CardSummary | null} [card]
 * @property {import('./types').Params} [fields]   masked
 */

/**
 * Register a recurring payment (findable by its client order id in the request's scope, if any).
 * @param {GatewayState} state
 * @param {import('./types').RequestContext} context
 * @param {NewRecurringPaymentFields} fields
 * @returns {RecurringPayment}
 */
function newRecurringPayment(state, context, fields) {
	/** @type {RecurringPayment} */
	const recurringPayment = {
		id: state.store.nextRecurringId(),
		merchant: context.merchant,
		scopeKey: context.scope.key,
		endpointId: fields.endpointId,
		clientOrderId: fields.clientOrderId || null,
		cardRefId: fields.cardRefId || null,
		card: fields.card || null,
		fields: fields.fields || {},
		status: 'active',
		createdAt: new Date().toISOString(),
		updatedAt: null,
	};
	state.store.recurring.set(recurringPayment.id, recurringPayment);
	if (recurringPayment.clientOrderId) {
		state.store.recurringByClientId.set(
			`${recurringPayment.scopeKey}\u0000${recurringPayment.clientOrderId}`,
			recurringPayment,
		);
	}
	return recurringPayment;
}

module.exports = { findCardReference, chargeableRecurringPayment, makeCardReference, newRecurringPayment };
