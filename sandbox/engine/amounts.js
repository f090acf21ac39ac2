// @ts-check
'use strict';
// Amounts read from a request, or the request refused: the decimal amount in minor units, and the
// amount as a `control` formula signs it (hundredths). The arithmetic itself is ../amount.js.
const { controlHundredths, parseAmount } = require('../amount');
const { E_FIELD, fail } = require('./errors');

/**
 * A decimal amount in the currency's minor units ('10.50' USD → 1050); a validation error otherwise.
 * @param {string | undefined} amount
 * @param {string | undefined} currency
 * @returns {number}
 */
function amountMinorOf(amount, currency) {
	const parsed = parseAmount(amount, currency);
	if (parsed.error) fail(E_FIELD, parsed.error);
	return /** @type {number} */ (parsed.minor);
}

/**
 * The amount as `control` signs it: hundredths of the decimal string ('10.5' → '1050'), every currency.
 * @param {string | undefined} amount
 * @returns {string}
 */
function hundredthsOf(amount) {
	const signed = controlHundredths(amount);
	if (signed.error) fail(E_FIELD, signed.error);
	return /** @type {string} */ (signed.hundredths);
}

module.exports = { amountMinorOf, hundredthsOf };
