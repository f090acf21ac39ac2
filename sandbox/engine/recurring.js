// @ts-check
'use strict';
// Recurring payments (v4, synchronous): create and update. The payments themselves are kept by
// stored-credentials.js.
const cards = require('../cards');
const { maskParams } = require('../mask');
const { E_FIELD, E_NOT_FOUND, fail } = require('./errors');
const { endpointFor } = require('./orders');
const { field } = require('./params');
const { findCardReference, newRecurringPayment } = require('./stored-credentials');

/** @typedef {import('./types').Handler} Handler */
/** @typedef {import('./types').RecurringPayment} RecurringPayment */

/**
 * create-recurring-payment: with a card, a card reference or neither; a repeated client order id
 * gets the same payment.
 * @type {Handler}
 */
function createRecurringPayment(state, context) {
	const { params, scope, merchant } = context;
	const clientOrderId = field(params, 'client_orderid');
	const existing = clientOrderId && state.store.recurringByClientId.get(`${scope.key}\u0000${clientOrderId}`);
	/** @param {RecurringPayment} recurringPayment */
	const reply = (recurringPayment) => ({
		type: 'create-recurring-payment-response',
		'serial-number': context.serial,
		status: 'approved',
		'recurring-payment-id': recurringPayment.id,
		'merchant-order-id': recurringPayment.clientOrderId || undefined,
	});
	if (existing) return reply(existing);
	const number = params['credit-card-number'] || params.credit_card_number;
	let card = null;
	if (number) {
		if (!cards.luhnValid(number)) fail(E_FIELD, 'Invalid card number');
		const month = params['expire-month'] || params.expire_month;
		const year = params['expire-year'] || params.expire_year;
		if (month || year) {
			const expiryError = cards.expiryError(month, year);
			if (expiryError) fail(E_FIELD, expiryError);
		}
		card = cards.cardSummary(number, month, year, params['card-printed-name'] || params.card_printed_name);
	}
	const cardRefId = params['card-ref-id'] || params.cardrefid;
	if (cardRefId) findCardReference(state, merchant, cardRefId);
	const endpoint = endpointFor(scope, params.currency);
	const recurringPayment = newRecurringPayment(state, context, {
		clientOrderId,
		cardRefId,
		card,
		fields: maskParams(params),
		endpointId: endpoint.id,
	});
	return reply(recurringPayment);
}

/**
 * update-recurring-payment: its fields, and its status when a known one is sent.
 * @type {Handler}
 */
function updateRecurringPayment(state, context) {
	const id = context.params['recurring-payment-id'];
	const recurringPayment = state.store.recurring.get(String(id));
	if (!recurringPayment || recurringPayment.merchant !== context.merchant)
		fail(E_NOT_FOUND, `Recurring payment ${id} not found`);
	Object.assign(recurringPayment.fields, maskParams(context.params));
	if (context.params.status && /^(active|inactive|cancelled|canceled|paused)$/i.test(context.params.status))
		recurringPayment.status = context.params.status.toLowerCase();
	recurringPayment.updatedAt = new Date().toISOString();
	return {
		type: 'update-recurring-payment-response',
		'serial-number': context.serial,
		status: 'approved',
		'recurring-payment-id': recurringPayment.id,
	};
}

module.exports = { createRecurringPayment, updateRecurringPayment };
