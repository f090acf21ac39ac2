'use strict';
// The sandbox's own command table: path → authentication, control formula, required fields and the
// handler that carries the command out. Kept independent of the node package's catalogue on purpose.
const { field } = require('./engine/params');

const CARD = ['credit_card_number', 'expire_month', 'expire_year'];
const CID = 'client_orderid';

// control formulas: signed = { endpointOrGroupId (the id in the URL), params (trimmed), clientOrderId,
// hundredths, currency }. hundredths is the signed amount (amount × 100, every currency) and
// currency its currency, or both '' where the formula leaves them out (auth.js decides).
const FORMULAS = {
	'endpoint-amount': (signed) => signed.endpointOrGroupId + signed.clientOrderId + signed.hundredths + (signed.params.email || ''),
	endpoint: (signed) => signed.endpointOrGroupId + signed.clientOrderId + (signed.params.email || ''),
	order: (signed) => (signed.params.login || '') + signed.clientOrderId + (signed.params.orderid || ''),
	// capture and return: login + client_orderid + orderid + amount + currency
	'order-amount': (signed) => (signed.params.login || '') + signed.clientOrderId + (signed.params.orderid || '') + signed.hundredths + signed.currency,
	cardref: (signed) => (signed.params.login || '') + (signed.params.cardrefid || ''),
	rebill: (signed) => (signed.params.login || '') + signed.clientOrderId + (signed.params.cardrefid || '') + signed.hundredths + signed.currency,
	'transfer-by-ref': (signed) =>
		(signed.params.login || '') + signed.clientOrderId + (signed.params['source-card-ref-id'] || '') + (signed.params['destination-card-ref-id'] || '') + signed.hundredths + signed.currency,
	// signed.clientOrderId is the value of the client-order-id field for the 3DS uploads
	tds: (signed) => (signed.params.login || '') + signed.clientOrderId + (signed.params.orderid || ''),
};

// Formulas that sign an amount, and how a request without one is signed: 'always' (the request
// carries it), 'if-sent' (absent amount and currency add nothing: return), 'order' (absent → the
// order's amount and currency, as the interface and the vendor's PHP library sign capture).
const AMOUNT_RULES = { 'endpoint-amount': 'always', rebill: 'always', 'transfer-by-ref': 'always', 'order-amount': 'if-sent' };

// Which formulas need `login` to name the merchant (the others take it from the endpoint).
const LOGIN_FORMULAS = new Set(['order', 'order-amount', 'cardref', 'rebill', 'transfer-by-ref', 'tds']);

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
	'v2/sale': control('endpoint-amount', SALE_REQ, { handler: 'payment', kind: 'sale', transactionType: 'sale', ledgerKind: 'sale', card: 'required' }),
	'v2/preauth': control('endpoint-amount', SALE_REQ, { handler: 'payment', kind: 'preauth', transactionType: 'preauth', ledgerKind: null, card: 'required' }),
	'v2/sale-form': control('endpoint-amount', FORM_REQ, { handler: 'form', kind: 'sale', transactionType: 'sale', ledgerKind: 'sale' }),
	'v2/preauth-form': control('endpoint-amount', FORM_REQ, { handler: 'form', kind: 'preauth', transactionType: 'preauth', ledgerKind: null }),
	// payment-form / payout-form: the interface states no scheme, so any of the three is accepted.
	'v2/payment-form': control('endpoint-amount', FORM_REQ, { handler: 'form', kind: 'sale', transactionType: 'sale', ledgerKind: 'sale', oauthMethods: ANY_OAUTH }),
	'v2/payout-form': control('endpoint-amount', FORM_REQ, { handler: 'form', kind: 'payout', transactionType: 'payout', ledgerKind: 'payout', oauthMethods: ANY_OAUTH, noCvv: true }),
	'v2/account-verification': control('endpoint', [CID, ...CARD], { handler: 'payment', kind: 'verify', transactionType: 'account-verification', ledgerKind: null, card: 'required' }),
	'v2/account-verification-form': control('endpoint', [CID], { handler: 'form', kind: 'verify', transactionType: 'account-verification', ledgerKind: null }),
	'v2/sync/account-verification': control('endpoint', [CID, ...CARD], { handler: 'sync-verify', kind: 'verify', transactionType: 'account-verification', ledgerKind: null, card: 'required' }),
	'v2/status': control('order', ['login', CID], { handler: 'status' }),
	'v2/transfer-form': control('endpoint-amount', FORM_REQ, { handler: 'form', kind: 'transfer', transactionType: 'transfer', ledgerKind: 'transfer' }),
	// PHP TransferByRefQuery: both card references are signed (the source may be empty)
	'v2/transfer-by-ref': control('transfer-by-ref', ['login', CID, 'amount', 'currency', 'ipaddress', 'destination-card-ref-id'], {
		handler: 'payment', kind: 'transfer', transactionType: 'transfer', ledgerKind: 'transfer', card: 'source-ref', destination: 'card-ref',
	}),
	'v2/void': control('order', ORDER_REQ, { handler: 'void' }),
	'v2/create-card-ref': control('order', ORDER_REQ, { handler: 'create-card-ref' }),
	'v2/capture': control('order-amount', ORDER_REQ, { handler: 'capture', amountFromOrder: true }),
	'v2/return': control('order-amount', ORDER_REQ, { handler: 'return' }),
	'v2/get-card-info': control('cardref', ['login', 'cardrefid'], { handler: 'get-card-info' }),
	'v2/make-rebill': control('rebill', ['login', CID, 'cardrefid', 'amount', 'currency'], { handler: 'payment', kind: 'sale', transactionType: 'sale', ledgerKind: 'rebill', card: 'ref' }),
	'v2/make-rebill-sale': control('rebill', ['login', CID, 'cardrefid', 'amount', 'currency'], { handler: 'payment', kind: 'sale', transactionType: 'sale', ledgerKind: 'rebill', card: 'ref' }),
	'v2/make-rebill-preauth': control('rebill', ['login', CID, 'cardrefid', 'amount', 'currency'], { handler: 'payment', kind: 'preauth', transactionType: 'preauth', ledgerKind: null, card: 'ref' }),
	'3ds/v1/upload-pares-result': control('tds', ['login', 'client-order-id', 'orderid', 'paRes'], { handler: 'tds-finish', resultField: 'paRes' }),
	'3ds/v1/upload-cres-result': control('tds', ['login', 'client-order-id', 'orderid', 'cRes'], { handler: 'tds-finish', resultField: 'cRes' }),
	'3ds/v1/upload-method-url-result': control('tds', ['login', 'client-order-id', 'orderid', 'threeDSCompInd'], { handler: 'tds-method' }),
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
}

module.exports = { COMMANDS, FORMULAS, LOGIN_FORMULAS, AMOUNT_RULES, field };
