'use strict';
// The gateway itself: authentication, validation, the order state machine, the ledger and the
// callbacks. Everything here runs synchronously once a request body is read, so two requests can
// never interleave inside one operation (which is what keeps "money moves at most once" simple).
const { COMMANDS, FORMULAS, LOGIN_FORMULAS, field } = require('./commands');
const { parseAmount, formatMinor } = require('./amount');
const cards = require('./cards');
const { controlMatches } = require('./verifier');
const { verifyOAuthRequest, createReplayGuard } = require('./oauth');
const { maskParams } = require('./mask');
const pages = require('./pages');

/** A refused request: becomes a validation-error (or error) reply and changes nothing. */
class GatewayError extends Error {
	constructor(code, message, type = 'validation-error') {
		super(message);
		this.code = code;
		this.type = type;
	}
}
/** An OAuth failure: plain-text 403 (or the configured status). */
class AuthError extends Error {}

// Error codes (documented in docs/sandbox.md).
const E_FIELD = 1;
const E_AUTH = 2;
const E_NOT_FOUND = 3;
const E_STATE = 4;

const FINAL_WITH_CALLBACK = new Set(['approved', 'declined', 'error', 'filtered']);
const STAGE_PREFIX = {
	sale: 'sale', preauth: 'auth', verify: 'verify', payout: 'payout', 'payout-check': 'payout_check',
	transfer: 'transfer', eligibility: 'eligibility',
};

