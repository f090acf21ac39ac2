// Settings that hold for the whole run (Dry Run, the AI switch, the spending limits), read once from
// the first item, and the run's spending so far.
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { amountUnits, parseAmount, parseCurrency } from '../../../../shared/protocol/amount';
import { GatewayInputError } from '../../../../shared/protocol/errors';
import { perRun } from '../../../../shared/perRun';
import { withInputErrors } from '../../../../shared/transport';

import { guardModelFilledSafety } from './asTool';
import { refuseUnreadable, runOptions, storedOptions } from './options';
import { nodeParameter } from './parameters';

export const PER_ITEM = 'Max Amount per Item';

export const PER_RUN = 'Max Total per Run';

/** A spending limit: one amount (in thousandths) for every currency, or one per listed currency. */
export interface Limit {
	option: string;
	every?: bigint;
	byCurrency: Map<string, bigint>;
}

/** Settings that hold for the whole run, read from the first item so that no item's data can change them. */
export interface RunSettings {
	/** "Allow AI Agents to Move Money". */
	allowAiMoneyMovement: boolean;
	dryRun: boolean;
	perItem?: Limit;
	perRun?: Limit;
}

/**
 * What the node has sent (or has in flight) in this workflow execution. Kept in the node's context
 * of the execution, so that a node run once per batch (Loop Over Items) counts every batch against
 * one total. Amounts are thousandths as decimal strings: the context is plain JSON.
 */
interface Spending {
	committed: Record<string, string>;
	/** Set when an item would have passed the run limit: nothing more is sent. */
	stoppedBy?: string;
}

export interface RunState {
	settings: RunSettings;
	spending: Spending;
}

const SPENDING_KEY = 'cardGatewaySpending';

export function runSettings(ctx: IExecuteFunctions, itemIndex: number): RunSettings {
	return runState(ctx, itemIndex).settings;
}

export function runState(ctx: IExecuteFunctions, itemIndex: number): RunState {
	return perRun(ctx, 'limits', () => {
		// As an agent's tool, a safety option the model fills refuses the run before it is read.
		guardModelFilledSafety(ctx, itemIndex);
		// Read strictly: an option that is set but cannot be read with certainty stops the run here,
		// before anything is sent, instead of meaning its default (a real run, no limit).
		const options = runOptions(nodeParameter(ctx, 'options', 0, {}) as IDataObject, storedOptions(ctx));
		refuseUnreadable(ctx, options, itemIndex);
		const settings = withInputErrors(ctx, itemIndex, () => ({
			allowAiMoneyMovement: options.allowAiMoneyMovement,
			dryRun: options.dryRun,
			perItem: parseLimit(PER_ITEM, options.maxAmountPerItem),
			perRun: parseLimit(PER_RUN, options.maxTotalPerRun),
		}));
		return { settings, spending: spendingOf(ctx) };
	});
}

function spendingOf(ctx: IExecuteFunctions): Spending {
	let context: IDataObject;
	try {
		context = ctx.getContext('node');
	} catch {
		context = {}; // no execution context to keep it in (n8n always has one): this run of the node only
	}
	context[SPENDING_KEY] ??= { committed: {} };
	return context[SPENDING_KEY] as unknown as Spending;
}

/** One entry of a limit: "500.00", "500 USD" or "USD 500". */
const LIMIT_PART = /^(?:([A-Za-z]{3})\s+(\S+)|(\S+)\s+([A-Za-z]{3})|(\S+))$/;

/** "500.00" (every currency) or "500 USD, 45000 JPY" (only these). */
function parseLimit(option: string, text: string): Limit | undefined {
	if (!text) return undefined;
	const parts = text.split(',').map((entry) => entry.trim());
	const limit: Limit = { option, byCurrency: new Map() };
	for (const part of parts) {
		const match = LIMIT_PART.exec(part);
		const bare = match?.[5];
		if (!match || (bare !== undefined && parts.length > 1)) {
			throw new GatewayInputError(
				option,
				`"${option}" must be one amount such as 500.00, or a list such as "500 USD, 450 EUR"`,
			);
		}
		const currency = bare === undefined ? parseCurrency(match[1] ?? match[4], option) : undefined;
		const units = amountUnits(parseAmount(match[2] ?? match[3] ?? bare, currency, option));
		if (!currency) limit.every = units;
		else if (limit.byCurrency.has(currency)) throw new GatewayInputError(option, `"${option}" lists ${currency} twice`);
		else limit.byCurrency.set(currency, units);
	}
	return limit;
}
