// @ts-check
'use strict';
// Capture, void and return on an existing order.
const { formatMinor } = require('../amount');
const { queueCallback } = require('./callbacks');
const { E_FIELD, E_STATE, fail } = require('./errors');
const { addTransaction, asyncReply, findOrder, recordInLedger, refundable, requireFinalApproved } = require('./orders');

/** @typedef {import('./types').GatewayState} GatewayState */
/** @typedef {import('./types').Handler} Handler */
/** @typedef {import('./types').Order} Order */
/** @typedef {import('./types').RequestContext} RequestContext */

/** The transaction types the follow-ups' callbacks report (the admin API's chargeback included). */
const FOLLOW_UP_TYPES = /** @type {const} */ (['capture', 'void', 'cancel', 'reversal', 'chargeback']);
/** @typedef {typeof FOLLOW_UP_TYPES[number]} FollowUpType */

/**
 * The callback of a follow-up (capture, void, cancel, reversal, chargeback): to notify_url only.
 * @param {GatewayState} state
 * @param {Order} order
 * @param {FollowUpType} type
 * @param {number} amountMinor
 * @param {import('./types').CommandName} definition
 */
function notifyFollowUp(state, order, type, amountMinor, definition) {
	queueCallback(state, order, { urls: [order.urls.notify], type, status: 'approved', amountMinor, definition });
}

/**
 * The amount a follow-up names (null: the whole of what is left), in the order's currency.
 * @param {RequestContext} context
 * @param {Order} order
 * @returns {number | null}
 */
function followUpAmount(context, order) {
	const { params } = context;
	if (!params.amount) return null;
	if (String(params.currency).toUpperCase() !== order.currency) {
		fail(E_FIELD, `Currency ${params.currency} does not match the order's currency ${order.currency}`);
	}
	if (context.amountMinor === null || !(context.amountMinor > 0)) fail(E_FIELD, 'Amount must be greater than zero');
	return context.amountMinor;
}

/**
 * capture: all or part of what a preauth holds.
 * @type {Handler}
 */
function capture(state, context) {
	const order = findOrder(state, context);
	const amount = followUpAmount(context, order);
	if (order.kind !== 'preauth')
		fail(E_STATE, `Capture is only allowed on a preauth (order ${order.orderid} is a ${order.kind})`);
	requireFinalApproved(order, 'Capture');
	if (order.heldMinor <= 0) fail(E_STATE, `Nothing left to capture on order ${order.orderid}`);
	const take = amount == null ? order.heldMinor : amount;
	if (take > order.heldMinor) {
		fail(
			E_STATE,
			`Capture amount ${formatMinor(take, order.currency)} exceeds the held ${formatMinor(order.heldMinor, order.currency)}`,
		);
	}
	order.heldMinor -= take;
	order.chargedMinor += take;
	addTransaction(order, context, 'capture', take);
	recordInLedger(state, order, 'capture', take);
	notifyFollowUp(state, order, 'capture', take, context.definition);
	return asyncReply(order, context.serial);
}

/**
 * void: the whole of a sale or preauth, before clearing and before any return or chargeback.
 * @type {Handler}
 */
function voidOrder(state, context) {
	const order = findOrder(state, context);
	if (order.kind !== 'sale' && order.kind !== 'preauth') fail(E_STATE, `Void is not allowed on a ${order.kind}`);
	requireFinalApproved(order, 'Void');
	if (order.voided) fail(E_STATE, `Order ${order.orderid} is already voided`);
	if (order.cleared) fail(E_STATE, `Void is not allowed: order ${order.orderid} is already cleared (settled)`);
	if (order.refundedMinor > 0 || order.chargedBackMinor > 0)
		fail(E_STATE, 'Void is not allowed after a return or chargeback (full amount only)');
	const amount = refundable(order) + order.heldMinor;
	if (amount <= 0) fail(E_STATE, `Nothing left to void on order ${order.orderid}`);
	order.voidedMinor += refundable(order);
	order.heldMinor = 0;
	order.voided = true;
	addTransaction(order, context, 'void', amount);
	recordInLedger(state, order, 'void', amount);
	notifyFollowUp(state, order, 'void', amount, context.definition);
	return asyncReply(order, context.serial);
}

/**
 * return: all or part of what was charged; on an uncaptured preauth, a cancel of the whole hold.
 * @type {Handler}
 */
function returnOrder(state, context) {
	const order = findOrder(state, context);
	const amount = followUpAmount(context, order);
	if (order.kind !== 'sale' && order.kind !== 'preauth') fail(E_STATE, `Return is not allowed on a ${order.kind}`);
	requireFinalApproved(order, 'Return');
	if (order.voided) fail(E_STATE, `Order ${order.orderid} is voided`);
	if (order.kind === 'preauth' && order.chargedMinor === 0) {
		// Return on an uncaptured preauth is a cancel: it releases the whole hold; amount is ignored.
		if (order.heldMinor <= 0) fail(E_STATE, `Nothing held on order ${order.orderid}`);
		const released = order.heldMinor;
		order.heldMinor = 0;
		addTransaction(order, context, 'cancel', released);
		recordInLedger(state, order, 'cancel', released);
		notifyFollowUp(state, order, 'cancel', released, context.definition);
		return asyncReply(order, context.serial);
	}
	const left = refundable(order);
	if (left <= 0) fail(E_STATE, `Nothing left to return on order ${order.orderid}`);
	const take = amount == null ? left : amount;
	if (take > left) {
		fail(
			E_STATE,
			`Return amount ${formatMinor(take, order.currency)} exceeds the refundable ${formatMinor(left, order.currency)}`,
		);
	}
	order.refundedMinor += take;
	addTransaction(order, context, 'reversal', take);
	recordInLedger(state, order, 'return', take);
	notifyFollowUp(state, order, 'reversal', take, context.definition);
	return asyncReply(order, context.serial);
}

module.exports = { capture, voidOrder, returnOrder, notifyFollowUp, FOLLOW_UP_TYPES };
