'use strict';
// The status query and the status reply every later stage reads.
const { field } = require('./params');
const { formatMinor } = require('../amount');
const pages = require('../pages');
const { E_AUTH, E_NOT_FOUND, fail } = require('./errors');

class Status {
	queryStatus(context) {
		const { params, merchant, scope } = context;
		const clientOrderId = field(params, 'client_orderid');
		let order = params.orderid
			? this.store.orders.get(params.orderid)
			: this.store.findByClientId(scope.key, clientOrderId) || this.store.findUniqueForMerchant(merchant, clientOrderId);
		// v4: the login in the body must be the merchant who signed; an unknown order is refused
		// with HTTP 400 and a JSON error-message worded as the vendor's emulator words it
		// (hosted-fields-examples e2e-tests/src/emulator/gateway.ts, docs/sandbox.md).
		if (context.definition.v4 && params.login !== merchant.login) fail(E_AUTH, `Login '${params.login}' is not the merchant who signed the request`);
		const known = order && order.merchant === merchant && order.clientOrderId === clientOrderId;
		if (!known && context.definition.v4) fail(E_NOT_FOUND, `Unknown order ${params.orderid}.`);
		if (!known) {
			// Guess (not in the docs): a correctly signed query for an unknown order is a status
			// reply with status=error, not a validation error.
			return {
				type: 'status-response',
				'serial-number': context.serial,
				status: 'error',
				'merchant-order-id': clientOrderId,
				'paynet-order-id': params.orderid || undefined,
				'error-message': 'Order not found',
				'error-code': String(E_NOT_FOUND),
			};
		}
		if (!order.finalized && !this.blocked(order)) {
			if (order.pollsLeft > 0) order.pollsLeft--;
			else this.finalize(order);
		}
		if (context.definition.v4) return this.statusReplyV4(order, context.baseUrl);
		const reply = this.statusReply(order, context.serial, context.baseUrl);
		if (params['by-request-sn']) {
			const tx = order.transactions.find((t) => t.serial === params['by-request-sn']);
			if (tx) {
				reply['by-request-sn'] = tx.serial;
				reply['transaction-type'] = tx.type;
				reply.amount = formatMinor(tx.amountMinor, order.currency);
				if (order.finalized) reply.status = tx.status;
			}
		}
		return reply;
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
			'merchant-order-id': order.clientOrderId,
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

	/**
	 * The v4 status reply in the shape of the vendor's emulator: untyped JSON, no serial-number,
	 * paynet-order-id a string; the order's amount and currency and the card; redirect-to while
	 * 3-D Secure is pending; approval-code, processor-rrn and bank_message once approved;
	 * error-message and error-code otherwise. by-request-sn is not read (the emulator has none).
	 */
	statusReplyV4(order, baseUrl) {
		const last = order.transactions[order.transactions.length - 1];
		const status = order.finalized ? last.status : 'processing';
		const r = {
			'paynet-order-id': String(order.orderid),
			'merchant-order-id': order.clientOrderId,
			status,
			amount: formatMinor(this.netAmount(order), order.currency),
			currency: order.currency,
		};
		if (order.card) {
			r['card-type'] = order.card.type;
			r['last-four-digits'] = order.card.lastFour;
			if (order.card.holder) r['cardholder-name'] = order.card.holder;
		}
		if (!order.finalized && order.threeDS && order.threeDS.pending) {
			r['redirect-to'] = `${baseUrl || order.baseUrl}/sandbox/acs/${order.orderid}`;
		}
		if (order.finalized && status === 'approved') {
			r['approval-code'] = order.approvalCode;
			// A retrieval reference number is 12 digits; the sandbox's is the order id, zero-padded.
			r['processor-rrn'] = String(order.orderid).padStart(12, '0');
			r.bank_message = 'Approved';
		}
		if (order.finalized && status !== 'approved' && order.outcome && order.outcome.errorMessage) {
			r['error-message'] = order.outcome.errorMessage;
			r['error-code'] = order.outcome.errorCode;
		}
		return r;
	}
}

module.exports = Status;
