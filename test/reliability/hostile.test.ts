// Issue #13, campaign 6 (hostile network and mixed batches): a small fixed-seed slice of `npm run reliability`.
import { hostileCampaign } from '../../reliability/hostile';
import { expectEveryInvariantRanAndHeld } from '../support/slices';
import { scaled } from '../support/time-scale';

test(
	'hostile network: 60 seeded batches, every invariant runs and holds against the sandbox ledger',
	async () => {
		const result = await hostileCampaign({ seed: 7, runs: 60, lanes: 6 });
		expect(result.cases).toBe(60);
		expectEveryInvariantRanAndHeld(result);
		expect(
			result.invariants.find((i) => i.name === 'money moved at most once per order ID')?.passed,
		).toBeGreaterThanOrEqual(60);
	},
	scaled(300_000),
);
