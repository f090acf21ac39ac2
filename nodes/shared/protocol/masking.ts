/** Field names whose values are card numbers, wherever they appear (requests, replies, callbacks). */
const PAN_FIELDS = /^(credit[_-]?card[_-]?number|card[_-]?number|destination[_-]card[_-]no|sending[_-]card[_-]number|pan|credit-card-number)$/i;
/** Field names whose values are never shown at all. */
const SECRET_FIELDS = /^(cvv2?|cvc2?|controlKey|merchant_control(_key)?|privateKey|privateKeyPassphrase|passphrase|password)$/i;
/**
 * 13–19 digits as a card number is written: a plain run, or groups of 4–6 digits separated by a
 * space or dash. Card numbers never start with 0, which keeps zero-padded ids (serials) intact.
 */
const PAN_IN_TEXT = /\b[1-9](?:\d{12,18}|\d{3}(?:[ -]\d{4,6}){2,4})\b/g;

export const REDACTED = '[redacted]';

/** Keeps at most the first 6 and last 4 digits of a card number. */
export function maskPan(value: string): string {
	const digits = value.replace(/\D/g, '');
	if (digits.length < 13) return digits.length > 4 ? '*'.repeat(digits.length - 4) + digits.slice(-4) : '*'.repeat(digits.length);
	return digits.slice(0, 6) + '*'.repeat(digits.length - 10) + digits.slice(-4);
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

/** Masks card numbers found in free text and blanks out the given secrets (keys, passphrases). */
export function maskText(text: string, secrets: readonly string[] = []): string {
	let masked = text.replace(PAN_IN_TEXT, (run) => {
		const digits = run.replace(/\D/g, '');
		return luhnValid(digits) ? maskPan(digits) : run;
	});
	for (const secret of secrets) {
		if (secret && secret.length >= 4) masked = masked.split(secret).join(REDACTED);
	}
	return masked;
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
		if (key && PAN_FIELDS.test(key)) return maskPan(value);
		return maskText(value, secrets);
	}
	if (Array.isArray(value)) return value.map((item) => walk(item, secrets, key));
	if (value && typeof value === 'object') {
		const copy: Record<string, unknown> = {};
		for (const [name, inner] of Object.entries(value as Record<string, unknown>)) {
			if (SECRET_FIELDS.test(name)) continue;
			copy[name] = walk(inner, secrets, name);
		}
		return copy;
	}
	return value;
}
