// Card numbers in every spelling (issue #13, item 9): a property test over Luhn-valid 12–19 digit
// numbers written with separators, groupings, glued to letters or in other scripts' digits.
import fc from 'fast-check';

import { maskSensitive, maskText } from '../../nodes/shared/protocol/masking';
import { digitsOf, pan, spelling, surrounding, write } from '../support/card-numbers';

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
		for (const text of [
			'00000000-0000-0000-0000-000002d9b22a',
			'10.50',
			'2026-11-23T18:44:12Z',
			'order 100001',
			'+1 206 555 0100',
		]) {
			expect(maskText(text)).toBe(text);
		}
	});

	it('drops card verification codes under any name and masks card-number fields', () => {
		const masked = maskSensitive({
			cvv2: '123',
			card_cvv: '123',
			'security-code': '123',
			CVC: '123',
			csc: '123',
			cardVerificationValue: '123',
			sending_card_number: '4444555566661111',
			note: 'ok',
		});
		expect(masked).toEqual({ sending_card_number: '444455******1111', note: 'ok' });
	});
});
