// @ts-check
'use strict';
// 3-D Secure: the result uploads (PaRes, CRes, method URL) and the fake issuer (ACS) page.
const cards = require('../cards');
const pages = require('../pages');
const { E_FIELD, E_STATE, fail } = require('./errors');
const { orderForPage, returnPage, withAmountText } = require('./forms');
const { asyncReply, findOrder, settle } = require('./orders');
const { field } = require('./params');

/** @typedef {import('./types').GatewayState} GatewayState */
/** @typedef {import('./types').Handler} Handler */
/** @typedef {import('./types').Order} Order */
/** @typedef {import('./types').ThreeDSecure} ThreeDSecure */
/** @typedef {import('./types').Page} Page */

/**
 * The order an upload names, which must be waiting for 3-D Secure.
 * @param {GatewayState} state
 * @param {import('./types').RequestContext} context
 * @returns {Order & { threeDS: ThreeDSecure }}
 */
function orderAwaitingThreeDS(state, context) {
	const order = findOrder(state, context, { clientOrderIdField: 'client-order-id' });
	if (!order.threeDS || !order.threeDS.pending || order.finalized) {
		fail(E_STATE, `Order ${order.orderid} is not waiting for 3-D Secure`);
	}
	return /** @type {Order & { threeDS: ThreeDSecure }} */ (order);
}

/**
 * upload-pares-result, upload-cres-result: the result 'fail' declines, anything else passes.
 * @type {Handler}
 */
function uploadThreeDSResult(state, context) {
	const order = orderAwaitingThreeDS(state, context);
	const value = field(context.params, /** @type {string} */ (context.definition.resultField));
	completeThreeDS(state, order, String(value).toLowerCase() !== 'fail');
	return asyncReply(order, context.serial);
}

/**
 * upload-method-url-result: recorded; the order keeps waiting for the challenge result.
 * @type {Handler}
 */
function uploadMethodUrlResult(state, context) {
	const completionIndicator = context.params.threeDSCompInd;
	if (!['Y', 'N', 'U'].includes(completionIndicator)) fail(E_FIELD, "Field 'threeDSCompInd' must be Y, N or U");
	const order = orderAwaitingThreeDS(state, context);
	order.threeDS.methodResult = completionIndicator;
	order.threeDS.methodAt = new Date().toISOString();
	return asyncReply(order, context.serial);
}

/**
 * 3-D Secure is over: a failure declines the order; it may become final now.
 * @param {GatewayState} state
 * @param {Order & { threeDS: ThreeDSecure }} order
 * @param {boolean} passed
 */
function completeThreeDS(state, order, passed) {
	order.threeDS.pending = false;
	order.threeDS.result = passed ? 'passed' : 'failed';
	if (!passed)
		order.outcome = { status: 'declined', errorCode: cards.TDS_DECLINE.code, errorMessage: cards.TDS_DECLINE.message };
	order.pollsLeft = 0;
	settle(state, order);
}

/**
 * GET /sandbox/acs/:orderid: the fake issuer's password page.
 * @param {GatewayState} state
 * @param {string} orderid
 * @param {string} baseUrl
 * @returns {Page}
 */
function showAcsPage(state, orderid, baseUrl) {
	const order = orderForPage(state, orderid);
	if (!order) return { status: 404, html: pages.messagePage('Not found', `No order ${orderid}`) };
	if (!order.threeDS || !order.threeDS.pending) {
		return { status: 409, html: pages.messagePage('3-D Secure', `Order ${orderid} is not waiting for 3-D Secure`) };
	}
	return { status: 200, html: pages.acsPage(withAmountText(order), `${baseUrl}/sandbox/acs/${order.orderid}`) };
}

/**
 * POST /sandbox/acs/:orderid: the password 'hint' passes, anything else fails; then the return
 * to the merchant.
 * @param {GatewayState} state
 * @param {string} orderid
 * @param {import('./types').Params} fields
 * @returns {Page}
 */
function submitAcsPage(state, orderid, fields) {
	const order = orderForPage(state, orderid);
	if (!order) return { status: 404, html: pages.messagePage('Not found', `No order ${orderid}`) };
	if (!order.threeDS || !order.threeDS.pending) {
		return { status: 409, html: pages.messagePage('3-D Secure', `Order ${orderid} is not waiting for 3-D Secure`) };
	}
	completeThreeDS(state, /** @type {Order & { threeDS: ThreeDSecure }} */ (order), fields.password === 'hint');
	return { status: 200, html: returnPage(state, order) };
}

module.exports = { uploadThreeDSResult, uploadMethodUrlResult, showAcsPage, submitAcsPage };
