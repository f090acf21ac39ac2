// @ts-check
'use strict';
// What a server callback carries and how it is signed; ../callbacks.js delivers it. Every callback an
// order reports is kept, so the admin API can send the same genuine callbacks to another URL.
const { formatMinor } = require('../amount');

/** @typedef {import('./types').GatewayState} GatewayState */
/** @typedef {import('./types').Order} Order */

/**
 * A callback about an order: to whom, which transaction, with which status and amount.
 * @typedef {object} CallbackRequest
 * @property {string[]} urls                 empty ones are skipped
 * @property {string | undefined} type       the transaction type it reports
 * @property {string} status
 * @property {number} amountMinor
 * @property {import('./types').CommandName} definition   the command it reports (fault matching)
 */

/**
 * A callback the order reported, whatever its URLs were (none included).
 * @typedef {object} ReportedCallback
 * @property {string | undefined} type
 * @property {Record<string, string>} params   without control
 * @property {import('./types').CommandName} definition
 */

/**
 * Each order's reported callbacks, oldest first. Beside the order rather than in it: the order's
 * shape stays the engine's, and a reset forgets both together.
 * @type {WeakMap<Order, ReportedCallback[]>}
 */
const reportedByOrder = new WeakMap();

/**
 * The callback's fields, without control.
 * @param {Order} order
 * @param {CallbackRequest} callback
 * @returns {Record<string, string>}
 */
function callbackParams(order, callback) {
	const outcome = /** @type {import('./types').Outcome} */ (order.outcome);
	/** @type {Record<string, string>} */
	const params = {
		status: callback.status,
		merchant_order: order.clientOrderId,
		client_orderid: order.clientOrderId,
		orderid: order.orderid,
		type: /** @type {string} */ (callback.type),
		amount: formatMinor(callback.amountMinor, order.currency),
		currency: order.currency,
		descriptor: order.merchant.descriptor,
		error_code: callback.status === 'approved' ? '' : outcome.errorCode || '',
		error_message: callback.status === 'approved' ? '' : outcome.errorMessage || '',
	};
	if (callback.status === 'approved') params['approval-code'] = /** @type {string} */ (order.approvalCode);
	if (order.card) {
		params['last-four-digits'] = order.card.lastFour;
		params.bin = order.card.bin;
		params['card-type'] = order.card.type;
	}
	params['gate-partial-capture'] = 'enabled';
	params['gate-partial-reversal'] = 'enabled';
	params['processor-tx-id'] = `PNTEST-${order.orderid}`;
	if (order.merchantdata !== undefined) params.merchantdata = order.merchantdata;
	return params;
}

/**
 * Queue a reported callback for delivery to urls, signed with the merchant's control key.
 * @param {GatewayState} state
 * @param {Order} order
 * @param {ReportedCallback} reported
 * @param {string[]} urls
 */
function sendCallback(state, order, reported, urls) {
	const controlKey = order.merchant.controlKey;
	return state.callbacks.enqueue({
		orderid: order.orderid,
		clientOrderId: order.clientOrderId,
		type: reported.type,
		urls,
		params: reported.params,
		definition: reported.definition,
		/** @param {Record<string, string>} fields @param {boolean} wrong */
		sign: (fields, wrong) =>
			state.verifier.sha1Hex(
				fields.status + fields.orderid + fields.merchant_order + controlKey + (wrong ? '-wrong' : ''),
			),
	});
}

/**
 * The order reports a transaction: kept, and queued for each of its URLs (if any).
 * @param {GatewayState} state
 * @param {Order} order
 * @param {CallbackRequest} callback
 */
function queueCallback(state, order, callback) {
	/** @type {ReportedCallback} */
	const reported = { type: callback.type, params: callbackParams(order, callback), definition: callback.definition };
	reportedByOrder.set(order, [...reportedCallbacks(order), reported]);
	sendCallback(state, order, reported, callback.urls);
}

/**
 * The callbacks the order has reported so far, oldest first.
 * @param {Order} order
 * @returns {ReportedCallback[]}
 */
function reportedCallbacks(order) {
	return reportedByOrder.get(order) || [];
}

module.exports = { queueCallback, reportedCallbacks, sendCallback };
