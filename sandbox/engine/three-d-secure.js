'use strict';
// 3-D Secure: the result uploads (PaRes, CRes, method URL) and the fake issuer (ACS) page.
const { field } = require('./params');
const cards = require('../cards');
const pages = require('../pages');
const { E_FIELD, E_STATE, fail } = require('./errors');

class ThreeDSecure {
	orderAwaitingThreeDS(context) {
		const order = this.findOrder(context, { clientOrderIdField: 'client-order-id' });
		if (!order.threeDS || !order.threeDS.pending || order.finalized) {
			fail(E_STATE, `Order ${order.orderid} is not waiting for 3-D Secure`);
		}
		return order;
	}

	uploadThreeDSResult(context) {
		const order = this.orderAwaitingThreeDS(context);
		const value = field(context.params, context.definition.resultField);
		this.completeThreeDS(order, String(value).toLowerCase() !== 'fail');
		return this.asyncReply(order, context.serial);
	}

	uploadMethodUrlResult(context) {
		const ind = context.params.threeDSCompInd;
		if (!['Y', 'N', 'U'].includes(ind)) fail(E_FIELD, "Field 'threeDSCompInd' must be Y, N or U");
		const order = this.orderAwaitingThreeDS(context);
		order.threeDS.methodResult = ind;
		order.threeDS.methodAt = new Date().toISOString();
		return this.asyncReply(order, context.serial);
	}

	completeThreeDS(order, passed) {
		order.threeDS.pending = false;
		order.threeDS.result = passed ? 'passed' : 'failed';
		if (!passed) order.outcome = { status: 'declined', errorCode: cards.TDS_DECLINE.code, errorMessage: cards.TDS_DECLINE.message };
		order.pollsLeft = 0;
		this.settle(order);
	}

	showAcsPage(orderid, baseUrl) {
		const order = this.orderForPage(orderid);
		if (!order) return { status: 404, html: pages.messagePage('Not found', `No order ${orderid}`) };
		if (!order.threeDS || !order.threeDS.pending) {
			return { status: 409, html: pages.messagePage('3-D Secure', `Order ${orderid} is not waiting for 3-D Secure`) };
		}
		return { status: 200, html: pages.acsPage(this.withAmountText(order), `${baseUrl}/sandbox/acs/${order.orderid}`) };
	}

	submitAcsPage(orderid, fields) {
		const order = this.orderForPage(orderid);
		if (!order) return { status: 404, html: pages.messagePage('Not found', `No order ${orderid}`) };
		if (!order.threeDS || !order.threeDS.pending) {
			return { status: 409, html: pages.messagePage('3-D Secure', `Order ${orderid} is not waiting for 3-D Secure`) };
		}
		this.completeThreeDS(order, fields.password === 'hint');
		return { status: 200, html: this.returnPage(order) };
	}
}

module.exports = ThreeDSecure;
