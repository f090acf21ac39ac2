// @ts-check
'use strict';
// Reply encoding: JSON when the client asks for application/vnd.pay+json, otherwise the legacy
// `k=v\n&k=v\n` form body that the gateway sends by default (always HTTP 200 there, errors included).

const JSON_TYPE = 'application/vnd.pay+json';

/** @typedef {import('node:http').ServerResponse} ServerResponse */
/** @typedef {Record<string, unknown>} ReplyFields */

/** @param {import('node:http').IncomingMessage} req */
function wantsJson(req) {
	return String(req.headers.accept || '')
		.toLowerCase()
		.includes(JSON_TYPE);
}

/** @param {unknown} value */
function formEncode(value) {
	return encodeURIComponent(String(value)).replace(/%20/g, '+');
}

/**
 * `k=v\n&k=v\n`. A list of records (get-balance's balances) is written as each record's fields in
 * turn, so a name repeats once per record.
 * @param {ReplyFields} obj
 * @returns {string[]}
 */
function legacyFields(obj) {
	return Object.entries(obj)
		.filter(([, v]) => v !== undefined && v !== null)
		.flatMap(([k, v]) =>
			Array.isArray(v) ? v.flatMap((record) => legacyFields(record)) : [`${formEncode(k)}=${formEncode(v)}\n`],
		);
}

/** @param {ReplyFields} obj */
function legacyBody(obj) {
	return legacyFields(obj).join('&');
}

/**
 * HTTP status for a gateway reply in JSON mode.
 * @param {ReplyFields} obj
 * @param {number} [forced]
 */
function jsonStatus(obj, forced) {
	if (forced) return forced;
	if (obj.type === 'validation-error' || obj.type === 'error') return 400;
	return 200;
}

/**
 * Write a gateway reply. `forced` (e.g. 500 for an injected/internal fault) overrides the status in
 * both modes. In legacy mode every value is a string; in JSON mode `error-code` is a number.
 * @param {ServerResponse} res
 * @param {boolean} json
 * @param {ReplyFields} obj
 * @param {number} [forced]
 */
function sendGatewayReply(res, json, obj, forced) {
	if (json) {
		const out = { ...obj };
		if (out['error-code'] !== undefined && /^\d+$/.test(String(out['error-code']))) {
			out['error-code'] = Number(out['error-code']);
		}
		const body = JSON.stringify(out);
		res.writeHead(jsonStatus(obj, forced), {
			'Content-Type': `${JSON_TYPE};charset=utf-8`,
			'Content-Length': Buffer.byteLength(body),
		});
		res.end(body);
		return jsonStatus(obj, forced);
	}
	const body = legacyBody(obj);
	const status = forced || 200;
	res.writeHead(status, { 'Content-Type': 'text/html;charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
	res.end(body);
	return status;
}

/**
 * @param {ServerResponse} res
 * @param {number} status
 * @param {string} text
 * @param {Record<string, string>} [headers]
 */
function sendText(res, status, text, headers = {}) {
	res.writeHead(status, {
		'Content-Type': 'text/plain;charset=utf-8',
		'Content-Length': Buffer.byteLength(text),
		...headers,
	});
	res.end(text);
	return status;
}

/**
 * @param {ServerResponse} res
 * @param {number} status
 * @param {unknown} obj
 */
function sendJson(res, status, obj) {
	const body = JSON.stringify(obj, null, 2);
	res.writeHead(status, {
		'Content-Type': 'application/json;charset=utf-8',
		'Content-Length': Buffer.byteLength(body),
	});
	res.end(body);
	return status;
}

/**
 * @param {ServerResponse} res
 * @param {number} status
 * @param {string} html
 */
function sendHtml(res, status, html) {
	res.writeHead(status, { 'Content-Type': 'text/html;charset=utf-8', 'Content-Length': Buffer.byteLength(html) });
	res.end(html);
	return status;
}

module.exports = { wantsJson, legacyBody, sendGatewayReply, sendText, sendJson, sendHtml, JSON_TYPE };
