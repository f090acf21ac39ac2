// @ts-check
'use strict';
// The gateway itself: one API request in, its reply out. Everything here runs synchronously once a
// request body is read, so two requests can never interleave inside one operation (which is what
// keeps "money moves at most once" simple). The steps: a serial number, the endpoint or group in
// the URL and the signature and required fields (auth.js), then the handler the command table
// (../commands.js) names; a refusal becomes a validation-error reply, a bad OAuth signature a
// plain-text 403 (../server.js).
// The modules beside this one, each with its purpose on top, are listed in docs/sandbox.md.
const { authenticate, resolveScope } = require('./auth');
const { AuthError, GatewayError } = require('./errors');

/** @typedef {import('./types').GatewayState} GatewayState */
/** @typedef {import('./types').RequestContext} RequestContext */
/** @typedef {import('./types').Reply} Reply */

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
		return { reply: context.definition.handler(state, context) };
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
