// Campaign 8 — card numbers in every spelling (issue #13): a property test over Luhn-valid 12–19 digit
// numbers written with separators, groupings, glued to letters or in other scripts' digits, inside
// any text, through the masking every output, error and trigger item passes through.
import fc from 'fast-check';

import { maskSensitive, maskText } from '../nodes/shared/protocol/masking';

import { Tally, type CampaignResult } from '../test/support/campaign';
import { digitsOf, pan, spelling, surrounding, write } from '../test/support/card-numbers';

const CVV_NAMES = [
	'cvv2',
	'cvv',
	'card_cvv',
	'cvc',
	'CVC2',
	'security-code',
	'securityCode',
	'csc',
	'card_verification_value',
	'cardCode',
];

export function maskingCampaign({ seed, runs }: { seed: number; runs: number }): CampaignResult {
	const started = Date.now();
	const tally = new Tally([
		'no card number survives in free text',
		'no card number survives in a card-number field',
		'no CVV survives under any name',
	]);
	fc.assert(
		fc.property(
			pan,
			spelling,
			surrounding,
			surrounding,
			fc.constantFrom(...CVV_NAMES),
			(digits, how, before, after, cvvName) => {
				const written = write(digits, how);
				const text = maskText(`${before}${written}${after}`);
				tally.check(
					'no card number survives in free text',
					!digitsOf(text).includes(digits),
					() => `${JSON.stringify(written)} → ${JSON.stringify(text)}`,
				);
				const masked = maskSensitive({ credit_card_number: written, [cvvName]: '737' }) as Record<string, unknown>;
				const record = JSON.stringify(masked);
				tally.check(
					'no card number survives in a card-number field',
					!digitsOf(record).includes(digits),
					() => `${JSON.stringify(written)} → ${record}`,
				);
				// The field is dropped (its value could also be digits of the masked card number's last four).
				tally.check('no CVV survives under any name', !(cvvName in masked), () => `${cvvName}: ${record}`);
				return true;
			},
		),
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
