// @ts-check
'use strict';
// Who is asking and is the request genuine: the endpoint (or group) in the URL, the merchant
// (by login or by endpoint), the SHA-1 `control` or the OAuth signature, and the required fields.
const { formatMinor } = require('../amount');
const { controlMatches } = require('../verifier');
const { verifyOAuthRequest } = require('../oauth');
const { amountMinorOf, hundredthsOf } = require('./amounts');
const { AuthError, E_AUTH, E_FIELD, fail } = require('./errors');
const { field } = require('./params');

/** @typedef {import('./types').GatewayState} GatewayState */
/** @typedef {import('./types').GatewayRequest} GatewayRequest */
/** @typedef {import('./types').CommandDefinition} CommandDefinition */
/** @typedef {import('./types').Merchant} Merchant */
/** @typedef {import('./types').Params} Params */
/** @typedef {import('./types').Scope} Scope */

/**
 * The endpoint or endpoint group the URL names, and the merchant who owns it.
 * @param {GatewayState} state
 * @param {GatewayRequest} request
 * @returns {Scope}
 */
function resolveScope(state, request) {
	const id = request.endpointOrGroupId;
	const loginInUrl = request.definition.loginInUrl;
	if (loginInUrl === 'merchant') {
		const merchant = state.config.byLogin.get(id);
		if (!merchant) fail(E_AUTH, `Unknown merchant login ${id}`);
		return { owner: merchant, merchants: [merchant], key: `merchant:${id}`, label: `merchant ${id}` };
	}
	if (loginInUrl === 'manager') {
		const manager = state.config.managers.get(id);
		if (!manager) fail(E_AUTH, `Unknown manager login ${id}`);
		return { owner: manager, merchants: manager.merchants, key: `manager:${id}`, label: `manager ${id}` };
	}
	if (request.isGroup) {
		const group = state.config.groups.get(id);
		if (!group) fail(E_AUTH, `Unknown endpoint group ${id}`);
		return { owner: group.merchant, group, key: `group:${id}`, label: `endpoint group ${id}` };
	}
	const endpoint = state.config.endpoints.get(id);
	if (!endpoint) fail(E_AUTH, `Unknown endpoint ${id}`);
	return { owner: endpoint.merchant, endpoint, key: `endpoint:${id}`, label: `endpoint ${id}` };
}

/**
 * Check the signature (OAuth, or the SHA-1 `control` of the command's formula) and the required
 * fields. A bad OAuth signature throws an AuthError (plain-text 403), anything else a GatewayError.
 * @param {GatewayState} state
 * @param {GatewayRequest} request
 * @param {Scope} scope
 * @returns {{ definition: CommandDefinition, params: Params, merchant: Merchant, scope: Scope, amountMinor: number | null, request: GatewayRequest }}
 *   the request context, without the serial number and base URL (index.js adds them)
 */
function authenticate(state, request, scope) {
	const { definition, params } = request;
	const useOAuth =
		definition.auth === 'oauth' || (definition.oauthMethods && /^\s*OAuth\s/i.test(request.authorization || ''));
	/** @type {Merchant | undefined} */
	let merchant;
	/** @type {number | null} */
	let amountMinor = null;
	if (useOAuth) {
		merchant = verifyOAuthSigner(state, request, {
			method: 'POST',
			allowedMethods: /** @type {string[]} */ (definition.oauthMethods),
			signers: definition.loginInUrl === 'manager' ? state.config.managers : state.config.byLogin,
		});
		if (merchant !== scope.owner) fail(E_AUTH, `${scope.label} does not belong to merchant ${merchant.login}`);
		requireFields(definition, params);
		if (params.amount) amountMinor = amountMinorOf(params.amount, params.currency);
	} else {
		const formula = /** @type {import('./types').ControlFormula} */ (definition.formula);
		if (formula.loginNamesMerchant) {
			if (!params.login) fail(E_FIELD, "Field 'login' is required");
			merchant = state.config.byLogin.get(params.login);
			if (!merchant) fail(E_AUTH, `Unknown login '${params.login}'`);
			if (merchant !== scope.owner) fail(E_AUTH, `${scope.label} does not belong to merchant ${merchant.login}`);
		} else {
			merchant = scope.owner;
			if (params.login && params.login !== merchant.login)
				fail(E_AUTH, `${scope.label} does not belong to merchant ${params.login}`);
		}
		requireFields(definition, params);
		if (!params.control) fail(E_FIELD, "Field 'control' is required");
		const amountRule = formula.amountRule;
		if (amountRule === 'always' || (amountRule && params.amount))
			amountMinor = amountMinorOf(params.amount, params.currency);
		const clientOrderId = field(params, formula.clientOrderIdField);
		const concatenation = formula.concatenate({
			endpointOrGroupId: request.endpointOrGroupId,
			params,
			clientOrderId: clientOrderId || '',
			...signedMoney(state, definition, params, merchant),
		});
		if (!controlMatches(state.verifier, concatenation + merchant.controlKey, params.control)) {
			fail(E_AUTH, 'Control signature mismatch');
		}
	}
	return { definition, params, merchant, scope, amountMinor, request };
}

