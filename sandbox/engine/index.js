// @ts-check
'use strict';
// The gateway itself: one API request in, its reply out. Everything here runs synchronously once a
// request body is read, so two requests can never interleave inside one operation (which is what
// keeps "money moves at most once" simple). The order of the steps: a serial number, the endpoint
// or group in the URL (auth.js), the signature and required fields (auth.js), then the command's
// handler; a refusal becomes a validation-error reply, a bad OAuth signature a plain-text 403.
// The modules beside this one, each with its purpose on top, are listed in docs/sandbox.md.
const { authenticate, resolveScope } = require('./auth');
const { createCardReference, getCardInfo } = require('./card-refs');
const { AuthError, GatewayError } = require('./errors');
const { capture, returnOrder, voidOrder } = require('./follow-ups');
const { startFormOrder } = require('./forms');
const { saleWithToken } = require('./hosted-fields');
const { startPayment, verifyAccountNow } = require('./payments');
const { payCheckedPayout } = require('./payouts');
const { createRecurringPayment, updateRecurringPayment } = require('./recurring');
const { queryStatus } = require('./status');
const { uploadMethodUrlResult, uploadThreeDSResult } = require('./three-d-secure');

/** @typedef {import('./types').GatewayState} GatewayState */
/** @typedef {import('./types').RequestContext} RequestContext */
/** @typedef {import('./types').Reply} Reply */

/** @type {Record<string, import('./types').Handler>} */
const HANDLERS = {
	payment: startPayment,
	'token-sale': saleWithToken,
	form: startFormOrder,
	'sync-verify': verifyAccountNow,
	status: queryStatus,
	capture,
	void: voidOrder,
	return: returnOrder,
	'create-card-ref': createCardReference,
	'get-card-info': getCardInfo,
	'payout-pay': payCheckedPayout,
	'recurring-create': createRecurringPayment,
	'recurring-update': updateRecurringPayment,
	'tds-finish': uploadThreeDSResult,
	'tds-method': uploadMethodUrlResult,
};

/**
 * @param {GatewayState} state
 * @param {RequestContext} context
 * @returns {Reply}
 */
function dispatch(state, context) {
	const handler = HANDLERS[/** @type {any} */ (context.definition.handler)];
	if (!handler) throw new Error(`no handler ${context.definition.handler}`);
	return handler(state, context);
}

/**
 * Carry out one API request.
 * @param {GatewayState} state
 * @param {import('./types').GatewayRequest} request   from ../server.js
 * @returns {{ reply: Reply, authFailure?: undefined } | { authFailure: string, reply?: undefined }}
 */
function processRequest(state, request) {
	const serial = state.store.nextSerial();
	try {
		const scope = resolveScope(state, request);
		/** @type {RequestContext} */
		const context = { ...authenticate(state, request, scope), serial, baseUrl: request.baseUrl };
		return { reply: dispatch(state, context) };
	} catch (e) {
		if (e instanceof AuthError) return { authFailure: e.message };
		if (e instanceof GatewayError) {
			return {
				reply: { type: e.type, 'serial-number': serial, 'error-message': e.message, 'error-code': String(e.code) },
			};
		}
		throw e;
	}
}

module.exports = { processRequest };
