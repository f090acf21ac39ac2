// @ts-check
'use strict';
// Money arithmetic on decimal strings. Floats are never used: 0.29 * 100 is 28.999… in IEEE 754,
// so the minor-unit value is built digit by digit from the string the client sent.

// ISO 4217 currencies without minor units, and those with three decimals.
const ZERO_DECIMAL = new Set([
	'BIF',
	'CLP',
	'DJF',
	'GNF',
	'ISK',
	'JPY',
	'KMF',
	'KRW',
	'PYG',
	'RWF',
	'UGX',
	'UYI',
	'VND',
	'VUV',
	'XAF',
	'XOF',
	'XPF',
]);
const THREE_DECIMAL = new Set(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND']);

/** @param {string | undefined} currency */
function currencyDigits(currency) {
	const c = String(currency || '').toUpperCase();
	if (ZERO_DECIMAL.has(c)) return 0;
	if (THREE_DECIMAL.has(c)) return 3;
	return 2;
}

/**
 * Decimal major-unit string → minor units (a Number, always a safe integer).
 * Returns { minor } or { error } (a human readable reason).
 * Trailing zeros beyond the currency's digits are accepted ("10.500" USD = 1050): the value is exact.
 * @param {string | number | null | undefined} amount
 * @param {string | undefined} currency
 * @returns {{ minor: number, error?: undefined } | { error: string, minor?: undefined }}
 */
function parseAmount(amount, currency) {
	const s = String(amount == null ? '' : amount);
	const m = /^(\d{1,15})(?:\.(\d{1,15}))?$/.exec(s);
	if (!m) return { error: `Invalid amount '${s}': expected a decimal number like 10.50` };
	const digits = currencyDigits(currency);
	let frac = (m[2] || '').replace(/0+$/, '');
	if (frac.length > digits) {
		return { error: `Invalid amount '${s}': ${String(currency).toUpperCase()} allows ${digits} decimal(s)` };
	}
	frac = frac.padEnd(digits, '0');
	const minorStr = (m[1] + frac).replace(/^0+(?=\d)/, '');
	const minor = Number(minorStr);
	if (!Number.isSafeInteger(minor)) return { error: `Invalid amount '${s}': too large` };
	return { minor };
}

/**
 * The amount as the `control` concatenation carries it: hundredths of the decimal string for every
 * currency (amount × 100, as the vendor's clients compute it: JPY "1000" → "100000"). Returns
 * { hundredths } (a string of digits) or { error } when a third decimal is not 0.
 * @param {string | number | null | undefined} amount
 * @returns {{ hundredths: string, error?: undefined } | { error: string, hundredths?: undefined }}
 */
function controlHundredths(amount) {
	const s = String(amount == null ? '' : amount);
	const m = /^(\d{1,15})(?:\.(\d{1,15}))?$/.exec(s);
	if (!m) return { error: `Invalid amount '${s}': expected a decimal number like 10.50` };
	const frac = m[2] || '';
	if (/[1-9]/.test(frac.slice(2)))
		return {
			error: `Invalid amount '${s}': the control amount is in hundredths, so at most 2 decimals may be non-zero`,
		};
	return { hundredths: (m[1] + frac.slice(0, 2).padEnd(2, '0')).replace(/^0+(?=\d)/, '') };
}

/**
 * Minor units → decimal major-unit string with exactly the currency's digits ("1050" USD → "10.50").
 * @param {number} minor
 * @param {string} currency
 */
function formatMinor(minor, currency) {
	const digits = currencyDigits(currency);
	const s = String(minor);
	if (digits === 0) return s;
	const padded = s.padStart(digits + 1, '0');
	return `${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

module.exports = { currencyDigits, parseAmount, formatMinor, controlHundredths };
