// @ts-check
'use strict';
// The PAN eligibility checks (v2, HMAC-SHA1): may a card send, receive, or both; no money moves. The
// vendor's pages spell these requests in two generations (gateway-facts §16): hyphens (client-order-id,
// expire-month, expire-year, server-callback-url, beside sending-card-number, sending-card-ref-id and
// card-printed-name) and underscores (client_orderid, expire_month, expire_year, server_callback_url).
// Either is taken; a request mixing the two is refused, since a gateway reading one generation would
// drop the other's fields unseen. The receiving card's fields are below the pages' readable part: the
// callback's receiving-* names are assumed.
const cards = require('../cards');
const { E_FIELD, fail } = require('./errors');
const { asyncReply, endpointFor, newOrder, replayReply, settle } = require('./orders');
const { clientOrderIdOf } = require('./params');
const { findCardReference } = require('./stored-credentials');

/** @typedef {import('./types').Params} Params */
/** @typedef {{ expireMonth: string, expireYear: string, serverCallbackUrl: string }} Spelling */

/** The fields the generations spell differently, the merchant order ID first. */
const GENERATIONS = /** @type {const} */ ([
	['client-order-id', 'expire-month', 'expire-year', 'server-callback-url'],
	['client_orderid', 'expire_month', 'expire_year', 'server_callback_url'],
]);

/**
 * The generation a request is spelled in; a request naming fields of both is refused.
 * @param {Params} params
 * @returns {Spelling}
 */
function spellingOf(params) {
	const used = GENERATIONS.map((names) => names.filter((name) => params[name] !== undefined));
	if (used[0].length && used[1].length) {
		fail(
			E_FIELD,
			`Fields '${used[0][0]}' and '${used[1][0]}' are of two spellings: send ${GENERATIONS.map((names) => names.join(', ')).join(', or ')}`,
		);
	}
	const [, expireMonth, expireYear, serverCallbackUrl] = GENERATIONS[used[0].length ? 0 : 1];
	return { expireMonth, expireYear, serverCallbackUrl };
}

/**
 * The card a check names in one role ('sending', 'receiving'): by reference, or by number
 * (Luhn-checked); null when it names none. Only the sending card has a printed name and expiry.
 * @param {import('./types').GatewayState} state
 * @param {import('./types').Merchant} merchant
 * @param {Params} params
 * @param {Spelling} spelling
 * @param {string} role
 * @returns {import('./types').CardSummary | null}
 */
function eligibilityCard(state, merchant, params, spelling, role) {
	const number = params[`${role}-card-number`];
	if (number && !cards.luhnValid(number)) fail(E_FIELD, `Invalid card number in '${role}-card-number'`);
	const reference = params[`${role}-card-ref-id`];
	if (reference) return findCardReference(state, merchant, reference).card;
	if (!number) return null;
	return role === 'sending'
		? cards.cardSummary(number, params[spelling.expireMonth], params[spelling.expireYear], params['card-printed-name'])
		: cards.cardSummary(number, undefined, undefined, undefined);
}

/**
 * pan-eligibility/send, /receive, /both: a new order that moves nothing (or, for a repeated client
 * order id, the first reply again); it shows the first card it checks (the sending one, when both are).
 * @type {import('./types').Handler}
 */
function checkPanEligibility(state, context) {
	const { definition, params, merchant, scope } = context;
	const spelling = spellingOf(params);
	const existing = state.store.findByClientId(scope.key, clientOrderIdOf(definition, params));
	if (existing) return replayReply(existing, context.serial);
	const endpoint = endpointFor(scope, undefined);
	/** @type {import('./types').CardSummary | null} */
	let card = null;
	for (const role of definition.eligibilityCards || [])
		card = card || eligibilityCard(state, merchant, params, spelling, role);
	// Nothing in the request can decline it: every check the sandbox takes is approved.
	const outcome = { status: 'approved' };
	const order = newOrder(state, context, { endpoint, currency: endpoint.currency, amountMinor: 0, card, outcome });
	order.urls.serverCallback = params[spelling.serverCallbackUrl] || '';
	order.reply = asyncReply(order, context.serial);
	settle(state, order);
	return order.reply;
}

module.exports = { checkPanEligibility, spellingOf };
