// Issue #7, campaign 3 (bad input): a small fixed-seed slice of `npm run reliability`.
import { badInputCampaign, operationShapes } from '../../reliability/badInput';
import { expectEveryInvariantRanAndHeld } from '../support/slices';
import { scaled } from '../support/time-scale';

test(
	'bad input: 150 fast-check cases (seed 7) over every operation; each refused by name, nothing sent',
	async () => {
		expect(operationShapes().length).toBeGreaterThanOrEqual(30);
		const result = await badInputCampaign({ seed: 7, runs: 150 });
		expect(result.cases).toBeGreaterThanOrEqual(165);
		expectEveryInvariantRanAndHeld(result);
	},
	scaled(120_000),
);
