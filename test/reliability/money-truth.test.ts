// Issue 22, campaign 10 (money truth: 3-D Secure and v4 under a hostile network, re-runs of the same
// order ID, n8n's Retry of a failed execution): a small fixed-seed slice of `npm run reliability`.
// Every invariant must have run (passed > 0) and hold.
import { moneyTruthCampaign } from '../../reliability/moneyTruth';
import type { CampaignResult } from '../support/campaign';
import { expectEveryInvariantRanAndHeld } from '../support/slices';
import { scaled } from '../support/time-scale';

const RUNS = 39; // three of each of the 13 scenarios

let result: CampaignResult;
beforeAll(async () => {
	result = await moneyTruthCampaign({ seed: 7, runs: RUNS, lanes: 6 });
}, scaled(120_000));
test(`money truth: ${RUNS} seeded cases, every invariant runs and holds against the sandbox ledger`, () => {
	expect(result.cases).toBe(RUNS);
	expectEveryInvariantRanAndHeld(result);
});
