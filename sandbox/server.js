// @ts-check
'use strict';
// HTTP front: routing, body parsing, reply negotiation, fault injection, request log and the
// browser pages / admin API under /sandbox/.
const http = require('node:http');
const { commandFor } = require('./commands');
const { processRequest } = require('./engine');
const { releaseHeldOrders } = require('./engine/admin-views');
const { AuthError, GatewayError } = require('./engine/errors');
const { readReportRequest } = require('./engine/report');
const { createGatewayState, resetGatewayState } = require('./engine/state');
const { normaliseUrl } = require('./oauth');
const { maskParams } = require('./mask');
const reply = require('./reply');
const { handleAdmin } = require('./admin');
const { sendReportReply } = require('./report-reply');
const { handleTreasuryAdmin } = require('./treasury-admin');

/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {import('node:http').ServerResponse} ServerResponse */
/** @typedef {import('./engine/types').Reply} Reply */
/**
 * An entry of the masked request log (GET /sandbox/requests).
 * @typedef {{ seq?: number, at: string, method: string | undefined, path: string, op: string | null, result: string | undefined,
 *   http: number, ms: number, client_orderid?: string, params?: Record<string, string>, card?: string }} RequestLogEntry
 */

const MAX_BODY = 1024 * 1024;
// The remote transaction report: beside the API's base path, on the same host (not under /paynet).
const REPORT_PATH = '/paynet-ui/services/transaction-report';
/** @type {import('./engine/types').CommandName} */
const REPORT_FAULT_TARGET = { name: 'transaction-report', key: REPORT_PATH.slice(1) };
const API_RE = /^\/api\/(v2|v4|3ds\/v1)\/(.+?)\/(?:(group)\/)?([^/]+)\/?$/;

/**
 * @param {number} ms
 * @param {Set<NodeJS.Timeout>} timers   cleared on close
 * @returns {Promise<void>}
 */
function sleep(ms, timers) {
	return new Promise((resolve) => {
		const t = setTimeout(() => {
			timers.delete(t);
			resolve();
		}, ms);
		timers.add(t);
	});
}

/**
 * @param {IncomingMessage} req
 * @returns {Promise<Buffer>}
 */
