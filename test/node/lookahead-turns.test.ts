// When an answer asked ahead of an order's turn still holds in the turn (guard/oneAtATime.ts, issue 34):
// only when no step on that order was under way at the question and none queued on it since. Nothing
// here is timed: the turns are counted.
import { oneAtATime, quietMark } from '../../nodes/CardGateway/actions/common/guard/oneAtATime';

/** Runs a step under `key` with `mark` and says whether it was told that the key stayed quiet. */
const quietInTurn = (key: string, mark: ReturnType<typeof quietMark>) =>
	oneAtATime(key, async (quiet) => await Promise.resolve(quiet), mark);

describe('an answer asked ahead of its turn', () => {
	it('holds when nothing else queued on the order since', async () => {
		const mark = quietMark('order-a');
		expect(mark).toBeDefined();
		expect(await quietInTurn('order-a', mark)).toBe(true);
	});

	it('does not hold once another step queued on the order after the question, even one that has ended', async () => {
		const mark = quietMark('order-b');
		await oneAtATime('order-b', async () => await Promise.resolve());
		expect(await quietInTurn('order-b', mark)).toBe(false);
	});

	it('is not asked while a step on the order is under way', async () => {
		let finish = () => {};
		const held = new Promise<void>((resolve) => (finish = resolve));
		const running = oneAtATime('order-c', async () => await held);
		expect(quietMark('order-c')).toBeUndefined();
		finish();
		await running;
		expect(quietMark('order-c')).toBeDefined();
	});

	it('holds across steps on other orders, and a mark of one order says nothing of another', async () => {
		const mark = quietMark('order-d');
		await oneAtATime('order-e', async () => await Promise.resolve());
		expect(await quietInTurn('order-f', mark)).toBe(false);
		expect(await quietInTurn('order-d', mark)).toBe(true);
	});

	it('counts as outdated once more orders queued than are remembered (the order asks again)', async () => {
		const mark = quietMark('order-g');
		for (let i = 0; i <= 10_000; i++) await oneAtATime(`other-${i}`, async () => await Promise.resolve());
		expect(await quietInTurn('order-g', mark)).toBe(false);
	});

	it('without a mark the step asks in its turn', async () => {
		expect(await quietInTurn('order-h', undefined)).toBe(false);
		expect(await oneAtATime(undefined, async (quiet) => await Promise.resolve(quiet))).toBe(false);
	});
});
