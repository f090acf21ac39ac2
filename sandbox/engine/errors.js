// @ts-check
'use strict';
// How the gateway refuses a request. Error codes are documented in docs/sandbox.md.

/** A refused request: becomes a validation-error (or error) reply and changes nothing. */
class GatewayError extends Error {
	/**
	 * @param {number} code      one of the E_* codes below
	 * @param {string} message
	 * @param {string} [type]    the reply's type
	 */
	constructor(code, message, type = 'validation-error') {
		super(message);
		this.code = code;
		this.type = type;
	}
}
/** An OAuth failure: plain-text 403 (or the configured status). */
class AuthError extends Error {}

const E_FIELD = 1;
const E_AUTH = 2;
const E_NOT_FOUND = 3;
const E_STATE = 4;
const E_NOT_ENABLED = 6;

/**
 * Refuse the request.
 * @param {number} code
 * @param {string} message
 * @returns {never}
 */
function fail(code, message) {
	throw new GatewayError(code, message);
}

module.exports = { GatewayError, AuthError, E_FIELD, E_AUTH, E_NOT_FOUND, E_STATE, E_NOT_ENABLED, fail };
