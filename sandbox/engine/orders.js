// @ts-check
'use strict';
// The order state machine, in one place. An order is created `processing`; it becomes final
// (approved, declined, error, filtered or unknown) when nothing holds it back (3-D Secure, a hosted
// form, a stay-processing fault) and no polls remain; the outcome was decided when it was created.
// Money moves only in the ledger, once per transition.
const { formatMinor } = require('../amount');
const { maskParams } = require('../mask');
const { queueCallback } = require('./callbacks');
const { E_FIELD, E_NOT_FOUND, E_STATE, fail } = require('./errors');
const { clientOrderIdOf, field } = require('./params');

/** @typedef {import('./types').GatewayState} GatewayState */
/** @typedef {import('./types').RequestContext} RequestContext */
/** @typedef {import('./types').Order} Order */
/** @typedef {import('./types').Transaction} Transaction */
/** @typedef {import('./types').Scope} Scope */
/** @typedef {import('./types').Endpoint} Endpoint */
/** @typedef {import('./types').Reply} Reply */

const FINAL_WITH_CALLBACK = new Set(['approved', 'declined', 'error', 'filtered']);
/** @type {Record<string, string>} */
const STAGE_PREFIX = {
	sale: 'sale',
	preauth: 'auth',
	verify: 'verify',
	payout: 'payout',
	'payout-check': 'payout_check',
	transfer: 'transfer',
	eligibility: 'eligibility',
};

/**
 * The endpoint a request lands on: its own, or the one of its group that takes the currency.
 * @param {Scope} scope
 * @param {string | undefined} currency
 * @returns {Endpoint}
 */
function endpointFor(scope, currency) {
	const currencyCode = String(currency || '').toUpperCase();
	const endpoints = scope.group ? scope.group.endpoints : [/** @type {Endpoint} */ (scope.endpoint)];
	if (!currency) return endpoints[0];
	const endpoint = endpoints.find((candidate) => candidate.currency === currencyCode);
	if (!endpoint)
		fail(
			E_FIELD,
			`Currency ${currencyCode} is not accepted by ${scope.label} (${endpoints.map((e) => e.currency).join(', ')})`,
		);
	return endpoint;
}

/**
 * The order a follow-up names (orderid, and the client order id when sent), of the merchant who asks.
 * @param {GatewayState} state
 * @param {RequestContext} context
 * @param {{ clientOrderIdField?: string }} [options]
 * @returns {Order}
 */
function findOrder(state, context, { clientOrderIdField = 'client_orderid' } = {}) {
	const order = state.store.orders.get(String(context.params.orderid));
	const clientOrderId = field(context.params, clientOrderIdField);
	if (!order || order.merchant !== context.merchant || (clientOrderId && order.clientOrderId !== clientOrderId)) {
		fail(E_NOT_FOUND, `Order ${context.params.orderid} not found`);
	}
	return order;
}

/**
 * What a new order is made of besides the request.
 * @typedef {object} NewOrderFields
 * @property {Endpoint} endpoint
 * @property {string} currency
 * @property {number} amountMinor
 * @property {import('./types').CardSummary | null} [card]
 * @property {string | null} [sourceCardRefId]
 * @property {import('./types').Outcome} [outcome]   decided now (absent for a hosted form)
 * @property {boolean} [form]                         the payer fills in the hosted form first
 * @property {boolean} [noStay]                       a stay-processing fault does not apply
 */

/**
 * Create an order, `processing`, and store it.
 * @param {GatewayState} state
 * @param {RequestContext} context
 * @param {NewOrderFields} fields
 * @returns {Order}
 */
function newOrder(state, context, fields) {
	const { definition, params, scope } = context;
	/** @type {Order} */
	const order = {
		orderid: state.store.nextOrderId(),
		clientOrderId: /** @type {string} */ (clientOrderIdOf(definition, params)),
		merchant: context.merchant,
		scopeKey: scope.key,
		groupId: scope.group ? scope.group.id : null,
		endpointId: fields.endpoint.id,
		command: definition.key,
		definition,
		kind: definition.kind,
		transactionType: definition.transactionType,
		ledgerKind: definition.ledgerKind,
		currency: fields.currency,
		amountMinor: fields.amountMinor,
		card: fields.card || null,
		sourceCardRefId: fields.sourceCardRefId || null,
		outcome: fields.outcome || null,
		status: 'processing',
		finalized: false,
		pollsLeft: state.options.pollsBeforeFinal,
		threeDS: fields.outcome && fields.outcome.threeDS ? { pending: true, methodResult: null } : null,
		form: fields.form ? { pending: true } : null,
		stayProcessing: null,
		heldMinor: 0,
		chargedMinor: 0,
		refundedMinor: 0,
		chargedBackMinor: 0,
		voidedMinor: 0,
		voided: false,
		cleared: false,
		paid: null,
		cardRefId: null,
		recurringPaymentId: null,
		email: params.email || '',
		merchantdata: params.merchantdata,
		urls: {
			serverCallback: params.server_callback_url || '',
			notify: params.notify_url || '',
			redirect: params.redirect_url || '',
			redirectSuccess: params.redirect_success_url || '',
			redirectFail: params.redirect_fail_url || '',
		},
		baseUrl: context.baseUrl,
		params: maskParams(params),
		transactions: [],
		createdAt: new Date().toISOString(),
		reply: null,
	};
	order.transactions.push({
		serial: context.serial,
		type: /** @type {string} */ (definition.transactionType),
		status: 'processing',
		amountMinor: order.amountMinor,
		at: order.createdAt,
	});
	const stayFault = fields.noStay ? null : state.faults.take('stay-processing', definition);
	if (stayFault) order.stayProcessing = stayFault.id;
	state.store.addOrder(order);
	return order;
}

