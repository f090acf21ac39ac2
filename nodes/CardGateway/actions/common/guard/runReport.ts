import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { MONEY_EFFECT_WORDS, moneyEffectOf, severity, type MoneyEffect } from '../../../../shared/moneyEffect';

import type { OperationSpec } from '../core/operation';
import { readAhead } from '../read/parameters';
import { asText, isEmpty } from '../read/values';

/** What became of one item of a run. */
export type ItemOutcome = { index: number; output: IDataObject } | { index: number; error: Error };

const MAX_LISTED = 25;

/**
 * Two items with the same merchant order ID would be one order at the gateway: the second is
 * either refused, or answered with the first one's result as if it were its own. Refused for the
 * whole batch of a money-moving operation, before anything is sent.
 */
export function refuseDuplicateOrderIds(ctx: IExecuteFunctions, spec: OperationSpec, itemCount: number): void {
	const field = (spec.required ?? []).find((candidate) => candidate.merchantOrderId);
	if (!field || itemCount < 2) return;
	const seen = new Map<string, number>();
	for (let index = 0; index < itemCount; index++) {
		let id: string;
		try {
			const raw = readAhead(ctx, field.property.name, index, '');
			if (isEmpty(raw)) continue;
			id = asText(field, raw);
		} catch {
			continue; // the item fails on its own with the parameter's error
		}
		const first = seen.get(id);
		if (first !== undefined) {
			throw new NodeOperationError(
				ctx.getNode(),
				`Items ${first + 1} and ${index + 1} have the same "${field.property.displayName}" "${id}"; nothing was sent`,
				{
					itemIndex: index,
					description: `${spec.label} moves money, and the gateway keeps one order per order ID: the second item would be refused or answered with the first one's result. Give every item its own order ID (or leave it empty to generate one), or run them in separate executions.`,
				},
			);
		}
		seen.set(id, index);
	}
}

/**
 * The error that stops a run: the most severe failure (money that may have moved before a plain
 * refusal), with every other order the run sent named in its description, so that nothing that
 * moved money disappears with the stopped run's output.
 */
export function stoppedRunError(outcomes: readonly ItemOutcome[], itemCount: number): Error {
	const failures = outcomes.filter((outcome): outcome is { index: number; error: Error } => 'error' in outcome);
	const worst = failures.reduce((a, b) =>
		rank(b.error) > rank(a.error) || (rank(b.error) === rank(a.error) && b.index < a.index) ? b : a,
	);
	const others = outcomes.filter((outcome) => outcome !== worst).sort((a, b) => a.index - b.index);
	const notStarted = itemCount - outcomes.length;
	if (!others.length && !notStarted) return worst.error;
	const lines = others.slice(0, MAX_LISTED).map(describe);
	if (others.length > MAX_LISTED) lines.push(`… and ${others.length - MAX_LISTED} more`);
	if (notStarted) lines.push(`${notStarted} item(s) were not started: nothing was sent for them`);
	const target = worst.error as Error & { description?: string | null };
	const atRisk = others.filter((outcome) => ['moved', 'pending', 'mayHaveMoved'].includes(effectOf(outcome))).length;
	if (atRisk)
		target.message = `${target.message} (and ${atRisk} other order(s) of this run moved or may have moved money: see the details)`;
	// n8n's error panel shows the description as HTML: each item on its own line there, and in plain text too.
	target.description = [
		target.description,
		`The run stopped at item ${worst.index + 1}. Other items of this run:`,
		...lines.map((line) => `• ${line}`),
	]
		.filter(Boolean)
		.join('<br>\n');
	return target;
}

/** What an item's outcome says about the money: an error's mark, or the output's own moneyEffect. */
function effectOf(outcome: ItemOutcome): MoneyEffect {
	if ('error' in outcome) return effect(outcome.error);
	const declared = outcome.output.moneyEffect;
	return typeof declared === 'string' && declared in MONEY_EFFECT_WORDS ? (declared as MoneyEffect) : 'mayHaveMoved';
}

function effect(error: Error): MoneyEffect {
	// An error that does not say what happened comes from after sending: assume the worst.
	return moneyEffectOf(error) ?? 'mayHaveMoved';
}

function rank(error: Error): number {
	return severity(effect(error));
}

/** One line per item, numbered as n8n numbers items (from 1), saying what became of the money in the item's own words. */
function describe(outcome: ItemOutcome): string {
	const item = `item ${outcome.index + 1}`;
	if ('error' in outcome)
		return `${item}: failed (${MONEY_EFFECT_WORDS[effect(outcome.error)]}): ${outcome.error.message}`;
	const { output } = outcome;
	const order = `order "${String(output.client_orderid ?? '')}"${output.orderid ? `, gateway order ${String(output.orderid)}` : ''}`;
	if (output.dryRun === true)
		return `${item} (${order}): dry run, nothing sent that moves money: ${String(output.wouldDo)}`;
	const said = typeof output.outcome === 'string' ? output.outcome : `status ${String(output.status ?? 'sent')}`;
	return `${item} (${order}): ${said} (${MONEY_EFFECT_WORDS[effectOf(outcome)]})`;
}
