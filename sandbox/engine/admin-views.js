// @ts-check
'use strict';
// Sandbox-only hooks behind /sandbox/ (clear, chargeback, force a final status, release faults)
// and the masked admin view of an order. ../admin.js routes the admin API here.
const { formatMinor } = require('../amount');
const { amountMinorOf } = require('./amounts');
const { E_FIELD, E_NOT_FOUND, E_STATE, GatewayError, fail } = require('./errors');
const { notifyFollowUp } = require('./follow-ups');
const { addTransaction, finalize, recordInLedger, refundable, requireFinalApproved, settle } = require('./orders');

/** @typedef {import('./types').GatewayState} GatewayState */
/** @typedef {import('./types').Order} Order */

/**
 * Any merchant's order (the admin API has no merchant), or a refusal (404).
 * @param {GatewayState} state
 * @param {string} orderid
 * @returns {Order}
 */
function findOrderForAdmin(state, orderid) {
	const order = state.store.orders.get(String(orderid));
	if (!order) throw new GatewayError(E_NOT_FOUND, `Order ${orderid} not found`);
	return order;
}

/**
 * The order is cleared (settled): it can no longer be voided.
 * @param {GatewayState} state
 * @param {string} orderid
 */
function clearOrder(state, orderid) {
	const order = findOrderForAdmin(state, orderid);
	requireFinalApproved(order, 'Clearing');
	order.cleared = true;
	order.clearedAt = new Date().toISOString();
	return order;
}

/**
 * A chargeback of all that is left, or of body.amount.
 * @param {GatewayState} state
 * @param {string} orderid
 * @param {{ amount?: unknown } | undefined} body
 */
function chargeBack(state, orderid, body) {
	const order = findOrderForAdmin(state, orderid);
	requireFinalApproved(order, 'A chargeback');
	const left = refundable(order);
	if (order.voided || left <= 0) fail(E_STATE, `Nothing to charge back on order ${orderid}`);
	let amount = left;
	if (body && body.amount !== undefined) {
		amount = amountMinorOf(String(body.amount), order.currency);
		if (amount <= 0 || amount > left)
			fail(E_STATE, `Chargeback amount must be between 0 and ${formatMinor(left, order.currency)}`);
	}
	order.chargedBackMinor += amount;
	addTransaction(order, null, 'chargeback', amount);
	recordInLedger(state, order, 'chargeback', amount);
	notifyFollowUp(state, order, 'chargeback', amount, { name: 'chargeback' });
	return order;
}

/**
 * Force the final status now (default: the status the test card decided, or approved).
 * @param {GatewayState} state
 * @param {string} orderid
 * @param {{ status?: string } | undefined} body
 */
function forceFinalStatus(state, orderid, body) {
	const order = findOrderForAdmin(state, orderid);
	const wanted = body && body.status;
	if (wanted && !['approved', 'declined', 'error', 'filtered', 'unknown'].includes(wanted)) {
		fail(E_FIELD, `status must be approved, declined, error, filtered or unknown`);
	}
	if (order.finalized && order.status !== 'unknown')
		fail(E_STATE, `Order ${orderid} is already final (${order.status})`);
	if (order.finalized) {
		order.finalized = false;
		order.outcome = { status: wanted || 'approved' };
	}
	order.stayProcessing = null;
	if (order.form && order.form.pending) order.form.pending = false;
	if (order.threeDS && order.threeDS.pending) order.threeDS.pending = false;
	if (!order.outcome) order.outcome = { status: 'approved' };
	if (wanted) {
		order.outcome =
			wanted === 'approved'
				? { status: wanted }
				: {
						status: wanted,
						errorCode: order.outcome.errorCode || '100',
						errorMessage: order.outcome.errorMessage || 'Declined by issuer',
					};
	}
	order.pollsLeft = 0;
	finalize(state, order);
	return order;
}

/**
 * A removed stay-processing fault lets its orders go on (../faults.js calls this on removal).
 * @param {GatewayState} state
 * @param {{ id: string }[]} removed
 */
function releaseHeldOrders(state, removed) {
	const ids = new Set(removed.map((fault) => fault.id));
	for (const order of state.store.orders.values()) {
		if (order.stayProcessing && ids.has(order.stayProcessing)) {
			order.stayProcessing = null;
			settle(state, order);
		}
	}
}

/**
 * Admin view of an order: masked, amounts as decimal strings.
 * @param {Order} order
 */
function adminView(order) {
	/** @param {number} minor */
	const decimal = (minor) => formatMinor(minor, order.currency);
	return {
		orderid: order.orderid,
		client_orderid: order.clientOrderId,
		merchant: order.merchant.login,
		endpoint: order.endpointId,
		group: order.groupId,
		command: order.command,
		kind: order.kind,
		status: order.finalized ? order.transactions[order.transactions.length - 1].status : 'processing',
		finalized: order.finalized,
		decided: order.outcome ? order.outcome.status : null,
		pollsLeft: order.pollsLeft,
		stayProcessing: order.stayProcessing,
		threeDS: order.threeDS,
		formPending: Boolean(order.form && order.form.pending),
		amount: decimal(order.amountMinor),
		currency: order.currency,
		held: decimal(order.heldMinor),
		charged: decimal(order.chargedMinor),
		refunded: decimal(order.refundedMinor),
		chargedBack: decimal(order.chargedBackMinor),
		voided: order.voided,
		cleared: order.cleared,
		paid: Boolean(order.paid),
		card: order.card
			? {
					masked: order.card.masked,
					bin: order.card.bin,
					lastFour: order.card.lastFour,
					type: order.card.type,
					holder: order.card.holder,
					expMonth: order.card.expMonth,
					expYear: order.card.expYear,
				}
			: null,
		cardRefId: order.cardRefId,
		sourceCardRefId: order.sourceCardRefId,
		recurringPaymentId: order.recurringPaymentId,
		urls: order.urls,
		params: order.params,
		transactions: order.transactions.map((transaction) => ({
			serial: transaction.serial,
			type: transaction.type,
			status: transaction.status,
			amount: decimal(transaction.amountMinor),
			at: transaction.at,
		})),
		createdAt: order.createdAt,
	};
}

module.exports = { findOrderForAdmin, clearOrder, chargeBack, forceFinalStatus, releaseHeldOrders, adminView };
