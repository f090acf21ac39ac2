/**
 * What one run of a node reuses across its items, keyed by the run's own context object (the
 * `execute()` / `webhook()` `this`): it lives exactly as long as that call, and nothing is shared
 * between executions, credentials or queue-mode jobs.
 */
const runs = new WeakMap<object, Map<string, unknown>>();

/** The run's value under `slot`, made on first use; a `make` that throws stores nothing (the next item tries again). */
export function perRun<T>(ctx: object, slot: string, make: () => T): T {
	let slots = runs.get(ctx);
	if (!slots) runs.set(ctx, (slots = new Map()));
	if (!slots.has(slot)) slots.set(slot, make());
	return slots.get(slot) as T;
}
