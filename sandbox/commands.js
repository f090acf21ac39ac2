// @ts-check
'use strict';
// The sandbox's own command table: path → authentication, control formula, required fields and the
// handler that carries the command out. Kept independent of the node package's catalogue on purpose.
const { createCardReference, getCardInfo } = require('./engine/card-refs');
const {
	CARD_REF,
	ENDPOINT,
	ENDPOINT_AMOUNT,
	ORDER,
	ORDER_AMOUNT,
	REBILL,
	THREE_DS,
	TRANSFER_BY_REF,
} = require('./engine/control-formulas');
const { getBalance } = require('./engine/balance');
const { FOLLOW_UP_TYPES, capture, returnOrder, voidOrder } = require('./engine/follow-ups');
const { startFormOrder } = require('./engine/forms');
const { saleWithToken } = require('./engine/hosted-fields');
const { startPayment, verifyAccountNow } = require('./engine/payments');
const { checkPanEligibility } = require('./engine/pan-eligibility');
const { payCheckedPayout } = require('./engine/payouts');
const {
	createRecurringPayment,
	processRecurringPayment,
	processRecurringPayments,
	updateRecurringPayment,
} = require('./engine/recurring');
const { queryStatus } = require('./engine/status');
const { uploadMethodUrlResult, uploadThreeDSResult } = require('./engine/three-d-secure');

/** @typedef {import('./engine/types').CommandDefinition} CommandDefinition */
/** @typedef {import('./engine/types').ControlFormula} ControlFormula */
/**
 * What a table entry states besides its authentication (key, name, version and
 * currencyRequiredWithAmount are derived below).
 * @typedef {Omit<CommandDefinition, 'key' | 'name' | 'version' | 'currencyRequiredWithAmount' | 'auth' | 'formula' | 'required'>} CommandRules
 */

const CARD = ['credit_card_number', 'expire_month', 'expire_year'];
const CID = 'client_orderid';

const HMAC = ['HMAC-SHA1'];
const RSA = ['RSA-SHA256'];
const ANY_OAUTH = ['HMAC-SHA1', 'RSA-SHA256'];

/**
 * A command signed with the SHA-1 `control` of a formula (control-formulas.js).
 * @param {ControlFormula} formula
 * @param {string[]} required
 * @param {CommandRules} rules
 * @returns {CommandDefinition}
 */
function control(formula, required, rules) {
	return {
		key: '',
		name: '',
		version: '',
		currencyRequiredWithAmount: false,
		auth: 'control',
		formula,
		required,
		...rules,
	};
}
/**
 * An OAuth-signed command.
 * @param {string[]} methods   HMAC-SHA1 and/or RSA-SHA256
 * @param {string[]} required
 * @param {Omit<CommandRules, 'oauthMethods'>} rules
 * @returns {CommandDefinition}
 */
function oauth(methods, required, rules) {
	return {
		key: '',
		name: '',
		version: '',
		currencyRequiredWithAmount: false,
		auth: 'oauth',
		oauthMethods: methods,
		required,
		...rules,
	};
}

/**
 * A PAN eligibility check of these cards ('sending', 'receiving'): no money moves.
 * @param {string[]} eligibilityCards
 * @returns {CommandRules}
 */
function eligibility(eligibilityCards) {
	return {
		handler: checkPanEligibility,
		kind: 'eligibility',
		transactionType: 'pan-eligibility',
		ledgerKind: null,
		card: 'none',
		eligibilityCards,
	};
}

/** @type {Omit<CommandRules, 'handler'>} */
const RECURRING_CHARGE = { kind: 'sale', transactionType: 'sale', ledgerKind: 'rebill', card: 'recurring' };

const SALE_REQ = [CID, 'amount', 'currency', ...CARD, 'cvv2'];
const FORM_REQ = [CID, 'amount', 'currency'];
const ORDER_REQ = ['login', CID, 'orderid'];

