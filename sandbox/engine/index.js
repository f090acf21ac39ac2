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
const { GatewayError, AuthError } = require('./errors');
const { createGatewayState, resetGatewayState } = require('./state');
const orders = require('./orders');
const { queueCallback } = require('./callbacks');
const { amountMinorOf } = require('./amounts');
const { authenticate, resolveScope } = require('./auth');
const { validateCard } = require('./card-input');
const { createCardReference, getCardInfo } = require('./card-refs');
const { payCheckedPayout, requireDestination } = require('./payouts');
const { createRecurringPayment, updateRecurringPayment } = require('./recurring');
const { queryStatus, statusReply, statusReplyV4 } = require('./status');
const { findCardReference, makeCardReference } = require('./stored-credentials');

const PARTS = [
	require('./payments'),
	require('./follow-ups'),
	require('./hosted-fields'),
	require('./three-d-secure'),
	require('./forms'),
	require('./admin-views'),
];

class Gateway {
	/** config: from config.js; parts: { store, callbacks, faults }. The Gateway is its own state (state.js). */
	constructor(config, parts) {
		Object.assign(this, createGatewayState(config, parts));
	}

	static command(key) {
		return COMMANDS[key] || null;
	}

	reset() {
		resetGatewayState(this);
	}

	/**
	 * request: { definition, endpointOrGroupId, isGroup, pairs (raw [name, value]), queryPairs, params (trimmed, first value wins),
	 *       authorization, oauthUrl, baseUrl }
	 * → { reply } | { authFailure: reason }
	 */
	process(request) {
		const serial = this.store.nextSerial();
		try {
			const scope = resolveScope(this, request);
			const context = authenticate(this, request, scope);
			context.serial = serial;
			context.baseUrl = request.baseUrl;
			return { reply: this.dispatch(context) };
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

	dispatch(context) {
		switch (context.definition.handler) {
			case 'payment': return this.startPayment(context);
			case 'token-sale': return this.saleWithToken(context);
			case 'form': return this.startFormOrder(context);
			case 'sync-verify': return this.verifyAccountNow(context);
			case 'status': return queryStatus(this, context);
			case 'capture': return this.capture(context);
			case 'void': return this.voidOrder(context);
			case 'return': return this.returnOrder(context);
			case 'create-card-ref': return createCardReference(this, context);
			case 'get-card-info': return getCardInfo(this, context);
			case 'payout-pay': return payCheckedPayout(this, context);
			case 'recurring-create': return createRecurringPayment(this, context);
			case 'recurring-update': return updateRecurringPayment(this, context);
			case 'tds-finish': return this.uploadThreeDSResult(context);
			case 'tds-method': return this.uploadMethodUrlResult(context);
			default: throw new Error(`no handler ${context.definition.handler}`);
		}
	}
}

function define(name, descriptor) {
	if (Object.prototype.hasOwnProperty.call(Gateway.prototype, name)) throw new Error(`Gateway.${name} is defined twice`);
	Object.defineProperty(Gateway.prototype, name, descriptor);
}

// Each part's methods join the Gateway; a name defined twice is a mistake, caught at load time.
for (const Part of PARTS) {
	for (const name of Object.getOwnPropertyNames(Part.prototype)) {
		if (name !== 'constructor') define(name, Object.getOwnPropertyDescriptor(Part.prototype, name));
	}
}

// Until every part is a module of plain functions, the parts still on the Gateway reach the
// converted ones through it (the Gateway is the state they take first).
const WITH_STATE = {
	findOrder: orders.findOrder, newOrder: orders.newOrder, settle: orders.settle, finalize: orders.finalize,
	recordInLedger: orders.recordInLedger, queueCallback, findCardReference, makeCardReference, requireDestination,
};
const STATELESS = {
	endpointFor: orders.endpointFor, asyncReply: orders.asyncReply, replayReply: orders.replayReply, blocked: orders.isHeldBack,
	addTransaction: orders.addTransaction, refundable: orders.refundable, netAmount: orders.netAmount,
	requireFinalApproved: orders.requireFinalApproved, orderStage: orders.orderStage,
	statusReply, statusReplyV4, validateCard, amountMinorOf,
};
for (const [name, fn] of Object.entries(WITH_STATE)) define(name, { value(...args) { return fn(this, ...args); } });
for (const [name, fn] of Object.entries(STATELESS)) define(name, { value: (...args) => fn(...args) });

module.exports = { Gateway, GatewayError, AuthError, COMMANDS };
