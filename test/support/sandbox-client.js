'use strict';
// Independent test client for the sandbox: its own signing (node:crypto), its own reply parsing,
// undici as the HTTP client. Shares no code with sandbox/ or nodes/.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { request, Pool } = require('undici');

const KEYS = path.join(__dirname, '..', '..', 'sandbox', 'keys');
const pem = (name) => fs.readFileSync(path.join(KEYS, name), 'utf8');

const MERCHANT = {
	login: 'n8n-test-merchant',
	controlKey: 'TEST-ONLY-CONTROL-KEY-5f0c9a1e',
	rsaKey: crypto.createPrivateKey(pem('test-merchant-2048.key.pem')),
	rsaKey4096: crypto.createPrivateKey(pem('test-merchant-4096.key.pem')),
};
const OTHER = {
	login: 'other-merchant',
	controlKey: 'TEST-ONLY-OTHER-KEY-77ad3c20',
	rsaKey: crypto.createPrivateKey(pem('other-merchant-2048.key.pem')),
};

// Test cards (Luhn-valid).
const CARD = '4444555566661111';
const CARD2 = '5555555555554444';

const sha1 = (s) => crypto.createHash('sha1').update(s, 'utf8').digest('hex');

// The signed amount: hundredths of the decimal string for every currency, as the vendor's clients
// compute it (independent of sandbox/amount.js; BigInt, never floats).
function minor(amount) {
	const [int, frac = ''] = String(amount).split('.');
	return String(BigInt(int + frac.padEnd(2, '0').slice(0, 2)));
}

// control formulas, restated from the brief.
const cidOf = (p) => p.client_orderid || '';
const CONTROL = {
	sale: (id, p) => id + cidOf(p) + minor(p.amount) + (p.email || ''),
	verify: (id, p) => id + cidOf(p) + (p.email || ''),
	order: (id, p) => p.login + cidOf(p) + (p.orderid || ''),
	// without an amount, return signs nothing more; capture the order's amount and currency (o)
	orderAmount: (id, p, o = {}) =>
		p.login +
		cidOf(p) +
		p.orderid +
		(p.amount ? minor(p.amount) + p.currency : o.amount ? minor(o.amount) + o.currency : ''),
	cardref: (id, p) => p.login + p.cardrefid,
	rebill: (id, p) => p.login + cidOf(p) + p.cardrefid + minor(p.amount) + p.currency,
	transferByRef: (id, p) =>
		p.login + cidOf(p) + (p['source-card-ref-id'] || '') + p['destination-card-ref-id'] + minor(p.amount) + p.currency,
	tds: (id, p) => p.login + p['client-order-id'] + p.orderid,
};
const FORMULA_OF = {
	sale: 'sale',
	preauth: 'sale',
	'sale-form': 'sale',
	'preauth-form': 'sale',
	'payment-form': 'sale',
	'payout-form': 'sale',
	'account-verification': 'verify',
	'account-verification-form': 'verify',
	'sync/account-verification': 'verify',
	status: 'order',
	void: 'order',
	'create-card-ref': 'order',
	capture: 'orderAmount',
	return: 'orderAmount',
	'get-card-info': 'cardref',
	'transfer-by-ref': 'transferByRef',
	'transfer-form': 'sale',
	'make-rebill': 'rebill',
	'make-rebill-sale': 'rebill',
	'make-rebill-preauth': 'rebill',
	'upload-pares-result': 'tds',
	'upload-cres-result': 'tds',
	'upload-method-url-result': 'tds',
};

/** order: { amount, currency } of the order a full capture names (signed in place of the absent ones). */
function withControl(cmd, id, params, merchant = MERCHANT, order = {}) {
	const formula = CONTROL[FORMULA_OF[cmd]];
	return { ...params, control: sha1(formula(String(id), params, order) + merchant.controlKey) };
}

// RFC 3986 encoding.
const enc = (s) =>
	encodeURIComponent(String(s)).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());

function baseString(method, url, pairs) {
	const sorted = pairs
		.map(([k, v]) => [enc(k), enc(v)])
		.sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1));
	return `${method}&${enc(url)}&${enc(sorted.map(([k, v]) => `${k}=${v}`).join('&'))}`;
}

