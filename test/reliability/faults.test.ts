// Issue #7, campaign 1 (faults on money movement): a small fixed-seed slice of `npm run reliability`.
import { faultCampaign } from '../../reliability/faults';
import { expectEveryInvariantRanAndHeld } from '../support/slices';
import { scaled } from '../support/time-scale';

test(
	'faults on money movement: 60 seeded runs, every invariant runs and holds against the sandbox ledger',
	async () => {
		const result = await faultCampaign({ seed: 7, runs: 60, lanes: 6 });
		expect(result.cases).toBe(60);
		expectEveryInvariantRanAndHeld(result);
		const moneyChecks = result.invariants.find((i) => i.name === 'moved money at most once');
		expect(moneyChecks?.passed).toBe(60);
		expect(Number(result.figures['callback deliveries'])).toBeGreaterThan(0);
	},
	scaled(120_000),
);
