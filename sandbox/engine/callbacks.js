// @ts-check
'use strict';
// What a server callback carries and how it is signed; ../callbacks.js delivers it.
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
 * Queue the callback for delivery, signed with the merchant's control key.
 * @param {GatewayState} state
 * @param {Order} order
 * @param {CallbackRequest} callback
 */
function queueCallback(state, order, callback) {
	const urls = callback.urls.filter(Boolean);
	if (!urls.length) return;
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
	const controlKey = order.merchant.controlKey;
	state.callbacks.enqueue({
		orderid: order.orderid,
		clientOrderId: order.clientOrderId,
		type: callback.type,
		urls,
		params,
		definition: callback.definition,
		/** @param {Record<string, string>} fields @param {boolean} wrong */
		sign: (fields, wrong) =>
			state.verifier.sha1Hex(
				fields.status + fields.orderid + fields.merchant_order + controlKey + (wrong ? '-wrong' : ''),
			),
	});
}

module.exports = { queueCallback };
