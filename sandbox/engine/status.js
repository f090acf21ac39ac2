// @ts-check
'use strict';
// The status query and the status reply every later stage reads.
const { formatMinor } = require('../amount');
const pages = require('../pages');
const { requireSignerLogin } = require('./auth');
const { E_FIELD, E_NOT_FOUND, fail } = require('./errors');
const { finalize, isHeldBack, netAmount, orderStage } = require('./orders');
const { field } = require('./params');

/** @typedef {import('./types').Order} Order */
/** @typedef {import('./types').Outcome} Outcome */
/** @typedef {import('./types').Reply} Reply */

/**
 * status (v2) and v4/status: the order's status; each query of an order that nothing holds back
 * counts pollsBeforeFinal down, then finalises it.
 * @type {import('./types').Handler}
 */
function queryStatus(state, context) {
	const { params, merchant, scope } = context;
	const clientOrderId = field(params, 'client_orderid');
	const v4 = !!context.definition.v4;
	// v4: the login in the body must be the merchant who signed.
	if (v4) requireSignerLogin(context);
	const order = params.orderid
		? state.store.orders.get(params.orderid)
		: state.store.findByClientId(scope.key, clientOrderId) ||
			(v4
				? onlyOrderNamed(state, merchant, clientOrderId)
				: state.store.findUniqueForMerchant(merchant, clientOrderId));
	const known = order && order.merchant === merchant && order.clientOrderId === clientOrderId;
	// v4: an unknown order is refused with HTTP 400 and an error-message worded as the vendor's emulator
	// words it, the orderid it was sent included ("undefined" when none was: hosted-fields-examples
	// e2e-tests/src/emulator/gateway.ts, docs/sandbox.md).
	if (!known && v4) fail(E_NOT_FOUND, `Unknown order ${params.orderid}.`);
	if (!order || !known) {
		// Guess (not in the docs): a correctly signed query for an unknown order is a status
		// reply with status=error, not a validation error.
		return {
			type: 'status-response',
			'serial-number': context.serial,
			status: 'error',
			'merchant-order-id': clientOrderId,
			'paynet-order-id': params.orderid || undefined,
			'error-message': 'Order not found',
			'error-code': String(E_NOT_FOUND),
		};
	}
	if (!order.finalized && !isHeldBack(order)) {
		if (order.pollsLeft > 0) order.pollsLeft--;
		else finalize(state, order);
	}
	// api_v4_status lists the full status reply; the vendor's emulator answers a short one (option v4StatusReply).
	if (v4 && state.options.v4StatusReply === 'emulator') return statusReplyV4(order, context.baseUrl);
	const reply = statusReply(order, context.serial, context.baseUrl);
	if (params['by-request-sn']) {
		const transaction = order.transactions.find((candidate) => candidate.serial === params['by-request-sn']);
		if (transaction) {
			reply['by-request-sn'] = /** @type {string} */ (transaction.serial);
			reply['transaction-type'] = transaction.type;
			reply.amount = formatMinor(transaction.amountMinor, order.currency);
			if (order.finalized) reply.status = transaction.status;
		}
	}
	return reply;
}

/**
 * v4 by client_orderid alone (api_v4_status: "if it's unique"): the merchant's one order under that ID,
 * none (an unknown order), or a refusal when several share it, which must never read as "no such order".
 * @param {import('./types').GatewayState} state
 * @param {import('./types').Merchant} merchant
 * @param {string | undefined} clientOrderId
 * @returns {Order | undefined}
 */
function onlyOrderNamed(state, merchant, clientOrderId) {
	const named = state.store
		.ordersWithClientId(clientOrderId)
		.filter((order) => order.merchant === merchant && order.clientOrderId === clientOrderId);
	if (named.length > 1) fail(E_FIELD, `client_orderid ${clientOrderId} names ${named.length} orders: send orderid`);
	return named[0];
}

/**
 * The v2 status reply (also the synchronous account verification's reply).
 * @param {Order} order
 * @param {string} serial
 * @param {string} baseUrl   for the 3-D Secure page's URL (else the order's own)
 * @returns {Reply}
 */
