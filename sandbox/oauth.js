// @ts-check
'use strict';
// OAuth 1.0a request verification (RFC 5849 §3.4), written for the sandbox alone.
const { timingSafeEqualStr } = require('./verifier');

/** @typedef {import('./engine/types').Merchant} Merchant */
/**
 * @typedef {object} VerifyOptions
 * @property {string | undefined} header              the Authorization header
 * @property {string} method
 * @property {string} url                             as normaliseUrl gives it
 * @property {[string, string][]} bodyPairs
 * @property {[string, string][]} [queryPairs]
 * @property {string[]} allowedMethods                'HMAC-SHA1' | 'RSA-SHA256'
 * @property {(login: string) => Merchant | undefined} merchantByLogin
 * @property {import('./engine/types').Verifier} verifier
 * @property {import('./engine/types').ReplayGuard | null} [replay]
 */

/**
 * RFC 3986 percent-encoding: unreserved A-Z a-z 0-9 - . _ ~ stay, everything else is %XX (UTF-8).
 * @param {unknown} value
 */
function percentEncode(value) {
	return encodeURIComponent(String(value)).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

/** @param {string} value */
function percentDecode(value) {
	return decodeURIComponent(String(value));
}

/**
 * Parse `Authorization: OAuth k="v", k="v"` (any order, with or without spaces, quoted or not).
 * Returns { params: Map } or { error }.  `realm` is dropped; values are percent-decoded.
 * @param {string | undefined} header
 * @returns {{ params: Map<string, string>, error?: undefined } | { error: string, params?: undefined }}
 */
function parseAuthorization(header) {
	const m = /^\s*OAuth\s+([\s\S]*)$/i.exec(String(header || ''));
	if (!m) return { error: 'Authorization header is not OAuth' };
	const params = new Map();
	for (const part of m[1].split(',')) {
		const item = part.trim();
		if (!item) continue;
		const kv = /^([^=\s]+)\s*=\s*(?:"([^"]*)"|([^\s"]*))$/.exec(item);
		if (!kv) return { error: `Malformed OAuth parameter '${item}'` };
		let name;
		let value;
		try {
			name = percentDecode(kv[1]);
			value = percentDecode(kv[2] !== undefined ? kv[2] : kv[3]);
		} catch {
			return { error: 'Bad percent-encoding in Authorization header' };
		}
		if (name === 'realm') continue;
		if (params.has(name)) return { error: `Duplicate OAuth parameter '${name}'` };
		params.set(name, value);
	}
	return { params };
}

/**
 * Base string URI: lowercase scheme and host, default port dropped, path kept, no query.
 * @param {string} scheme
 * @param {string} host
 * @param {string} path
 */
function normaliseUrl(scheme, host, path) {
	const s = String(scheme).toLowerCase();
	let h = String(host).toLowerCase();
	if ((s === 'http' && h.endsWith(':80')) || (s === 'https' && h.endsWith(':443'))) {
		h = h.slice(0, h.lastIndexOf(':'));
	}
	return `${s}://${h}${path || '/'}`;
}

/**
 * Same, from a full URL string (used by the RFC vectors in the tests).
 * @param {string} url
 */
function normaliseUrlString(url) {
	const u = new URL(url);
	return normaliseUrl(u.protocol.replace(':', ''), u.host, u.pathname);
}

/**
 * `METHOD&enc(url)&enc(sorted name=value)`; pairs is an array of [name, value].
 * @param {string} method
 * @param {string} url
 * @param {[string, string][]} pairs
 */
function signatureBaseString(method, url, pairs) {
	const encoded = pairs.map(([k, v]) => [percentEncode(k), percentEncode(v)]);
	encoded.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
	const normalized = encoded.map(([k, v]) => `${k}=${v}`).join('&');
	return `${String(method).toUpperCase()}&${percentEncode(url)}&${percentEncode(normalized)}`;
}

/**
 * Verify an OAuth-signed request: { ok: true, merchant, signatureMethod } or { ok: false, reason }.
 * @param {VerifyOptions} opts
 * @returns {{ ok: true, merchant: Merchant, signatureMethod: string, reason?: undefined }
 *   | { ok: false, reason: string, baseString?: string, merchant?: undefined }}
 */
