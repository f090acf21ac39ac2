// @ts-check
'use strict';
// get-balance (v2, OAuth HMAC-SHA1) by endpoint, merchant login or manager login: one balance per
// merchant and currency, computed from the orders' money (what the ledger records), the merchant's
// configured opening balance and the admin API's adjustments. Payouts without a final status are
// counted in amount-buffer-hold (the docs: "OUT operations without final status"). The admin API may
// hold part of a balance (short-term hold, rolling reserve: still in `amount`, not in the live amount)
// and leave fields out of its reply.
const { formatMinor } = require('../amount');
const { amountMinorOf } = require('./amounts');
const { E_FIELD, E_NOT_ENABLED, E_NOT_FOUND, fail } = require('./errors');
const { refundable } = require('./orders');

/** @typedef {import('./types').GatewayState} GatewayState */
/** @typedef {import('./types').Merchant} Merchant */
/** @typedef {import('../store').BalanceTerms} BalanceTerms */
/**
 * @typedef {{ merchant: Merchant, currency: string, amountMinor: number, bufferHoldMinor: number,
 *   shortTermHoldMinor: number, rollingReserveMinor: number, omit: string[] }} Balance
 */

/** The reply fields of a balance, in reply order. */
const BALANCE_FIELDS = [
	'name',
	'amount',
	'online-balance-live-amount',
	'total-short-term-hold-amount',
	'total-rolling-reserve-amount',
	'currency',
	'merchantLogin',
	'amount-buffer-hold',
];

/** @type {BalanceTerms} */
const NO_TERMS = { shortTermHoldMinor: 0, rollingReserveMinor: 0, omit: [] };

/**
 * The name of a merchant's balance in one currency.
 * @param {Merchant} merchant
 * @param {string} currency
 */
function balanceName(merchant, currency) {
	return `${merchant.login}-${currency}`;
}

/**
 * A signed amount in minor units as a decimal string (-1050 USD → "-10.50").
 * @param {number} minor
 * @param {string} currency
 */
function formatSigned(minor, currency) {
	return minor < 0 ? `-${formatMinor(-minor, currency)}` : formatMinor(minor, currency);
}

/**
 * Does the gateway's support have get-balance enabled for this merchant (option balanceEnabled)?
 * @param {GatewayState} state
 * @param {Merchant} merchant
 */
function balanceEnabledFor(state, merchant) {
	const enabled = state.options.balanceEnabled;
	return Array.isArray(enabled) ? enabled.includes(merchant.login) : enabled !== false;
}

/**
 * A merchant's balances, one per currency of its endpoints.
 * @param {GatewayState} state
 * @param {Merchant} merchant
 * @returns {Balance[]}
 */
function balancesOf(state, merchant) {
	/** @type {Map<string, Balance>} */
	const byCurrency = new Map();
	for (const endpoint of merchant.endpoints) {
		if (!byCurrency.has(endpoint.currency)) {
			const opening = merchant.openingBalances.get(endpoint.currency) || 0;
			const terms = state.store.balanceTerms.get(balanceName(merchant, endpoint.currency)) || NO_TERMS;
			byCurrency.set(endpoint.currency, {
				merchant,
				currency: endpoint.currency,
				amountMinor: opening,
				bufferHoldMinor: 0,
				...terms,
			});
		}
	}
	for (const order of state.store.orders.values()) {
		const balance = order.merchant === merchant && byCurrency.get(order.currency);
		if (!balance) continue;
		if (order.kind === 'sale' || order.kind === 'preauth') balance.amountMinor += refundable(order);
		else if (order.kind === 'payout' && !order.finalized) balance.bufferHoldMinor += order.amountMinor;
		else if (order.kind === 'payout' || order.kind === 'payout-check') balance.amountMinor -= order.chargedMinor;
	}
	for (const adjustment of state.store.balanceAdjustments) {
		const balance = adjustment.merchant === merchant.login && byCurrency.get(adjustment.currency);
		if (balance) balance.amountMinor += adjustment.amountMinor;
	}
	return [...byCurrency.values()];
}

/**
 * One balance as the reply lists it, less the fields the admin API left out. The live amount is the
 * amount less short-term hold and rolling reserve (the docs' definition).
 * @param {Balance} balance
 * @param {boolean} withMerchantLogin   the manager variant names the merchant
 */
function balanceFields(balance, withMerchantLogin) {
	const { currency } = balance;
	const live = balance.amountMinor - balance.shortTermHoldMinor - balance.rollingReserveMinor;
	/** @type {Record<string, string | undefined>} */
	const all = {
		name: balanceName(balance.merchant, currency),
		amount: formatSigned(balance.amountMinor, currency),
		'online-balance-live-amount': formatSigned(live, currency),
		'total-short-term-hold-amount': formatMinor(balance.shortTermHoldMinor, currency),
		'total-rolling-reserve-amount': formatMinor(balance.rollingReserveMinor, currency),
		currency,
		merchantLogin: withMerchantLogin ? balance.merchant.login : undefined,
		'amount-buffer-hold': formatMinor(balance.bufferHoldMinor, currency),
	};
	return Object.fromEntries(BALANCE_FIELDS.filter((field) => !balance.omit.includes(field)).map((f) => [f, all[f]]));
}

