'use strict';
// Card references: create (v2, v4), read, and find one for a rebill or transfer.
const { E_NOT_FOUND, E_STATE, fail } = require('./errors');

class CardReferences {
	findCardRef(merchant, id) {
		const ref = this.store.cardRefs.get(String(id));
		if (!ref || ref.merchant !== merchant) fail(E_NOT_FOUND, `Card reference ${id} not found`);
		return ref;
	}

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
}

module.exports = CardReferences;
