// @ts-check
'use strict';
// Sandbox-only routes under /sandbox/: the admin API (JSON) and the browser pages (fake ACS, hosted
// form). Nothing here exists on a real gateway.
const reply = require('./reply');
const { adminView, chargeBack, clearOrder, findOrderForAdmin, forceFinalStatus } = require('./engine/admin-views');
const { reportedCallbacks, sendCallback } = require('./engine/callbacks');
const { E_FIELD, E_NOT_FOUND, E_STATE, GatewayError } = require('./engine/errors');
const { showFormPage, submitFormPage } = require('./engine/forms');
const { createHistories, retimeOrder } = require('./engine/histories');
const { mintToken } = require('./engine/hosted-fields');
const { reportSettingsOf } = require('./engine/report');
const { reportSettings } = require('./engine/report-layouts');
const { createSampleOrder } = require('./engine/samples');
const { showAcsPage, submitAcsPage } = require('./engine/three-d-secure');

/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {(req: IncomingMessage) => Promise<Buffer>} ReadBody */

/**
 * A JSON (or form-encoded) body; {} when empty.
 * @param {IncomingMessage} req
 * @param {ReadBody} readBody
 * @returns {Promise<any>}
 */
function readJson(req, readBody) {
	return readBody(req).then((buf) => {
		const text = buf.toString('utf8').trim();
		if (!text) return {};
		if (String(req.headers['content-type'] || '').includes('application/x-www-form-urlencoded')) {
			return Object.fromEntries(new URLSearchParams(text));
		}
		return JSON.parse(text);
	});
}

/**
 * A form body: the first value of each field, trimmed.
 * @param {IncomingMessage} req
 * @param {ReadBody} readBody
 * @returns {Promise<Record<string, string>>}
 */
function readForm(req, readBody) {
	return readBody(req).then((buf) => {
		/** @type {Record<string, string>} */
		const out = {};
		for (const [k, v] of new URLSearchParams(buf.toString('utf8'))) if (!(k in out)) out[k] = v.trim();
		return out;
	});
}

/**
 * An order by its orderid or else by its client_orderid, which must then name one order only.
 * @param {import('./engine/types').GatewayState} gateway
 * @param {string} id
 */
function findOrderByEitherId(gateway, id) {
	const byClientId = gateway.store.ordersWithClientId(id).filter((order) => order.clientOrderId === id);
	if (gateway.store.orders.has(id) || byClientId.length === 0) return findOrderForAdmin(gateway, id);
	if (byClientId.length > 1)
		throw new GatewayError(E_STATE, `client_orderid ${id} names ${byClientId.length} orders: use the orderid`);
	return byClientId[0];
}

/**
 * Send the callbacks the order has reported (or those of the given types) to url, one after the
 * other as the gateway would, each signed and retried like any callback; resolves once each has had
 * its first attempt.
 * @param {import('./server').SandboxServer} srv
 * @param {string} id        orderid or client_orderid
 * @param {{ url?: unknown, types?: unknown }} body
 */
async function sendOrderCallbacks(srv, id, body) {
	const order = findOrderByEitherId(srv.gateway, id);
	const url = String(body.url || '');
	if (!/^https?:$/.test(URL.canParse(url) ? new URL(url).protocol : ''))
		throw new GatewayError(E_FIELD, `url must be an http:// or https:// URL (got '${url}')`);
	const types = typeof body.types === 'string' ? body.types.split(',') : body.types;
	if (types !== undefined && !(Array.isArray(types) && types.every((type) => typeof type === 'string')))
		throw new GatewayError(E_FIELD, 'types must be a list of transaction types (or one string, comma-separated)');
	const reported = reportedCallbacks(order);
	const chosen = types
		? reported.filter((callback) => types.map((t) => t.trim()).includes(String(callback.type)))
		: reported;
	if (!chosen.length) {
		const has = reported.map((callback) => callback.type).join(', ') || `none yet (${order.status})`;
		throw new GatewayError(
			E_STATE,
			`Order ${order.orderid} has no callback to send${types ? ` of types ${types.join(', ')}` : ''}; its callbacks: ${has}`,
		);
	}
	const deliveries = [];
	for (const callback of chosen) {
		const sent = sendCallback(srv.gateway, order, callback, [url]);
		await Promise.all(sent.map((delivery) => srv.deps.callbacks.firstAttempt(delivery)));
		deliveries.push(...sent);
	}
	return { orderid: order.orderid, client_orderid: order.clientOrderId, deliveries };
}

