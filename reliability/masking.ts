// Campaign 8 — card numbers in every spelling (issue #13): a property test over Luhn-valid 12–19 digit
// numbers written with separators, groupings, glued to letters or in other scripts' digits, inside
// any text, through the masking every output, error and trigger item passes through.
import fc from 'fast-check';

import { maskSensitive, maskText } from '../nodes/shared/protocol/masking';

import { Tally, type CampaignResult } from './support';

/** Completes a digit string with its Luhn check digit (computed here, independently of the node). */
function withCheckDigit(body: string): string {
	let sum = 0;
	for (let i = 0; i < body.length; i++) {
		let digit = Number(body[body.length - 1 - i]);
		if (i % 2 === 0) {
			digit *= 2;
			if (digit > 9) digit -= 9;
		}
		sum += digit;
	}
	return body + String((10 - (sum % 10)) % 10);
}

export const pan = fc
	.tuple(fc.integer({ min: 12, max: 19 }), fc.integer({ min: 1, max: 9 }), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 18, maxLength: 18 }))
	.map(([length, first, rest]) => withCheckDigit(String(first) + rest.slice(0, length - 2).join('')));

const SEPARATORS = ['', ' ', '-', '.', '/', '_', '\u00a0', '  ', ' - '];
const FULLWIDTH_ZERO = 0xff10;
const ARABIC_INDIC_ZERO = 0x0660;

/** One way of writing the number: groups of 4 (or 8+8, or 4-6-5), a separator, a digit script. */
export const spelling = fc.record({
	separator: fc.constantFrom(...SEPARATORS),
	grouping: fc.constantFrom('fours', 'eights', 'amex', 'plain'),
	script: fc.constantFrom('ascii', 'fullwidth', 'arabic-indic'),
});

export function write(digits: string, how: { separator: string; grouping: string; script: string }): string {
	const sizes = how.grouping === 'fours' ? [4, 4, 4, 4, 4] : how.grouping === 'eights' ? [8, 8, 8] : how.grouping === 'amex' ? [4, 6, 5, 4] : [19];
	const groups: string[] = [];
	let at = 0;
	for (const size of sizes) {
		if (at >= digits.length) break;
		groups.push(digits.slice(at, at + size));
		at += size;
	}
	if (at < digits.length) groups.push(digits.slice(at));
	const text = groups.join(how.separator);
	const zero = how.script === 'fullwidth' ? FULLWIDTH_ZERO : how.script === 'arabic-indic' ? ARABIC_INDIC_ZERO : 0x30;
	return text.replace(/[0-9]/g, (digit) => String.fromCodePoint(zero + Number(digit)));
}

/** Text around the number: anything without digits (letters, `_`, punctuation, unicode). */
export const surrounding = fc.string({ maxLength: 12 }).filter((text) => !/\p{Nd}/u.test(text));

/** All digits of a text in ASCII, whatever their script (independent of the node's code). */
export function digitsOf(text: string): string {
	return [...text.normalize('NFKC')]
		.map((char) => {
			const code = char.codePointAt(0)!;
			if (code >= ARABIC_INDIC_ZERO && code <= ARABIC_INDIC_ZERO + 9) return String(code - ARABIC_INDIC_ZERO);
			return /[0-9]/.test(char) ? char : '';
		})
		.join('');
}

const CVV_NAMES = ['cvv2', 'cvv', 'card_cvv', 'cvc', 'CVC2', 'security-code', 'securityCode', 'csc', 'card_verification_value', 'cardCode'];

export function maskingCampaign({ seed, runs }: { seed: number; runs: number }): CampaignResult {
	const started = Date.now();
	const tally = new Tally(['no card number survives in free text', 'no card number survives in a card-number field', 'no CVV survives under any name']);
	fc.assert(
		fc.property(pan, spelling, surrounding, surrounding, fc.constantFrom(...CVV_NAMES), (digits, how, before, after, cvvName) => {
			const written = write(digits, how);
			const text = maskText(`${before}${written}${after}`);
			tally.check('no card number survives in free text', !digitsOf(text).includes(digits), () => `${JSON.stringify(written)} → ${JSON.stringify(text)}`);
			const masked = maskSensitive({ credit_card_number: written, [cvvName]: '737' }) as Record<string, unknown>;
			const record = JSON.stringify(masked);
			tally.check('no card number survives in a card-number field', !digitsOf(record).includes(digits), () => `${JSON.stringify(written)} → ${record}`);
			// The field is dropped (its value could also be digits of the masked card number's last four).
			tally.check('no CVV survives under any name', !(cvvName in masked), () => `${cvvName}: ${record}`);
			return true;
		}),
		{ numRuns: runs, seed },
	);
	return {
		id: 'masking',
		title: 'Card numbers in every spelling',
		seed,
		cases: runs,
		injected: `fast-check, seed ${seed}: Luhn-valid 12–19 digit numbers (first digit 1–9) written plain, in groups of 4, 8+8 or 4-6-5, separated by nothing, a space, two spaces, " - ", "-", ".", "/", "_" or NBSP, in ASCII, fullwidth or Arabic-Indic digits, inside random text without digits (glued to letters or not); and CVVs under ${CVV_NAMES.length} field names`,
		invariants: tally.list(),
		figures: {},
		wallMs: Date.now() - started,
		outputs: [],
	};
}
