// "Act Once per Key": before an item moves money, the node claims its key (e.g. a callback's
// orderid:status:type) in the claims table, atomically across every n8n process; a key already
// claimed sends nothing. A claim whose operation moved nothing is given back, so that the gateway's
// next delivery of the same callback may try again.
//
// The table holds no unique index for our keys, so "insert if absent" alone is not atomic. It is made
// atomic under one lock row: taking the lock is an update filtered on "holder = ''" (or "lease
// expired"), a compare-and-set in n8n's PostgreSQL and SQLite alike (claimStore.ts). The lock is held
// only for "is the key there? if not, add it": two requests, never while money moves.
import { randomUUID } from 'node:crypto';

import { NodeOperationError, sleep, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import {
	MONEY_EFFECT_WORDS,
	MONEY_EFFECTS,
	moneyEffectOf,
	withMoneyEffect,
	type MoneyEffect,
} from '../../../../shared/moneyEffect';
import { claimsTable, type ClaimRow, type ClaimsTable, type Filter } from './claimStore';

export const LOCK_KEY = '#lock';
/** How long a lock is held at most: a holder that died is replaced after this. */
export const LEASE_MS = 30_000;
/** How long an item waits for the lock before it stops (nothing sent): past a dead holder's lease. */
const WAIT_FOR_LOCK_MS = 60_000;
/** The lock must be left with at least this much lease before the key is written. */
const LEASE_MARGIN_MS = 10_000;

export type Claim =
	| { kind: 'claimed'; key: string; settle(effect: MoneyEffect): Promise<void> }
	| { kind: 'taken'; key: string; by: ClaimRow };

/** Claims `key` for this item, or says who holds it. Throws (nothing sent) when the table cannot be used. */
export async function claimKey(ctx: IExecuteFunctions, itemIndex: number, key: string): Promise<Claim> {
	const failed = (reason: string) =>
		withMoneyEffect(
			new NodeOperationError(ctx.getNode(), `Could not claim the key "${key}" (Act Once per Key): nothing was sent`, {
				itemIndex,
				description: `${reason}. The item was stopped before the gateway was called; a later delivery (or a retry) will claim it again.`,
			}),
			'notSent',
		);
	let table: ClaimsTable;
	try {
		table = await claimsTable(ctx, itemIndex);
	} catch (error) {
		if (error instanceof NodeOperationError) throw withMoneyEffect(error, 'notSent');
		throw failed(`The claims table could not be reached: ${(error as Error).message}`);
	}
	try {
		return await claimIn(table, key, ctx.getExecutionId() ?? '');
	} catch (error) {
		if (error instanceof ClaimBusy) throw failed(error.message);
		// n8n's API errors keep the server's words in their description.
		const { message, description } = error as Error & { description?: string };
		throw failed(`The claims table answered with an error: ${description || message}`);
	}
}

/** The lock stayed taken for as long as an item waits for it. */
export class ClaimBusy extends Error {}

/** Claims `key` in `table` for `execution` (claimKey's work, on any table). */
export async function claimIn(
	table: ClaimsTable,
	key: string,
	execution: string,
	waitForLockMs = WAIT_FOR_LOCK_MS,
): Promise<Claim> {
	const holder = randomUUID();
	const claimedBefore = async () => (await table.find([eq('key', key)]))[0];
	const outcome = await underLock<ClaimRow | 'inserted'>(
		table,
		holder,
		waitForLockMs,
		async (leaseEnd) => {
			const existing = await claimedBefore();
			if (existing) return existing;
			if (Date.now() > leaseEnd - LEASE_MARGIN_MS) return undefined;
			await table.insert({ key, holder, state: 'claimed', execution, claimedAt: new Date().toISOString() });
			return 'inserted';
		},
		claimedBefore,
	);
	if (!outcome) throw new ClaimBusy(`The claims table stayed busy for ${waitForLockMs / 1000} s`);
	if (outcome !== 'inserted') return { kind: 'taken', key, by: outcome };
	return {
		kind: 'claimed',
		key,
		async settle(effect) {
			const mine: Filter = [eq('key', key), eq('holder', holder)];
			// Nothing moved: give the key back, so that the next delivery may try again.
			if (effect === 'notSent' || effect === 'noMoneyMoved') await table.remove(mine);
			else await table.update(mine, { state: effect });
		},
	};
}

/**
 * Runs what sends the item under its claim, then records what it did to the money: kept when money
 * moved or may have, given back when nothing moved. A claim that could not be recorded stays
 * "claimed", which later deliveries treat as "outcome unknown" and never send again.
 */
export async function settlingClaim(
	claim: Extract<Claim, { kind: 'claimed' }>,
	send: () => Promise<IDataObject>,
): Promise<IDataObject> {
	const output = await send().catch(async (error: Error) => {
		await claim.settle(moneyEffectOf(error) ?? 'mayHaveMoved').catch(() => undefined);
		throw error;
	});
	const effect = (MONEY_EFFECTS as readonly unknown[]).includes(output.moneyEffect)
		? (output.moneyEffect as MoneyEffect)
		: 'mayHaveMoved';
	const recorded = await claim.settle(effect).then(
		() => undefined,
		(error: Error) =>
			`the claim could not be updated (${error.message}); it stays claimed, so no later delivery sends again`,
	);
	return { ...output, claimKey: claim.key, ...(recorded ? { claimWarning: recorded } : {}) };
}

/** What an item whose key was claimed before says: nothing was sent. */
export function alreadyClaimedOutput(claim: Extract<Claim, { kind: 'taken' }>): IDataObject {
	const { execution, claimedAt, state } = claim.by;
	const when = claimedAt ? ` at ${claimedAt}` : '';
	const by = execution ? ` by execution ${execution}` : '';
	// A claim still "claimed" was never settled: that execution stopped while its request may have been out.
	const earlier =
		state && state !== 'claimed'
			? ` (its outcome: ${MONEY_EFFECT_WORDS[state as MoneyEffect] ?? state})`
			: ' (that execution did not record an outcome: check the order at the gateway)';
	return {
		alreadyClaimed: true,
		claimKey: claim.key,
		claimedBy: { execution: execution ?? '', claimedAt: claimedAt ?? '', state: state ?? '' },
		moneyEffect: 'notSent',
		outcome: `The key "${claim.key}" was claimed before${by}${when}${earlier}: this item sent nothing`,
	};
}

/**
 * Runs `body` while this holder owns every lock row; undefined when the lock stayed busy.
 * Lock rows may be duplicated (two processes creating the first one at once): the holder must own
 * them all, so two holders can never both pass.
 */
async function underLock<T>(
	table: ClaimsTable,
	holder: string,
	waitForLockMs: number,
	body: (leaseEnd: number) => Promise<T | undefined>,
	whileWaiting: () => Promise<T | undefined>,
): Promise<T | undefined> {
	const giveUp = Date.now() + waitForLockMs;
	let stale = false;
	for (let attempt = 0; Date.now() < giveUp; attempt++) {
		if (attempt) await sleep(backoff(attempt));
		// Replays of one callback all wait here: once the first has claimed the key, the rest are done.
		const settled = await whileWaiting();
		if (settled !== undefined) return settled;
		const leaseEnd = Date.now() + LEASE_MS;
		const take = { holder, until: leaseEnd };
		await table.update([eq('key', LOCK_KEY), eq('holder', '')], take);
		// A holder that died leaves its lock behind: taken over once its lease ran out.
		if (stale)
			await table.update([eq('key', LOCK_KEY), { columnName: 'until', condition: 'lt', value: Date.now() }], take);
		const locks = await table.find([eq('key', LOCK_KEY)]);
		if (!locks.length) {
			await table.insert({ key: LOCK_KEY, holder: '', until: 0 });
			continue;
		}
		const mine = locks.filter((lock) => lock.holder === holder).length;
		if (mine === locks.length) {
			try {
				return await body(leaseEnd);
			} finally {
				// A lock that could not be given back expires with its lease; what the body did stands.
				await release(table, holder).catch(() => undefined);
			}
		}
		if (mine) await release(table, holder);
		stale = locks.some((lock) => lock.holder !== holder && Number(lock.until) < Date.now());
	}
	return undefined;
}

async function release(table: ClaimsTable, holder: string): Promise<void> {
	await table.update([eq('key', LOCK_KEY), eq('holder', holder)], { holder: '', until: 0 });
}

/**
 * 20–100 ms, doubling up to 0.2–1 s: claimers of one n8n share its API (in a single n8n, also its
 * event loop with the executions themselves), so a crowd of them must not keep it busy.
 */
function backoff(attempt: number): number {
	const ceiling = Math.min(1000, 100 * 2 ** Math.min(attempt - 1, 4));
	return ceiling / 5 + Math.random() * (ceiling * 0.8);
}

function eq(columnName: keyof ClaimRow, value: string): Filter[number] {
	return { columnName, condition: 'eq', value };
}
