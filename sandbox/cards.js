// @ts-check
'use strict';
// Card checks and the sandbox CVV outcome table (gateway-facts §11). Full card numbers are never
// stored: only BIN, last four digits and brand leave this module.

/** @param {unknown} pan */
function digitsOnly(pan) {
	return String(pan || '').replace(/[\s-]/g, '');
}

/** @param {unknown} pan */
function luhnValid(pan) {
	const s = digitsOnly(pan);
	if (!/^\d{12,19}$/.test(s)) return false;
	let sum = 0;
	for (let i = 0; i < s.length; i++) {
		let d = s.charCodeAt(s.length - 1 - i) - 48;
		if (i % 2 === 1) {
			d *= 2;
			if (d > 9) d -= 9;
		}
		sum += d;
	}
	return sum % 10 === 0;
}

/** @param {unknown} pan */
function cardType(pan) {
	const s = digitsOnly(pan);
	const two = Number(s.slice(0, 2));
	const four = Number(s.slice(0, 4));
	if (s[0] === '4') return 'VISA';
	if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'MASTERCARD';
	if (four >= 2200 && four <= 2204) return 'MIR';
	if (two === 34 || two === 37) return 'AMEX';
	if (s.startsWith('62')) return 'CUP';
	if (two === 35) return 'JCB';
	return 'UNKNOWN';
}

/**
 * first6 + stars + last4: the only shape a card number ever takes in replies, logs and admin views.
 * @param {unknown} pan
 */
function maskPan(pan) {
	const s = digitsOnly(pan);
	if (s.length < 10) return '*'.repeat(s.length);
	return s.slice(0, 6) + '*'.repeat(s.length - 10) + s.slice(-4);
}

/**
 * What the sandbox keeps of a card: nothing that could be charged elsewhere.
 * @param {unknown} pan
 * @param {string | undefined} month
 * @param {string | undefined} year
 * @param {string | undefined} holder
 * @returns {import('./engine/types').CardSummary}
 */
function cardSummary(pan, month, year, holder) {
	const s = digitsOnly(pan);
	return {
		bin: s.slice(0, 6),
		lastFour: s.slice(-4),
		type: cardType(s),
		masked: maskPan(s),
		expMonth: month ? String(month).padStart(2, '0') : '',
		expYear: year ? normaliseYear(year) : '',
		holder: holder || '',
	};
}

/** @param {unknown} year */
function normaliseYear(year) {
	const y = String(year);
	return y.length === 2 ? `20${y}` : y;
}

/**
 * Returns an error text, or null when the expiry is valid and not in the past.
 * @param {string | undefined} month
 * @param {string | undefined} year
 * @param {Date} [now]
 * @returns {string | null}
 */
function expiryError(month, year, now = new Date()) {
	if (!/^\d{1,2}$/.test(String(month))) return `Invalid expire_month '${month}'`;
	const m = Number(month);
	if (m < 1 || m > 12) return `Invalid expire_month '${month}'`;
	if (!/^(\d{2}|\d{4})$/.test(String(year))) return `Invalid expire_year '${year}'`;
	const y = Number(normaliseYear(year));
	const nowY = now.getUTCFullYear();
	const nowM = now.getUTCMonth() + 1;
	if (y < nowY || (y === nowY && m < nowM)) return 'Card is expired';
	return null;
}

// Decline reasons keyed by sandbox CVV; the CVV doubles as the reported error-code.
/** @type {Record<string, string>} */
const DECLINES = {
	101: 'Expired card',
	116: 'Insufficient funds',
	119: 'Transaction not permitted to cardholder',
	209: 'Pick-up card (stolen card)',
};
const GENERIC_DECLINE = { code: '100', message: 'Declined by issuer' };
const TDS_DECLINE = { code: '301', message: '3-D Secure authentication failed' };

/**
 * Outcome of a card operation from the test CVV. No CVV (rebills, card refs, payouts) → approved.
 * → { status: 'approved'|'declined'|'unknown', threeDS?: true, errorCode?, errorMessage? }
 * @param {string | null | undefined} cvv
 * @returns {import('./engine/types').Outcome}
 */
function cvvOutcome(cvv) {
	if (cvv == null || cvv === '') return { status: 'approved' };
	const c = String(cvv);
	if (c === '123' || c === '1234' || c === '111') return { status: 'approved' };
	if (c === '321') return { status: 'approved', threeDS: true };
	if (c === '217') return { status: 'unknown', errorCode: '217', errorMessage: 'Acquirer network problem' };
	if (DECLINES[c]) return { status: 'declined', errorCode: c, errorMessage: DECLINES[c] };
	return { status: 'declined', errorCode: GENERIC_DECLINE.code, errorMessage: GENERIC_DECLINE.message };
}

module.exports = {
	digitsOnly,
	luhnValid,
	cardType,
	maskPan,
	cardSummary,
	expiryError,
	cvvOutcome,
	TDS_DECLINE,
	DECLINES,
};
