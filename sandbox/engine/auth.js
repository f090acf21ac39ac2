'use strict';
// Who is asking and is the request genuine: the endpoint (or group) in the URL, the merchant
// (by login or by endpoint), the SHA-1 `control` or the OAuth signature, and the required fields.
const { AMOUNT_RULES, FORMULAS, LOGIN_FORMULAS, field } = require('../commands');
const { controlHundredths, formatMinor, parseAmount } = require('../amount');
const { controlMatches } = require('../verifier');
const { verifyOAuthRequest } = require('../oauth');
const { AuthError, E_AUTH, E_FIELD, fail } = require('./errors');

class Authentication {
	resolveScope(request) {
		if (request.isGroup) {
			const group = this.config.groups.get(request.endpointOrGroupId);
			if (!group) fail(E_AUTH, `Unknown endpoint group ${request.endpointOrGroupId}`);
			return { owner: group.merchant, group, key: `group:${request.endpointOrGroupId}`, label: `endpoint group ${request.endpointOrGroupId}` };
		}
		const endpoint = this.config.endpoints.get(request.endpointOrGroupId);
		if (!endpoint) fail(E_AUTH, `Unknown endpoint ${request.endpointOrGroupId}`);
		return { owner: endpoint.merchant, endpoint, key: `endpoint:${request.endpointOrGroupId}`, label: `endpoint ${request.endpointOrGroupId}` };
	}

	authenticate(request, scope) {
		const { definition, params } = request;
		const useOAuth = definition.auth === 'oauth' || (definition.oauthMethods && /^\s*OAuth\s/i.test(request.authorization || ''));
		let merchant;
		let amountMinor = null;
		if (useOAuth) {
			const r = verifyOAuthRequest({
				header: request.authorization,
				method: 'POST',
				url: request.oauthUrl,
				bodyPairs: request.pairs,
				queryPairs: request.queryPairs,
				allowedMethods: definition.oauthMethods,
				merchantByLogin: (login) => this.config.byLogin.get(login),
				verifier: this.verifier,
				replay: this.replayGuard,
			});
			if (!r.ok) throw new AuthError(r.reason);
			merchant = r.merchant;
			if (merchant !== scope.owner) fail(E_AUTH, `${scope.label} does not belong to merchant ${merchant.login}`);
			this.requireFields(definition, params);
			if (params.amount) amountMinor = this.amountMinorOf(params.amount, params.currency);
		} else {
			if (LOGIN_FORMULAS.has(definition.formula)) {
				if (!params.login) fail(E_FIELD, "Field 'login' is required");
				merchant = this.config.byLogin.get(params.login);
				if (!merchant) fail(E_AUTH, `Unknown login '${params.login}'`);
				if (merchant !== scope.owner) fail(E_AUTH, `${scope.label} does not belong to merchant ${merchant.login}`);
			} else {
				merchant = scope.owner;
				if (params.login && params.login !== merchant.login) fail(E_AUTH, `${scope.label} does not belong to merchant ${params.login}`);
			}
			this.requireFields(definition, params);
			if (!params.control) fail(E_FIELD, "Field 'control' is required");
			const rule = AMOUNT_RULES[definition.formula];
			if (rule === 'always' || (rule && params.amount)) amountMinor = this.amountMinorOf(params.amount, params.currency);
			const clientOrderId = definition.formula === 'tds' ? field(params, 'client-order-id') : field(params, 'client_orderid');
			const concat = FORMULAS[definition.formula]({ endpointOrGroupId: request.endpointOrGroupId, params, clientOrderId: clientOrderId || '', ...this.signedMoney(definition, params, merchant) });
			if (!controlMatches(this.verifier, concat + merchant.controlKey, params.control)) {
				fail(E_AUTH, 'Control signature mismatch');
			}
		}
		return { definition, params, merchant, scope, amountMinor, request };
	}

	requireFields(definition, params) {
		for (const name of definition.required) {
			if (field(params, name) === undefined) fail(E_FIELD, `Field '${name}' is required`);
		}
		if (params.amount && !params.currency && (definition.formula === 'order-amount' || definition.handler === 'payment')) {
			fail(E_FIELD, "Field 'currency' is required when 'amount' is sent");
		}
	}

	/**
	 * The amount and currency a formula signs. Capture without an amount is signed, by default, with
	 * the order's amount and currency (interface: always in the formula; vendor PHP library: the
	 * order's amount); option captureControl 'if-sent' takes the public docs' reading instead.
	 */
	signedMoney(definition, params, merchant) {
		const rule = AMOUNT_RULES[definition.formula];
		if (!rule) return { hundredths: '', currency: '' };
		if (rule === 'always' || params.amount) return { hundredths: this.hundredthsOf(params.amount), currency: params.currency || '' };
		if (definition.amountFromOrder && this.options.captureControl !== 'if-sent') {
			const order = this.store.orders.get(String(params.orderid));
			if (order && order.merchant === merchant) {
				return { hundredths: this.hundredthsOf(formatMinor(order.amountMinor, order.currency)), currency: order.currency };
			}
		}
		return { hundredths: '', currency: '' };
	}

	hundredthsOf(amount) {
		const r = controlHundredths(amount);
		if (r.error) fail(E_FIELD, r.error);
		return r.hundredths;
	}

	amountMinorOf(amount, currency) {
		const r = parseAmount(amount, currency);
		if (r.error) fail(E_FIELD, r.error);
		return r.minor;
	}
}

module.exports = Authentication;
