'use strict';
// Card references: create (v2, v4), read, and find one for a rebill or transfer.
const { E_NOT_FOUND, E_STATE, fail } = require('./errors');

class CardReferences {
	findCardReference(merchant, id) {
		const cardReference = this.store.cardRefs.get(String(id));
		if (!cardReference || cardReference.merchant !== merchant) fail(E_NOT_FOUND, `Card reference ${id} not found`);
		return cardReference;
	}

	makeCardReference(order) {
		if (order.cardRefId) return this.store.cardRefs.get(order.cardRefId);
		const cardReference = { id: this.store.nextCardRefId(), merchant: order.merchant, card: order.card, orderid: order.orderid, createdAt: new Date().toISOString() };
		this.store.cardRefs.set(cardReference.id, cardReference);
		order.cardRefId = cardReference.id;
		return cardReference;
	}

	createCardReference(context) {
		const order = this.findOrder(context);
		this.requireFinalApproved(order, 'Creating a card reference');
		if (!order.card) fail(E_STATE, `Order ${order.orderid} has no card to reference`);
		const cardReference = this.makeCardReference(order);
		const reply = {
			type: 'create-card-ref-response',
			'serial-number': context.serial,
			status: 'approved',
			'card-ref-id': cardReference.id,
			'merchant-order-id': order.clientOrderId,
			'paynet-order-id': order.orderid,
		};
		if (context.definition.v4) {
			if (!order.recurringPaymentId) {
				const recurringPayment = this.newRecurringPayment(context, { cardRefId: cardReference.id, clientOrderId: order.clientOrderId, endpointId: order.endpointId });
				order.recurringPaymentId = recurringPayment.id;
			}
			reply['recurring-payment-id'] = order.recurringPaymentId;
		}
		return reply;
	}

	getCardInfo(context) {
		const cardReference = this.findCardReference(context.merchant, context.params.cardrefid);
		return {
			type: 'get-card-info-response',
			'serial-number': context.serial,
			'card-ref-id': cardReference.id,
			'card-printed-name': cardReference.card.holder,
			bin: cardReference.card.bin,
			'last-four-digits': cardReference.card.lastFour,
			'expire-month': cardReference.card.expMonth,
			'expire-year': cardReference.card.expYear,
			'card-type': cardReference.card.type,
		};
	}
}

module.exports = CardReferences;
