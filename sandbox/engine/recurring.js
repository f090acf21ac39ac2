// @ts-check
'use strict';
// Recurring payments (v4): create and update (synchronous), and the charges of a recurring payment
// (process-recurring-payment, and the batch process-recurring-payments), which start a sale-like
// order on its card exactly as a rebill does. The payments themselves are kept by stored-credentials.js.
const cards = require('../cards');
const { parseCsv } = require('../csv');
const { maskParams } = require('../mask');
const { amountMinorOf } = require('./amounts');
const { E_FIELD, E_NOT_FOUND, GatewayError, fail } = require('./errors');
const { endpointFor } = require('./orders');
const { field } = require('./params');
const { startPayment } = require('./payments');
const { chargeableRecurringPayment, findCardReference, newRecurringPayment } = require('./stored-credentials');

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

const CHARGE_FIELDS = ['client_orderid', 'recurring-payment-id', 'amount'];

/**
 * A charge of a recurring payment, checked before anything moves: its fields, the payment (the
 * merchant's, active, with a card, on the endpoint the URL names) and the amount in the endpoint's
 * currency (the request need not send one).
 * @param {import('./types').GatewayState} state
 * @param {import('./types').RequestContext} context
 * @returns {import('./types').RequestContext}   with the amount in minor units
 */
function checkedCharge(state, context) {
	const { params, merchant, scope } = context;
	for (const name of CHARGE_FIELDS) if (field(params, name) === undefined) fail(E_FIELD, `Field '${name}' is required`);
	const endpoint = endpointFor(scope, params.currency);
	const { recurringPayment } = chargeableRecurringPayment(state, merchant, params['recurring-payment-id']);
	if (recurringPayment.endpointId !== endpoint.id)
		fail(E_FIELD, `Recurring payment ${recurringPayment.id} belongs to endpoint ${recurringPayment.endpointId}`);
	const amountMinor = amountMinorOf(params.amount, endpoint.currency);
	if (!(amountMinor > 0)) fail(E_FIELD, 'Amount must be greater than zero');
	return { ...context, amountMinor };
}

/**
 * The reply to an accepted charge: `status=processing` is the request's, not the transaction's.
 * @param {import('./types').Reply} reply
 */
function chargeAccepted(reply) {
	return { ...reply, type: 'process-recurring-payment-response', status: 'processing' };
}

/**
 * process-recurring-payment: charge a recurring payment once per client order id.
 * @type {Handler}
 */
function processRecurringPayment(state, context) {
	return chargeAccepted(startPayment(state, checkedCharge(state, context)));
}

/**
 * process-recurring-payments: the charges of the CSV `payload` (a header record naming the fields,
 * then one record per charge). Every record is checked before the first charge starts, so a refused
 * batch charges nothing; the reply lists the orders in the records' order.
 * @type {Handler}
 */
function processRecurringPayments(state, context) {
	let records;
	try {
		records = parseCsv(context.params.payload || '');
	} catch (/** @type {any} */ e) {
		fail(E_FIELD, `Field 'payload': ${e.message}`);
	}
	const [header, ...rows] = records;
	if (!header || rows.length === 0)
		fail(E_FIELD, "Field 'payload' must be CSV: a header record and one record per charge");
	const seen = new Set();
	const charges = rows.map((row, index) => {
		/** @type {import('./types').Params} */
		const params = {};
		header.forEach((name, column) => {
			if (row[column] !== undefined) params[name.trim()] = row[column].trim();
		});
		try {
			const charge = checkedCharge(state, { ...context, params });
			const clientOrderId = field(params, 'client_orderid');
			if (seen.has(clientOrderId)) fail(E_FIELD, `client order id ${clientOrderId} appears twice`);
			seen.add(clientOrderId);
			return charge;
		} catch (e) {
			if (e instanceof GatewayError) throw new GatewayError(e.code, `Record ${index + 1}: ${e.message}`, e.type);
			throw e;
		}
	});
	const replies = charges.map((charge) => startPayment(state, charge));
	return {
		...chargeAccepted({ 'serial-number': context.serial }),
		'merchant-order-ids': replies.map((reply) => reply['merchant-order-id']).join(','),
		'paynet-order-ids': replies.map((reply) => reply['paynet-order-id']).join(','),
	};
}

module.exports = { createRecurringPayment, updateRecurringPayment, processRecurringPayment, processRecurringPayments };
