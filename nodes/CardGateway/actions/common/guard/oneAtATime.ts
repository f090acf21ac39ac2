/**
 * One money step per order at a time in this n8n process: two executions at once (Execute clicked
 * twice, a webhook delivered twice) that act on the same order take turns, so that the second asks the
 * gateway about the order only once the first is done with it, and finds what the first did. A fence,
 * not a timer: a turn ends when its step has ended, whatever it took. Across n8n processes (queue-mode
 * workers) it does not reach: there Act Once per Key fences (docs/safe-retries.md).
 */
const turns = new Map<string, Promise<unknown>>();

/** Runs `step` once every earlier step under `key` has ended (whether it succeeded or failed). */
export async function oneAtATime<T>(key: string | undefined, step: () => Promise<T>): Promise<T> {
	if (key === undefined) return await step();
	const earlier = turns.get(key) ?? Promise.resolve();
	const mine = earlier.then(step, step);
	const ended = mine.then(
		() => undefined,
		() => undefined,
	);
	turns.set(key, ended);
	try {
		return await mine;
	} finally {
		// The last in line clears the key; a later one that queued meanwhile has replaced it.
		if (turns.get(key) === ended) turns.delete(key);
	}
}
