// Card numbers written every way a person or a system might (issue #13): Luhn-valid numbers, the
// spellings they come in (separators, groupings, other scripts' digits), and their digits read back
// independently of the node's code. fast-check arbitraries for the masking property test
// (test/protocol/masking.test.ts) and campaign 8; fixed spellings for campaigns 5 and 7.
import fc from 'fast-check';

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
	.tuple(
		fc.integer({ min: 12, max: 19 }),
		fc.integer({ min: 1, max: 9 }),
		fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 18, maxLength: 18 }),
	)
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
	const sizes =
		how.grouping === 'fours'
			? [4, 4, 4, 4, 4]
			: how.grouping === 'eights'
				? [8, 8, 8]
				: how.grouping === 'amex'
					? [4, 6, 5, 4]
					: [19];
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

/** A test card number (4444 5555 6666 1111) in fixed spellings: separated, glued to text, fullwidth. */
export const PAN_SPELLINGS = [
	'4444-5555-6666-1111',
	'ref4444555566661111x',
	'pan_4444555566661111',
	'4444.5555.6666.1111',
	'4444/5555/6666/1111',
	'4444\u00a05555\u00a06666\u00a01111',
	'4444  5555  6666  1111',
	'44445555 66661111',
	'４４４４５５５５６６６６１１１１',
];
