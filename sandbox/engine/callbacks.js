'use strict';
// What a server callback carries and how it is signed; ../callbacks.js delivers it.
const { formatMinor } = require('../amount');

class CallbackGlue {
	queueCallback(order, cb) {
		const urls = cb.urls.filter(Boolean);
		if (!urls.length) return;
		const params = {
			status: cb.status,
			merchant_order: order.clientOrderId,
			client_orderid: order.clientOrderId,
			orderid: order.orderid,
			type: cb.type,
			amount: formatMinor(cb.amountMinor, order.currency),
			currency: order.currency,
			descriptor: order.merchant.descriptor,
			error_code: cb.status === 'approved' ? '' : order.outcome.errorCode || '',
			error_message: cb.status === 'approved' ? '' : order.outcome.errorMessage || '',
		};
		if (cb.status === 'approved') params['approval-code'] = order.approvalCode;
		if (order.card) {
			params['last-four-digits'] = order.card.lastFour;
			params.bin = order.card.bin;
			params['card-type'] = order.card.type;
		}
		params['gate-partial-capture'] = 'enabled';
		params['gate-partial-reversal'] = 'enabled';
		params['processor-tx-id'] = `PNTEST-${order.orderid}`;
		if (order.merchantdata !== undefined) params.merchantdata = order.merchantdata;
		const key = order.merchant.controlKey;
		this.callbacks.enqueue({
			orderid: order.orderid,
			clientOrderId: order.clientOrderId,
			type: cb.type,
			urls,
			params,
			definition: cb.definition,
			sign: (prm, wrong) => this.verifier.sha1Hex(prm.status + prm.orderid + prm.merchant_order + key + (wrong ? '-wrong' : '')),
		});
	}
}

module.exports = CallbackGlue;
