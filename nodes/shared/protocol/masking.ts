// Card data and secrets never leave the node: card numbers are cut to first 6 / last 4 digits
// wherever they appear, CVVs and keys are dropped.
import { comparableName } from './names';

/** Field names whose values are card numbers, wherever they appear (requests, replies, callbacks). */
function isPanField(name: string): boolean {
	const key = comparableName(name);
	return key === 'pan' || key.endsWith('pan') || key.includes('cardnumber') || key.includes('cardno');
}

const SECRET_PARTS = [
	'cvv',
	'cvc',
	'cvn',
	'securitycode',
	'cardcode',
	'cardverification',
	'controlkey',
	'merchantcontrol',
	'privatekey',
	'passphrase',
	'password',
];

/** Field names whose values are never shown at all: card verification codes under any name, keys. */
function isSecretField(name: string): boolean {
	const key = comparableName(name);
	return key === 'csc' || key === 'cid' || SECRET_PARTS.some((part) => key.includes(part));
}

export type FieldKind = 'pan' | 'secret' | 'other';

/** Field names seen so far and what they hold (replies repeat the same few dozen names); names with digits are not kept. */
const fieldKinds = new Map<string, FieldKind>();
const MAX_REMEMBERED_NAMES = 2000;

/** What a field holds, by its name: a card number, a secret (never shown), or anything else. */
export function fieldKind(name: string): FieldKind {
	let kind = fieldKinds.get(name);
	if (kind === undefined) {
		kind = isSecretField(name) ? 'secret' : isPanField(name) ? 'pan' : 'other';
		if (fieldKinds.size < MAX_REMEMBERED_NAMES && !/\p{Nd}/u.test(name)) fieldKinds.set(name, kind);
	}
	return kind;
}

/**
 * Runs of digits (any script) in groups joined by up to three spaces, dots, dashes, slashes or
 * underscores: every way a card number is written inside text, glued to letters or not.
 */
const DIGIT_GROUPS = /\p{Nd}+(?:[\s._/-]{1,3}\p{Nd}+)*/gu;
const MIN_PAN_DIGITS = 12;
const MAX_PAN_DIGITS = 19;

export const REDACTED = '[redacted]';

/** The value 0–9 of a digit of any script (fullwidth, Arabic-Indic, …). */
function digitValue(char: string): string {
	if (char >= '0' && char <= '9') return char;
	const compatible = char.normalize('NFKC');
	if (/^[0-9]$/.test(compatible)) return compatible;
	const codePoint = char.codePointAt(0)!;
	let zero = codePoint;
	while (/\p{Nd}/u.test(String.fromCodePoint(zero - 1))) zero--;
	return String((codePoint - zero) % 10);
}

/** ASCII digits of a text, in order. */
export function asciiDigits(text: string): string {
	let digits = '';
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		// another script's digits: read them all by their Unicode value
		if (code > 0x7f) return (text.match(/\p{Nd}/gu) ?? []).map(digitValue).join('');
		if (code >= 48 && code <= 57) digits += text[i];
	}
	return digits;
}

/** The separators DIGIT_GROUPS allows between two groups of one run (ASCII). */
function isGroupSeparator(code: number): boolean {
	// space, tab, line feed, vertical tab, form feed, carriage return, '.', '_', '/', '-'
	return code === 32 || (code >= 9 && code <= 13) || code === 46 || code === 95 || code === 47 || code === 45;
}

/**
 * Whether a text may hold a card number: it has a run of 12 or more digits (groups joined by up to
 * three spaces, dots, dashes, slashes or underscores, as DIGIT_GROUPS reads them). One pass over its
 * characters, no allocation: the cheap test before the digit-group scan. A text with any non-ASCII
 * character may (digits and spaces of other scripts are left to the scan).
 */
