'use strict';
// Recurring payments (v4, synchronous): create and update.
const { field } = require('./params');
const cards = require('../cards');
const { maskParams } = require('../mask');
const { E_FIELD, E_NOT_FOUND, fail } = require('./errors');

class Recurring {
	newRecurringPayment(context, extra) {
		const recurringPayment = {
			id: this.store.nextRecurringId(),
			merchant: context.merchant,
			scopeKey: context.scope.key,
			endpointId: extra.endpointId,
			clientOrderId: extra.clientOrderId || null,
			cardRefId: extra.cardRefId || null,
			card: extra.card || null,
			fields: extra.fields || {},
			status: 'active',
			createdAt: new Date().toISOString(),
			updatedAt: null,
		};
		this.store.recurring.set(recurringPayment.id, recurringPayment);
		if (recurringPayment.clientOrderId) this.store.recurringByClientId.set(`${recurringPayment.scopeKey}\u0000${recurringPayment.clientOrderId}`, recurringPayment);
		return recurringPayment;
	}

	createRecurringPayment(context) {
		const { params, scope, merchant } = context;
		const clientOrderId = field(params, 'client_orderid');
		const existing = clientOrderId && this.store.recurringByClientId.get(`${scope.key}\u0000${clientOrderId}`);
		const reply = (recurringPayment) => ({
			type: 'create-recurring-payment-response',
			'serial-number': context.serial,
			status: 'approved',
			'recurring-payment-id': recurringPayment.id,
			'merchant-order-id': recurringPayment.clientOrderId || undefined,
		});
		if (existing) return reply(existing);
		const number = params['credit-card-number'] || params.credit_card_number;
		let card = null;
		if (number) {
			if (!cards.luhnValid(number)) fail(E_FIELD, 'Invalid card number');
			const month = params['expire-month'] || params.expire_month;
			const year = params['expire-year'] || params.expire_year;
			if (month || year) {
				const err = cards.expiryError(month, year);
				if (err) fail(E_FIELD, err);
			}
			card = cards.cardSummary(number, month, year, params['card-printed-name'] || params.card_printed_name);
		}
		const refId = params['card-ref-id'] || params.cardrefid;
		if (refId) this.findCardReference(merchant, refId);
		const endpoint = this.endpointFor(scope, params.currency);
		const recurringPayment = this.newRecurringPayment(context, { clientOrderId, cardRefId: refId, card, fields: maskParams(params), endpointId: endpoint.id });
		return reply(recurringPayment);
	}

	updateRecurringPayment(context) {
		const id = context.params['recurring-payment-id'];
		const recurringPayment = this.store.recurring.get(String(id));
		if (!recurringPayment || recurringPayment.merchant !== context.merchant) fail(E_NOT_FOUND, `Recurring payment ${id} not found`);
		Object.assign(recurringPayment.fields, maskParams(context.params));
		if (context.params.status && /^(active|inactive|cancelled|canceled|paused)$/i.test(context.params.status)) recurringPayment.status = context.params.status.toLowerCase();
		recurringPayment.updatedAt = new Date().toISOString();
		return {
			type: 'update-recurring-payment-response',
			'serial-number': context.serial,
			status: 'approved',
			'recurring-payment-id': recurringPayment.id,
		};
	}
}

module.exports = Recurring;