// handler: the function that carries the command out (engine/*.js). kind: what the order it starts
// is (drives the state rules); transactionType: the transaction-type it reports; ledgerKind: the
// ledger entry of an approval (null: no money moves); card: how the request names the card;
// destination: where a payout or transfer sends the money (engine/payouts.js).
/** @type {Record<string, CommandDefinition>} */
const COMMANDS = {
	'v2/sale': control(ENDPOINT_AMOUNT, SALE_REQ, {
		handler: startPayment,
		kind: 'sale',
		transactionType: 'sale',
		ledgerKind: 'sale',
		card: 'required',
	}),
	'v2/preauth': control(ENDPOINT_AMOUNT, SALE_REQ, {
		handler: startPayment,
		kind: 'preauth',
		transactionType: 'preauth',
		ledgerKind: null,
		card: 'required',
	}),
	'v2/sale-form': control(ENDPOINT_AMOUNT, FORM_REQ, {
		handler: startFormOrder,
		kind: 'sale',
		transactionType: 'sale',
		ledgerKind: 'sale',
	}),
	'v2/preauth-form': control(ENDPOINT_AMOUNT, FORM_REQ, {
		handler: startFormOrder,
		kind: 'preauth',
		transactionType: 'preauth',
		ledgerKind: null,
	}),
	// payment-form / payout-form: the interface states no scheme, so any of the three is accepted.
	'v2/payment-form': control(ENDPOINT_AMOUNT, FORM_REQ, {
		handler: startFormOrder,
		kind: 'sale',
		transactionType: 'sale',
		ledgerKind: 'sale',
		oauthMethods: ANY_OAUTH,
	}),
	'v2/payout-form': control(ENDPOINT_AMOUNT, FORM_REQ, {
		handler: startFormOrder,
		kind: 'payout',
		transactionType: 'payout',
		ledgerKind: 'payout',
		oauthMethods: ANY_OAUTH,
		noCvv: true,
	}),
	'v2/account-verification': control(ENDPOINT, [CID, ...CARD], {
		handler: startPayment,
		kind: 'verify',
		transactionType: 'account-verification',
		ledgerKind: null,
		card: 'required',
	}),
	'v2/account-verification-form': control(ENDPOINT, [CID], {
		handler: startFormOrder,
		kind: 'verify',
		transactionType: 'account-verification',
		ledgerKind: null,
	}),
	'v2/sync/account-verification': control(ENDPOINT, [CID, ...CARD], {
		handler: verifyAccountNow,
		kind: 'verify',
		transactionType: 'account-verification',
		ledgerKind: null,
		card: 'required',
	}),
	'v2/status': control(ORDER, ['login', CID], { handler: queryStatus }),
	'v2/transfer-form': control(ENDPOINT_AMOUNT, FORM_REQ, {
		handler: startFormOrder,
		kind: 'transfer',
		transactionType: 'transfer',
		ledgerKind: 'transfer',
	}),
	// PHP TransferByRefQuery: both card references are signed (the source may be empty)
	'v2/transfer-by-ref': control(
		TRANSFER_BY_REF,
		['login', CID, 'amount', 'currency', 'ipaddress', 'destination-card-ref-id'],
		{
			handler: startPayment,
			kind: 'transfer',
			transactionType: 'transfer',
			ledgerKind: 'transfer',
			card: 'source-ref',
			destination: 'card-ref',
		},
	),
	'v2/void': control(ORDER, ORDER_REQ, { handler: voidOrder }),
	'v2/create-card-ref': control(ORDER, ORDER_REQ, { handler: createCardReference }),
	'v2/capture': control(ORDER_AMOUNT, ORDER_REQ, { handler: capture, amountFromOrder: true }),
	'v2/return': control(ORDER_AMOUNT, ORDER_REQ, { handler: returnOrder }),
	'v2/get-card-info': control(CARD_REF, ['login', 'cardrefid'], { handler: getCardInfo }),
	'v2/make-rebill': control(REBILL, ['login', CID, 'cardrefid', 'amount', 'currency'], {
		handler: startPayment,
		kind: 'sale',
		transactionType: 'sale',
		ledgerKind: 'rebill',
		card: 'ref',
	}),
	'v2/make-rebill-sale': control(REBILL, ['login', CID, 'cardrefid', 'amount', 'currency'], {
		handler: startPayment,
		kind: 'sale',
		transactionType: 'sale',
		ledgerKind: 'rebill',
		card: 'ref',
	}),
	'v2/make-rebill-preauth': control(REBILL, ['login', CID, 'cardrefid', 'amount', 'currency'], {
		handler: startPayment,
		kind: 'preauth',
		transactionType: 'preauth',
		ledgerKind: null,
		card: 'ref',
	}),
	'3ds/v1/upload-pares-result': control(THREE_DS, ['login', 'client-order-id', 'orderid', 'paRes'], {
		handler: uploadThreeDSResult,
		resultField: 'paRes',
	}),
	'3ds/v1/upload-cres-result': control(THREE_DS, ['login', 'client-order-id', 'orderid', 'cRes'], {
		handler: uploadThreeDSResult,
		resultField: 'cRes',
	}),
	'3ds/v1/upload-method-url-result': control(THREE_DS, ['login', 'client-order-id', 'orderid', 'threeDSCompInd'], {
		handler: uploadMethodUrlResult,
	}),
	'v2/payout': oauth(HMAC, [CID, 'amount', 'currency'], {
		handler: startPayment,
		kind: 'payout',
		transactionType: 'payout',
		ledgerKind: 'payout',
		card: 'optional',
		destination: 'payout',
	}),
	'v2/pan-eligibility/send': oauth(HMAC, ['client-order-id'], eligibility(['sending'])),
	'v2/pan-eligibility/receive': oauth(HMAC, ['client-order-id'], eligibility(['receiving'])),
	'v2/pan-eligibility/both': oauth(HMAC, ['client-order-id'], eligibility(['sending', 'receiving'])),
	// get-balance by endpoint, merchant login or manager login (docs: api_v2_get_balance*)
	'v2/get-balance': oauth(HMAC, [], { handler: getBalance }),
	'v2/get-balance/merchant': oauth(HMAC, [], { handler: getBalance, loginInUrl: 'merchant' }),
	'v2/get-balance/manager': oauth(HMAC, [], { handler: getBalance, loginInUrl: 'manager' }),
	'v4/create-card-ref': oauth(RSA, [CID, 'orderid'], { handler: createCardReference, v4: true }),
	'v4/create-recurring-payment': oauth(RSA, [], { handler: createRecurringPayment }),
	'v4/update-recurring-payment': oauth(RSA, ['recurring-payment-id'], { handler: updateRecurringPayment }),
	// A charge of a recurring payment is a sale on its stored card, booked like a rebill.
	'v4/process-recurring-payment': oauth(RSA, [], { handler: processRecurringPayment, ...RECURRING_CHARGE }),
	'v4/process-recurring-payments': oauth(RSA, ['payload'], { handler: processRecurringPayments, ...RECURRING_CHARGE }),
	'v4/payout-check': oauth(RSA, [CID, 'amount', 'currency'], {
		handler: startPayment,
		kind: 'payout-check',
		transactionType: 'payout',
		ledgerKind: null,
		card: 'optional',
		destination: 'payout',
	}),
	'v4/payout-pay': oauth(RSA, ['login', CID, 'orderid'], { handler: payCheckedPayout }),
	'v4/payout': oauth(RSA, [CID, 'amount', 'currency'], {
		handler: startPayment,
		kind: 'payout',
		transactionType: 'payout',
		ledgerKind: 'payout',
		card: 'optional',
		destination: 'payout',
	}),
	'v4/payout-by-ref': oauth(RSA, [CID, 'amount', 'currency', 'destination-card-ref-id'], {
		handler: startPayment,
		kind: 'payout',
		transactionType: 'payout',
		ledgerKind: 'payout',
		card: 'none',
		destination: 'card-ref',
	}),
	'v4/transfer': oauth(RSA, [CID, 'amount', 'currency'], {
		handler: startPayment,
		kind: 'transfer',
		transactionType: 'transfer',
		ledgerKind: 'transfer',
		card: 'optional',
		destination: 'transfer',
	}),
	'v4/transfer-by-ref': oauth(RSA, [CID, 'amount', 'currency'], {
		handler: startPayment,
		kind: 'transfer',
		transactionType: 'transfer',
		ledgerKind: 'transfer',
		card: 'source-ref',
		destination: 'transfer',
	}),
	// The hosted-fields examples: a sale paid with a payment ticket, and its status (JSON replies).
	'v4/sale': oauth(RSA, [CID, 'amount', 'currency', 'hosted_fields_token'], {
		handler: saleWithToken,
		kind: 'sale',
		transactionType: 'sale',
		ledgerKind: 'sale',
	}),
	'v4/status': oauth(RSA, ['login', CID], { handler: queryStatus, v4: true }),
};