/**
 * get-balance, get-balance/merchant, get-balance/manager: the balances the URL names (an endpoint:
 * its currency's), all of them or the one `balance-name` names.
 * @type {import('./types').Handler}
 */
function getBalance(state, context) {
	const { scope, params } = context;
	const merchants = scope.merchants || [scope.owner];
	const disabled = merchants.find((merchant) => !balanceEnabledFor(state, merchant));
	if (disabled) {
		fail(
			E_NOT_ENABLED,
			`Get balance is not enabled for merchant ${disabled.login}: please contact support managers to enable this feature`,
		);
	}
	let balances = merchants.flatMap((merchant) => balancesOf(state, merchant));
	if (scope.endpoint) {
		const currency = scope.endpoint.currency;
		balances = balances.filter((balance) => balance.currency === currency);
	}
	const name = params['balance-name'];
	if (name) {
		balances = balances.filter((balance) => balanceName(balance.merchant, balance.currency) === name);
		if (balances.length === 0) fail(E_NOT_FOUND, `Balance '${name}' not found`);
	}
	return {
		type: 'get-balance-response',
		'serial-number': context.serial,
		balances: balances.map((balance) => balanceFields(balance, context.definition.loginInUrl === 'manager')),
	};
}

/**
 * The admin API's adjustment of a merchant's balance (a real gateway's "Add adjustment").
 * @param {GatewayState} state
 * @param {{ merchant?: string, currency?: string, amount?: string }} body   amount signed: "-5.00" deducts
 */
function adjustBalance(state, body) {
	const { merchant, currency } = balanceOfAdmin(state, body);
	const amount = String(body.amount || '');
	const negative = amount.startsWith('-');
	const magnitude = amountMinorOf(negative ? amount.slice(1) : amount, currency);
	const adjustment = {
		merchant: merchant.login,
		currency,
		amountMinor: negative ? -magnitude : magnitude,
		at: new Date().toISOString(),
	};
	state.store.balanceAdjustments.push(adjustment);
	return currentFields(state, merchant, currency);
}

/**
 * The admin API's terms of one balance, replacing earlier ones: `shortTermHold` and `rollingReserve`
 * (decimals, held inside the amount: the live amount is the amount less both) and `omit`, the reply
 * fields to leave out (a gateway whose reply has no live amount, say).
 * @param {GatewayState} state
 * @param {{ merchant?: string, currency?: string, shortTermHold?: string, rollingReserve?: string, omit?: unknown }} body
 */
function setBalanceTerms(state, body) {
	const { merchant, currency } = balanceOfAdmin(state, body);
	const omit = body.omit === undefined ? [] : body.omit;
	if (!Array.isArray(omit) || omit.some((field) => !BALANCE_FIELDS.includes(field)))
		fail(E_FIELD, `omit must be a list of balance reply fields (${BALANCE_FIELDS.join(', ')})`);
	const held = (/** @type {string | undefined} */ amount) => (amount ? amountMinorOf(String(amount), currency) : 0);
	state.store.balanceTerms.set(balanceName(merchant, currency), {
		shortTermHoldMinor: held(body.shortTermHold),
		rollingReserveMinor: held(body.rollingReserve),
		omit: /** @type {string[]} */ (omit),
	});
	return currentFields(state, merchant, currency);
}

/**
 * The merchant and currency an admin request names (the merchant must have an endpoint in it).
 * @param {GatewayState} state
 * @param {{ merchant?: string, currency?: string }} body
 */
function balanceOfAdmin(state, body) {
	const merchant = state.config.byLogin.get(String(body.merchant));
	if (!merchant) fail(E_FIELD, `Unknown merchant '${body.merchant}'`);
	const currency = String(body.currency || '').toUpperCase();
	if (!merchant.endpoints.some((endpoint) => endpoint.currency === currency))
		fail(E_FIELD, `Merchant ${merchant.login} has no ${currency || 'currency'} endpoint`);
	return { merchant, currency };
}

/**
 * A balance's reply fields now.
 * @param {GatewayState} state
 * @param {Merchant} merchant
 * @param {string} currency
 */
function currentFields(state, merchant, currency) {
	return balanceFields(
		/** @type {Balance} */ (balancesOf(state, merchant).find((balance) => balance.currency === currency)),
		false,
	);
}

module.exports = { getBalance, adjustBalance, setBalanceTerms, balancesOf };
