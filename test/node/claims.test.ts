// The claim protocol of "Act Once per Key" (claims.ts) on a table that behaves as n8n's Data Tables
// do under concurrency: each call is one statement, applied whole (an update filtered on
// "holder = ''" is a compare-and-set, claimStore.ts says why), and calls from concurrent claimers
// interleave at random. Against a real n8n (SQLite, and PostgreSQL in queue mode):
// test/e2e/callback-once.e2e.test.ts.
import {
	alreadyClaimedOutput,
	claimIn,
	ClaimBusy,
	LEASE_MS,
	LOCK_KEY,
	settlingClaim,
} from '../../nodes/CardGateway/actions/common/guard/claims';
import type { ClaimRow, ClaimsTable, Filter } from '../../nodes/CardGateway/actions/common/guard/claimStore';

const pause = () => new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
// Budgets bound a hang only, scaled for a loaded machine (test/support/time-scale.js).
const { scaled } = require('../support/time-scale') as typeof import('../support/time-scale');

function matches(row: ClaimRow, filter: Filter): boolean {
	return filter.every(({ columnName, condition, value }) => {
		const cell = row[columnName];
		if (condition === 'lt') return typeof cell === 'number' && cell < Number(value);
		return cell === value;
	});
}

/** Rows in memory; every call waits a random moment before and after its single atomic step. */
class RacingTable implements ClaimsTable {
	rows: ClaimRow[] = [];
	calls = 0;
	private nextId = 1;
	failing = false;

	private async step<T>(apply: () => T): Promise<T> {
		await pause();
		this.calls++;
		if (this.failing) throw new Error('HTTP 503');
		const result = apply();
		await pause();
		return result;
	}
	async find(filter: Filter) {
		return await this.step(() => this.rows.filter((row) => matches(row, filter)).map((row) => ({ ...row })));
	}
	async insert(row: Omit<ClaimRow, 'id'>) {
		await this.step(() => void this.rows.push({ ...row, id: this.nextId++ }));
	}
	async update(filter: Filter, data: Partial<ClaimRow>) {
		await this.step(() => this.rows.filter((row) => matches(row, filter)).forEach((row) => Object.assign(row, data)));
	}
	async remove(filter: Filter) {
		await this.step(() => void (this.rows = this.rows.filter((row) => !matches(row, filter))));
	}
	keyRows(key: string) {
		return this.rows.filter((row) => row.key === key);
	}
}

async function race(table: ClaimsTable, key: string, claimers: number) {
	const claims = await Promise.all(
		Array.from({ length: claimers }, (_, index) => claimIn(table, key, `exec-${index}`)),
	);
	return { claimed: claims.filter((c) => c.kind === 'claimed'), taken: claims.filter((c) => c.kind === 'taken') };
}

