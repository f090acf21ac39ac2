'use strict';
// Creates the demo orders the example workflows (examples/*.json) work on: five card sales,
// demo-order-1 … demo-order-5, in the sandbox gateway, over HTTP with its own signing (it shares
// no code with the node package). Four are approved (CVV 123), demo-order-3 is declined (CVV 116,
// insufficient funds). The same five again as demo-yesterday-1 … demo-yesterday-5, moved to the
// previous day of the sandbox's report: the nightly reconciliation (examples/reconciliation-nightly.json)
// reads yesterday, and a fresh demo has no other day. Idempotent: the sandbox answers a repeated
// client_orderid with the first order and creates nothing, so calling this again returns the same
// orders (on the same day).
const crypto = require('node:crypto');

const { SAMPLE_ADDRESS } = require('./sample-customer');

const MERCHANT = { login: 'n8n-test-merchant', controlKey: 'TEST-ONLY-CONTROL-KEY-5f0c9a1e', endpointId: '1001' };

/** The seeded orders: merchant order id, amount (USD), CVV (picks the sandbox outcome). */
const DEMO_ORDERS = [
	{ client_orderid: 'demo-order-1', amount: '10.00', cvv2: '123', email: 'ada@example.com', name: 'ADA LOVELACE' },
	{ client_orderid: 'demo-order-2', amount: '25.50', cvv2: '123', email: 'alan@example.com', name: 'ALAN TURING' },
	{ client_orderid: 'demo-order-3', amount: '15.00', cvv2: '116', email: 'grace@example.com', name: 'GRACE HOPPER' },
	{
		client_orderid: 'demo-order-4',
		amount: '40.00',
		cvv2: '123',
		email: 'edsger@example.com',
		name: 'EDSGER DIJKSTRA',
	},
	{
		client_orderid: 'demo-order-5',
		amount: '12.99',
		cvv2: '123',
		email: 'barbara@example.com',
		name: 'BARBARA LISKOV',
	},
];

/** The prefix of the orders of yesterday: not `demo-order-`, which the refund examples select by. */
const YESTERDAY_PREFIX = 'demo-yesterday-';

const sha1 = (text) => crypto.createHash('sha1').update(text, 'utf8').digest('hex');
/** USD minor units from a decimal string: "25.50" → "2550". */
const minor = (amount) => {
	const [whole, fraction = ''] = amount.split('.');
	return String(Number(whole + fraction.padEnd(2, '0').slice(0, 2)));
};

async function send(url, contentType, body) {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': contentType, accept: 'application/vnd.pay+json' },
		body,
	});
	const text = await response.text();
	let reply;
	try {
		reply = JSON.parse(text);
	} catch {
		throw new Error(`sandbox ${url}: HTTP ${response.status}, not JSON: ${text.slice(0, 200)}`);
	}
	if (!response.ok || reply.type === 'validation-error' || reply.type === 'error') {
		throw new Error(
			`sandbox ${url}: HTTP ${response.status} ${reply.type ?? ''} ${reply['error-message'] ?? reply.error ?? ''}`,
		);
	}
	return reply;
}

const post = (url, fields) => send(url, 'application/x-www-form-urlencoded', new URLSearchParams(fields).toString());

/** One demo sale, made final by status queries: { client_orderid, orderid, status, amount }. */
async function seedOrder(api, merchant, order) {
	const sale = {
		client_orderid: order.client_orderid,
		order_desc: `Demo order ${order.client_orderid.slice(-1)}`,
		amount: order.amount,
		currency: 'USD',
		email: order.email,
		credit_card_number: '4444555566661111',
		card_printed_name: order.name,
		expire_month: '12',
		expire_year: '2035',
		cvv2: order.cvv2,
		...SAMPLE_ADDRESS,
		redirect_url: 'https://shop.example.com/payment/return',
	};
	sale.control = sha1(
		merchant.endpointId + sale.client_orderid + minor(sale.amount) + sale.email + merchant.controlKey,
	);
	const started = await post(`${api}/sale/${merchant.endpointId}`, sale);
	const orderid = started['paynet-order-id'];
	// Status queries make the order final (the sandbox settles an order on its first poll, or
	// after `pollsBeforeFinal` polls when started with that option).
	const query = { login: merchant.login, client_orderid: order.client_orderid, orderid };
	query.control = sha1(query.login + query.client_orderid + query.orderid + merchant.controlKey);
	let status = await post(`${api}/status/${merchant.endpointId}`, query);
	for (let poll = 0; status.status === 'processing' && poll < 20; poll++) {
		status = await post(`${api}/status/${merchant.endpointId}`, query);
	}
	return { client_orderid: order.client_orderid, orderid, status: status.status, amount: status.amount };
}

/**
 * Seeds demo-order-1 … demo-order-5 (now) and demo-yesterday-1 … demo-yesterday-5 (the previous day)
 * into the sandbox at `sandboxUrl` (e.g. http://127.0.0.1:8899) and returns their final status, in
 * that order: [{ client_orderid, orderid, status, amount }].
 */
async function seedDemoOrders(sandboxUrl, { merchant = MERCHANT } = {}) {
	const base = sandboxUrl.replace(/\/+$/, '');
	const api = `${base}/paynet/api/v2`;
	const seeded = [];
	for (const order of DEMO_ORDERS) seeded.push(await seedOrder(api, merchant, order));
	// The sandbox's report layout writes UTC (docs/sandbox.md): its previous day is UTC's. At noon, a
	// minute apart in the order they were made, far from either midnight.
	const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
	for (const [index, order] of DEMO_ORDERS.entries()) {
		const made = await seedOrder(api, merchant, {
			...order,
			client_orderid: order.client_orderid.replace('demo-order-', YESTERDAY_PREFIX),
		});
		const at = `${yesterday}T12:0${index}:00.000Z`;
		await send(`${base}/sandbox/orders/${made.orderid}/times`, 'application/json', JSON.stringify({ at: [at] }));
		seeded.push(made);
	}
	return seeded;
}

module.exports = { seedDemoOrders, DEMO_ORDERS, YESTERDAY_PREFIX };

if (require.main === module) {
	seedDemoOrders(process.argv[2] || 'http://127.0.0.1:8899').then(
		(orders) => console.log(JSON.stringify(orders, null, 2)),
		(error) => {
			console.error(error.message);
			process.exitCode = 1;
		},
	);
}