function statusReply(order, serial, baseUrl) {
	const last = order.transactions[order.transactions.length - 1];
	const status = order.finalized ? last.status : 'processing';
	const outcome = /** @type {Outcome} */ (order.outcome);
	/** @type {Reply} */
	const reply = {
		type: 'status-response',
		'serial-number': serial,
		status,
		amount: formatMinor(netAmount(order), order.currency),
		currency: order.currency,
		'paynet-order-id': order.orderid,
		'merchant-order-id': order.clientOrderId,
		'end-point-id': order.endpointId,
		'transaction-type': last.type,
		'order-stage': orderStage(order),
		'processor-tx-id': `PNTEST-${order.orderid}`,
		'gate-partial-capture': 'enabled',
		'gate-partial-reversal': 'enabled',
		descriptor: order.merchant.descriptor,
	};
	if (order.card) {
		reply['last-four-digits'] = order.card.lastFour;
		reply.bin = order.card.bin;
		reply['card-type'] = order.card.type;
		if (order.card.holder) reply['cardholder-name'] = order.card.holder;
		if (order.card.expMonth) reply['card-exp-month'] = order.card.expMonth;
		if (order.card.expYear) reply['card-exp-year'] = order.card.expYear;
	}
	if (order.email) reply.email = order.email;
	if (order.finalized && status === 'approved') reply['approval-code'] = order.approvalCode;
	if (order.finalized && status !== 'approved' && outcome.errorMessage) {
		reply['error-message'] = outcome.errorMessage;
		reply['error-code'] = outcome.errorCode;
	}
	if (!order.finalized && order.threeDS && order.threeDS.pending) {
		const acs = `${baseUrl || order.baseUrl}/sandbox/acs/${order.orderid}`;
		reply['redirect-to'] = acs;
		reply.html = pages.autoSubmit('3-D Secure', acs, 'get', {});
	}
	if (order.cardRefId) reply['card-ref-id'] = order.cardRefId;
	if (order.recurringPaymentId) reply['recurring-payment-id'] = order.recurringPaymentId;
	return reply;
}

/**
 * The v4 status reply in the shape of the vendor's emulator: untyped JSON, no serial-number,
 * paynet-order-id a string; the order's amount and currency and the card; redirect-to while
 * 3-D Secure is pending; approval-code, processor-rrn and bank_message once approved;
 * error-message and error-code otherwise. by-request-sn is not read (the emulator has none).
 * @param {Order} order
 * @param {string} baseUrl
 * @returns {Reply}
 */
function statusReplyV4(order, baseUrl) {
	const last = order.transactions[order.transactions.length - 1];
	const status = order.finalized ? last.status : 'processing';
	/** @type {Reply} */
	const reply = {
		'paynet-order-id': String(order.orderid),
		'merchant-order-id': order.clientOrderId,
		status,
		amount: formatMinor(netAmount(order), order.currency),
		currency: order.currency,
	};
	if (order.card) {
		reply['card-type'] = order.card.type;
		reply['last-four-digits'] = order.card.lastFour;
		if (order.card.holder) reply['cardholder-name'] = order.card.holder;
	}
	if (!order.finalized && order.threeDS && order.threeDS.pending) {
		reply['redirect-to'] = `${baseUrl || order.baseUrl}/sandbox/acs/${order.orderid}`;
	}
	if (order.finalized && status === 'approved') {
		reply['approval-code'] = order.approvalCode;
		// A retrieval reference number is 12 digits; the sandbox's is the order id, zero-padded.
		reply['processor-rrn'] = String(order.orderid).padStart(12, '0');
		reply.bank_message = 'Approved';
	}
	if (order.finalized && status !== 'approved' && order.outcome && order.outcome.errorMessage) {
		reply['error-message'] = order.outcome.errorMessage;
		reply['error-code'] = order.outcome.errorCode;
	}
	return reply;
}

module.exports = { queryStatus, statusReply, statusReplyV4 };
