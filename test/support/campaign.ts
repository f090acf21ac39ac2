// Shared pieces of the reliability campaigns (reliability/, issue #7) and their slices
// (test/reliability/): a seeded random generator, a small concurrency pool, percentiles, and the
// result shape every campaign returns for the report.

/** One invariant of a campaign and how often it held. */
export interface InvariantCount {
	name: string;
	passed: number;
	violated: number;
	/** Up to a few violating cases, for diagnosis (never card data). */
	examples: string[];
}

export interface CampaignResult {
	id: string;
	title: string;
	seed: number;
	cases: number;
	injected: string;
	invariants: InvariantCount[];
	/** Extra figures (rates, latencies, breakdowns) in the report. */
	figures: Record<string, string | number>;
	wallMs: number;
	/** Everything the campaign produced that must hold no card data (node outputs, errors). */
	outputs: string[];
}

export class Tally {
	private readonly counts = new Map<string, InvariantCount>();

	constructor(names: string[]) {
		for (const name of names) this.counts.set(name, { name, passed: 0, violated: 0, examples: [] });
	}

	check(name: string, ok: boolean, detail: () => string): boolean {
		const count = this.counts.get(name);
		if (!count) throw new Error(`unknown invariant ${name}`);
		if (ok) count.passed++;
		else {
			count.violated++;
			if (count.examples.length < 5) count.examples.push(detail());
		}
		return ok;
	}

	list(): InvariantCount[] {
		return [...this.counts.values()];
	}
}

/** mulberry32: small, fast, good enough for picking test cases; fixed seed → fixed cases. */
export class Random {
	private state: number;

	constructor(seed: number) {
		this.state = seed >>> 0;
	}

	next(): number {
		this.state = (this.state + 0x6d2b79f5) >>> 0;
		let t = this.state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}

	int(min: number, max: number): number {
		return min + Math.floor(this.next() * (max - min + 1));
	}

	pick<T>(values: readonly T[]): T {
		return values[Math.floor(this.next() * values.length)];
	}

	chance(p: number): boolean {
		return this.next() < p;
	}
}

/** Runs `tasks` with at most `width` in flight; results keep the tasks' order. */
export async function pool<T>(
	width: number,
	count: number,
	task: (index: number, lane: number) => Promise<T>,
): Promise<T[]> {
	const results: T[] = new Array(count);
	let next = 0;
	await Promise.all(
		Array.from({ length: Math.min(width, count) }, async (_, lane) => {
			while (next < count) {
				const index = next++;
				results[index] = await task(index, lane);
			}
		}),
	);
	return results;
}

export function percentile(sorted: number[], p: number): number {
	if (!sorted.length) return NaN;
	const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
	return sorted[rank];
}

/** "p50 / p95 / p99 / max" of latencies in ms, for a campaign's figures. */
export function latencySummary(latencies: number[], digits: number): string {
	const sorted = [...latencies].sort((a, b) => a - b);
	const ms = (value: number) => `${value.toFixed(digits)} ms`;
	return [50, 95, 99]
		.map((p) => ms(percentile(sorted, p)))
		.concat(ms(sorted[sorted.length - 1] ?? NaN))
		.join(' / ');
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `done()` is true (or the time is up); returns its last value. */
export async function until(done: () => Promise<boolean>, timeoutMs: number, stepMs = 100): Promise<boolean> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (await done()) return true;
		if (Date.now() > deadline) return false;
		await sleep(stepMs);
	}
}

/** Test secrets and card data that must never appear at rest or in outputs. */
export const TEST_PANS = ['4444555566661111', '5555555555554444', '4111111111111111'];
export const CONTROL_KEY = 'TEST-ONLY-CONTROL-KEY-5f0c9a1e';
export const OTHER_CONTROL_KEY = 'TEST-ONLY-OTHER-KEY-77ad3c20';

/**
 * What the Card Gateway node produced in a run, as n8n stores it: its run data (items, error items,
 * its error) and the run's error. Left out: the test's Start node (it carries the test's own input,
 * bad card numbers included) and the engine's execution stack, which holds the workflow's node
 * parameters (the fixtures type card data into them literally; a real workflow gets it through an
 * expression, see README "Keeping card data out of n8n").
 */
export function nodeOutput(run: { serialised: string }, nodeName = 'Card Gateway'): string {
	const parsed = JSON.parse(run.serialised) as {
		data?: { resultData?: { runData?: Record<string, unknown>; error?: unknown } };
	};
	const result = parsed.data?.resultData;
	return JSON.stringify({ output: result?.runData?.[nodeName] ?? null, error: result?.error ?? null });
}