/**
 * The merchant (or manager) whose OAuth signature the request carries; a bad one throws an AuthError.
 * @param {GatewayState} state
 * @param {Pick<GatewayRequest, 'authorization' | 'oauthUrl' | 'pairs' | 'queryPairs'>} request
 * @param {{ method: string, allowedMethods: string[], signers: Map<string, Merchant> }} rules
 * @returns {Merchant}
 */
function verifyOAuthSigner(state, request, { method, allowedMethods, signers }) {
	const verification = verifyOAuthRequest({
		header: request.authorization,
		method,
		url: request.oauthUrl,
		bodyPairs: request.pairs,
		queryPairs: request.queryPairs,
		allowedMethods,
		merchantByLogin: (login) => signers.get(login),
		verifier: state.verifier,
		replay: state.replayGuard,
	});
	if (!verification.ok) throw new AuthError(verification.reason);
	return verification.merchant;
}

/**
 * Refuse a request without a required field (under any spelling), or with an amount but no currency.
 * @param {CommandDefinition} definition
 * @param {Params} params
 */
function requireFields(definition, params) {
	for (const name of definition.required) {
		if (field(params, name) === undefined) fail(E_FIELD, `Field '${name}' is required`);
	}
	if (params.amount && !params.currency && definition.currencyRequiredWithAmount) {
		fail(E_FIELD, "Field 'currency' is required when 'amount' is sent");
	}
}

/**
 * The v4 calls whose pages list `login` in the body (api_v4_status, api_v4_payout-pay): it must be
 * the merchant who signed the request.
 * @param {{ params: Params, merchant: Merchant }} context
 */
function requireSignerLogin({ params, merchant }) {
	if (params.login !== merchant.login)
		fail(E_AUTH, `Login '${params.login}' is not the merchant who signed the request`);
}

/**
 * The amount and currency a formula signs. Capture without an amount is signed, by default, with
 * the order's amount and currency (interface: always in the formula; vendor PHP library: the
 * order's amount); option captureControl 'if-sent' takes the public docs' reading instead.
 * @param {GatewayState} state
 * @param {CommandDefinition} definition
 * @param {Params} params
 * @param {Merchant} merchant
 * @returns {{ hundredths: string, currency: string }}
 */
function signedMoney(state, definition, params, merchant) {
	const amountRule = definition.formula && definition.formula.amountRule;
	if (!amountRule) return { hundredths: '', currency: '' };
	if (amountRule === 'always' || params.amount)
		return { hundredths: hundredthsOf(params.amount), currency: params.currency || '' };
	if (definition.amountFromOrder && state.options.captureControl !== 'if-sent') {
		const order = state.store.orders.get(String(params.orderid));
		if (order && order.merchant === merchant) {
			return { hundredths: hundredthsOf(formatMinor(order.amountMinor, order.currency)), currency: order.currency };
		}
	}
	return { hundredths: '', currency: '' };
}

module.exports = { resolveScope, authenticate, verifyOAuthSigner, requireFields, requireSignerLogin, signedMoney };
