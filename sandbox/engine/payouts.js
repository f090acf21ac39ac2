// @ts-check
'use strict';
// Payouts and transfers: where the money goes, and the v4 two-step payout (check, then pay).
const cards = require('../cards');
const { requireSignerLogin } = require('./auth');
const { queueCallback } = require('./callbacks');
const { E_FIELD, E_NOT_FOUND, E_STATE, fail } = require('./errors');
const { addTransaction, asyncReply, recordInLedger } = require('./orders');
const { field } = require('./params');
const { findCardReference } = require('./stored-credentials');

/** @typedef {import('./types').Params} Params */
/** @typedef {{ name: string, present: (params: Params) => unknown }} Destination */

// The complete destinations each kind of request may name; one of them must be there.
/** @type {Destination} */
const CARD = {
	name: 'a card (credit_card_number, expire_month, expire_year)',
	present: (params) => params.credit_card_number && params.expire_month && params.expire_year,
};
/** @type {Destination} */
const BANK = { name: 'a bank account (account_number)', present: (params) => params.account_number };
/** @type {Destination} */
const CARD_REF = {
	name: 'a card reference (destination-card-ref-id)',
	present: (params) => params['destination-card-ref-id'],
};
/** @type {Destination} */
const CARD_NO = { name: 'a card number (destination-card-no)', present: (params) => params['destination-card-no'] };
/** @type {Destination} */
const RECURRING = {
	name: 'a recurring payment (destination_card_recurring_payment_id)',
	present: (params) => params.destination_card_recurring_payment_id,
};
/** @type {Record<string, Destination[]>} keyed by CommandDefinition.destination */
const DESTINATIONS = {
	payout: [CARD, BANK, CARD_REF],
	transfer: [CARD_NO, CARD_REF, RECURRING],
	'card-ref': [CARD_REF],
};

/**
 * A payout or transfer without a complete destination is refused, as a real gateway refuses it.
 * @param {import('./types').GatewayState} state
 * @param {import('./types').CommandDefinition} definition
 * @param {Params} params
 * @param {import('./types').Merchant} merchant
 */
function requireDestination(state, definition, params, merchant) {
	const destinations = DESTINATIONS[/** @type {string} */ (definition.destination)];
	if (!destinations.some((destination) => destination.present(params))) {
		fail(
			E_FIELD,
			`No complete destination for the ${definition.kind}: send ${destinations.map((destination) => destination.name).join(', or ')}`,
		);
	}
	if (params['destination-card-no'] && !cards.luhnValid(params['destination-card-no']))
		fail(E_FIELD, "Invalid card number in 'destination-card-no'");
	if (params['destination-card-ref-id']) findCardReference(state, merchant, params['destination-card-ref-id']);
}

/**
 * payout-pay (v4): pay a checked payout, once; a repeated pay gets the same reply. api_v4_payout-pay
 * lists client_orderid, orderid and login as required (the command table); the login must be the signer's.
 * @type {import('./types').Handler}
 */
function payCheckedPayout(state, context) {
	const { params, merchant } = context;
	requireSignerLogin(context);
	const clientOrderId = field(params, 'client_orderid');
	const order = state.store.orders.get(String(params.orderid));
	if (!order || order.merchant !== merchant || order.clientOrderId !== clientOrderId || order.kind !== 'payout-check') {
		fail(E_NOT_FOUND, `No payout check found for client_orderid ${clientOrderId} / orderid ${params.orderid}`);
	}
	if (order.paid) return { ...order.paid.reply, 'serial-number': context.serial };
	if (!order.finalized || order.status !== 'approved') {
		fail(E_STATE, `Payout ${order.orderid} is not checked (${order.finalized ? order.status : 'processing'})`);
	}
	const transaction = addTransaction(order, context, 'payout', order.amountMinor);
	order.chargedMinor = order.amountMinor;
	recordInLedger(state, order, 'payout', order.amountMinor);
	order.paid = { at: transaction.at, reply: asyncReply(order, context.serial) };
	if (params.server_callback_url) order.urls.serverCallback = params.server_callback_url;
	if (params.notify_url) order.urls.notify = params.notify_url;
	queueCallback(state, order, {
		urls: [order.urls.serverCallback, order.urls.notify],
		type: 'payout',
		status: 'approved',
		amountMinor: order.amountMinor,
		definition: context.definition,
	});
	return order.paid.reply;
}

module.exports = { requireDestination, payCheckedPayout };