function fail(code, message) {
	throw new GatewayError(code, message);
}

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

	// ---------------------------------------------------------------- request entry point

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
			if (def.formula === 'endpoint-amount' || def.formula === 'rebill' || (def.formula === 'order-amount' && p.amount)) {
				minor = this.amountOf(p.amount, p.currency);
			}
			const cid = def.formula === 'tds' ? field(p, 'client-order-id') : field(p, 'client_orderid');
			const concat = FORMULAS[def.formula]({ id: ri.id, p, minor: minor == null ? '' : String(minor), cid: cid || '' });
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

	amountOf(amount, currency) {
		const r = parseAmount(amount, currency);
		if (r.error) fail(E_FIELD, r.error);
		return r.minor;
	}

	dispatch(ctx) {
		switch (ctx.def.handler) {
			case 'payment': return this.payment(ctx);
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

	// ---------------------------------------------------------------- validation helpers

	endpointFor(scope, currency) {
		const cur = String(currency || '').toUpperCase();
		const list = scope.group ? scope.group.endpoints : [scope.endpoint];
		if (!currency) return list[0];
		const ep = list.find((e) => e.currency === cur);
		if (!ep) fail(E_FIELD, `Currency ${cur} is not accepted by ${scope.label} (${list.map((e) => e.currency).join(', ')})`);
		return ep;
	}

	validateCard(p, { cvvRequired, numberField = 'credit_card_number' } = {}) {
		const pan = p[numberField];
		if (!cards.luhnValid(pan)) fail(E_FIELD, `Invalid card number in '${numberField}'`);
		if (p.expire_month !== undefined || p.expire_year !== undefined) {
			const err = cards.expiryError(p.expire_month, p.expire_year);
			if (err) fail(E_FIELD, err);
		}
		if (p.cvv2 !== undefined && p.cvv2 !== '' && !/^\d{3,4}$/.test(p.cvv2)) fail(E_FIELD, 'Invalid cvv2');
		if (cvvRequired && !p.cvv2) fail(E_FIELD, "Field 'cvv2' is required");
		return cards.cardSummary(pan, p.expire_month, p.expire_year, p.card_printed_name);
	}

	findCardRef(merchant, id) {
		const ref = this.store.cardRefs.get(String(id));
		if (!ref || ref.merchant !== merchant) fail(E_NOT_FOUND, `Card reference ${id} not found`);
		return ref;
	}

	/** The order a follow-up names: by orderid, and its client_orderid must agree. */
	findOrder(ctx, { cidField = 'client_orderid' } = {}) {
		const order = this.store.orders.get(String(ctx.p.orderid));
		const cid = field(ctx.p, cidField);
		if (!order || order.merchant !== ctx.merchant || (cid && order.cid !== cid)) {
			fail(E_NOT_FOUND, `Order ${ctx.p.orderid} not found`);
		}
		return order;
	}

	// ---------------------------------------------------------------- orders

	newOrder(ctx, extra) {
		const { def, p, scope } = ctx;
		const cid = def.name === 'pan-eligibility/send' ? field(p, 'client-order-id') : field(p, 'client_orderid');
		const order = {
			orderid: this.store.nextOrderId(),
			cid,
			merchant: ctx.merchant,
			scopeKey: scope.key,
			groupId: scope.group ? scope.group.id : null,
			endpointId: extra.endpoint.id,
			command: def.key,
			def,
			kind: def.kind,
			txType: def.tx,
			money: def.money,
			currency: extra.currency,
			amountMinor: extra.amountMinor,
			card: extra.card || null,
			sourceCardRefId: extra.sourceCardRefId || null,
			outcome: extra.outcome || null,
			status: 'processing',
			finalized: false,
			pollsLeft: this.opts.pollsBeforeFinal,
			threeDS: extra.outcome && extra.outcome.threeDS ? { pending: true, methodResult: null } : null,
			form: extra.form ? { pending: true } : null,
			stayProcessing: null,
			heldMinor: 0,
			chargedMinor: 0,
			refundedMinor: 0,
			chargedBackMinor: 0,
			voidedMinor: 0,
			voided: false,
			cleared: false,
			paid: null,
			cardRefId: null,
			recurringPaymentId: null,
			email: p.email || '',
			merchantdata: p.merchantdata,
			urls: {
				serverCallback: p.server_callback_url || '',
				notify: p.notify_url || '',
				redirect: p.redirect_url || '',
				redirectSuccess: p.redirect_success_url || '',
				redirectFail: p.redirect_fail_url || '',
			},
			baseUrl: ctx.baseUrl,
			params: maskParams(p),
			transactions: [],
			createdAt: new Date().toISOString(),
			reply: null,
		};
		order.transactions.push({ serial: ctx.serial, type: def.tx, status: 'processing', amountMinor: order.amountMinor, at: order.createdAt });
		const stay = extra.noStay ? null : this.faults.take('stay-processing', def);
		if (stay) order.stayProcessing = stay.id;
		this.store.addOrder(order);
		return order;
	}

	asyncReply(order, serial, type = 'async-response') {
		return {
			type,
			'serial-number': serial,
			'merchant-order-id': order.cid,
			'paynet-order-id': order.orderid,
			'end-point-id': order.endpointId,
		};
	}

	/** The same reply again for a repeated client_orderid: no second order, nothing new in the ledger. */
	replayReply(order, serial) {
		return { ...order.reply, 'serial-number': serial };
	}

	blocked(order) {
		return Boolean(order.stayProcessing || (order.threeDS && order.threeDS.pending) || (order.form && order.form.pending));
	}

	/** Finalise now if nothing holds the order back and no polls remain. */
	settle(order) {
		if (!order.finalized && !this.blocked(order) && order.pollsLeft <= 0) this.finalize(order);
	}

	finalize(order) {
		if (order.finalized) return;
		order.finalized = true;
		order.status = order.outcome.status;
		const tx = order.transactions[0];
		tx.status = order.status;
		tx.finalAt = new Date().toISOString();
		if (order.status === 'approved') {
			order.approvalCode = String(order.orderid).slice(-6).padStart(6, '0');
			if (order.kind === 'sale') {
				order.chargedMinor = order.amountMinor;
				this.ledger(order, order.money, order.amountMinor);
			} else if (order.kind === 'preauth') {
				order.heldMinor = order.amountMinor;
			} else if (order.kind === 'payout' || order.kind === 'transfer') {
				order.chargedMinor = order.amountMinor;
				this.ledger(order, order.money, order.amountMinor);
			}
		}
		// A payout check only registers the payout: its callback comes with the pay.
		if (FINAL_WITH_CALLBACK.has(order.status) && order.kind !== 'payout-check') {
			this.queueCallback(order, {
				urls: [order.urls.serverCallback, order.urls.notify],
				type: order.txType,
				status: order.status,
				amountMinor: order.amountMinor,
				def: order.def,
			});
		}
	}

	ledger(order, kind, amountMinor) {
		return this.store.record(order, kind, amountMinor, formatMinor);
	}

	addTransaction(order, ctx, type, amountMinor) {
		const tx = { serial: ctx ? ctx.serial : null, type, status: 'approved', amountMinor, at: new Date().toISOString() };
		order.transactions.push(tx);
		return tx;
	}

	refundable(order) {
		return order.chargedMinor - order.refundedMinor - order.chargedBackMinor - order.voidedMinor;
	}

	netAmount(order) {
		if (!order.finalized || order.status !== 'approved') return order.amountMinor;
		if (order.kind === 'sale' || order.kind === 'preauth') return order.heldMinor + this.refundable(order);
		return order.amountMinor;
	}

	requireFinalApproved(order, what) {
		if (!order.finalized || order.status !== 'approved') {
			fail(E_STATE, `${what} is not allowed: order ${order.orderid} is not in a final approved status (${order.finalized ? order.status : 'processing'})`);
		}
	}

	// ---------------------------------------------------------------- initial operations

	payment(ctx) {
		const { def, p, merchant, scope } = ctx;
		const cid = def.name === 'pan-eligibility/send' ? field(p, 'client-order-id') : field(p, 'client_orderid');
		const existing = this.store.findByClientId(scope.key, cid);
		if (existing) return this.replayReply(existing, ctx.serial);

		let endpoint;
		let currency;
		let amountMinor = 0;
		if (def.kind === 'verify' || def.kind === 'eligibility') {
			endpoint = this.endpointFor(scope, p.currency);
			currency = endpoint.currency;
		} else {
			endpoint = this.endpointFor(scope, p.currency);
			currency = endpoint.currency;
			amountMinor = ctx.minor;
			if (!(amountMinor > 0)) fail(E_FIELD, 'Amount must be greater than zero');
		}

		let card = null;
		let sourceCardRefId = null;
		let threeDSAllowed = false;
		if (def.card === 'required') {
			card = this.validateCard(p, { cvvRequired: def.kind === 'sale' || def.kind === 'preauth' });
			threeDSAllowed = true;
		} else if (def.card === 'ref') {
			const ref = this.findCardRef(merchant, p.cardrefid);
			card = ref.card;
			sourceCardRefId = ref.id;
		} else if (def.card === 'optional' && p.credit_card_number) {
			card = this.validateCard(p, {});
		}
		if (p.cvv2 && !/^\d{3,4}$/.test(p.cvv2)) fail(E_FIELD, 'Invalid cvv2');
		if (def.needsDestination) {
			const destRef = p['destination-card-ref-id'];
			const destNo = p['destination-card-no'];
			if (!destRef && !destNo) fail(E_FIELD, "Field 'destination-card-ref-id' or 'destination-card-no' is required");
			if (destRef) this.findCardRef(merchant, destRef);
		}
		if (p['destination-card-no'] && !cards.luhnValid(p['destination-card-no'])) fail(E_FIELD, "Invalid card number in 'destination-card-no'");
		if (def.kind === 'eligibility') {
			if (p['sending-card-number'] && !cards.luhnValid(p['sending-card-number'])) fail(E_FIELD, "Invalid card number in 'sending-card-number'");
			if (p['sending-card-ref-id']) card = this.findCardRef(merchant, p['sending-card-ref-id']).card;
			else if (p['sending-card-number']) card = cards.cardSummary(p['sending-card-number'], p.expire_month, p.expire_year, p['card-printed-name']);
		}

		const outcome = cards.cvvOutcome(p.cvv2);
		if (outcome.threeDS && !threeDSAllowed) delete outcome.threeDS;
		const order = this.newOrder(ctx, { endpoint, currency, amountMinor, card, sourceCardRefId, outcome });
		order.reply = this.asyncReply(order, ctx.serial);
		this.settle(order);
		return order.reply;
	}

	form(ctx) {
		const { def, p, scope } = ctx;
		const cid = field(p, 'client_orderid');
		const existing = this.store.findByClientId(scope.key, cid);
		if (existing) return this.replayReply(existing, ctx.serial);
		const endpoint = this.endpointFor(scope, p.currency);
		let amountMinor = 0;
		if (def.kind !== 'verify') {
			amountMinor = ctx.minor;
			if (!(amountMinor > 0)) fail(E_FIELD, 'Amount must be greater than zero');
		}
		const order = this.newOrder(ctx, { endpoint, currency: endpoint.currency, amountMinor, form: true });
		order.reply = {
			...this.asyncReply(order, ctx.serial, 'async-form-response'),
			'redirect-url': `${ctx.baseUrl}/sandbox/form/${order.orderid}`,
		};
		return order.reply;
	}

	syncVerify(ctx) {
		const { p, scope } = ctx;
		const existing = this.store.findByClientId(scope.key, field(p, 'client_orderid'));
		if (existing) return this.statusReply(existing, ctx.serial, ctx.baseUrl);
		const endpoint = this.endpointFor(scope, p.currency);
		const card = this.validateCard(p, {});
		const outcome = cards.cvvOutcome(p.cvv2);
		delete outcome.threeDS;
		const order = this.newOrder(ctx, { endpoint, currency: endpoint.currency, amountMinor: 0, card, outcome, noStay: true });
		order.pollsLeft = 0;
		this.finalize(order);
		if (order.status === 'approved') this.makeCardRef(order);
		order.reply = this.statusReply(order, ctx.serial, ctx.baseUrl);
		return order.reply;
	}

	// ---------------------------------------------------------------- status

	status(ctx) {
		const { p, merchant, scope } = ctx;
		const cid = field(p, 'client_orderid');
		let order = p.orderid
			? this.store.orders.get(p.orderid)
			: this.store.findByClientId(scope.key, cid) || this.store.findUniqueForMerchant(merchant, cid);
		if (!order || order.merchant !== merchant || order.cid !== cid) {
			// Guess (not in the docs): a correctly signed query for an unknown order is a status
			// reply with status=error, not a validation error.
			return {
				type: 'status-response',
				'serial-number': ctx.serial,
				status: 'error',
				'merchant-order-id': cid,
				'paynet-order-id': p.orderid || undefined,
				'error-message': 'Order not found',
				'error-code': String(E_NOT_FOUND),
			};
		}
		if (!order.finalized && !this.blocked(order)) {
			if (order.pollsLeft > 0) order.pollsLeft--;
			else this.finalize(order);
		}
		const reply = this.statusReply(order, ctx.serial, ctx.baseUrl);
		if (p['by-request-sn']) {
			const tx = order.transactions.find((t) => t.serial === p['by-request-sn']);
			if (tx) {
				reply['by-request-sn'] = tx.serial;
				reply['transaction-type'] = tx.type;
				reply.amount = formatMinor(tx.amountMinor, order.currency);
				if (order.finalized) reply.status = tx.status;
			}
		}
		return reply;
	}

	orderStage(order) {
		const prefix = STAGE_PREFIX[order.kind] || order.kind;
		if (!order.finalized) {
			if (order.threeDS && order.threeDS.pending) return `${prefix}_3d_validating`;
			return `${prefix}_processing`;
		}
		const last = order.transactions[order.transactions.length - 1];
		if (order.transactions.length > 1) return `${last.type}_approved`;
		if (order.status === 'approved') return `${prefix}_approved`;
		return `${prefix}_${order.status === 'unknown' ? 'unknown' : 'failed'}`;
	}

	statusReply(order, serial, baseUrl) {
		const last = order.transactions[order.transactions.length - 1];
		const status = order.finalized ? last.status : 'processing';
		const r = {
			type: 'status-response',
			'serial-number': serial,
			status,
			amount: formatMinor(this.netAmount(order), order.currency),
			currency: order.currency,
			'paynet-order-id': order.orderid,
			'merchant-order-id': order.cid,
			'end-point-id': order.endpointId,
			'transaction-type': last.type,
			'order-stage': this.orderStage(order),
			'processor-tx-id': `PNTEST-${order.orderid}`,
			'gate-partial-capture': 'enabled',
			'gate-partial-reversal': 'enabled',
			descriptor: order.merchant.descriptor,
		};
		if (order.card) {
			r['last-four-digits'] = order.card.lastFour;
			r.bin = order.card.bin;
			r['card-type'] = order.card.type;
			if (order.card.holder) r['cardholder-name'] = order.card.holder;
			if (order.card.expMonth) r['card-exp-month'] = order.card.expMonth;
			if (order.card.expYear) r['card-exp-year'] = order.card.expYear;
		}
		if (order.email) r.email = order.email;
		if (order.finalized && status === 'approved') r['approval-code'] = order.approvalCode;
		if (order.finalized && status !== 'approved' && order.outcome.errorMessage) {
			r['error-message'] = order.outcome.errorMessage;
			r['error-code'] = order.outcome.errorCode;
		}
		if (!order.finalized && order.threeDS && order.threeDS.pending) {
			const acs = `${baseUrl || order.baseUrl}/sandbox/acs/${order.orderid}`;
			r['redirect-to'] = acs;
			r.html = pages.autoSubmit('3-D Secure', acs, 'get', {});
		}
		if (order.cardRefId) r['card-ref-id'] = order.cardRefId;
		if (order.recurringPaymentId) r['recurring-payment-id'] = order.recurringPaymentId;
		return r;
	}

	// ---------------------------------------------------------------- follow-ups

	followUpReply(order, ctx) {
		return this.asyncReply(order, ctx.serial);
	}

	notifyFollowUp(order, type, amountMinor, def) {
		this.queueCallback(order, { urls: [order.urls.notify], type, status: 'approved', amountMinor, def });
	}

	followUpAmount(ctx, order) {
		const { p } = ctx;
		if (!p.amount) return null;
		if (String(p.currency).toUpperCase() !== order.currency) {
			fail(E_FIELD, `Currency ${p.currency} does not match the order's currency ${order.currency}`);
		}
		if (!(ctx.minor > 0)) fail(E_FIELD, 'Amount must be greater than zero');
		return ctx.minor;
	}

	capture(ctx) {
		const order = this.findOrder(ctx);
		const amount = this.followUpAmount(ctx, order);
		if (order.kind !== 'preauth') fail(E_STATE, `Capture is only allowed on a preauth (order ${order.orderid} is a ${order.kind})`);
		this.requireFinalApproved(order, 'Capture');
		if (order.heldMinor <= 0) fail(E_STATE, `Nothing left to capture on order ${order.orderid}`);
		const take = amount == null ? order.heldMinor : amount;
		if (take > order.heldMinor) {
			fail(E_STATE, `Capture amount ${formatMinor(take, order.currency)} exceeds the held ${formatMinor(order.heldMinor, order.currency)}`);
		}
		order.heldMinor -= take;
		order.chargedMinor += take;
		this.addTransaction(order, ctx, 'capture', take);
		this.ledger(order, 'capture', take);
		this.notifyFollowUp(order, 'capture', take, ctx.def);
		return this.followUpReply(order, ctx);
	}

	voidOrder(ctx) {
		const order = this.findOrder(ctx);
		if (order.kind !== 'sale' && order.kind !== 'preauth') fail(E_STATE, `Void is not allowed on a ${order.kind}`);
		this.requireFinalApproved(order, 'Void');
		if (order.voided) fail(E_STATE, `Order ${order.orderid} is already voided`);
		if (order.cleared) fail(E_STATE, `Void is not allowed: order ${order.orderid} is already cleared (settled)`);
		if (order.refundedMinor > 0 || order.chargedBackMinor > 0) fail(E_STATE, 'Void is not allowed after a return or chargeback (full amount only)');
		const amount = this.refundable(order) + order.heldMinor;
		if (amount <= 0) fail(E_STATE, `Nothing left to void on order ${order.orderid}`);
		order.voidedMinor += this.refundable(order);
		order.heldMinor = 0;
		order.voided = true;
		this.addTransaction(order, ctx, 'void', amount);
		this.ledger(order, 'void', amount);
		this.notifyFollowUp(order, 'void', amount, ctx.def);
		return this.followUpReply(order, ctx);
	}

	returnOrder(ctx) {
		const order = this.findOrder(ctx);
		const amount = this.followUpAmount(ctx, order);
		if (order.kind !== 'sale' && order.kind !== 'preauth') fail(E_STATE, `Return is not allowed on a ${order.kind}`);
		this.requireFinalApproved(order, 'Return');
		if (order.voided) fail(E_STATE, `Order ${order.orderid} is voided`);
		if (order.kind === 'preauth' && order.chargedMinor === 0) {
			// Return on an uncaptured preauth is a cancel: it releases the whole hold; amount is ignored.
			if (order.heldMinor <= 0) fail(E_STATE, `Nothing held on order ${order.orderid}`);
			const released = order.heldMinor;
			order.heldMinor = 0;
			this.addTransaction(order, ctx, 'cancel', released);
			this.ledger(order, 'cancel', released);
			this.notifyFollowUp(order, 'cancel', released, ctx.def);
			return this.followUpReply(order, ctx);
		}
		const left = this.refundable(order);
		if (left <= 0) fail(E_STATE, `Nothing left to return on order ${order.orderid}`);
		const take = amount == null ? left : amount;
		if (take > left) {
			fail(E_STATE, `Return amount ${formatMinor(take, order.currency)} exceeds the refundable ${formatMinor(left, order.currency)}`);
		}
		order.refundedMinor += take;
		this.addTransaction(order, ctx, 'reversal', take);
		this.ledger(order, 'return', take);
		this.notifyFollowUp(order, 'reversal', take, ctx.def);
		return this.followUpReply(order, ctx);
	}

	// ---------------------------------------------------------------- card references, recurring

	makeCardRef(order) {
		if (order.cardRefId) return this.store.cardRefs.get(order.cardRefId);
		const ref = { id: this.store.nextCardRefId(), merchant: order.merchant, card: order.card, orderid: order.orderid, createdAt: new Date().toISOString() };
		this.store.cardRefs.set(ref.id, ref);
		order.cardRefId = ref.id;
		return ref;
	}

	createCardRef(ctx) {
		const order = this.findOrder(ctx);
		this.requireFinalApproved(order, 'Creating a card reference');
		if (!order.card) fail(E_STATE, `Order ${order.orderid} has no card to reference`);
		const ref = this.makeCardRef(order);
		const reply = {
			type: 'create-card-ref-response',
			'serial-number': ctx.serial,
			status: 'approved',
			'card-ref-id': ref.id,
			'merchant-order-id': order.cid,
			'paynet-order-id': order.orderid,
		};
		if (ctx.def.v4) {
			if (!order.recurringPaymentId) {
				const rp = this.newRecurring(ctx, { cardRefId: ref.id, cid: order.cid, endpointId: order.endpointId });
				order.recurringPaymentId = rp.id;
			}
			reply['recurring-payment-id'] = order.recurringPaymentId;
		}
		return reply;
	}

	getCardInfo(ctx) {
		const ref = this.findCardRef(ctx.merchant, ctx.p.cardrefid);
		return {
			type: 'get-card-info-response',
			'serial-number': ctx.serial,
			'card-ref-id': ref.id,
			'card-printed-name': ref.card.holder,
			bin: ref.card.bin,
			'last-four-digits': ref.card.lastFour,
			'expire-month': ref.card.expMonth,
			'expire-year': ref.card.expYear,
			'card-type': ref.card.type,
		};
	}

	newRecurring(ctx, extra) {
		const rp = {
			id: this.store.nextRecurringId(),
			merchant: ctx.merchant,
			scopeKey: ctx.scope.key,
			endpointId: extra.endpointId,
			cid: extra.cid || null,
			cardRefId: extra.cardRefId || null,
			card: extra.card || null,
			fields: extra.fields || {},
			status: 'active',
			createdAt: new Date().toISOString(),
			updatedAt: null,
		};
		this.store.recurring.set(rp.id, rp);
		if (rp.cid) this.store.recurringByClientId.set(`${rp.scopeKey}\u0000${rp.cid}`, rp);
		return rp;
	}

	recurringCreate(ctx) {
		const { p, scope, merchant } = ctx;
		const cid = field(p, 'client_orderid');
		const existing = cid && this.store.recurringByClientId.get(`${scope.key}\u0000${cid}`);
		const reply = (rp) => ({
			type: 'create-recurring-payment-response',
			'serial-number': ctx.serial,
			status: 'approved',
			'recurring-payment-id': rp.id,
			'merchant-order-id': rp.cid || undefined,
		});
		if (existing) return reply(existing);
		const number = p['credit-card-number'] || p.credit_card_number;
		let card = null;
		if (number) {
			if (!cards.luhnValid(number)) fail(E_FIELD, 'Invalid card number');
			const month = p['expire-month'] || p.expire_month;
			const year = p['expire-year'] || p.expire_year;
			if (month || year) {
				const err = cards.expiryError(month, year);
				if (err) fail(E_FIELD, err);
			}
			card = cards.cardSummary(number, month, year, p['card-printed-name'] || p.card_printed_name);
		}
		const refId = p['card-ref-id'] || p.cardrefid;
		if (refId) this.findCardRef(merchant, refId);
		const endpoint = this.endpointFor(scope, p.currency);
		const rp = this.newRecurring(ctx, { cid, cardRefId: refId, card, fields: maskParams(p), endpointId: endpoint.id });
		return reply(rp);
	}

	recurringUpdate(ctx) {
		const id = ctx.p['recurring-payment-id'];
		const rp = this.store.recurring.get(String(id));
		if (!rp || rp.merchant !== ctx.merchant) fail(E_NOT_FOUND, `Recurring payment ${id} not found`);
		Object.assign(rp.fields, maskParams(ctx.p));
		if (ctx.p.status && /^(active|inactive|cancelled|canceled|paused)$/i.test(ctx.p.status)) rp.status = ctx.p.status.toLowerCase();
		rp.updatedAt = new Date().toISOString();
		return {
			type: 'update-recurring-payment-response',
			'serial-number': ctx.serial,
			status: 'approved',
			'recurring-payment-id': rp.id,
		};
	}

	// ---------------------------------------------------------------- payouts (v4 two-step)

	payoutPay(ctx) {
		const { p, scope, merchant } = ctx;
		const cid = field(p, 'client_orderid');
		let order = p.orderid ? this.store.orders.get(String(p.orderid)) : this.store.findByClientId(scope.key, cid);
		if (!order || order.merchant !== merchant || order.cid !== cid || order.kind !== 'payout-check') {
			fail(E_NOT_FOUND, `No payout check found for client_orderid ${cid}${p.orderid ? ` / orderid ${p.orderid}` : ''}`);
		}
		if (order.paid) return { ...order.paid.reply, 'serial-number': ctx.serial };
		if (!order.finalized || order.status !== 'approved') {
			fail(E_STATE, `Payout ${order.orderid} is not checked (${order.finalized ? order.status : 'processing'})`);
		}
		const tx = this.addTransaction(order, ctx, 'payout', order.amountMinor);
		order.chargedMinor = order.amountMinor;
		this.ledger(order, 'payout', order.amountMinor);
		order.paid = { at: tx.at, reply: this.asyncReply(order, ctx.serial) };
		if (p.server_callback_url) order.urls.serverCallback = p.server_callback_url;
		if (p.notify_url) order.urls.notify = p.notify_url;
		this.queueCallback(order, {
			urls: [order.urls.serverCallback, order.urls.notify],
			type: 'payout',
			status: 'approved',
			amountMinor: order.amountMinor,
			def: ctx.def,
		});
		return order.paid.reply;
	}

	// ---------------------------------------------------------------- 3-D Secure

	tdsOrder(ctx) {
		const order = this.findOrder(ctx, { cidField: 'client-order-id' });
		if (!order.threeDS || !order.threeDS.pending || order.finalized) {
			fail(E_STATE, `Order ${order.orderid} is not waiting for 3-D Secure`);
		}
		return order;
	}

	tdsFinish(ctx) {
		const order = this.tdsOrder(ctx);
		const value = field(ctx.p, ctx.def.resultField);
		this.completeThreeDS(order, String(value).toLowerCase() !== 'fail');
		return this.asyncReply(order, ctx.serial);
	}

	tdsMethod(ctx) {
		const ind = ctx.p.threeDSCompInd;
		if (!['Y', 'N', 'U'].includes(ind)) fail(E_FIELD, "Field 'threeDSCompInd' must be Y, N or U");
		const order = this.tdsOrder(ctx);
		order.threeDS.methodResult = ind;
		order.threeDS.methodAt = new Date().toISOString();
		return this.asyncReply(order, ctx.serial);
	}

	completeThreeDS(order, passed) {
		order.threeDS.pending = false;
		order.threeDS.result = passed ? 'passed' : 'failed';
		if (!passed) order.outcome = { status: 'declined', errorCode: cards.TDS_DECLINE.code, errorMessage: cards.TDS_DECLINE.message };
		order.pollsLeft = 0;
		this.settle(order);
	}

	// ---------------------------------------------------------------- browser pages

	returnFields(order) {
		const status = order.finalized ? order.status : order.outcome.status;
		const fields = {
			status,
			orderid: order.orderid,
			merchant_order: order.cid,
			client_orderid: order.cid,
			control: this.verifier.sha1Hex(status + order.orderid + order.cid + order.merchant.controlKey),
			descriptor: order.merchant.descriptor,
		};
		if (status !== 'approved' && order.outcome.errorMessage) fields.error_message = order.outcome.errorMessage;
		return fields;
	}

	/** Where the payer goes after the form / ACS: auto-POST of the signed parameters. */
	returnPage(order) {
		const fields = this.returnFields(order);
		const u = order.urls;
		const target = (fields.status === 'approved' ? u.redirectSuccess : u.redirectFail) || u.redirect;
		if (!target) return pages.messagePage('Payment finished', `Order ${order.orderid}: ${fields.status}`);
		return pages.autoSubmit('Returning to the merchant', target, 'post', fields);
	}

	pageOrder(orderid) {
		return this.store.orders.get(String(orderid)) || null;
	}

	withAmountText(order) {
		return { ...order, amountText: formatMinor(order.amountMinor, order.currency) };
	}

	acsGet(orderid, baseUrl) {
		const order = this.pageOrder(orderid);
		if (!order) return { status: 404, html: pages.messagePage('Not found', `No order ${orderid}`) };
		if (!order.threeDS || !order.threeDS.pending) {
			return { status: 409, html: pages.messagePage('3-D Secure', `Order ${orderid} is not waiting for 3-D Secure`) };
		}
		return { status: 200, html: pages.acsPage(this.withAmountText(order), `${baseUrl}/sandbox/acs/${order.orderid}`) };
	}

	acsPost(orderid, fields) {
		const order = this.pageOrder(orderid);
		if (!order) return { status: 404, html: pages.messagePage('Not found', `No order ${orderid}`) };
		if (!order.threeDS || !order.threeDS.pending) {
			return { status: 409, html: pages.messagePage('3-D Secure', `Order ${orderid} is not waiting for 3-D Secure`) };
		}
		this.completeThreeDS(order, fields.password === 'hint');
		return { status: 200, html: this.returnPage(order) };
	}

	formGet(orderid, baseUrl) {
		const order = this.pageOrder(orderid);
		if (!order || !order.form) return { status: 404, html: pages.messagePage('Not found', `No form for order ${orderid}`) };
		if (!order.form.pending) return { status: 409, html: pages.messagePage('Payment form', `Order ${orderid} is already completed`) };
		return { status: 200, html: pages.formPage(this.withAmountText(order), `${baseUrl}/sandbox/form/${order.orderid}`) };
	}

	formPost(orderid, fields, baseUrl) {
		const order = this.pageOrder(orderid);
		if (!order || !order.form) return { status: 404, html: pages.messagePage('Not found', `No form for order ${orderid}`) };
		if (!order.form.pending) return { status: 409, html: pages.messagePage('Payment form', `Order ${orderid} is already completed`) };
		const payout = order.kind === 'payout';
		let card;
		try {
			card = this.validateCard(fields, { cvvRequired: !payout });
		} catch (e) {
			if (!(e instanceof GatewayError)) throw e;
			return { status: 400, html: pages.formPage(this.withAmountText(order), `${baseUrl}/sandbox/form/${order.orderid}`, e.message) };
		}
		order.card = card;
		order.form.pending = false;
		order.form.completedAt = new Date().toISOString();
		order.outcome = payout ? { status: 'approved' } : cards.cvvOutcome(fields.cvv2);
		if (order.outcome.threeDS) {
			order.threeDS = { pending: true, methodResult: null };
			return { status: 200, html: pages.autoSubmit('3-D Secure', `${baseUrl}/sandbox/acs/${order.orderid}`, 'get', {}) };
		}
		this.settle(order);
		return { status: 200, html: this.returnPage(order) };
	}

	// ---------------------------------------------------------------- callbacks

	queueCallback(order, cb) {
		const urls = cb.urls.filter(Boolean);
		if (!urls.length) return;
		const params = {
			status: cb.status,
			merchant_order: order.cid,
			client_orderid: order.cid,
			orderid: order.orderid,
			type: cb.type,
			amount: formatMinor(cb.amountMinor, order.currency),
			currency: order.currency,
			descriptor: order.merchant.descriptor,
			error_code: cb.status === 'approved' ? '' : order.outcome.errorCode || '',
			error_message: cb.status === 'approved' ? '' : order.outcome.errorMessage || '',
		};
		if (cb.status === 'approved') params['approval-code'] = order.approvalCode;
		if (order.card) {
			params['last-four-digits'] = order.card.lastFour;
			params.bin = order.card.bin;
			params['card-type'] = order.card.type;
		}
		params['gate-partial-capture'] = 'enabled';
		params['gate-partial-reversal'] = 'enabled';
		params['processor-tx-id'] = `PNTEST-${order.orderid}`;
		if (order.merchantdata !== undefined) params.merchantdata = order.merchantdata;
		const key = order.merchant.controlKey;
		this.callbacks.enqueue({
			orderid: order.orderid,
			cid: order.cid,
			type: cb.type,
			urls,
			params,
			def: cb.def,
			sign: (prm, wrong) => this.verifier.sha1Hex(prm.status + prm.orderid + prm.merchant_order + key + (wrong ? '-wrong' : '')),
		});
	}

	// ---------------------------------------------------------------- admin hooks

	adminOrder(orderid) {
		const order = this.store.orders.get(String(orderid));
		if (!order) throw new GatewayError(E_NOT_FOUND, `Order ${orderid} not found`);
		return order;
	}

	clear(orderid) {
		const order = this.adminOrder(orderid);
		this.requireFinalApproved(order, 'Clearing');
		order.cleared = true;
		order.clearedAt = new Date().toISOString();
		return order;
	}

	chargeback(orderid, body) {
		const order = this.adminOrder(orderid);
		this.requireFinalApproved(order, 'A chargeback');
		const left = this.refundable(order);
		if (order.voided || left <= 0) fail(E_STATE, `Nothing to charge back on order ${orderid}`);
		let amount = left;
		if (body && body.amount !== undefined) {
			amount = this.amountOf(String(body.amount), order.currency);
			if (amount <= 0 || amount > left) fail(E_STATE, `Chargeback amount must be between 0 and ${formatMinor(left, order.currency)}`);
		}
		order.chargedBackMinor += amount;
		this.addTransaction(order, null, 'chargeback', amount);
		this.ledger(order, 'chargeback', amount);
		this.notifyFollowUp(order, 'chargeback', amount, { name: 'chargeback' });
		return order;
	}

	/** Force the final status now (default: the status the test card decided, or approved). */
	forceFinal(orderid, body) {
		const order = this.adminOrder(orderid);
		const wanted = body && body.status;
		if (wanted && !['approved', 'declined', 'error', 'filtered', 'unknown'].includes(wanted)) {
			fail(E_FIELD, `status must be approved, declined, error, filtered or unknown`);
		}
		if (order.finalized && order.status !== 'unknown') fail(E_STATE, `Order ${orderid} is already final (${order.status})`);
		if (order.finalized) {
			order.finalized = false;
			order.outcome = { status: wanted || 'approved' };
		}
		order.stayProcessing = null;
		if (order.form && order.form.pending) order.form.pending = false;
		if (order.threeDS && order.threeDS.pending) order.threeDS.pending = false;
		if (!order.outcome) order.outcome = { status: 'approved' };
		if (wanted) {
			order.outcome = wanted === 'approved' ? { status: wanted } : {
				status: wanted, errorCode: order.outcome.errorCode || '100', errorMessage: order.outcome.errorMessage || 'Declined by issuer',
			};
		}
		order.pollsLeft = 0;
		this.finalize(order);
		return order;
	}

	/** A removed stay-processing fault lets its orders go on. */
	releaseFaults(removed) {
		const ids = new Set(removed.map((f) => f.id));
		for (const order of this.store.orders.values()) {
			if (order.stayProcessing && ids.has(order.stayProcessing)) {
				order.stayProcessing = null;
				this.settle(order);
			}
		}
	}

	/** Admin view of an order: masked, amounts as decimal strings. */
	view(order) {
		const f = (m) => formatMinor(m, order.currency);
		return {
			orderid: order.orderid,
			client_orderid: order.cid,
			merchant: order.merchant.login,
			endpoint: order.endpointId,
			group: order.groupId,
			command: order.command,
			kind: order.kind,
			status: order.finalized ? order.transactions[order.transactions.length - 1].status : 'processing',
			finalized: order.finalized,
			decided: order.outcome ? order.outcome.status : null,
			pollsLeft: order.pollsLeft,
			stayProcessing: order.stayProcessing,
			threeDS: order.threeDS,
			formPending: Boolean(order.form && order.form.pending),
			amount: f(order.amountMinor),
			currency: order.currency,
			held: f(order.heldMinor),
			charged: f(order.chargedMinor),
			refunded: f(order.refundedMinor),
			chargedBack: f(order.chargedBackMinor),
			voided: order.voided,
			cleared: order.cleared,
			paid: Boolean(order.paid),
			card: order.card ? { masked: order.card.masked, bin: order.card.bin, lastFour: order.card.lastFour, type: order.card.type, holder: order.card.holder, expMonth: order.card.expMonth, expYear: order.card.expYear } : null,
			cardRefId: order.cardRefId,
			sourceCardRefId: order.sourceCardRefId,
			recurringPaymentId: order.recurringPaymentId,
			urls: order.urls,
			params: order.params,
			transactions: order.transactions.map((t) => ({ serial: t.serial, type: t.type, status: t.status, amount: f(t.amountMinor), at: t.at })),
			createdAt: order.createdAt,
		};
	}
}

module.exports = { Gateway, GatewayError, AuthError, COMMANDS };