/**
 * Authorization header for an OAuth-signed POST.
 * o: { method: 'HMAC-SHA1' | 'RSA-SHA256', merchant, key (RSA private key), url, params,
 *      spaces = true, realm = false, reverse = false, nonce, timestamp, consumerKey, version, tamper }
 */
function oauthHeader(o) {
	const merchant = o.merchant || MERCHANT;
	const oauth = {
		oauth_consumer_key: o.consumerKey || merchant.login,
		oauth_nonce: o.nonce || crypto.randomBytes(8).toString('hex'),
		oauth_signature_method: o.method,
		oauth_timestamp: String(o.timestamp || Math.floor(Date.now() / 1000)),
		oauth_version: o.version || '1.0',
	};
	const pairs = [...Object.entries(o.params), ...Object.entries(oauth)];
	const base = baseString('POST', o.url, pairs);
	let signature;
	if (o.method === 'HMAC-SHA1') {
		signature = crypto.createHmac('sha1', `${merchant.controlKey}&`).update(base).digest('base64');
	} else {
		signature = crypto.sign('sha256', Buffer.from(base, 'utf8'), o.key || merchant.rsaKey).toString('base64');
	}
	if (o.tamper) signature = signature.slice(0, 5) + (signature[5] === 'A' ? 'B' : 'A') + signature.slice(6);
	const entries = Object.entries({ ...oauth, oauth_signature: signature });
	if (o.reverse) entries.reverse();
	const items = entries.map(([k, v]) => `${k}="${enc(v)}"`);
	if (o.realm) items.unshift('realm=""');
	return { header: `OAuth ${items.join(o.spaces === false ? ',' : ', ')}`, oauth, signature, base };
}

/** Legacy reply `k=v\n&k=v\n` → object. */
function parseLegacy(text) {
	const out = {};
	for (const part of text.split('&')) {
		if (!part) continue;
		const i = part.indexOf('=');
		out[decodeURIComponent(part.slice(0, i).replace(/\+/g, ' '))] = decodeURIComponent(
			part.slice(i + 1).replace(/\+/g, ' '),
		).replace(/\n$/, '');
	}
	return out;
}

class Client {
	constructor(sb) {
		this.sb = sb;
		this.url = sb.url;
		this.api = `${sb.url}/paynet/api`;
		this.seq = 0;
	}

	/** A fresh client_orderid per call, so tests sharing a sandbox never collide. */
	cid(prefix = 'c') {
		return `${prefix}-${process.pid}-${Date.now().toString(36)}-${++this.seq}`;
	}

	/** POST a form to an API path ('v2/sale/1001'). opts: { json = true, headers, auth } */
	async post(pathUnderApi, params, opts = {}) {
		const headers = { 'content-type': 'application/x-www-form-urlencoded', ...(opts.headers || {}) };
		if (opts.json !== false) headers.accept = 'application/vnd.pay+json';
		if (opts.auth) headers.authorization = opts.auth;
		const url = opts.url || `${this.api}/${pathUnderApi}`;
		const body = opts.rawBody !== undefined ? opts.rawBody : new URLSearchParams(params).toString();
		const r = await request(url, { method: 'POST', headers, body });
		const text = await r.body.text();
		let data = null;
		if (String(r.headers['content-type'] || '').includes('vnd.pay+json')) data = JSON.parse(text);
		else if (String(r.headers['content-type'] || '').startsWith('text/html')) data = parseLegacy(text);
		return { status: r.statusCode, headers: r.headers, text, data };
	}

	/** Control-signed command: cmd ('sale'), id (endpoint id or 'group/2001'), params. */
	control(cmd, id, params, opts = {}) {
		const version = opts.version || (FORMULA_OF[cmd] === 'tds' ? '3ds/v1' : 'v2');
		const numericId = String(id).replace('group/', '');
		const signed = opts.raw ? params : withControl(cmd, numericId, params, opts.merchant, opts.order);
		return this.post(`${version}/${cmd}/${id}`, signed, opts);
	}

