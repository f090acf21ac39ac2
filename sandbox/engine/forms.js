'use strict';
// Hosted pages: the form orders, the card page the payer fills in, and the signed return of the
// payer to the merchant after the form or the ACS.
const { field } = require('./params');
const { formatMinor } = require('../amount');
const cards = require('../cards');
const pages = require('../pages');
const { E_FIELD, GatewayError, fail } = require('./errors');

class Forms {
	startFormOrder(context) {
		const { definition, params, scope } = context;
		const clientOrderId = field(params, 'client_orderid');
		const existing = this.store.findByClientId(scope.key, clientOrderId);
		if (existing) return this.replayReply(existing, context.serial);
		const endpoint = this.endpointFor(scope, params.currency);
		let amountMinor = 0;
		if (definition.kind !== 'verify') {
			amountMinor = context.amountMinor;
			if (!(amountMinor > 0)) fail(E_FIELD, 'Amount must be greater than zero');
		}
		const order = this.newOrder(context, { endpoint, currency: endpoint.currency, amountMinor, form: true });
		order.reply = {
			...this.asyncReply(order, context.serial, 'async-form-response'),
			'redirect-url': `${context.baseUrl}/sandbox/form/${order.orderid}`,
		};
		return order.reply;
	}

	returnFields(order) {
		const status = order.finalized ? order.status : order.outcome.status;
		const fields = {
			status,
			orderid: order.orderid,
			merchant_order: order.clientOrderId,
			client_orderid: order.clientOrderId,
			control: this.verifier.sha1Hex(status + order.orderid + order.clientOrderId + order.merchant.controlKey),
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

	orderForPage(orderid) {
		return this.store.orders.get(String(orderid)) || null;
	}

	withAmountText(order) {
		return { ...order, amountText: formatMinor(order.amountMinor, order.currency) };
	}

	showFormPage(orderid, baseUrl) {
		const order = this.orderForPage(orderid);
		if (!order || !order.form) return { status: 404, html: pages.messagePage('Not found', `No form for order ${orderid}`) };
		if (!order.form.pending) return { status: 409, html: pages.messagePage('Payment form', `Order ${orderid} is already completed`) };
		return { status: 200, html: pages.formPage(this.withAmountText(order), `${baseUrl}/sandbox/form/${order.orderid}`) };
	}

	submitFormPage(orderid, fields, baseUrl) {
		const order = this.orderForPage(orderid);
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
}

module.exports = Forms;