describe('Act Once per Key: the claim protocol', () => {
	test(
		'30 claimers of one key on an empty table (no lock row yet): exactly one claims it, 20 rounds',
		async () => {
			for (let round = 0; round < 20; round++) {
				const table = new RacingTable();
				const { claimed, taken } = await race(table, `order-${round}:approved:sale`, 30);
				expect([claimed.length, taken.length]).toEqual([1, 29]);
				expect(table.keyRows(`order-${round}:approved:sale`)).toHaveLength(1);
				// The lock is given back: nobody holds it afterwards.
				expect(table.keyRows(LOCK_KEY).every((lock) => !lock.holder)).toBe(true);
			}
		},
		scaled(120_000),
	);
	test(
		'several keys at once: each is claimed once, none blocks another for good',
		async () => {
			const table = new RacingTable();
			const keys = Array.from({ length: 8 }, (_, index) => `order-${index}:approved:sale`);
			const results = await Promise.all(keys.map((key) => race(table, key, 6)));
			expect(results.map((result) => result.claimed.length)).toEqual(keys.map(() => 1));
		},
		scaled(120_000),
	);
	test(
		'duplicated lock rows (two processes created the first one at once): still exactly one',
		async () => {
			for (let round = 0; round < 10; round++) {
				const table = new RacingTable();
				table.rows.push(
					{ id: 900, key: LOCK_KEY, holder: '', until: 0 },
					{ id: 901, key: LOCK_KEY, holder: '', until: 0 },
					{ id: 902, key: LOCK_KEY, holder: '', until: 0 },
				);
				const { claimed } = await race(table, 'dup:approved:sale', 20);
				expect(claimed).toHaveLength(1);
			}
		},
		scaled(120_000),
	);
	test('a lock left by a holder that died is taken over once its lease ran out', async () => {
		const table = new RacingTable();
		table.rows.push({ id: 1, key: LOCK_KEY, holder: 'dead-process', until: Date.now() - 1 });
		const claim = await claimIn(table, 'k:approved:sale', 'exec-1');
		expect(claim.kind).toBe('claimed');
	});

	test('a lock held within its lease makes the item stop, with nothing claimed', async () => {
		const table = new RacingTable();
		table.rows.push({ id: 1, key: LOCK_KEY, holder: 'busy-process', until: Date.now() + LEASE_MS });
		await expect(claimIn(table, 'k:approved:sale', 'exec-1', 300)).rejects.toBeInstanceOf(ClaimBusy);
		expect(table.keyRows('k:approved:sale')).toHaveLength(0);
	});

	test('a table that answers with errors throws, with nothing claimed', async () => {
		const table = new RacingTable();
		table.failing = true;
		await expect(claimIn(table, 'k:approved:sale', 'exec-1')).rejects.toThrow('HTTP 503');
	});

	test('what moved nothing gives the key back; what moved keeps it, with its outcome', async () => {
		const table = new RacingTable();
		const first = await claimIn(table, 'k:approved:sale', 'exec-1');
		if (first.kind !== 'claimed') throw new Error('not claimed');
		const declined = await settlingClaim(first, async () => ({ moneyEffect: 'noMoneyMoved' }));
		expect(declined).toMatchObject({ claimKey: 'k:approved:sale' });
		expect(table.keyRows('k:approved:sale')).toHaveLength(0);

		const second = await claimIn(table, 'k:approved:sale', 'exec-2');
		if (second.kind !== 'claimed') throw new Error('not claimed again');
		await settlingClaim(second, async () => ({ moneyEffect: 'moved' }));
		const third = await claimIn(table, 'k:approved:sale', 'exec-3');
		expect(third).toMatchObject({ kind: 'taken', by: { execution: 'exec-2', state: 'moved' } });
		if (third.kind !== 'taken') throw new Error('not taken');
		expect(alreadyClaimedOutput(third)).toMatchObject({
			alreadyClaimed: true,
			moneyEffect: 'notSent',
			outcome: expect.stringMatching(
				/claimed before by execution exec-2 .*\(its outcome: money moved\): this item sent nothing/,
			),
		});
	});

	test('an error whose money MAY have moved keeps the claim; an error that sent nothing gives it back', async () => {
		const table = new RacingTable();
		const lost = await claimIn(table, 'lost', 'exec-1');
		if (lost.kind !== 'claimed') throw new Error('not claimed');
		const lostReply = Object.assign(new Error('no reply'), { context: { moneyEffect: 'mayHaveMoved' } });
		await expect(settlingClaim(lost, async () => Promise.reject(lostReply))).rejects.toBe(lostReply);
		expect(table.keyRows('lost')[0]).toMatchObject({ state: 'mayHaveMoved' });

		const refused = await claimIn(table, 'refused', 'exec-1');
		if (refused.kind !== 'claimed') throw new Error('not claimed');
		const notSent = Object.assign(new Error('bad input'), { context: { moneyEffect: 'notSent' } });
		await expect(settlingClaim(refused, async () => Promise.reject(notSent))).rejects.toBe(notSent);
		expect(table.keyRows('refused')).toHaveLength(0);
	});

	test('a claim never settled (its execution died) is reported as "outcome unknown", never sent again', async () => {
		const table = new RacingTable();
		await claimIn(table, 'k', 'exec-dead');
		const again = await claimIn(table, 'k', 'exec-2');
		if (again.kind !== 'taken') throw new Error('not taken');
		expect(alreadyClaimedOutput(again).outcome).toMatch(/did not record an outcome: check the order at the gateway/);
	});
});
