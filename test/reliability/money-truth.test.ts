// Issue 22, campaign 10 (money truth: 3-D Secure and v4 under a hostile network, re-runs of the same
// order ID, n8n's Retry of a failed execution): a small fixed-seed slice of `npm run reliability`.
// Every invariant must have run (passed > 0) and hold, except the finding reported below.
import { REPORTED, moneyTruthCampaign } from '../../reliability/moneyTruth';
import type { CampaignResult } from '../../reliability/support';

const RUNS = 39; // three of each of the 13 scenarios

let result: CampaignResult;
beforeAll(async () => {
	result = await moneyTruthCampaign({ seed: 7, runs: RUNS, lanes: 6 });
}, 120_000);

const invariant = (name: string) => result.invariants.find((candidate) => candidate.name === name)!;

test(`money truth: ${RUNS} seeded cases, every invariant runs and holds against the sandbox ledger`, () => {
	expect(result.cases).toBe(RUNS);
	for (const { name, passed, violated, examples } of result.invariants) {
		expect({ name, ran: passed > 0 }).toEqual({ name, ran: true });
		// The reported finding is counted apart: any other violation of its invariant still fails here.
		const allowed = name === REPORTED.invariant ? Number(result.figures[REPORTED.figure]) : 0;
		expect({ name, violated: violated - allowed, examples: allowed ? [] : examples }).toEqual({ name, violated: 0, examples: [] });
	}
});

// Reported, not fixed yet (see REPORTED in reliability/moneyTruth.ts and docs/reliability.md, campaign 10).
// When the node is fixed this test fails: make it a plain `test`.
test.failing(`REPORTED (issue 22): "${REPORTED.invariant}" — a re-run 3-D Secure upload on a sale an earlier upload completed, acknowledged by the gateway, says "Charged" (moneyEffect moved, amountCharged) again`, () => {
	const { violated, examples } = invariant(REPORTED.invariant);
	expect({ violated, examples }).toEqual({ violated: 0, examples: [] });
});
