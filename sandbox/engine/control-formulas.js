// @ts-check
'use strict';
// The SHA-1 `control` formulas: which fields a control-signed command concatenates (the merchant's
// control key is appended by auth.js), whether it signs an amount, and whether `login` names the
// merchant. hundredths is the signed amount (amount × 100, every currency) and currency its
// currency, or both '' where the formula leaves them out (auth.js decides, by amountRule).

/** @typedef {import('./types').ControlFormula} ControlFormula */
/** @typedef {import('./types').SignedFields} SignedFields */

/**
 * @param {string} name
 * @param {(signed: SignedFields) => string} concatenate
 * @param {{ amountRule?: ControlFormula['amountRule'], loginNamesMerchant?: boolean, clientOrderIdField?: string }} [rules]
 *   amountRule: 'always' (the request carries the amount), 'if-sent' (an absent amount and currency
 *   add nothing: return; capture signs the order's, see auth.js), absent: no amount is signed.
 * @returns {ControlFormula}
 */
function formula(
	name,
	concatenate,
	{ amountRule = null, loginNamesMerchant = false, clientOrderIdField = 'client_orderid' } = {},
) {
	return { name, concatenate, amountRule, loginNamesMerchant, clientOrderIdField };
}

/** sale, preauth, the forms, transfer form: endpoint + client_orderid + hundredths + email */
const ENDPOINT_AMOUNT = formula(
	'endpoint-amount',
	(signed) => signed.endpointOrGroupId + signed.clientOrderId + signed.hundredths + (signed.params.email || ''),
	{
		amountRule: 'always',
	},
);
/** account verification: endpoint + client_orderid + email */
const ENDPOINT = formula(
	'endpoint',
	(signed) => signed.endpointOrGroupId + signed.clientOrderId + (signed.params.email || ''),
);
/** status, void, create-card-ref: login + client_orderid + orderid */
const ORDER = formula(
	'order',
	(signed) => (signed.params.login || '') + signed.clientOrderId + (signed.params.orderid || ''),
	{
		loginNamesMerchant: true,
	},
);
/** capture and return: login + client_orderid + orderid + amount + currency */
const ORDER_AMOUNT = formula(
	'order-amount',
	(signed) =>
		(signed.params.login || '') +
		signed.clientOrderId +
		(signed.params.orderid || '') +
		signed.hundredths +
		signed.currency,
	{ amountRule: 'if-sent', loginNamesMerchant: true },
);
/** get-card-info: login + cardrefid */
const CARD_REF = formula('cardref', (signed) => (signed.params.login || '') + (signed.params.cardrefid || ''), {
	loginNamesMerchant: true,
});
/** rebills: login + client_orderid + cardrefid + amount + currency */
const REBILL = formula(
	'rebill',
	(signed) =>
		(signed.params.login || '') +
		signed.clientOrderId +
		(signed.params.cardrefid || '') +
		signed.hundredths +
		signed.currency,
	{ amountRule: 'always', loginNamesMerchant: true },
);
/** PHP TransferByRefQuery: both card references are signed (the source may be empty) */
const TRANSFER_BY_REF = formula(
	'transfer-by-ref',
	(signed) =>
		(signed.params.login || '') +
		signed.clientOrderId +
		(signed.params['source-card-ref-id'] || '') +
		(signed.params['destination-card-ref-id'] || '') +
		signed.hundredths +
		signed.currency,
	{ amountRule: 'always', loginNamesMerchant: true },
);
/** the 3-D Secure uploads: login + client-order-id + orderid */
const THREE_DS = formula(
	'tds',
	(signed) => (signed.params.login || '') + signed.clientOrderId + (signed.params.orderid || ''),
	{
		loginNamesMerchant: true,
		clientOrderIdField: 'client-order-id',
	},
);

module.exports = { ENDPOINT_AMOUNT, ENDPOINT, ORDER, ORDER_AMOUNT, CARD_REF, REBILL, TRANSFER_BY_REF, THREE_DS };
