// @ts-check
'use strict';
// Hosted pages: the form orders, the card page the payer fills in, and the signed return of the
// payer to the merchant after the form or the ACS.
const { formatMinor } = require('../amount');
const cards = require('../cards');
const pages = require('../pages');
const { validateCard } = require('./card-input');
const { E_FIELD, GatewayError, fail } = require('./errors');
const { asyncReply, endpointFor, newOrder, replayReply, settle } = require('./orders');
const { field } = require('./params');

/** @typedef {import('./types').GatewayState} GatewayState */
/** @typedef {import('./types').Order} Order */
/** @typedef {import('./types').Outcome} Outcome */
/** @typedef {import('./types').Page} Page */

/**
 * sale-form, preauth-form, payment-form, payout-form, transfer-form, account-verification-form:
 * an order that waits for the payer to fill in the hosted form (redirect-url).
 * @type {import('./types').Handler}
 */
function startFormOrder(state, context) {
	const { definition, params, scope } = context;
	const clientOrderId = field(params, 'client_orderid');
	const existing = state.store.findByClientId(scope.key, clientOrderId);
	if (existing) return replayReply(existing, context.serial);
	const endpoint = endpointFor(scope, params.currency);
	let amountMinor = 0;
	if (definition.kind !== 'verify') {
		if (context.amountMinor === null || !(context.amountMinor > 0)) fail(E_FIELD, 'Amount must be greater than zero');
		amountMinor = context.amountMinor;
	}
	const order = newOrder(state, context, { endpoint, currency: endpoint.currency, amountMinor, form: true });
	order.reply = {
		...asyncReply(order, context.serial, 'async-form-response'),
		'redirect-url': `${context.baseUrl}/sandbox/form/${order.orderid}`,
	};
	return order.reply;
}

/**
 * The fields the payer carries back to the merchant, signed with the merchant's control key.
 * @param {GatewayState} state
 * @param {Order} order
 * @returns {Record<string, string>}
 */
function returnFields(state, order) {
	const outcome = /** @type {Outcome} */ (order.outcome);
	const status = order.finalized ? order.status : outcome.status;
	/** @type {Record<string, string>} */
	const fields = {
		status,
		orderid: order.orderid,
		merchant_order: order.clientOrderId,
		client_orderid: order.clientOrderId,
		control: state.verifier.sha1Hex(status + order.orderid + order.clientOrderId + order.merchant.controlKey),
		descriptor: order.merchant.descriptor,
	};
	if (status !== 'approved' && outcome.errorMessage) fields.error_message = outcome.errorMessage;
	return fields;
}

/**
 * Where the payer goes after the form / ACS: auto-POST of the signed parameters.
 * @param {GatewayState} state
 * @param {Order} order
 * @returns {string} html
 */
function returnPage(state, order) {
	const fields = returnFields(state, order);
	const urls = order.urls;
	const target = (fields.status === 'approved' ? urls.redirectSuccess : urls.redirectFail) || urls.redirect;
	if (!target) return pages.messagePage('Payment finished', `Order ${order.orderid}: ${fields.status}`);
	return pages.autoSubmit('Returning to the merchant', target, 'post', fields);
}

/**
 * The order a browser page names (any merchant's: the page URL is the secret).
 * @param {GatewayState} state
 * @param {string} orderid
 * @returns {Order | null}
 */
function orderForPage(state, orderid) {
	return state.store.orders.get(String(orderid)) || null;
}

/**
 * The order as the pages show it: with its amount as a decimal string.
 * @param {Order} order
 */
function withAmountText(order) {
	return { ...order, amountText: formatMinor(order.amountMinor, order.currency) };
}

/**
 * GET /sandbox/form/:orderid: the card page of a form order that waits for the payer.
 * @param {GatewayState} state
 * @param {string} orderid
 * @param {string} baseUrl
 * @returns {Page}
 */
function showFormPage(state, orderid, baseUrl) {
	const order = orderForPage(state, orderid);
	if (!order || !order.form)
		return { status: 404, html: pages.messagePage('Not found', `No form for order ${orderid}`) };
	if (!order.form.pending)
		return { status: 409, html: pages.messagePage('Payment form', `Order ${orderid} is already completed`) };
	return { status: 200, html: pages.formPage(withAmountText(order), `${baseUrl}/sandbox/form/${order.orderid}`) };
}

/**
 * POST /sandbox/form/:orderid: the payer's card; the order's outcome is decided now (test CVV),
 * then 3-D Secure or the return to the merchant.
 * @param {GatewayState} state
 * @param {string} orderid
 * @param {import('./types').Params} fields
 * @param {string} baseUrl
 * @returns {Page}
 */
function submitFormPage(state, orderid, fields, baseUrl) {
	const order = orderForPage(state, orderid);
	if (!order || !order.form)
		return { status: 404, html: pages.messagePage('Not found', `No form for order ${orderid}`) };
	if (!order.form.pending)
		return { status: 409, html: pages.messagePage('Payment form', `Order ${orderid} is already completed`) };
	const payout = order.kind === 'payout';
	let card;
	try {
		card = validateCard(fields, { cvvRequired: !payout });
	} catch (e) {
		if (!(e instanceof GatewayError)) throw e;
		return {
			status: 400,
			html: pages.formPage(withAmountText(order), `${baseUrl}/sandbox/form/${order.orderid}`, e.message),
		};
	}
	order.card = card;
	order.form.pending = false;
	order.form.completedAt = new Date().toISOString();
	order.outcome = payout ? { status: 'approved' } : cards.cvvOutcome(fields.cvv2);
	if (order.outcome.threeDS) {
		order.threeDS = { pending: true, methodResult: null };
		return { status: 200, html: pages.autoSubmit('3-D Secure', `${baseUrl}/sandbox/acs/${order.orderid}`, 'get', {}) };
	}
	settle(state, order);
	return { status: 200, html: returnPage(state, order) };
}

module.exports = { startFormOrder, returnPage, orderForPage, withAmountText, showFormPage, submitFormPage };
