'use strict';
// Recurring payments (v4, synchronous): create and update.
const { field } = require('../commands');
const cards = require('../cards');
const { maskParams } = require('../mask');
const { E_FIELD, E_NOT_FOUND, fail } = require('./errors');

class Recurring {
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
}

module.exports = Recurring;
