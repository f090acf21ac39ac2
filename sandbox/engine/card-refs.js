// @ts-check
'use strict';
// The card reference commands: create-card-ref (v2; v4 also registers a recurring payment) and
// get-card-info. The references themselves are kept by stored-credentials.js.
const { E_STATE, fail } = require('./errors');
const { findOrder, requireFinalApproved } = require('./orders');
const { findCardReference, makeCardReference, newRecurringPayment } = require('./stored-credentials');

/** @typedef {import('./types').Handler} Handler */

/**
 * create-card-ref: a reference to the card of a final approved order (the same one every time).
 * @type {Handler}
 */
function createCardReference(state, context) {
	const order = findOrder(state, context);
	requireFinalApproved(order, 'Creating a card reference');
	if (!order.card) fail(E_STATE, `Order ${order.orderid} has no card to reference`);
	const cardReference = makeCardReference(state, order);
	/** @type {import('./types').Reply} */
	const reply = {
		type: 'create-card-ref-response',
		'serial-number': context.serial,
		status: 'approved',
		'card-ref-id': cardReference.id,
		'merchant-order-id': order.clientOrderId,
		'paynet-order-id': order.orderid,
	};
	if (context.definition.v4) {
		if (!order.recurringPaymentId) {
			const recurringPayment = newRecurringPayment(state, context, {
				cardRefId: cardReference.id,
				clientOrderId: order.clientOrderId,
				endpointId: order.endpointId,
			});
			order.recurringPaymentId = recurringPayment.id;
		}
		reply['recurring-payment-id'] = order.recurringPaymentId;
	}
	return reply;
}

/**
 * get-card-info: what the gateway may tell of a referenced card.
 * @type {Handler}
 */
function getCardInfo(state, context) {
	const cardReference = findCardReference(state, context.merchant, context.params.cardrefid);
	return {
		type: 'get-card-info-response',
		'serial-number': context.serial,
		'card-ref-id': cardReference.id,
		'card-printed-name': cardReference.card.holder,
		bin: cardReference.card.bin,
		'last-four-digits': cardReference.card.lastFour,
		'expire-month': cardReference.card.expMonth,
		'expire-year': cardReference.card.expYear,
		'card-type': cardReference.card.type,
	};
}

module.exports = { createCardReference, getCardInfo };