	/** OAuth-signed command: path under /api ('v4/payout-check/1001'). */
	oauth(pathUnderApi, params, o = {}) {
		const url = `${this.api}/${pathUnderApi}`;
		const h = oauthHeader({
			method: o.method || (pathUnderApi.startsWith('v4/') ? 'RSA-SHA256' : 'HMAC-SHA1'),
			url: o.signUrl || url,
			params: o.signParams || params,
			...o,
		});
		const body = o.bodyExtra ? { ...params, ...o.bodyExtra(h) } : params;
		return this.post(pathUnderApi, body, { ...o, auth: h.header });
	}

	saleParams(over = {}) {
		return {
			client_orderid: this.cid('sale'),
			order_desc: 'Test order',
			amount: '10.00',
			currency: 'USD',
			email: 'payer@example.com',
			credit_card_number: CARD,
			card_printed_name: 'TEST PAYER',
			expire_month: '12',
			expire_year: '2035',
			cvv2: '123',
			ipaddress: '127.0.0.1',
			...over,
		};
	}

	async sale(over = {}, cmd = 'sale', id = 1001) {
		const p = this.saleParams(over);
		const r = await this.control(cmd, id, p);
		return { ...r, params: p, orderid: r.data && r.data['paynet-order-id'] };
	}

	status(orderid, cid, opts = {}) {
		const p = { login: MERCHANT.login, client_orderid: cid };
		if (orderid) p.orderid = orderid;
		return this.control('status', opts.id || 1001, p, opts);
	}

	/** A capture without an amount signs the order's amount and currency, read from the admin view. */
	async followUp(cmd, orderid, cid, extra = {}, opts = {}) {
		const order =
			cmd === 'capture' && !extra.amount && !opts.order ? await this.admin('GET', `orders/${orderid}`) : null;
		const signedOrder =
			order && order.status === 200 ? { amount: order.data.amount, currency: order.data.currency } : opts.order;
		return this.control(
			cmd,
			opts.id || 1001,
			{ login: MERCHANT.login, client_orderid: cid, orderid, ...extra },
			{ ...opts, order: signedOrder },
		);
	}

	async admin(method, p, body) {
		const r = await request(`${this.url}/sandbox/${p}`, {
			method,
			headers: body !== undefined ? { 'content-type': 'application/json' } : {},
			body: body !== undefined ? JSON.stringify(body) : undefined,
		});
		const text = await r.body.text();
		return { status: r.statusCode, data: text ? JSON.parse(text) : null };
	}

	async ledger(orderid) {
		const r = await this.admin('GET', `ledger${orderid ? `?orderid=${orderid}` : ''}`);
		return r.data.entries;
	}

	async order(orderid) {
		return (await this.admin('GET', `orders/${orderid}`)).data;
	}

	async snapshot() {
		const orders = (await this.admin('GET', 'orders')).data.orders;
		const ledger = await this.ledger();
		return JSON.stringify({ orders, ledger });
	}

	async getPage(url) {
		const r = await request(url, { method: 'GET' });
		return { status: r.statusCode, text: await r.body.text() };
	}

	async postPage(url, fields) {
		const r = await request(url, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams(fields).toString(),
		});
		return { status: r.statusCode, text: await r.body.text() };
	}
}

/** Parse the first <form> in an HTML page: { method, action, fields }. */
function parseForm(html) {
	const unesc = (s) => s.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n))).replace(/&amp;/g, '&');
	const form =
		/<form[^>]*method="([^"]*)"[^>]*action="([^"]*)"/i.exec(html) ||
		/<form[^>]*action="([^"]*)"[^>]*method="([^"]*)"/i.exec(html);
	if (!form) return null;
	const fields = {};
	for (const m of html.matchAll(/<input[^>]*name="([^"]*)"[^>]*value="([^"]*)"/gi)) fields[unesc(m[1])] = unesc(m[2]);
	return { method: form[1].toLowerCase(), action: unesc(form[2]), fields };
}

module.exports = {
	Client,
	MERCHANT,
	OTHER,
	CARD,
	CARD2,
	sha1,
	minor,
	withControl,
	oauthHeader,
	baseString,
	enc,
	parseLegacy,
	parseForm,
	Pool,
};