function verifyOAuthRequest(opts) {
	const parsed = parseAuthorization(opts.header);
	if (parsed.error) return { ok: false, reason: parsed.error };
	const oauth = /** @type {Map<string, string>} */ (parsed.params);
	/** @type {[string, string][]} */
	const pairs = [];
	// Body copies of oauth_* (the HMAC doc sample repeats them) must equal the header; counted once.
	for (const [k, v] of opts.bodyPairs) {
		if (k.startsWith('oauth_')) {
			if (k === 'oauth_signature') continue;
			if (oauth.has(k)) {
				if (oauth.get(k) !== v) return { ok: false, reason: `${k} in body differs from header` };
				continue;
			}
			oauth.set(k, v);
			continue;
		}
		pairs.push([k, v]);
	}
	for (const [k, v] of opts.queryPairs || []) pairs.push([k, v]);
	const signature = oauth.get('oauth_signature');
	if (!signature) return { ok: false, reason: 'oauth_signature missing' };
	/** @param {string} name */
	const value = (name) => /** @type {string} */ (oauth.get(name));
	for (const required of ['oauth_consumer_key', 'oauth_signature_method', 'oauth_timestamp', 'oauth_nonce']) {
		if (!oauth.get(required)) return { ok: false, reason: `${required} missing` };
	}
	if (oauth.get('oauth_version') !== '1.0') return { ok: false, reason: 'oauth_version must be 1.0' };
	const method = value('oauth_signature_method');
	if (!opts.allowedMethods.includes(method)) {
		return {
			ok: false,
			reason: `oauth_signature_method ${method} not allowed here (${opts.allowedMethods.join(' or ')})`,
		};
	}
	if (!/^\d{1,12}$/.test(value('oauth_timestamp'))) return { ok: false, reason: 'bad oauth_timestamp' };
	const merchant = opts.merchantByLogin(value('oauth_consumer_key'));
	if (!merchant) return { ok: false, reason: 'unknown oauth_consumer_key' };
	for (const [k, v] of oauth) if (k !== 'oauth_signature') pairs.push([k, v]);

	let base;
	try {
		base = signatureBaseString(opts.method, opts.url, pairs);
	} catch {
		return { ok: false, reason: 'parameters are not valid UTF-8' };
	}
	const v = opts.verifier;
	let good = false;
	if (method === 'HMAC-SHA1') {
		good = timingSafeEqualStr(v.hmacSha1Base64(`${merchant.controlKey}&`, base), signature);
	} else {
		const sig = Buffer.from(signature, 'base64');
		good = merchant.publicKeys.some((key) => v.rsaSha256Verify(key, base, sig));
	}
	if (!good) return { ok: false, reason: 'signature mismatch', baseString: base };
	if (opts.replay) {
		const err = opts.replay.check(merchant.login, value('oauth_nonce'), Number(value('oauth_timestamp')));
		if (err) return { ok: false, reason: err };
	}
	return { ok: true, merchant, signatureMethod: method };
}

/**
 * Nonce + timestamp replay guard (off unless configured).
 * @param {number} windowSec
 * @returns {import('./engine/types').ReplayGuard}
 */
function createReplayGuard(windowSec) {
	/** @type {Map<string, number>} */
	const seen = new Map();
	return {
		check(login, nonce, timestamp) {
			const now = Math.floor(Date.now() / 1000);
			if (Math.abs(now - timestamp) > windowSec) return 'oauth_timestamp outside the allowed window';
			const key = `${login}\u0000${nonce}`;
			for (const [k, ts] of seen) if (now - ts > windowSec) seen.delete(k);
			if (seen.has(key)) return 'oauth_nonce already used';
			seen.set(key, now);
			return null;
		},
		reset() {
			seen.clear();
		},
	};
}

module.exports = {
	percentEncode,
	parseAuthorization,
	normaliseUrl,
	normaliseUrlString,
	signatureBaseString,
	verifyOAuthRequest,
	createReplayGuard,
};