export function mayHoldPan(text: string): boolean {
	if (text.length < MIN_PAN_DIGITS) return false;
	let digits = 0;
	let separators = 0;
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code > 0x7f) return true;
		if (code >= 48 && code <= 57) {
			if (++digits >= MIN_PAN_DIGITS) return true;
			separators = 0;
		} else if (digits > 0 && isGroupSeparator(code) && ++separators <= 3) {
			continue;
		} else {
			digits = 0;
			separators = 0;
		}
	}
	return false;
}

/** Keeps at most the first 6 and last 4 digits of a card number (only the last 4 of a short one). */
export function maskPan(value: string): string {
	const digits = asciiDigits(value);
	if (digits.length >= 16) return digits.slice(0, 6) + '*'.repeat(digits.length - 10) + digits.slice(-4);
	return '*'.repeat(Math.max(digits.length - 4, 0)) + digits.slice(-4);
}

export function luhnValid(digits: string): boolean {
	if (!/^\d+$/.test(digits)) return false;
	let sum = 0;
	for (let i = 0; i < digits.length; i++) {
		let d = digits.charCodeAt(digits.length - 1 - i) - 48;
		if (i % 2 === 1) {
			d *= 2;
			if (d > 9) d -= 9;
		}
		sum += d;
	}
	return sum % 10 === 0;
}

/**
 * Masks, inside one run of digit groups, every stretch of whole groups that reads as a card number
 * (12–19 digits, Luhn-valid, not starting with 0, which keeps zero-padded serials intact).
 */
function maskRun(run: string): string {
	if (run.length < MIN_PAN_DIGITS) return run;
	const groups = [...run.matchAll(/\p{Nd}+/gu)].map((match) => ({
		start: match.index!,
		end: match.index! + match[0].length,
		digits: asciiDigits(match[0]),
	}));
	let result = '';
	let copied = 0;
	for (let first = 0; first < groups.length; first++) {
		let found = -1;
		let digits = '';
		for (let last = first; last < groups.length; last++) {
			digits += groups[last].digits;
			if (digits.length > MAX_PAN_DIGITS) break;
			if (digits.length >= MIN_PAN_DIGITS && digits[0] !== '0' && luhnValid(digits)) found = last;
		}
		if (found < 0) continue;
		const pan = groups
			.slice(first, found + 1)
			.map((group) => group.digits)
			.join('');
		result += run.slice(copied, groups[first].start) + maskPan(pan);
		copied = groups[found].end;
		first = found;
	}
	return result + run.slice(copied);
}

/** Masks card numbers found in free text and blanks out the given secrets (keys, passphrases). */
export function maskText(text: string, secrets: readonly string[] = []): string {
	return redactSecrets(mayHoldPan(text) ? text.replace(DIGIT_GROUPS, maskRun) : text, secrets);
}

/** Blanks out the given secrets (keys, passphrases) in a text; card numbers are left to the caller. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
	let redacted = text;
	for (const secret of secrets) {
		if (secret && secret.length >= 4 && redacted.includes(secret)) redacted = redacted.split(secret).join(REDACTED);
	}
	return redacted;
}

/**
 * Deep copy safe to show or log: card-number fields masked, CVV/keys/passphrases removed,
 * card numbers and the given secrets scrubbed from every string.
 */
export function maskSensitive<T>(value: T, secrets: readonly string[] = []): T {
	return walk(value, secrets, undefined) as T;
}

function walk(value: unknown, secrets: readonly string[], key: string | undefined): unknown {
	if (typeof value === 'string') {
		if (key && fieldKind(key) === 'pan' && asciiDigits(value).length >= MIN_PAN_DIGITS) return maskPan(value);
		return maskText(value, secrets);
	}
	if (Array.isArray(value)) return value.map((item) => walk(item, secrets, key));
	if (value && typeof value === 'object') {
		const copy: Record<string, unknown> = {};
		for (const [name, inner] of Object.entries(value as Record<string, unknown>)) {
			if (fieldKind(name) === 'secret') continue;
			copy[name] = walk(inner, secrets, name);
		}
		return copy;
	}
	return value;
}