/**
 * The acknowledgement of a request that acts on an order (the outcome comes with the status).
 * @param {Order} order
 * @param {string} serial
 * @param {string} [type]
 * @returns {Reply}
 */
function asyncReply(order, serial, type = 'async-response') {
	return {
		type,
		'serial-number': serial,
		'merchant-order-id': order.clientOrderId,
		'paynet-order-id': order.orderid,
		'end-point-id': order.endpointId,
	};
}

/**
 * The same reply again for a repeated client_orderid: no second order, nothing new in the ledger.
 * @param {Order} order
 * @param {string} serial
 * @returns {Reply}
 */
function replayReply(order, serial) {
	return { ...order.reply, 'serial-number': serial };
}

/**
 * Is something holding the order back: a stay-processing fault, 3-D Secure, a hosted form?
 * @param {Order} order
 */
function isHeldBack(order) {
	return Boolean(
		order.stayProcessing || (order.threeDS && order.threeDS.pending) || (order.form && order.form.pending),
	);
}

/**
 * Finalise now if nothing holds the order back and no polls remain.
 * @param {GatewayState} state
 * @param {Order} order
 */
function settle(state, order) {
	if (!order.finalized && !isHeldBack(order) && order.pollsLeft <= 0) finalize(state, order);
}

/**
 * The order becomes final with its outcome: money moves (sale, payout, transfer) or is held
 * (preauth), and the callback is queued.
 * @param {GatewayState} state
 * @param {Order} order
 */
function finalize(state, order) {
	if (order.finalized) return;
	order.finalized = true;
	order.status = /** @type {import('./types').Outcome} */ (order.outcome).status;
	const transaction = order.transactions[0];
	transaction.status = order.status;
	transaction.finalAt = new Date().toISOString();
	if (order.status === 'approved') {
		order.approvalCode = String(order.orderid).slice(-6).padStart(6, '0');
		if (order.kind === 'sale') {
			order.chargedMinor = order.amountMinor;
			recordInLedger(state, order, order.ledgerKind, order.amountMinor);
		} else if (order.kind === 'preauth') {
			order.heldMinor = order.amountMinor;
		} else if (order.kind === 'payout' || order.kind === 'transfer') {
			order.chargedMinor = order.amountMinor;
			recordInLedger(state, order, order.ledgerKind, order.amountMinor);
		}
	}
	// A payout check only registers the payout: its callback comes with the pay.
	if (FINAL_WITH_CALLBACK.has(order.status) && order.kind !== 'payout-check') {
		queueCallback(state, order, {
			urls: [order.urls.serverCallback, order.urls.notify],
			type: order.transactionType,
			status: order.status,
			amountMinor: order.amountMinor,
			definition: order.definition,
		});
	}
}

/**
 * Money moved: one ledger entry.
 * @param {GatewayState} state
 * @param {Order} order
 * @param {import('./types').LedgerKind | null | undefined} kind
 * @param {number} amountMinor
 */
function recordInLedger(state, order, kind, amountMinor) {
	return state.store.record(order, kind, amountMinor, formatMinor);
}

/**
 * A follow-up transaction on the order (capture, void, cancel, reversal, chargeback, payout).
 * @param {Order} order
 * @param {RequestContext | null} context   null: the admin API
 * @param {string} type
 * @param {number} amountMinor
 * @returns {Transaction}
 */
function addTransaction(order, context, type, amountMinor) {
	/** @type {Transaction} */
	const transaction = {
		serial: context ? context.serial : null,
		type,
		status: 'approved',
		amountMinor,
		at: new Date().toISOString(),
	};
	order.transactions.push(transaction);
	return transaction;
}

/**
 * What can still be returned, charged back or voided of the charged amount.
 * @param {Order} order
 */
function refundable(order) {
	return order.chargedMinor - order.refundedMinor - order.chargedBackMinor - order.voidedMinor;
}

/**
 * The amount a status reports: what is held or charged and not given back, once approved.
 * @param {Order} order
 */
function netAmount(order) {
	if (!order.finalized || order.status !== 'approved') return order.amountMinor;
	if (order.kind === 'sale' || order.kind === 'preauth') return order.heldMinor + refundable(order);
	return order.amountMinor;
}

/**
 * Refuse a follow-up (`what`) on an order that is not final and approved.
 * @param {Order} order
 * @param {string} what
 */
function requireFinalApproved(order, what) {
	if (!order.finalized || order.status !== 'approved') {
		fail(
			E_STATE,
			`${what} is not allowed: order ${order.orderid} is not in a final approved status (${order.finalized ? order.status : 'processing'})`,
		);
	}
}

/**
 * The status reply's order-stage: sale_approved, auth_3d_validating, capture_approved…
 * @param {Order} order
 */
function orderStage(order) {
	const prefix = STAGE_PREFIX[/** @type {string} */ (order.kind)] || order.kind;
	if (!order.finalized) {
		if (order.threeDS && order.threeDS.pending) return `${prefix}_3d_validating`;
		return `${prefix}_processing`;
	}
	const last = order.transactions[order.transactions.length - 1];
	if (order.transactions.length > 1) return `${last.type}_approved`;
	if (order.status === 'approved') return `${prefix}_approved`;
	return `${prefix}_${order.status === 'unknown' ? 'unknown' : 'failed'}`;
}

module.exports = {
	endpointFor,
	findOrder,
	newOrder,
	asyncReply,
	replayReply,
	isHeldBack,
	settle,
	finalize,
	recordInLedger,
	addTransaction,
	refundable,
	netAmount,
	requireFinalApproved,
	orderStage,
};
