'use strict';
// The gateway itself. Everything here runs synchronously once a request body is read, so two
// requests can never interleave inside one operation (which is what keeps "money moves at most
// once" simple). This file is the entry point and the dispatcher; each concern lives in its own
// file beside it and adds its methods to the one Gateway object:
//   auth.js            who is asking, and is the request genuine
//   orders.js          the order state machine and the ledger
//   payments.js        sale, preauth, rebill, verification, payouts and transfers that start an order
//   status.js          the status query and reply
//   follow-ups.js      capture, void, return
//   card-refs.js       card references
//   recurring.js       recurring payments
//   payouts.js         payout and transfer destinations, the v4 two-step payout
//   hosted-fields.js   payment tickets and the v4 sale that spends them
//   three-d-secure.js  3-D Secure uploads and the fake ACS page
//   forms.js           hosted forms and the payer's signed return
//   callbacks.js       what a server callback carries
//   admin-views.js     the sandbox-only admin hooks and views
const { COMMANDS } = require('../commands');
const { createReplayGuard } = require('../oauth');
const { GatewayError, AuthError } = require('./errors');

const PARTS = [
	require('./auth'),
	require('./orders'),
	require('./payments'),
	require('./status'),
	require('./follow-ups'),
	require('./card-refs'),
	require('./recurring'),
	require('./payouts'),
	require('./hosted-fields'),
	require('./three-d-secure'),
	require('./forms'),
	require('./callbacks'),
	require('./admin-views'),
];

class Gateway {
	/** cfg: from config.js; deps: { store, callbacks, faults } */
	constructor(cfg, deps) {
		this.cfg = cfg;
		this.opts = cfg.options;
		this.verifier = cfg.verifier;
		this.store = deps.store;
		this.callbacks = deps.callbacks;
		this.faults = deps.faults;
		this.replay = this.opts.oauthReplay.enabled ? createReplayGuard(Number(this.opts.oauthReplay.windowSec) || 300) : null;
	}

	static command(key) {
		return COMMANDS[key] || null;
	}

	reset() {
		this.store.reset();
		if (this.replay) this.replay.reset();
	}

	/**
	 * ri: { def, id, isGroup, pairs (raw [name, value]), queryPairs, p (trimmed, first value wins),
	 *       authorization, oauthUrl, baseUrl }
	 * → { reply } | { authFailure: reason }
	 */
	process(ri) {
		const serial = this.store.nextSerial();
		try {
			const scope = this.resolveScope(ri);
			const ctx = this.authenticate(ri, scope);
			ctx.serial = serial;
			ctx.baseUrl = ri.baseUrl;
			return { reply: this.dispatch(ctx) };
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

	dispatch(ctx) {
		switch (ctx.def.handler) {
			case 'payment': return this.payment(ctx);
			case 'token-sale': return this.tokenSale(ctx);
			case 'form': return this.form(ctx);
			case 'sync-verify': return this.syncVerify(ctx);
			case 'status': return this.status(ctx);
			case 'capture': return this.capture(ctx);
			case 'void': return this.voidOrder(ctx);
			case 'return': return this.returnOrder(ctx);
			case 'create-card-ref': return this.createCardRef(ctx);
			case 'get-card-info': return this.getCardInfo(ctx);
			case 'payout-pay': return this.payoutPay(ctx);
			case 'recurring-create': return this.recurringCreate(ctx);
			case 'recurring-update': return this.recurringUpdate(ctx);
			case 'tds-finish': return this.tdsFinish(ctx);
			case 'tds-method': return this.tdsMethod(ctx);
			default: throw new Error(`no handler ${ctx.def.handler}`);
		}
	}
}

// Each part's methods join the Gateway; a name defined twice is a mistake, caught at load time.
for (const Part of PARTS) {
	for (const name of Object.getOwnPropertyNames(Part.prototype)) {
		if (name === 'constructor') continue;
		if (Object.prototype.hasOwnProperty.call(Gateway.prototype, name)) throw new Error(`Gateway.${name} is defined twice`);
		Object.defineProperty(Gateway.prototype, name, Object.getOwnPropertyDescriptor(Part.prototype, name));
	}
}

module.exports = { Gateway, GatewayError, AuthError, COMMANDS };
