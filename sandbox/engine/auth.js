'use strict';
// Who is asking and is the request genuine: the endpoint (or group) in the URL, the merchant
// (by login or by endpoint), the SHA-1 `control` or the OAuth signature, and the required fields.
const { AMOUNT_RULES, FORMULAS, LOGIN_FORMULAS, field } = require('../commands');
const { controlHundredths, formatMinor, parseAmount } = require('../amount');
const { controlMatches } = require('../verifier');
const { verifyOAuthRequest } = require('../oauth');
const { AuthError, E_AUTH, E_FIELD, fail } = require('./errors');

class Authentication {
	resolveScope(ri) {
		if (ri.isGroup) {
			const group = this.cfg.groups.get(ri.id);
			if (!group) fail(E_AUTH, `Unknown endpoint group ${ri.id}`);
			return { owner: group.merchant, group, key: `group:${ri.id}`, label: `endpoint group ${ri.id}` };
		}
		const endpoint = this.cfg.endpoints.get(ri.id);
		if (!endpoint) fail(E_AUTH, `Unknown endpoint ${ri.id}`);
		return { owner: endpoint.merchant, endpoint, key: `endpoint:${ri.id}`, label: `endpoint ${ri.id}` };
	}

	authenticate(ri, scope) {
		const { def, p } = ri;
		const useOAuth = def.auth === 'oauth' || (def.oauthMethods && /^\s*OAuth\s/i.test(ri.authorization || ''));
		let merchant;
		let minor = null;
		if (useOAuth) {
			const r = verifyOAuthRequest({
				header: ri.authorization,
				method: 'POST',
				url: ri.oauthUrl,
				bodyPairs: ri.pairs,
				queryPairs: ri.queryPairs,
				allowedMethods: def.oauthMethods,
				merchantByLogin: (login) => this.cfg.byLogin.get(login),
				verifier: this.verifier,
				replay: this.replay,
			});
			if (!r.ok) throw new AuthError(r.reason);
			merchant = r.merchant;
			if (merchant !== scope.owner) fail(E_AUTH, `${scope.label} does not belong to merchant ${merchant.login}`);
			this.checkRequired(def, p);
			if (p.amount) minor = this.amountOf(p.amount, p.currency);
		} else {
			if (LOGIN_FORMULAS.has(def.formula)) {
				if (!p.login) fail(E_FIELD, "Field 'login' is required");
				merchant = this.cfg.byLogin.get(p.login);
				if (!merchant) fail(E_AUTH, `Unknown login '${p.login}'`);
				if (merchant !== scope.owner) fail(E_AUTH, `${scope.label} does not belong to merchant ${merchant.login}`);
			} else {
				merchant = scope.owner;
				if (p.login && p.login !== merchant.login) fail(E_AUTH, `${scope.label} does not belong to merchant ${p.login}`);
			}
			this.checkRequired(def, p);
			if (!p.control) fail(E_FIELD, "Field 'control' is required");
			const rule = AMOUNT_RULES[def.formula];
			if (rule === 'always' || (rule && p.amount)) minor = this.amountOf(p.amount, p.currency);
			const cid = def.formula === 'tds' ? field(p, 'client-order-id') : field(p, 'client_orderid');
			const concat = FORMULAS[def.formula]({ id: ri.id, p, cid: cid || '', ...this.signedMoney(def, p, merchant) });
			if (!controlMatches(this.verifier, concat + merchant.controlKey, p.control)) {
				fail(E_AUTH, 'Control signature mismatch');
			}
		}
		return { def, p, merchant, scope, minor, ri };
	}

	checkRequired(def, p) {
		for (const name of def.required) {
			if (field(p, name) === undefined) fail(E_FIELD, `Field '${name}' is required`);
		}
		if (p.amount && !p.currency && (def.formula === 'order-amount' || def.handler === 'payment')) {
			fail(E_FIELD, "Field 'currency' is required when 'amount' is sent");
		}
	}

	/**
	 * The amount and currency a formula signs. Capture without an amount is signed, by default, with
	 * the order's amount and currency (interface: always in the formula; vendor PHP library: the
	 * order's amount); option captureControl 'if-sent' takes the public docs' reading instead.
	 */
	signedMoney(def, p, merchant) {
		const rule = AMOUNT_RULES[def.formula];
		if (!rule) return { hundredths: '', currency: '' };
		if (rule === 'always' || p.amount) return { hundredths: this.hundredthsOf(p.amount), currency: p.currency || '' };
		if (def.amountFromOrder && this.opts.captureControl !== 'if-sent') {
			const order = this.store.orders.get(String(p.orderid));
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

	amountOf(amount, currency) {
		const r = parseAmount(amount, currency);
		if (r.error) fail(E_FIELD, r.error);
		return r.minor;
	}
}

module.exports = Authentication;
