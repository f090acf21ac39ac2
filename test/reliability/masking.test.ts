// Issue #13, campaign 8 (card numbers in every spelling, CVVs under every name): a small fixed-seed
// slice of `npm run reliability`. test/protocol/masking.test.ts holds the same property at 2,000 runs.
import { maskingCampaign } from '../../reliability/masking';
import { expectEveryInvariantRanAndHeld } from '../support/slices';

test('card numbers in every spelling: 300 fast-check cases (seed 7), none survives the masking', () => {
	const result = maskingCampaign({ seed: 7, runs: 300 });
	expect(result.cases).toBe(300);
	expectEveryInvariantRanAndHeld(result);
});