function readBody(req) {
	return new Promise((resolve, reject) => {
		/** @type {Buffer[]} */
		const chunks = [];
		let size = 0;
		req.on('data', (/** @type {Buffer} */ c) => {
			size += c.length;
			if (size > MAX_BODY) {
				reject(Object.assign(new Error('body too large'), { status: 413 }));
				req.destroy();
				return;
			}
			chunks.push(c);
		});
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

/**
 * @param {string} text
 * @returns {[string, string][]}
 */
function formPairs(text) {
	return [...new URLSearchParams(text)];
}

/**
 * First value per name, trimmed (the gateway drops leading/trailing whitespace).
 * @param {[string, string][]} pairs
 * @returns {import('./engine/types').Params}
 */
function trimmedParams(pairs) {
	/** @type {import('./engine/types').Params} */
	const params = {};
	for (const [name, value] of pairs) if (!(name in params)) params[name] = value.trim();
	return params;
}

class SandboxServer {
	/**
	 * @param {import('./engine/types').Config} cfg   loaded config
	 * @param {{ store: import('./store').Store, callbacks: import('./callbacks').Callbacks, faults: import('./faults').Faults }} deps
	 */
	constructor(cfg, deps) {
		this.cfg = cfg;
		this.opts = cfg.options;
		this.deps = deps;
		/** The gateway's state (engine/state.js), which every engine function takes first. */
		this.gateway = createGatewayState(cfg, deps);
		deps.faults.onRemove = (removed) => releaseHeldOrders(this.gateway, removed);
		this.readBody = readBody;
		/** @type {RequestLogEntry[]} */
		this.requests = [];
		/** @type {{ at: string, message: unknown }[]} */
		this.sink = [];
		this.requestSeq = 0;
		/** @type {Set<NodeJS.Timeout>} */
		this.timers = new Set();
		/** Where it listens, once listen() resolved. @type {import('node:net').AddressInfo} */
		this.address; // a declaration for the type checker only: listen() sets it
		this.server = http.createServer((req, res) => {
			this.handle(req, res).catch((e) => this.internalError(req, res, e));
		});
		this.server.keepAliveTimeout = 10000;
	}

	/**
	 * @param {number} port
	 * @param {string} host
	 * @returns {Promise<import('node:net').AddressInfo>}
	 */
	listen(port, host) {
		return new Promise((resolve, reject) => {
			this.server.once('error', reject);
			this.server.listen(port, host, () => {
				this.server.off('error', reject);
				this.address = /** @type {import('node:net').AddressInfo} */ (this.server.address());
				resolve(this.address);
			});
		});
	}

	async close() {
		for (const t of this.timers) clearTimeout(t);
		this.timers.clear();
		await new Promise((resolve) => {
			this.server.close(() => resolve(undefined));
			this.server.closeAllConnections();
		});
	}

	reset() {
		resetGatewayState(this.gateway);
		this.deps.callbacks.reset();
		this.deps.faults.clear();
		for (const f of this.opts.faults || []) this.deps.faults.add(f);
		this.requests = [];
		this.sink = [];
	}

	/** @param {IncomingMessage} req */
	baseUrl(req) {
		return `http://${req.headers.host || `${this.address.address}:${this.address.port}`}`;
	}

	/**
	 * One line per request on stdout (unless quiet) and an entry in the masked request log.
	 * @param {RequestLogEntry} entry
	 */
	logRequest(entry) {
		entry.seq = ++this.requestSeq;
		this.requests.push(entry);
		// Trimmed once per requestLogSize requests, not on each (a splice moves every entry kept).
		const max = this.requestLogSize();
		if (this.requests.length >= 2 * max) this.requests.splice(0, this.requests.length - max);
		if (!this.opts.quiet) {
			const cid = entry.client_orderid ? ` ${entry.client_orderid}` : '';
			const card = entry.card ? ` card=${entry.card}` : '';
			process.stdout.write(
				`${entry.at} ${entry.method} ${entry.path} ${entry.op || '-'} ${entry.result} ${entry.ms}ms${cid}${card}\n`,
			);
		}
	}

	requestLogSize() {
		return this.opts.requestLogSize || 1000;
	}

	/**
	 * The masked request log (GET /sandbox/requests): the newest requestLogSize entries, oldest first.
	 * @returns {RequestLogEntry[]}
	 */
	requestLog() {
		return this.requests.slice(-this.requestLogSize());
	}

	/**
	 * @param {IncomingMessage} req
	 * @param {ServerResponse} res
	 */
	async handle(req, res) {
		const started = performance.now();
		const at = new Date().toISOString();
		const [rawPath, rawQuery = ''] = String(req.url).split(/\?(.*)/s);
		/** @type {(op: string | null, result: string | undefined, extra?: Partial<RequestLogEntry>) => void} */
		const log = (op, result, extra = {}) =>
			this.logRequest({
				at,
				method: req.method,
				path: rawPath,
				op,
				result,
				http: res.statusCode,
				ms: Math.round(performance.now() - started),
				...extra,
			});

		if (rawPath === '/sandbox' || rawPath.startsWith('/sandbox/')) {
			const status =
				(await handleTreasuryAdmin(this, req, res, rawPath)) ?? (await handleAdmin(this, req, res, rawPath, rawQuery));
			log('sandbox', String(status));
			return;
		}
		if (rawPath === REPORT_PATH) {
			// A lost reply of the report, as of any request (faults with op 'transaction-report' or its path).
			const dropped = ['reset', 'apply-then-drop'].find((kind) => this.deps.faults.take(kind, REPORT_FAULT_TARGET));
			if (dropped) {
				req.socket.destroy();
				log('transaction-report', `fault:${dropped}`);
				return;
			}
			log('transaction-report', await this.sendReport(req, res, rawPath, rawQuery));
			return;
		}

		const base = this.opts.basePath;
		const path = base && (rawPath === base || rawPath.startsWith(`${base}/`)) ? rawPath.slice(base.length) : rawPath;
		const match = API_RE.exec(path);
		const definition = match ? commandFor(`${match[1]}/${match[2]}`) : null;
		if (!match || !definition) {
			reply.sendText(res, 404, 'Not Found');
			log(null, '404');
			return;
		}
		if (req.method !== 'POST') {
			reply.sendText(res, 405, 'Method Not Allowed', { Allow: 'POST' });
			log(definition.name, '405');
			return;
		}

		const faults = this.deps.faults;
		if (faults.take('reset', definition)) {
			req.socket.destroy();
			log(definition.name, 'fault:reset');
			return;
		}
		const timeout = faults.take('timeout', definition);
		if (timeout) {
			await sleep(timeout.latencyMs, this.timers);
			req.socket.destroy();
			log(definition.name, 'fault:timeout');
			return;
		}
		const latency = faults.take('latency', definition);
		const delay = this.opts.latencyMs + (latency ? latency.latencyMs : 0);
		if (delay > 0) await sleep(delay, this.timers);

		let body;
		try {
			body = await readBody(req);
		} catch (/** @type {any} */ e) {
			if (!res.headersSent && !req.socket.destroyed) reply.sendText(res, e.status || 400, 'Bad Request');
			log(definition.name, 'bad-body');
			return;
		}
		const json = reply.wantsJson(req);
		const serialless = (/** @type {string} */ message, /** @type {number} */ code) => ({
			type: 'error',
			'error-message': message,
			'error-code': String(code),
		});
		if (faults.take('http500', definition)) {
			reply.sendGatewayReply(res, json, serialless('Injected server fault', 5), 500);
			log(definition.name, 'fault:http500');
			return;
		}
		if (this.opts.strictAccept && !json) {
			reply.sendText(res, 406, `Not Acceptable: send Accept: ${reply.JSON_TYPE}`);
			log(definition.name, '406');
			return;
		}

		const contentType = String(req.headers['content-type'] || '').toLowerCase();
		const pairs = formPairs(body.toString('utf8'));
		const params = trimmedParams(pairs);
		const masked = maskParams(params);
		const extra = {
			client_orderid: params.client_orderid || params['client-order-id'],
			params: masked,
			card: masked.credit_card_number,
		};

		/** @type {{ reply: Reply, authFailure?: undefined } | { authFailure: string, reply?: undefined }} */
		let outcome;
		if (contentType && !contentType.startsWith('application/x-www-form-urlencoded')) {
			outcome = {
				reply: {
					type: 'validation-error',
					'serial-number': this.deps.store.nextSerial(),
					'error-message': 'Content-Type must be application/x-www-form-urlencoded',
					'error-code': '1',
				},
			};
		} else {
			const host = req.headers.host || `${this.address.address}:${this.address.port}`;
			outcome = processRequest(this.gateway, {
				definition,
				endpointOrGroupId: match[4],
				isGroup: Boolean(match[3]),
				pairs,
				queryPairs: formPairs(rawQuery),
				params,
				authorization: req.headers.authorization,
				oauthUrl: normaliseUrl('http', host, rawPath),
				baseUrl: this.baseUrl(req),
			});
		}

		if (faults.take('apply-then-drop', definition)) {
			req.socket.destroy();
			log(definition.name, `fault:apply-then-drop(${outcome.reply ? outcome.reply.type : 'auth'})`, extra);
			return;
		}
		if (outcome.authFailure) {
			log(definition.name, `${this.sendAuthFailure(res)} (${outcome.authFailure})`, extra);
			return;
		}
		const r = /** @type {Reply} */ (outcome.reply);
		reply.sendGatewayReply(res, json, r);
		const result =
			r['error-code'] && r.type !== 'status-response'
				? `${r.type}(${r['error-code']}: ${r['error-message']})`
				: r.status
					? `${r.type}:${r.status}`
					: r.type;
		log(definition.name, /** @type {string | undefined} */ (result), extra); // undefined: a v4 sale reply has no type
	}

	/**
	 * A refused OAuth signature: plain text, 403 (or the configured status).
	 * @param {ServerResponse} res
	 * @returns {number}
	 */
	sendAuthFailure(res) {
		const status = Number(this.opts.oauthFailureStatus) || 403;
		return reply.sendText(res, status, status === 401 ? 'Unauthorized' : 'Forbidden');
	}

	/**
	 * The transaction report (./report-reply.js streams it). A refused request is the gateway's
	 * validation-error reply with HTTP 400, so it cannot pass for a report.
	 * @param {IncomingMessage} req
	 * @param {ServerResponse} res
	 * @param {string} rawPath
	 * @param {string} rawQuery
	 * @returns {Promise<string>}   what the request log says of it
	 */
	async sendReport(req, res, rawPath, rawQuery) {
		if (req.method !== 'GET') return String(reply.sendText(res, 405, 'Method Not Allowed', { Allow: 'GET' }));
		let query;
		try {
			query = readReportRequest(this.gateway, {
				authorization: req.headers.authorization,
				oauthUrl: normaliseUrl('http', req.headers.host || `${this.address.address}:${this.address.port}`, rawPath),
				queryPairs: formPairs(rawQuery),
			});
		} catch (e) {
			if (e instanceof AuthError) return `${this.sendAuthFailure(res)} (${e.message})`;
			if (!(e instanceof GatewayError)) throw e;
			const refusal = {
				type: e.type,
				'serial-number': this.deps.store.nextSerial(),
				'error-message': e.message,
				'error-code': String(e.code),
			};
			reply.sendGatewayReply(res, reply.wantsJson(req), refusal, 400);
			return `400 (${e.code}: ${e.message})`;
		}
		return sendReportReply(res, this.gateway, query, REPORT_FAULT_TARGET);
	}

	/**
	 * @param {IncomingMessage} req
	 * @param {ServerResponse} res
	 * @param {any} e
	 */
	internalError(req, res, e) {
		if (!this.opts.quiet) process.stderr.write(`sandbox internal error: ${e.stack || e}\n`);
		if (res.headersSent || req.socket.destroyed) return;
		reply.sendGatewayReply(
			res,
			reply.wantsJson(req),
			{ type: 'error', 'error-message': `Internal sandbox error: ${e.message}`, 'error-code': '5' },
			500,
		);
	}
}

module.exports = { SandboxServer, readBody };