/**
 * A merchant's report settings as the admin API shows them; 404 for an unknown login.
 * @param {import('./engine/types').GatewayState} gateway
 * @param {string} login
 * @param {any} [change]   { layout?, contentType? } to set first
 */
function merchantReport(gateway, login, change) {
	const merchant = gateway.config.byLogin.get(login);
	if (!merchant) throw new GatewayError(E_NOT_FOUND, `Unknown merchant '${login}'`);
	if (change !== undefined) {
		let settings;
		try {
			settings = reportSettings(change, reportSettingsOf(gateway, merchant));
		} catch (/** @type {any} */ e) {
			throw new GatewayError(E_FIELD, e.message);
		}
		gateway.store.reportSettings.set(merchant.login, settings);
	}
	return { merchant: merchant.login, ...reportSettingsOf(gateway, merchant) };
}

/**
 * The admin API's answer to a refusal: a gateway error by its code (3: 404, 1: 400, else 409), any
 * other error 400.
 * @param {import('node:http').ServerResponse} res
 * @param {any} e
 */
function refuse(res, e) {
	if (e && e.code && e.type) {
		const status = e.code === 3 ? 404 : e.code === 1 ? 400 : 409;
		return reply.sendJson(res, status, { error: e.message, code: e.code });
	}
	return reply.sendJson(res, 400, { error: e.message });
}

/**
 * Returns the HTTP status it answered with.
 * @param {import('./server').SandboxServer} srv
 * @param {IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {string} path
 * @param {string} query
 * @returns {Promise<number>}
 */
