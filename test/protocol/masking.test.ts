// Card numbers in every spelling (issue #13, item 9): a property test over Luhn-valid 12–19 digit
// numbers written with separators, groupings, glued to letters or in other scripts' digits.
import fc from 'fast-check';

import { maskSensitive, maskText } from '../../nodes/shared/protocol/masking';

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

const pan = fc
	.tuple(fc.integer({ min: 12, max: 19 }), fc.integer({ min: 1, max: 9 }), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 18, maxLength: 18 }))
	.map(([length, first, rest]) => withCheckDigit(String(first) + rest.slice(0, length - 2).join('')));

const SEPARATORS = ['', ' ', '-', '.', '/', '_', '\u00a0', '  ', ' - '];
const FULLWIDTH_ZERO = 0xff10;
const ARABIC_INDIC_ZERO = 0x0660;

/** One way of writing the number: groups of 4 (or 8+8, or 4-6-5), a separator, a digit script. */
const spelling = fc.record({
	separator: fc.constantFrom(...SEPARATORS),
	grouping: fc.constantFrom('fours', 'eights', 'amex', 'plain'),
	script: fc.constantFrom('ascii', 'fullwidth', 'arabic-indic'),
});

function write(digits: string, how: { separator: string; grouping: string; script: string }): string {
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
const surrounding = fc.string({ maxLength: 12 }).filter((text) => !/\p{Nd}/u.test(text));

/** All digits of a text in ASCII, whatever their script (independent of the node's code). */
function digitsOf(text: string): string {
	return [...text.normalize('NFKC')]
		.map((char) => {
			const code = char.codePointAt(0)!;
			if (code >= ARABIC_INDIC_ZERO && code <= ARABIC_INDIC_ZERO + 9) return String(code - ARABIC_INDIC_ZERO);
			return /[0-9]/.test(char) ? char : '';
		})
		.join('');
}

describe('card numbers in any spelling are masked', () => {
	it('in free text: at most the first 6 and last 4 digits survive (property, 2,000 runs)', () => {
		fc.assert(
			fc.property(pan, spelling, surrounding, surrounding, (digits, how, before, after) => {
				const masked = maskText(`${before}${write(digits, how)}${after}`);
				expect(digitsOf(masked)).not.toContain(digits);
				const shown = digitsOf(masked);
				expect(shown.length).toBeLessThanOrEqual(digits.length >= 16 ? 10 : 4);
			}),
			{ numRuns: 2000, seed: 13 },
		);
	});

	it.each([
		['glued to letters', 'ref4444555566661111x'],
		['glued to an underscore', 'pan_4444555566661111'],
		['separated by dots', '4444.5555.6666.1111'],
		['separated by slashes', '4444/5555/6666/1111'],
		['separated by NBSP', '4444\u00a05555\u00a06666\u00a01111'],
		['separated by double spaces', '4444  5555  6666  1111'],
		['grouped 8+8', '44445555 66661111'],
		['12 digits', 'card 444455556662 end'],
		['fullwidth digits', '４４４４５５５５６６６６１１１１'],
	])('%s', (_name, text) => {
		const masked = maskText(text);
		expect(digitsOf(masked)).not.toMatch(/4444555566661111|444455556662/);
	});

	it('keeps zero-padded serials, amounts, dates and short IDs', () => {
		for (const text of ['00000000-0000-0000-0000-000002d9b22a', '10.50', '2026-11-23T18:44:12Z', 'order 100001', '+1 206 555 0100']) {
			expect(maskText(text)).toBe(text);
		}
	});

	it('drops card verification codes under any name and masks card-number fields', () => {
		const masked = maskSensitive({ cvv2: '123', card_cvv: '123', 'security-code': '123', CVC: '123', csc: '123', cardVerificationValue: '123', sending_card_number: '4444555566661111', note: 'ok' });
		expect(masked).toEqual({ sending_card_number: '444455******1111', note: 'ok' });
	});
});
