// @ts-check
'use strict';
// Reading a request's fields. The public samples spell some fields more than one way (the v4 PHP
// samples write client-order-id, the recurring API client-orderid, the CRes upload example cres);
// every spelling below is read, the first one that is sent and not empty wins.

/** @typedef {import('./types').Params} Params */
/** @typedef {import('./types').CommandDefinition} CommandDefinition */

/** @type {Record<string, string[]>} */
const ALIASES = {
	client_orderid: ['client_orderid', 'client-order-id', 'client-orderid'],
	'client-order-id': ['client-order-id', 'client_orderid'],
	paRes: ['paRes', 'PaRes', 'pares'],
	cRes: ['cRes', 'cres', 'CRes'],
};

/**
 * The value of a field under any of its spellings; undefined when absent or empty.
 * @param {Params} params
 * @param {string} name
 * @returns {string | undefined}
 */
function field(params, name) {
	for (const spelling of ALIASES[name] || [name])
		if (params[spelling] !== undefined && params[spelling] !== '') return params[spelling];
	return undefined;
}

/**
 * The client order id of a request that starts an order (the PAN eligibility checks name it
 * client-order-id, every other command client_orderid).
 * @param {CommandDefinition} definition
 * @param {Params} params
 */
function clientOrderIdOf(definition, params) {
	return definition.kind === 'eligibility' ? field(params, 'client-order-id') : field(params, 'client_orderid');
}

module.exports = { field, clientOrderIdOf, ALIASES };