async function handleAdmin(srv, req, res, path, query) {
	const readBody = srv.readBody;
	const gateway = srv.gateway;
	const store = srv.deps.store;
	const faults = srv.deps.faults;
	const callbacks = srv.deps.callbacks;
	const method = req.method;
	const parts = path.split('/').filter(Boolean).slice(1); // drop 'sandbox'
	const q = new URLSearchParams(query);
	const base = srv.baseUrl(req);
	const notFound = () => reply.sendJson(res, 404, { error: `No route ${method} ${path}` });
	/** @param {() => number} fn */
	const guard = (fn) => {
		try {
			return fn();
		} catch (/** @type {any} */ e) {
			return refuse(res, e);
		}
	};

	// Browser pages -----------------------------------------------------------------
	if (parts[0] === 'acs' && parts[1]) {
		if (method === 'GET') {
			const r = showAcsPage(gateway, parts[1], base);
			return reply.sendHtml(res, r.status, r.html);
		}
		if (method === 'POST') {
			const r = submitAcsPage(gateway, parts[1], await readForm(req, readBody));
			return reply.sendHtml(res, r.status, r.html);
		}
		return notFound();
	}
	if (parts[0] === 'form' && parts[1]) {
		if (method === 'GET') {
			const r = showFormPage(gateway, parts[1], base);
			return reply.sendHtml(res, r.status, r.html);
		}
		if (method === 'POST') {
			const r = submitFormPage(gateway, parts[1], await readForm(req, readBody), base);
			return reply.sendHtml(res, r.status, r.html);
		}
		return notFound();
	}

	// Admin API ----------------------------------------------------------------------
	const route = `${method} ${parts.map((p, i) => (i === 1 && ['orders', 'callbacks', 'faults', 'samples', 'merchants'].includes(parts[0]) ? ':id' : p)).join('/')}`;
	/** @type {any} */
	let body = {};
	if (method === 'POST' || method === 'DELETE') {
		try {
			body = await readJson(req, readBody);
		} catch (/** @type {any} */ e) {
			return reply.sendJson(res, 400, { error: `Bad JSON body: ${e.message}` });
		}
	}
	switch (route) {
		case 'GET ':
		case 'GET health':
			return reply.sendJson(res, 200, {
				ok: true,
				verifier: srv.cfg.verifier.name,
				basePath: srv.opts.basePath,
				pollsBeforeFinal: srv.opts.pollsBeforeFinal,
				report: { serverTimeZone: srv.opts.serverTimeZone, userTimeZone: srv.opts.userTimeZone },
				merchants: srv.cfg.merchants.map((m) => ({
					login: m.login,
					endpoints: m.endpoints.map((e) => ({ id: e.id, currency: e.currency })),
					endpointGroups: m.groups.map((g) => ({ id: g.id, endpoints: g.endpoints.map((e) => e.id) })),
					publicKeys: m.publicKeySources,
					report: reportSettingsOf(gateway, m),
				})),
			});
		case 'GET orders': {
			const id = q.get('client_orderid');
			const list = id
				? store.ordersWithClientId(id).filter((order) => order.clientOrderId === id)
				: [...store.orders.values()];
			return reply.sendJson(res, 200, { orders: list.map((order) => adminView(order)) });
		}
		case 'GET orders/:id':
			return guard(() => reply.sendJson(res, 200, adminView(findOrderForAdmin(gateway, parts[1]))));
		case 'POST hosted-fields/tokens':
			return guard(() => reply.sendJson(res, 200, mintToken(gateway, body)));
		case 'POST orders/:id/clear':
			return guard(() => reply.sendJson(res, 200, adminView(clearOrder(gateway, parts[1]))));
		case 'POST orders/:id/chargeback':
			return guard(() => reply.sendJson(res, 200, adminView(chargeBack(gateway, parts[1], body))));
		case 'POST orders/:id/times':
			return guard(() => reply.sendJson(res, 200, adminView(retimeOrder(gateway, parts[1], body))));
		case 'POST histories':
			return guard(() => reply.sendJson(res, 201, createHistories(gateway, body, base)));
		case 'GET merchants/:id/report':
			return guard(() => reply.sendJson(res, 200, merchantReport(gateway, decodeURIComponent(parts[1]))));
		case 'POST merchants/:id/report':
			return guard(() => reply.sendJson(res, 200, merchantReport(gateway, decodeURIComponent(parts[1]), body)));
		case 'POST orders/:id/finalize':
			return guard(() => reply.sendJson(res, 200, adminView(forceFinalStatus(gateway, parts[1], body))));
		case 'POST orders/:id/send-callbacks':
			return sendOrderCallbacks(srv, decodeURIComponent(parts[1]), body).then(
				(sent) => reply.sendJson(res, 200, sent),
				(e) => refuse(res, e),
			);
		case 'POST samples/:id':
			return guard(() => reply.sendJson(res, 200, adminView(createSampleOrder(gateway, parts[1], base))));
		case 'GET ledger': {
			let list = store.ledger;
			if (q.get('orderid')) list = list.filter((e) => e.orderid === q.get('orderid'));
			if (q.get('client_orderid')) list = list.filter((e) => e.client_orderid === q.get('client_orderid'));
			return reply.sendJson(res, 200, { entries: list });
		}
		case 'GET callbacks': {
			let list = callbacks.list();
			if (q.get('orderid')) list = list.filter((d) => d.orderid === q.get('orderid'));
			return reply.sendJson(res, 200, { deliveries: list });
		}
		case 'GET callbacks/:id': {
			const d = callbacks.list().find((x) => x.id === parts[1]);
			return d ? reply.sendJson(res, 200, d) : notFound();
		}
		case 'POST callbacks/:id/replay': {
			const d = callbacks.replay(parts[1]);
			return d ? reply.sendJson(res, 200, d) : notFound();
		}
		case 'GET requests':
			return reply.sendJson(res, 200, { requests: srv.requestLog() });
		case 'POST reset':
			srv.reset();
			return reply.sendJson(res, 200, { ok: true });
		// A stand-in for a chat webhook (Slack, Teams…): demo workflows post alerts here offline.
		case 'POST sink':
			srv.sink.push({ at: new Date().toISOString(), message: body });
			return reply.sendJson(res, 200, { ok: true });
		case 'GET sink':
			return reply.sendJson(res, 200, { messages: srv.sink });
		case 'GET faults':
			return reply.sendJson(res, 200, { faults: faults.list() });
		case 'POST faults': {
			const specs = Array.isArray(body) ? body : Array.isArray(body.faults) ? body.faults : [body];
			try {
				const added = specs.map((/** @type {any} */ s) => faults.add(s));
				return reply.sendJson(res, 200, { faults: added });
			} catch (/** @type {any} */ e) {
				return reply.sendJson(res, 400, { error: e.message });
			}
		}
		case 'DELETE faults':
			faults.clear();
			return reply.sendJson(res, 200, { faults: [] });
		case 'DELETE faults/:id':
			return faults.remove(parts[1]) ? reply.sendJson(res, 200, { removed: parts[1] }) : notFound();
		default:
			break;
	}
	return notFound();
}

module.exports = { handleAdmin };
