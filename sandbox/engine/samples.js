// @ts-check
'use strict';
// Sample orders in one admin call, so that trying a callback receiver needs no 16-field sale: the
// sandbox plays the first configured merchant and runs signed requests through the engine, exactly
// as they would run over HTTP (same checks, ledger and callbacks), then settles the order at once.
const { randomUUID } = require('node:crypto');
const { commandFor } = require('../commands');
const { hundredthsOf } = require('./amounts');
const { E_FIELD, GatewayError, fail } = require('./errors');
const { processRequest } = require('./index');
const { settle } = require('./orders');

/** @typedef {import('./types').GatewayState} GatewayState */
/** @typedef {import('./types').Params} Params */

const SAMPLE_CARD = '4444555566661111';
const SAMPLE_AMOUNT = '10.00';
const SAMPLE_REFUND = '3.00';

/**
 * What each sample is: the sale's test CVV (it decides the outcome, docs/sandbox.md "Test cards")
 * and whether part of it is refunded afterwards (a second callback, type reversal).
 * @type {Record<string, { cvv2: string, refund?: string }>}
 */
const SAMPLES = {
	'approved-sale': { cvv2: '123' },
	'declined-sale': { cvv2: '116' },
	'refunded-sale': { cvv2: '123', refund: SAMPLE_REFUND },
};

/**
 * One control-signed request of the merchant through the engine; a refusal throws.
 * @param {GatewayState} state
 * @param {string} commandKey   'v2/sale'
 * @param {import('./types').Endpoint} endpoint
 * @param {Params} unsigned
 * @param {string} baseUrl
 */
function runSigned(state, commandKey, endpoint, unsigned, baseUrl) {
	const definition = /** @type {import('./types').CommandDefinition} */ (commandFor(commandKey));
	const formula = /** @type {import('./types').ControlFormula} */ (definition.formula);
	const concatenation = formula.concatenate({
		endpointOrGroupId: endpoint.id,
		params: unsigned,
		clientOrderId: unsigned.client_orderid,
		hundredths: unsigned.amount ? hundredthsOf(unsigned.amount) : '',
		currency: unsigned.amount ? unsigned.currency : '',
	});
	const params = { ...unsigned, control: state.verifier.sha1Hex(concatenation + endpoint.merchant.controlKey) };
	const { reply } = processRequest(state, {
		definition,
		endpointOrGroupId: endpoint.id,
		isGroup: false,
		pairs: Object.entries(params),
		queryPairs: [],
		params,
		authorization: undefined,
		oauthUrl: '',
		baseUrl,
	});
	if (!reply || reply.type !== 'async-response') {
		throw new GatewayError(Number((reply && reply['error-code']) || 5), String(reply && reply['error-message']));
	}
	return reply;
}

/**
 * Create the named sample order on the first merchant's first endpoint, final at once.
 * @param {GatewayState} state
 * @param {string} name   a key of SAMPLES
 * @param {string} baseUrl
 */
function createSampleOrder(state, name, baseUrl) {
	const sample = SAMPLES[name];
	if (!sample) fail(E_FIELD, `Unknown sample '${name}'; one of: ${Object.keys(SAMPLES).join(', ')}`);
	const merchant = state.config.merchants[0];
	const endpoint = merchant.endpoints[0];
	const clientOrderId = `sample-${randomUUID().slice(0, 8)}`;
	const sale = runSigned(
		state,
		'v2/sale',
		endpoint,
		{
			client_orderid: clientOrderId,
			order_desc: `Sandbox sample: ${name}`,
			amount: SAMPLE_AMOUNT,
			currency: endpoint.currency,
			email: 'payer@example.com',
			credit_card_number: SAMPLE_CARD,
			card_printed_name: 'SAMPLE PAYER',
			expire_month: '12',
			expire_year: String(new Date().getUTCFullYear() + 5),
			cvv2: sample.cvv2,
		},
		baseUrl,
	);
	const order = /** @type {import('./types').Order} */ (state.store.orders.get(String(sale['paynet-order-id'])));
	// No status polls needed, whatever pollsBeforeFinal says.
	order.pollsLeft = 0;
	settle(state, order);
	if (sample.refund) {
		runSigned(
			state,
			'v2/return',
			endpoint,
			{
				login: merchant.login,
				client_orderid: clientOrderId,
				orderid: order.orderid,
				amount: sample.refund,
				currency: order.currency,
			},
			baseUrl,
		);
	}
	return order;
}

module.exports = { SAMPLES, createSampleOrder };
