// Issue #7, campaign 1 (faults on money movement): a small fixed-seed slice of `npm run reliability`.
import { faultCampaign } from '../../reliability/faults';

test('faults on money movement: 60 seeded runs, every invariant holds against the sandbox ledger', async () => {
	const result = await faultCampaign({ seed: 7, runs: 60, lanes: 6 });
	expect(result.cases).toBe(60);
	for (const invariant of result.invariants) {
		expect({ name: invariant.name, violated: invariant.violated, examples: invariant.examples }).toEqual({ name: invariant.name, violated: 0, examples: [] });
		// every invariant actually ran
		expect({ name: invariant.name, ran: invariant.passed > 0 }).toEqual({ name: invariant.name, ran: true });
	}
	const moneyChecks = result.invariants.find((i) => i.name === 'moved money at most once');
	expect(moneyChecks?.passed).toBe(60);
	expect(Number(result.figures['callback deliveries'])).toBeGreaterThan(0);
}, 120_000);
