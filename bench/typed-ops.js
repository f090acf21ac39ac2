'use strict';
// Issue 34's money cells: Payment → Sale and Payout → Send with the Merchant Order ID typed (so the
// node asks "is this order new?" before each send). The node's parameters and the same request's
// fields on the wire, declared once for the in-process cells (inprocess.js) and the real-n8n ones
// (real-n8n.js, workflows.js).
const { SAMPLE_ADDRESS } = require('../e2e/sample-customer');

const CARD = {
	credit_card_number: '4444555566661111',
	expire_month: '12',
	expire_year: '2035',
	cvv2: '123',
	card_printed_name: 'JOHN SMITH',
};
const CUSTOMER = { email: 'john@example.com', ...SAMPLE_ADDRESS };

/** The node's parameters (only the order ID is an expression) and the same request's fields on the wire. */
const TYPED_OPS = {
	sale: {
		gateway: 'sale',
		parameters: {
			resource: 'payment',
			operation: 'sale',
			orderDescription: 'bench',
			amount: '10.00',
			currency: 'USD',
			cardNumber: CARD.credit_card_number,
			expireMonth: CARD.expire_month,
			expireYear: CARD.expire_year,
			cardholderName: CARD.card_printed_name,
			cvv: CARD.cvv2,
			email: CUSTOMER.email,
			address: CUSTOMER.address1,
			city: CUSTOMER.city,
			zipCode: CUSTOMER.zip_code,
			country: CUSTOMER.country,
			phone: CUSTOMER.phone,
			ipAddress: CUSTOMER.ipaddress,
			redirectUrl: 'https://shop.example.com/return',
		},
		fields: (cid) => ({
			client_orderid: cid,
			order_desc: 'bench',
			amount: '10.00',
			currency: 'USD',
			...CARD,
			...CUSTOMER,
			redirect_url: 'https://shop.example.com/return',
		}),
	},
	payoutSend: {
		gateway: 'payout',
		parameters: {
			resource: 'payout',
			operation: 'send',
			amount: '3.00',
			currency: 'USD',
			additionalFields: { accountNumber: 'GB33BUKB20201555555555', bankName: 'Demo Bank' },
		},
		fields: (cid) => ({
			client_orderid: cid,
			amount: '3.00',
			currency: 'USD',
			account_number: 'GB33BUKB20201555555555',
			bank_name: 'Demo Bank',
		}),
	},
};

const OP_NAMES = { sale: 'Payment → Sale', payoutSend: 'Payout → Send' };

/** The cells issue 34 names: each operation at 20 and 100 ms of gateway latency, Concurrency 1 and 16. */
const TYPED_CELLS = Object.keys(TYPED_OPS).flatMap((op) =>
	[20, 100].flatMap((latency) => [1, 16].map((c) => ({ op, latency, c }))),
);

/** Order IDs no order has used yet: each route's run creates its own orders. */
let typedBatch = 0;
function freshIds(op, count) {
	typedBatch++;
	return Array.from({ length: count }, (_, i) => ({ cid: `t${typedBatch}-${op}-${process.pid}-${i}` }));
}

module.exports = { TYPED_OPS, TYPED_CELLS, OP_NAMES, freshIds };
