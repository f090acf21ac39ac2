// Issue #13, campaign 6 (hostile network and mixed batches): a small fixed-seed slice of `npm run reliability`.
import { hostileCampaign } from '../../reliability/hostile';

test('hostile network: 60 seeded batches, every invariant holds against the sandbox ledger', async () => {
	const result = await hostileCampaign({ seed: 7, runs: 60, lanes: 6 });
	expect(result.cases).toBe(60);
	for (const invariant of result.invariants) {
		expect({ name: invariant.name, violated: invariant.violated, examples: invariant.examples }).toEqual({ name: invariant.name, violated: 0, examples: [] });
		// every invariant actually ran
		expect({ name: invariant.name, ran: invariant.passed > 0 }).toEqual({ name: invariant.name, ran: true });
	}
	expect(result.invariants.find((i) => i.name === 'money moved at most once per order ID')?.passed).toBeGreaterThanOrEqual(60);
}, 300_000);
