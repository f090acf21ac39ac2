// @ts-check
'use strict';
// Masking for everything the sandbox shows (request log, admin API, console): card numbers become
// first6…last4, CVVs and passwords are replaced, long 3-D Secure blobs are shortened.
const { luhnValid, maskPan } = require('./cards');

const SECRET_FIELDS = new Set(['cvv2', 'cvv', 'cvc', 'cvc2', 'password', 'control_key', 'merchant_control_key']);
const BLOB_FIELDS = new Set(['paRes', 'PaRes', 'pares', 'cRes', 'cres', 'CRes']);

const DIGITS_SPACES_DASHES = /^[\d\s-]+$/;

/** @param {unknown} value */
function looksLikePan(value) {
	const text = String(value);
	// Most values hold some other character: no copy and no Luhn sum for them (every request's fields pass here).
	if (text.length < 12 || !DIGITS_SPACES_DASHES.test(text)) return false;
	const s = text.replace(/[\s-]/g, '');
	return /^\d{12,19}$/.test(s) && luhnValid(s);
}

/**
 * @param {string} name
 * @param {unknown} value
 * @returns {string}
 */
function maskValue(name, value) {
	if (SECRET_FIELDS.has(String(name).toLowerCase())) return '***';
	if (/card.?(number|no)|pan$/i.test(name) || looksLikePan(value)) return maskPan(value);
	const s = String(value);
	if (BLOB_FIELDS.has(name) && s.length > 32) return `${s.slice(0, 16)}…(${s.length} chars)`;
	return s.length > 500 ? `${s.slice(0, 500)}…` : s;
}

/**
 * @param {Record<string, string> | undefined} params
 * @returns {Record<string, string>}
 */
function maskParams(params) {
	/** @type {Record<string, string>} */
	const out = {};
	for (const [k, v] of Object.entries(params || {})) out[k] = maskValue(k, v);
	return out;
}

module.exports = { maskParams, maskValue };
