// @ts-check
'use strict';
// Card fields as a request, the hosted form or the hosted-fields tokenizer sends them: checked
// (Luhn, expiry, CVV) and reduced to the summary the sandbox keeps (../cards.js). A bad field is
// refused with code 1.
const cards = require('../cards');
const { E_FIELD, fail } = require('./errors');

/**
 * @param {import('./types').Params} params
 * @param {{ cvvRequired?: boolean, numberField?: string }} [rules]
 * @returns {import('./types').CardSummary}
 */
function validateCard(params, { cvvRequired, numberField = 'credit_card_number' } = {}) {
	const cardNumber = params[numberField];
	if (!cards.luhnValid(cardNumber)) fail(E_FIELD, `Invalid card number in '${numberField}'`);
	if (params.expire_month !== undefined || params.expire_year !== undefined) {
		const expiryError = cards.expiryError(params.expire_month, params.expire_year);
		if (expiryError) fail(E_FIELD, expiryError);
	}
	if (params.cvv2 !== undefined && params.cvv2 !== '' && !/^\d{3,4}$/.test(params.cvv2)) fail(E_FIELD, 'Invalid cvv2');
	if (cvvRequired && !params.cvv2) fail(E_FIELD, "Field 'cvv2' is required");
	return cards.cardSummary(cardNumber, params.expire_month, params.expire_year, params.card_printed_name);
}

module.exports = { validateCard };
