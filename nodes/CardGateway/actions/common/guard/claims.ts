// "Act Once per Key": before an item moves money, the node claims its key (e.g. a callback's event
// key) in the claims table, atomically across every n8n process; a key claimed before sends nothing.
// A claim whose operation moved nothing is given back, so that the gateway's next delivery may try again.
//
// The claim is one compare-and-set on rows, with no lease and no clock (docs/trigger.md, "Why it is
// atomic", has the argument): each claimer adds a row of its own for the key, takes every free row
// of the key in one filtered update (owner '' → me), then reads the key's rows, and has won only when
// every one of them is its own. A winner's rows stay its own; a loser deletes the rows it holds and
// tries again later. Every row carries a seal (claimSeal.ts): a row the node did not write stops the item.
import { createHash, randomUUID } from 'node:crypto';

import { NodeOperationError, sleep, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import {
	MONEY_EFFECT_WORDS,
	MONEY_EFFECTS,
	moneyEffectOf,
	withMoneyEffect,
	type MoneyEffect,
} from '../../../../shared/moneyEffect';
import { replyRecord } from '../../../../shared/protocol/reply';
import { merchantCredentials } from '../../../../shared/transport';

import type { StatusKnowledge } from '../core/delivery';
import { sealerFor, type SealedFields, type Sealer } from './claimSeal';
import { ClaimsTableGone, claimsTable, type ClaimRow, type ClaimsTable, type Filter } from './claimStore';

/**
 * A row's state: `open` (added, nobody's yet), `taking` (held by a claimer that has not won yet),
 * `claimed` (won, its request may be on its way), or the money effect it was settled with.
 */
type RowState = 'open' | 'taking' | 'claimed' | MoneyEffect;

/** How many rounds an item tries before it stops (nothing sent): liveness only, safety needs none. */
const ATTEMPTS = 60;
/** Rounds a contender may hold rows before the item asks n8n whether its execution still runs. */
const PATIENCE = 5;

/** The gateway's order around a claim: decides a claim whose execution ended without an outcome. */
export interface OrderWatch {
	/** The order before this item sends (item.ts's `before`), recorded on the claim. */
	before: StatusKnowledge | undefined;
	/** The order as the gateway reports it now. */
	now: () => Promise<StatusKnowledge | undefined>;
}

/** Why a key claimed before sent nothing, from verified rows only. */
export type ClaimedBefore = {
	execution: string;
	claimedAt: string;
	/** settled: its outcome recorded; changed: it never recorded an outcome and the order changed since
	 * it claimed; unresolved: none of these can be told. */
	status: 'settled' | 'changed' | 'unresolved';
	outcome?: MoneyEffect;
};

export type Claim =
	| { kind: 'claimed'; key: string; settle(effect: MoneyEffect): Promise<void> }
	| { kind: 'taken'; key: string; by: ClaimedBefore };

/** The key's rows hold one the node did not write (or that was changed since). */
export class ClaimForged extends Error {}

/** A claim left unsettled waits for the gateway to say whether the order changed since. */
export class ClaimUndecided extends Error {}

/** The key stayed contended, or held by an execution n8n reports running, for every round. */
export class ClaimBusy extends Error {}

/** Claims `key` for this item, or says who holds it. Throws (nothing sent) when the table cannot be used. */
export async function claimKey(
	ctx: IExecuteFunctions,
	itemIndex: number,
	key: string,
	order?: OrderWatch,
): Promise<Claim> {
	const stop = (reason: string, description: string) =>
		withMoneyEffect(
			new NodeOperationError(ctx.getNode(), `Could not claim the key "${key}" (Act Once per Key): nothing was sent`, {
				itemIndex,
				description: `${reason}. The item was stopped before the gateway was called; ${description}`,
			}),
			'notSent',
		);
	const later = 'a later delivery (or a retry) will claim it again.';
	const { controlKey } = await merchantCredentials(ctx);
	if (!controlKey)
		throw stop('The Card Gateway API credential has no Merchant Control Key, which seals the claims', later);
	let table: ClaimsTable;
	try {
		table = await claimsTable(ctx, itemIndex);
	} catch (error) {
		if (error instanceof ClaimsTableGone) throw stop(error.message, 'fix the credential first.');
		if (error instanceof NodeOperationError) throw withMoneyEffect(error, 'notSent');
		throw stop(`The claims table could not be reached: ${(error as Error).message}`, later);
	}
	try {
		return await claimIn(table, sealerFor(String(controlKey), table.id), key, ctx.getExecutionId() ?? '', order);
	} catch (error) {
		if (error instanceof ClaimForged)
			throw stop(
				`${error.message}: it was written by someone other than this node, changed since, or copied from another table or key`,
				'whether this key was acted on cannot be told from the table: check the order at the gateway, then delete the row.',
			);
		if (error instanceof ClaimsTableGone) throw stop(error.message, 'fix the credential first.');
		if (error instanceof ClaimBusy || error instanceof ClaimUndecided) throw stop(error.message, later);
		// n8n's API errors keep the server's words in their description.
		const { message, description } = error as Error & { description?: string };
		throw stop(`The claims table answered with an error: ${description || message}`, later);
	}
}

/** Claims `key` in `table` for `execution` (claimKey's work, on any table). */
export async function claimIn(
	table: ClaimsTable,
	sealer: Sealer,
	key: string,
	execution: string,
	order?: OrderWatch,
	attempts = ATTEMPTS,
): Promise<Claim> {
	const me = randomUUID();
	const mine = (state: RowState): Omit<ClaimRow, 'id'> =>
		sealer.seal({
			key,
			owner: state === 'open' ? '' : me,
			state,
			execution,
			claimedAt: new Date(Date.now()).toISOString(),
			before: fingerprintOf(order?.before),
		});
	const owned = (owner: string, state?: RowState): Filter => [
		eq('key', key),
		eq('owner', owner),
		...(state ? [eq('state', state)] : []),
	];
	const rowsOfKey = async () => {
		const rows = await table.find([eq('key', key)]);
		const forged = rows.find((row) => !sealer.verifies(row));
		if (forged)
			throw new ClaimForged(
				`The claims table holds a row for this key that does not carry this node's seal (row ID ${Number(forged.id)})`,
			);
		return rows;
	};
	let running: ClaimRow | undefined;
	for (let attempt = 0; attempt < attempts; attempt++) {
		if (attempt) await sleep(backoff(attempt));
		const rows = await rowsOfKey();
		const others = rows.filter((row) => row.owner && row.owner !== me);
		const won = others.find((row) => row.state !== 'taking');
		running = undefined;
		if (won) {
			const decided = await decide(table, sealer, won, order, owned(won.owner, 'claimed'), mine('taking'));
			// Its execution still runs: wait for its outcome. Answered now, the item would succeed and the
			// gateway stop resending, while a worker that died after claiming shows "running" until n8n
			// finds its job stalled: its refund would be lost for good.
			if (decided === 'running') {
				running = won;
				continue;
			}
			if (decided) return { kind: 'taken', key, by: decided };
			// An unsettled claim whose execution ended, the order unchanged: its rows are ours now.
		} else if (others.length) {
			// Someone is taking the key: wait for it; one whose execution ended never took anything to the gateway.
			if (attempt >= PATIENCE) await freeAbandoned(table, sealer, others);
			continue;
		}
		await table.insert(mine('open'));
		await table.update(owned(''), mine('taking'));
		const now = await rowsOfKey();
		if (now.length && now.every((row) => row.owner === me)) {
			// Won. Marked only on rows still ours: a row freed in between (freeAbandoned) makes it a loss.
			const marked = await table.update(owned(me, 'taking'), mine('claimed')).catch(async (error: Error) => {
				await table.remove(owned(me)).catch(() => undefined);
				throw error;
			});
			if (marked === now.length) return { kind: 'claimed', key, settle: async (effect) => await settle(effect) };
		}
		// Lost this round: a loser keeps nothing, so that whoever comes next may win.
		await table.remove(owned(me));
	}
	throw new ClaimBusy(
		running
			? `The key is claimed by execution ${shownExecution(running) || '(unreadable ID)'}, which n8n still reports running after ${attempts} rounds: its outcome is not known yet`
			: `The key stayed contended for ${attempts} rounds`,
	);

	async function settle(effect: MoneyEffect) {
		// Nothing moved: give the key back, so that the next delivery may try again.
		if (effect === 'notSent' || effect === 'noMoneyMoved') await table.remove(owned(me));
		else await table.update(owned(me), mine(effect));
	}
}

/**
 * Who holds the key, from one of its rows held by another claimer that won: settled, still running
 * ('running': the caller waits), or, when its execution ended without an outcome, decided by the
 * gateway: the order changed since the claim → its request got there (settled so, nothing sent);
 * unchanged → its rows are taken over in one update and this item goes on claiming (undefined).
 */
async function decide(
	table: ClaimsTable,
	sealer: Sealer,
	row: ClaimRow,
	order: OrderWatch | undefined,
	itsClaim: Filter,
	takeOver: Omit<ClaimRow, 'id'>,
): Promise<ClaimedBefore | 'running' | undefined> {
	const by = (status: ClaimedBefore['status'], outcome?: MoneyEffect): ClaimedBefore => ({
		execution: shownExecution(row),
		claimedAt: Number.isNaN(Date.parse(row.claimedAt)) ? '' : new Date(row.claimedAt).toISOString(),
		status,
		...(outcome ? { outcome } : {}),
	});
	const settled = MONEY_EFFECTS.find((effect) => effect === row.state);
	if (settled) return by('settled', settled);
	if (row.state !== 'claimed') return by('unresolved');
	const ended = await table.executionEnded(row.execution);
	if (ended === false) return 'running';
	if (!ended) return by('unresolved');
	if (!row.before || !order) return by('unresolved');
	const now = fingerprintOf(await order.now().catch(() => undefined));
	if (!now)
		throw new ClaimUndecided(
			`A claim of this key never recorded its outcome (its execution ended), and the gateway could not say whether the order changed since`,
		);
	if (now !== row.before) {
		const outcome: MoneyEffect = 'mayHaveMoved';
		await table.update(itsClaim, sealer.seal({ ...pick(row), state: outcome }));
		return by('changed', outcome);
	}
	await table.update(itsClaim, takeOver);
	return undefined;
}

/**
 * Frees the rows of contenders that kept them for PATIENCE rounds, unless their execution is known to
 * run (one that died while taking would block the key for good). Never lets two win: a winner marks
 * only the rows still its own, so a freed one loses its round and tries again.
 */
async function freeAbandoned(table: ClaimsTable, sealer: Sealer, others: ClaimRow[]): Promise<void> {
	const byOwner = new Map(others.map((row) => [row.owner, row]));
	for (const row of byOwner.values()) {
		if ((await table.executionEnded(row.execution)) === false) continue;
		await table.update(
			[eq('key', row.key), eq('owner', row.owner), eq('state', 'taking')],
			sealer.seal({ ...pick(row), owner: '', state: 'open' }),
		);
	}
}

/**
 * Runs what sends the item under its claim, then records what it did to the money: kept when money
 * moved or may have, given back when nothing moved. A claim that could not be recorded stays
 * "claimed": a later delivery asks the gateway whether the order changed since (claimKey's OrderWatch).
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
			`the claim could not be updated (${error.message}); it stays claimed until a later delivery asks the gateway`,
	);
	return { ...output, claimKey: claim.key, ...(recorded ? { claimWarning: recorded } : {}) };
}

const BEFORE_WORDS: Readonly<Record<ClaimedBefore['status'], string>> = {
	settled: '',
	changed:
		' (that execution did not record an outcome, and the order changed at the gateway since: money MAY have moved)',
	unresolved: ' (no outcome recorded: if that execution stopped, check the order at the gateway)',
};

/** What an item whose key was claimed before says: nothing was sent. Only sealed, checked values appear. */
export function alreadyClaimedOutput(claim: Extract<Claim, { kind: 'taken' }>): IDataObject {
	const { execution, claimedAt, status, outcome } = claim.by;
	const when = claimedAt ? ` at ${claimedAt}` : '';
	const by = execution ? ` by execution ${execution}` : '';
	const earlier =
		status === 'settled' && outcome ? ` (its outcome: ${MONEY_EFFECT_WORDS[outcome]})` : BEFORE_WORDS[status];
	return {
		alreadyClaimed: true,
		claimKey: claim.key,
		claimedBy: { execution, claimedAt, status, outcome: outcome ?? '' },
		moneyEffect: 'notSent',
		outcome: `The key "${claim.key}" was claimed before${by}${when}${earlier}: this item sent nothing`,
	};
}

/**
 * What the order looked like, in the fields a money step changes (never the status query's own serial
 * number; the order is the item's own), as a short digest: recorded on a claim, compared by a later
 * delivery. '' when not known.
 */
export function fingerprintOf(order: StatusKnowledge | undefined): string {
	if (order?.kind === 'notFound') return 'notFound';
	if (order?.kind !== 'found') return '';
	const record = replyRecord(order.reply);
	const fields = (['status', 'transactionType', 'orderStage', 'amount', 'currency'] as const).map(
		(name) => record[name] ?? '',
	);
	return `found:${createHash('sha256').update(JSON.stringify(fields)).digest('hex').slice(0, 32)}`;
}

/** A row's execution ID as it may be shown (word characters only): nothing else of the table's text is. */
function shownExecution(row: ClaimRow): string {
	return /^[\w-]{1,64}$/.test(row.execution) ? row.execution : '';
}

function pick(row: ClaimRow): SealedFields {
	const { key, owner, state, execution, claimedAt, before } = row;
	return { key, owner, state, execution, claimedAt, before };
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
