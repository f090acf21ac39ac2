'use strict';
// The order state machine, in one place. An order is created `processing`; it becomes final
// (approved, declined, error, filtered or unknown) when nothing holds it back (3-D Secure, a hosted
// form, a stay-processing fault) and no polls remain; the outcome was decided when it was created.
// Money moves only in the ledger, once per transition.
const { field } = require('../commands');
const { formatMinor } = require('../amount');
const { maskParams } = require('../mask');
const { E_FIELD, E_NOT_FOUND, E_STATE, fail } = require('./errors');

const FINAL_WITH_CALLBACK = new Set(['approved', 'declined', 'error', 'filtered']);
const STAGE_PREFIX = {
	sale: 'sale', preauth: 'auth', verify: 'verify', payout: 'payout', 'payout-check': 'payout_check',
	transfer: 'transfer', eligibility: 'eligibility',
};

class Orders {
	endpointFor(scope, currency) {
		const cur = String(currency || '').toUpperCase();
		const list = scope.group ? scope.group.endpoints : [scope.endpoint];
		if (!currency) return list[0];
		const ep = list.find((e) => e.currency === cur);
		if (!ep) fail(E_FIELD, `Currency ${cur} is not accepted by ${scope.label} (${list.map((e) => e.currency).join(', ')})`);
		return ep;
	}

	findOrder(context, { clientOrderIdField = 'client_orderid' } = {}) {
		const order = this.store.orders.get(String(context.params.orderid));
		const clientOrderId = field(context.params, clientOrderIdField);
		if (!order || order.merchant !== context.merchant || (clientOrderId && order.clientOrderId !== clientOrderId)) {
			fail(E_NOT_FOUND, `Order ${context.params.orderid} not found`);
		}
		return order;
	}

	newOrder(context, extra) {
		const { definition, params, scope } = context;
		const clientOrderId = definition.name === 'pan-eligibility/send' ? field(params, 'client-order-id') : field(params, 'client_orderid');
		const order = {
			orderid: this.store.nextOrderId(),
			clientOrderId,
			merchant: context.merchant,
			scopeKey: scope.key,
			groupId: scope.group ? scope.group.id : null,
			endpointId: extra.endpoint.id,
			command: definition.key,
			definition,
			kind: definition.kind,
			transactionType: definition.transactionType,
			ledgerKind: definition.ledgerKind,
			currency: extra.currency,
			amountMinor: extra.amountMinor,
			card: extra.card || null,
			sourceCardRefId: extra.sourceCardRefId || null,
			outcome: extra.outcome || null,
			status: 'processing',
			finalized: false,
			pollsLeft: this.options.pollsBeforeFinal,
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
			email: params.email || '',
			merchantdata: params.merchantdata,
			urls: {
				serverCallback: params.server_callback_url || '',
				notify: params.notify_url || '',
				redirect: params.redirect_url || '',
				redirectSuccess: params.redirect_success_url || '',
				redirectFail: params.redirect_fail_url || '',
			},
			baseUrl: context.baseUrl,
			params: maskParams(params),
			transactions: [],
			createdAt: new Date().toISOString(),
			reply: null,
		};
		order.transactions.push({ serial: context.serial, type: definition.transactionType, status: 'processing', amountMinor: order.amountMinor, at: order.createdAt });
		const stay = extra.noStay ? null : this.faults.take('stay-processing', definition);
		if (stay) order.stayProcessing = stay.id;
		this.store.addOrder(order);
		return order;
	}

	asyncReply(order, serial, type = 'async-response') {
		return {
			type,
			'serial-number': serial,
			'merchant-order-id': order.clientOrderId,
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
				this.recordInLedger(order, order.ledgerKind, order.amountMinor);
			} else if (order.kind === 'preauth') {
				order.heldMinor = order.amountMinor;
			} else if (order.kind === 'payout' || order.kind === 'transfer') {
				order.chargedMinor = order.amountMinor;
				this.recordInLedger(order, order.ledgerKind, order.amountMinor);
			}
		}
		// A payout check only registers the payout: its callback comes with the pay.
		if (FINAL_WITH_CALLBACK.has(order.status) && order.kind !== 'payout-check') {
			this.queueCallback(order, {
				urls: [order.urls.serverCallback, order.urls.notify],
				type: order.transactionType,
				status: order.status,
				amountMinor: order.amountMinor,
				definition: order.definition,
			});
		}
	}

	recordInLedger(order, kind, amountMinor) {
		return this.store.record(order, kind, amountMinor, formatMinor);
	}

	addTransaction(order, context, type, amountMinor) {
		const tx = { serial: context ? context.serial : null, type, status: 'approved', amountMinor, at: new Date().toISOString() };
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
}

module.exports = Orders;
