'use strict';
// The sandbox's own command table: path → authentication, control formula, required fields and the
// handler that carries the command out. Kept independent of the node package's catalogue on purpose.

const CARD = ['credit_card_number', 'expire_month', 'expire_year'];
const CID = 'client_orderid';

// control formulas: c = { id (endpoint or group id in the URL), p (trimmed params), cid,
// hundredths, currency }. hundredths is the signed amount (amount × 100, every currency) and
// currency its currency, or both '' where the formula leaves them out (auth.js decides).
const FORMULAS = {
	'endpoint-amount': (c) => c.id + c.cid + c.hundredths + (c.p.email || ''),
	endpoint: (c) => c.id + c.cid + (c.p.email || ''),
	order: (c) => (c.p.login || '') + c.cid + (c.p.orderid || ''),
	// capture and return: login + client_orderid + orderid + amount + currency
	'order-amount': (c) => (c.p.login || '') + c.cid + (c.p.orderid || '') + c.hundredths + c.currency,
	cardref: (c) => (c.p.login || '') + (c.p.cardrefid || ''),
	rebill: (c) => (c.p.login || '') + c.cid + (c.p.cardrefid || '') + c.hundredths + c.currency,
	'transfer-by-ref': (c) =>
		(c.p.login || '') + c.cid + (c.p['source-card-ref-id'] || '') + (c.p['destination-card-ref-id'] || '') + c.hundredths + c.currency,
	// c.cid is the value of the client-order-id field for the 3DS uploads
	tds: (c) => (c.p.login || '') + c.cid + (c.p.orderid || ''),
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

// kind: what the order is (drives the state rules); tx: transaction-type; money: ledger kind when approved.
const COMMANDS = {
	'v2/sale': control('endpoint-amount', SALE_REQ, { handler: 'payment', kind: 'sale', tx: 'sale', money: 'sale', card: 'required' }),
	'v2/preauth': control('endpoint-amount', SALE_REQ, { handler: 'payment', kind: 'preauth', tx: 'preauth', money: null, card: 'required' }),
	'v2/sale-form': control('endpoint-amount', FORM_REQ, { handler: 'form', kind: 'sale', tx: 'sale', money: 'sale' }),
	'v2/preauth-form': control('endpoint-amount', FORM_REQ, { handler: 'form', kind: 'preauth', tx: 'preauth', money: null }),
	// payment-form / payout-form: the interface states no scheme, so any of the three is accepted.
	'v2/payment-form': control('endpoint-amount', FORM_REQ, { handler: 'form', kind: 'sale', tx: 'sale', money: 'sale', oauthMethods: ANY_OAUTH }),
	'v2/payout-form': control('endpoint-amount', FORM_REQ, { handler: 'form', kind: 'payout', tx: 'payout', money: 'payout', oauthMethods: ANY_OAUTH, noCvv: true }),
	'v2/account-verification': control('endpoint', [CID, ...CARD], { handler: 'payment', kind: 'verify', tx: 'account-verification', money: null, card: 'required' }),
	'v2/account-verification-form': control('endpoint', [CID], { handler: 'form', kind: 'verify', tx: 'account-verification', money: null }),
	'v2/sync/account-verification': control('endpoint', [CID, ...CARD], { handler: 'sync-verify', kind: 'verify', tx: 'account-verification', money: null, card: 'required' }),
	'v2/status': control('order', ['login', CID], { handler: 'status' }),
	'v2/transfer-form': control('endpoint-amount', FORM_REQ, { handler: 'form', kind: 'transfer', tx: 'transfer', money: 'transfer' }),
	// PHP TransferByRefQuery: both card references are signed (the source may be empty)
	'v2/transfer-by-ref': control('transfer-by-ref', ['login', CID, 'amount', 'currency', 'ipaddress', 'destination-card-ref-id'], {
		handler: 'payment', kind: 'transfer', tx: 'transfer', money: 'transfer', card: 'source-ref', destination: 'card-ref',
	}),
	'v2/void': control('order', ORDER_REQ, { handler: 'void' }),
	'v2/create-card-ref': control('order', ORDER_REQ, { handler: 'create-card-ref' }),
	'v2/capture': control('order-amount', ORDER_REQ, { handler: 'capture', amountFromOrder: true }),
	'v2/return': control('order-amount', ORDER_REQ, { handler: 'return' }),
	'v2/get-card-info': control('cardref', ['login', 'cardrefid'], { handler: 'get-card-info' }),
	'v2/make-rebill': control('rebill', ['login', CID, 'cardrefid', 'amount', 'currency'], { handler: 'payment', kind: 'sale', tx: 'sale', money: 'rebill', card: 'ref' }),
	'v2/make-rebill-sale': control('rebill', ['login', CID, 'cardrefid', 'amount', 'currency'], { handler: 'payment', kind: 'sale', tx: 'sale', money: 'rebill', card: 'ref' }),
	'v2/make-rebill-preauth': control('rebill', ['login', CID, 'cardrefid', 'amount', 'currency'], { handler: 'payment', kind: 'preauth', tx: 'preauth', money: null, card: 'ref' }),
	'3ds/v1/upload-pares-result': control('tds', ['login', 'client-order-id', 'orderid', 'paRes'], { handler: 'tds-finish', resultField: 'paRes' }),
	'3ds/v1/upload-cres-result': control('tds', ['login', 'client-order-id', 'orderid', 'cRes'], { handler: 'tds-finish', resultField: 'cRes' }),
	'3ds/v1/upload-method-url-result': control('tds', ['login', 'client-order-id', 'orderid', 'threeDSCompInd'], { handler: 'tds-method' }),
	'v2/payout': oauth(HMAC, [CID, 'amount', 'currency'], { handler: 'payment', kind: 'payout', tx: 'payout', money: 'payout', card: 'optional', destination: 'payout' }),
	'v2/pan-eligibility/send': oauth(HMAC, ['client-order-id'], { handler: 'payment', kind: 'eligibility', tx: 'pan-eligibility', money: null, card: 'none' }),
	'v4/create-card-ref': oauth(RSA, [CID, 'orderid'], { handler: 'create-card-ref', v4: true }),
	'v4/create-recurring-payment': oauth(RSA, [], { handler: 'recurring-create' }),
	'v4/update-recurring-payment': oauth(RSA, ['recurring-payment-id'], { handler: 'recurring-update' }),
	'v4/payout-check': oauth(RSA, [CID, 'amount', 'currency'], { handler: 'payment', kind: 'payout-check', tx: 'payout', money: null, card: 'optional', destination: 'payout' }),
	'v4/payout-pay': oauth(RSA, [CID], { handler: 'payout-pay' }),
	'v4/payout': oauth(RSA, [CID, 'amount', 'currency'], { handler: 'payment', kind: 'payout', tx: 'payout', money: 'payout', card: 'optional', destination: 'payout' }),
	'v4/transfer': oauth(RSA, [CID, 'amount', 'currency'], { handler: 'payment', kind: 'transfer', tx: 'transfer', money: 'transfer', card: 'optional', destination: 'transfer' }),
	'v4/transfer-by-ref': oauth(RSA, [CID, 'amount', 'currency'], { handler: 'payment', kind: 'transfer', tx: 'transfer', money: 'transfer', card: 'source-ref', destination: 'transfer' }),
	// The hosted-fields examples: a sale paid with a payment ticket, and its status (JSON replies).
	'v4/sale': oauth(RSA, [CID, 'amount', 'currency', 'hosted_fields_token'], { handler: 'token-sale', kind: 'sale', tx: 'sale', money: 'sale' }),
	'v4/status': oauth(RSA, ['login', CID, 'orderid'], { handler: 'status', v4: true }),
};

// Alternate spellings seen in the public samples (v4 PHP samples write client-order-id, the
// recurring API client-orderid, the CRes upload example cres).
const ALIASES = {
	client_orderid: ['client_orderid', 'client-order-id', 'client-orderid'],
	'client-order-id': ['client-order-id', 'client_orderid'],
	paRes: ['paRes', 'PaRes', 'pares'],
	cRes: ['cRes', 'cres', 'CRes'],
};

function field(p, name) {
	for (const n of ALIASES[name] || [name]) if (p[n] !== undefined && p[n] !== '') return p[n];
	return undefined;
}

for (const [key, def] of Object.entries(COMMANDS)) {
	def.key = key;
	def.name = key.slice(key.indexOf('/') + 1).replace(/^v1\//, '');
	def.version = key.startsWith('3ds/') ? '3ds/v1' : key.slice(0, 2);
}

module.exports = { COMMANDS, FORMULAS, LOGIN_FORMULAS, AMOUNT_RULES, field };
