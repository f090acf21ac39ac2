/**
 * One money step per order at a time in this n8n process: two executions at once (Execute clicked
 * twice, a webhook delivered twice) that act on the same order take turns, so that the second asks the
 * gateway about the order only once the first is done with it, and finds what the first did. A fence,
 * not a timer: a turn ends when its step has ended, whatever it took. Across n8n processes (queue-mode
 * workers) it does not reach: there Act Once per Key fences (docs/safe-retries.md).
 */
const turns = new Map<string, Promise<unknown>>();

/**
 * When each key last had a step queued, numbered in queueing order, so that an answer read outside a
 * turn (a status query asked ahead) can be told apart from one that a later step may have outdated.
 * Bounded: the oldest keys are forgotten, and a key forgotten counts as queued when the last forgotten
 * one was, which can only make an answer count as outdated (then it is asked again in the turn).
 */
const REMEMBERED_KEYS = 10_000;
const lastQueued = new Map<string, number>();
let queuedSoFar = 0;
let forgottenUpTo = 0;

/** A moment on a key with no step under way or waiting: what the gateway answers after it is as good as in a turn. */
export interface QuietMark {
	key: string;
	at: number;
}

/** Taken just before reading the gateway outside a turn; undefined while a step on the key is under way or waiting. */
export function quietMark(key: string | undefined): QuietMark | undefined {
	if (key === undefined || turns.has(key)) return undefined;
	return { key, at: queuedSoFar };
}

/**
 * Runs `step` once every earlier step under `key` has ended (whether it succeeded or failed). With a
 * `mark` on the same key, `step` learns whether no other step queued on the key since the mark: an
 * answer read after the mark then still holds in this turn.
 */
export async function oneAtATime<T>(
	key: string | undefined,
	step: (quietSinceMark: boolean) => Promise<T>,
	mark?: QuietMark,
): Promise<T> {
	if (key === undefined) return await step(false);
	const quiet = mark?.key === key && (lastQueued.get(key) ?? forgottenUpTo) <= mark.at;
	remember(key);
	const run = () => step(quiet);
	const earlier = turns.get(key) ?? Promise.resolve();
	const mine = earlier.then(run, run);
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

function remember(key: string): void {
	lastQueued.delete(key);
	lastQueued.set(key, ++queuedSoFar);
	if (lastQueued.size <= REMEMBERED_KEYS) return;
	// A Map iterates in insertion order: the first key is the one queued longest ago.
	const [oldest, at] = lastQueued.entries().next().value as [string, number];
	lastQueued.delete(oldest);
	forgottenUpTo = at;
}
