import { parseAmount, parseCurrency } from '../../../../shared/protocol/amount';
import { GatewayInputError } from '../../../../shared/protocol/errors';
import { luhnValid } from '../../../../shared/protocol/masking';

import type { Check, Field } from '../core/fields';

// Control characters other than tab, line feed and carriage return.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex
const ANY_CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_ID_LENGTH = 128;

export function isEmpty(value: unknown): boolean {
	// Whitespace only counts as empty: it is trimmed away, so a required field would be sent blank.
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** The label users know a field by, for error messages: its display name, never its value. */
export function label(field: Field): string {
	return `"${field.property.displayName}"`;
}

function fail(field: Field, message: string): never {
	throw new GatewayInputError(field.property.displayName, `${label(field)} ${message}`);
}

/** A parameter value as text: strings and numbers are fine, objects and lists are a mistake. */
export function asText(field: Field, value: unknown): string {
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value === 'boolean') return String(value);
	const kind = Array.isArray(value) ? 'a list' : value === null ? 'null' : `an ${typeof value}`;
	return fail(
		field,
		`must be text, but the expression gave ${kind}. Pick a single value, e.g. {{ $json.customer.email }}.`,
	);
}

/**
 * Checks one value and returns what is sent. `currency` is the request's currency (for the
 * number of decimals an amount may have). Messages name the field, never echo card data.
 */
export function wireValue(field: Field, value: unknown, currencyCode?: string): string {
	const check: Check = field.check;
	if (check === 'flag') return value === true || value === 'true' ? 'true' : 'false';
	if (check === 'amount')
		return parseAmount(
			typeof value === 'number' ? value : asText(field, value),
			currencyCode,
			field.property.displayName,
		);
	const text = asText(field, value);
	switch (check) {
		case 'currency':
			return parseCurrency(text, field.property.displayName);
		case 'cardNumber': {
			const digits = text.replace(/[\s-]/g, '');
			if (!/^\d{12,19}$/.test(digits)) fail(field, 'must be 12 to 19 digits');
			if (!luhnValid(digits)) fail(field, 'is not a valid card number (the check digit does not match)');
			return digits;
		}
		case 'month': {
			if (!/^\d{1,2}$/.test(text) || Number(text) < 1 || Number(text) > 12)
				fail(field, 'must be a month number from 1 to 12');
			return text.padStart(2, '0');
		}
		case 'year':
			if (!/^(\d{2}|\d{4})$/.test(text)) fail(field, 'must be a year of 2 or 4 digits');
			return text;
		case 'cvv':
			if (!/^\d{3,4}$/.test(text)) fail(field, 'must be 3 or 4 digits');
			return text;
		case 'email':
			if (!EMAIL.test(text)) fail(field, 'must be an email address such as name@example.com');
			return text;
		case 'url':
			if (!isHttpUrl(text)) fail(field, 'must be an absolute http or https URL');
			return text;
		case 'count':
			if (!/^\d{1,4}$/.test(text) || Number(text) < 1) fail(field, 'must be a whole number from 1 to 9999');
			return String(Number(text));
		case 'country':
			if (!/^[A-Za-z]{2}$/.test(text)) fail(field, 'must be a two-letter ISO 3166 country code such as US');
			return text.toUpperCase();
		case 'choice': {
			// An expression can yield anything; only the listed values are sent.
			const allowed = (field.property.options ?? []).map((option) => String((option as { value?: unknown }).value));
			if (allowed.length && !allowed.includes(text))
				fail(field, `must be one of ${allowed.map((value) => `"${value}"`).join(', ')}`);
			return text;
		}
		case 'id':
			if (ANY_CONTROL_CHARACTER.test(text)) fail(field, 'must not contain control characters or line breaks');
			if (text.length > MAX_ID_LENGTH) fail(field, `must be at most ${MAX_ID_LENGTH} characters`);
			return text;
		default:
			if (CONTROL_CHARACTERS.test(text)) fail(field, 'must not contain control characters');
			return text;
	}
}

/** Refuses an expiry date in the past (month and year already checked one by one). */
export function checkExpiry(month: Field, year: Field, monthValue: string, yearValue: string, now = new Date()): void {
	const fullYear = yearValue.length === 2 ? 2000 + Number(yearValue) : Number(yearValue);
	const thisYear = now.getUTCFullYear();
	if (fullYear < thisYear || (fullYear === thisYear && Number(monthValue) < now.getUTCMonth() + 1)) {
		fail(year, `and ${label(month)} lie in the past: the card has expired`);
	}
}

function isHttpUrl(text: string): boolean {
	try {
		const url = new URL(text);
		return (url.protocol === 'http:' || url.protocol === 'https:') && !!url.hostname;
	} catch {
		return false;
	}
}
