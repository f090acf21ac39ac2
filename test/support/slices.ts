// What every campaign slice of test/reliability/ asserts about its campaign's result.
import type { CampaignResult } from './campaign';

/** Every invariant of the campaign ran (passed > 0) and held (violated 0, no example). */
export function expectEveryInvariantRanAndHeld(result: CampaignResult): void {
	expect(result.invariants.length).toBeGreaterThan(0);
	for (const { name, passed, violated, examples } of result.invariants) {
		expect({ name, violated, examples }).toEqual({ name, violated: 0, examples: [] });
		expect({ name, ran: passed > 0 }).toEqual({ name, ran: true });
	}
}