// key, name and version from the path; and whether an amount needs its currency (capture and
// return, and every command that starts a payment).
for (const [key, definition] of Object.entries(COMMANDS)) {
	definition.key = key;
	definition.name = key.slice(key.indexOf('/') + 1).replace(/^v1\//, '');
	definition.version = key.startsWith('3ds/') ? '3ds/v1' : key.slice(0, 2);
	definition.currencyRequiredWithAmount = definition.formula === ORDER_AMOUNT || definition.handler === startPayment;
}

/**
 * The definition of an API command by its key ('v2/sale', 'v4/status'), or null.
 * @param {string} key
 * @returns {CommandDefinition | null}
 */
function commandFor(key) {
	return COMMANDS[key] || null;
}

/**
 * Every transaction type a callback of the sandbox can report: each command's own (an order reports
 * it when it becomes final) and each follow-up's. The trigger's tests are enumerated from it.
 * @type {readonly string[]}
 */
const CALLBACK_TRANSACTION_TYPES = Object.freeze([
	...new Set([
		...Object.values(COMMANDS).flatMap((definition) =>
			definition.transactionType ? [definition.transactionType] : [],
		),
		...FOLLOW_UP_TYPES,
	]),
]);

module.exports = { COMMANDS, commandFor, CALLBACK_TRANSACTION_TYPES };
