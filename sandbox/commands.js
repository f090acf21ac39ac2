'use strict';
// The sandbox's own command table: path → authentication, control formula, required fields and the
// handler that carries the command out. Kept independent of the node package's catalogue on purpose.
const {
	CARD_REF, ENDPOINT, ENDPOINT_AMOUNT, ORDER, ORDER_AMOUNT, REBILL, THREE_DS, TRANSFER_BY_REF,
} = require('./engine/control-formulas');

const CARD = ['credit_card_number', 'expire_month', 'expire_year'];
const CID = 'client_orderid';

const HMAC = ['HMAC-SHA1'];
const RSA = ['RSA-SHA256'];
const ANY_OAUTH = ['HMAC-SHA1', 'RSA-SHA256'];

function control(formula, required, extra) {
	return { auth: 'control', formula, required, ...extra };
}
function oauth(methods, required, extra) {
	return { auth: 'oauth', oauthMethods: methods, required, ...extra };
}

const SALE_REQ = [CID, 'amount', 'currency', ...CARD, 'cvv2'];
const FORM_REQ = [CID, 'amount', 'currency'];
const ORDER_REQ = ['login', CID, 'orderid'];

// kind: what the order is (drives the state rules); transactionType: transaction-type; ledgerKind: ledger kind when approved.
const COMMANDS = {
	'v2/sale': control(ENDPOINT_AMOUNT, SALE_REQ, { handler: 'payment', kind: 'sale', transactionType: 'sale', ledgerKind: 'sale', card: 'required' }),
	'v2/preauth': control(ENDPOINT_AMOUNT, SALE_REQ, { handler: 'payment', kind: 'preauth', transactionType: 'preauth', ledgerKind: null, card: 'required' }),
	'v2/sale-form': control(ENDPOINT_AMOUNT, FORM_REQ, { handler: 'form', kind: 'sale', transactionType: 'sale', ledgerKind: 'sale' }),
	'v2/preauth-form': control(ENDPOINT_AMOUNT, FORM_REQ, { handler: 'form', kind: 'preauth', transactionType: 'preauth', ledgerKind: null }),
	// payment-form / payout-form: the interface states no scheme, so any of the three is accepted.
	'v2/payment-form': control(ENDPOINT_AMOUNT, FORM_REQ, { handler: 'form', kind: 'sale', transactionType: 'sale', ledgerKind: 'sale', oauthMethods: ANY_OAUTH }),
	'v2/payout-form': control(ENDPOINT_AMOUNT, FORM_REQ, { handler: 'form', kind: 'payout', transactionType: 'payout', ledgerKind: 'payout', oauthMethods: ANY_OAUTH, noCvv: true }),
	'v2/account-verification': control(ENDPOINT, [CID, ...CARD], { handler: 'payment', kind: 'verify', transactionType: 'account-verification', ledgerKind: null, card: 'required' }),
	'v2/account-verification-form': control(ENDPOINT, [CID], { handler: 'form', kind: 'verify', transactionType: 'account-verification', ledgerKind: null }),
	'v2/sync/account-verification': control(ENDPOINT, [CID, ...CARD], { handler: 'sync-verify', kind: 'verify', transactionType: 'account-verification', ledgerKind: null, card: 'required' }),
	'v2/status': control(ORDER, ['login', CID], { handler: 'status' }),
	'v2/transfer-form': control(ENDPOINT_AMOUNT, FORM_REQ, { handler: 'form', kind: 'transfer', transactionType: 'transfer', ledgerKind: 'transfer' }),
	// PHP TransferByRefQuery: both card references are signed (the source may be empty)
	'v2/transfer-by-ref': control(TRANSFER_BY_REF, ['login', CID, 'amount', 'currency', 'ipaddress', 'destination-card-ref-id'], {
		handler: 'payment', kind: 'transfer', transactionType: 'transfer', ledgerKind: 'transfer', card: 'source-ref', destination: 'card-ref',
	}),
	'v2/void': control(ORDER, ORDER_REQ, { handler: 'void' }),
	'v2/create-card-ref': control(ORDER, ORDER_REQ, { handler: 'create-card-ref' }),
	'v2/capture': control(ORDER_AMOUNT, ORDER_REQ, { handler: 'capture', amountFromOrder: true }),
	'v2/return': control(ORDER_AMOUNT, ORDER_REQ, { handler: 'return' }),
	'v2/get-card-info': control(CARD_REF, ['login', 'cardrefid'], { handler: 'get-card-info' }),
	'v2/make-rebill': control(REBILL, ['login', CID, 'cardrefid', 'amount', 'currency'], { handler: 'payment', kind: 'sale', transactionType: 'sale', ledgerKind: 'rebill', card: 'ref' }),
	'v2/make-rebill-sale': control(REBILL, ['login', CID, 'cardrefid', 'amount', 'currency'], { handler: 'payment', kind: 'sale', transactionType: 'sale', ledgerKind: 'rebill', card: 'ref' }),
	'v2/make-rebill-preauth': control(REBILL, ['login', CID, 'cardrefid', 'amount', 'currency'], { handler: 'payment', kind: 'preauth', transactionType: 'preauth', ledgerKind: null, card: 'ref' }),
	'3ds/v1/upload-pares-result': control(THREE_DS, ['login', 'client-order-id', 'orderid', 'paRes'], { handler: 'tds-finish', resultField: 'paRes' }),
	'3ds/v1/upload-cres-result': control(THREE_DS, ['login', 'client-order-id', 'orderid', 'cRes'], { handler: 'tds-finish', resultField: 'cRes' }),
	'3ds/v1/upload-method-url-result': control(THREE_DS, ['login', 'client-order-id', 'orderid', 'threeDSCompInd'], { handler: 'tds-method' }),
	'v2/payout': oauth(HMAC, [CID, 'amount', 'currency'], { handler: 'payment', kind: 'payout', transactionType: 'payout', ledgerKind: 'payout', card: 'optional', destination: 'payout' }),
	'v2/pan-eligibility/send': oauth(HMAC, ['client-order-id'], { handler: 'payment', kind: 'eligibility', transactionType: 'pan-eligibility', ledgerKind: null, card: 'none' }),
	'v4/create-card-ref': oauth(RSA, [CID, 'orderid'], { handler: 'create-card-ref', v4: true }),
	'v4/create-recurring-payment': oauth(RSA, [], { handler: 'recurring-create' }),
	'v4/update-recurring-payment': oauth(RSA, ['recurring-payment-id'], { handler: 'recurring-update' }),
	'v4/payout-check': oauth(RSA, [CID, 'amount', 'currency'], { handler: 'payment', kind: 'payout-check', transactionType: 'payout', ledgerKind: null, card: 'optional', destination: 'payout' }),
	'v4/payout-pay': oauth(RSA, [CID], { handler: 'payout-pay' }),
	'v4/payout': oauth(RSA, [CID, 'amount', 'currency'], { handler: 'payment', kind: 'payout', transactionType: 'payout', ledgerKind: 'payout', card: 'optional', destination: 'payout' }),
	'v4/transfer': oauth(RSA, [CID, 'amount', 'currency'], { handler: 'payment', kind: 'transfer', transactionType: 'transfer', ledgerKind: 'transfer', card: 'optional', destination: 'transfer' }),
	'v4/transfer-by-ref': oauth(RSA, [CID, 'amount', 'currency'], { handler: 'payment', kind: 'transfer', transactionType: 'transfer', ledgerKind: 'transfer', card: 'source-ref', destination: 'transfer' }),
	// The hosted-fields examples: a sale paid with a payment ticket, and its status (JSON replies).
	'v4/sale': oauth(RSA, [CID, 'amount', 'currency', 'hosted_fields_token'], { handler: 'token-sale', kind: 'sale', transactionType: 'sale', ledgerKind: 'sale' }),
	'v4/status': oauth(RSA, ['login', CID, 'orderid'], { handler: 'status', v4: true }),
};

for (const [key, definition] of Object.entries(COMMANDS)) {
	definition.key = key;
	definition.name = key.slice(key.indexOf('/') + 1).replace(/^v1\//, '');
	definition.version = key.startsWith('3ds/') ? '3ds/v1' : key.slice(0, 2);
	// An amount needs its currency for capture and return, and for every command that starts a payment.
	definition.currencyRequiredWithAmount = definition.formula === ORDER_AMOUNT || definition.handler === 'payment';
}

/**
 * The definition of an API command by its key ('v2/sale', 'v4/status'), or null.
 * @param {string} key
 */
function commandFor(key) {
	return COMMANDS[key] || null;
}

module.exports = { COMMANDS, commandFor };
