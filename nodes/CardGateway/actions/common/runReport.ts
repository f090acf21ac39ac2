import { NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { moneyEffectOf, severity, type MoneyEffect } from '../../../shared/moneyEffect';

import type { OperationSpec } from './operation';
import { readAhead } from './parameters';
import { asText, isEmpty } from './values';

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
			throw new NodeOperationError(ctx.getNode(), `Items ${first} and ${index} have the same "${field.property.displayName}" "${id}"; nothing was sent`, {
				itemIndex: index,
				description: `${spec.label} moves money, and the gateway keeps one order per order ID: the second item would be refused or answered with the first one's result. Give every item its own order ID (or leave it empty to generate one), or run them in separate executions.`,
			});
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
	const worst = failures.reduce((a, b) => (rank(b.error) > rank(a.error) || (rank(b.error) === rank(a.error) && b.index < a.index) ? b : a));
	const others = outcomes.filter((outcome) => outcome !== worst).sort((a, b) => a.index - b.index);
	const notStarted = itemCount - outcomes.length;
	if (!others.length && !notStarted) return worst.error;
	const lines = others.slice(0, MAX_LISTED).map(describe);
	if (others.length > MAX_LISTED) lines.push(`… and ${others.length - MAX_LISTED} more`);
	if (notStarted) lines.push(`${notStarted} item(s) were not started: nothing was sent for them`);
	const target = worst.error as Error & { description?: string | null };
	const atRisk = others.filter((outcome) => ('error' in outcome ? effect(outcome.error) === 'mayHaveMoved' : outcome.output.dryRun !== true)).length;
	if (atRisk) target.message = `${target.message} (and ${atRisk} other order(s) of this run moved or may have moved money: see the details)`;
	target.description = [target.description, `The run stopped at item ${worst.index}. Other items of this run:\n${lines.map((line) => `- ${line}`).join('\n')}`]
		.filter(Boolean)
		.join('\n\n');
	return target;
}

function effect(error: Error): MoneyEffect {
	// An error that does not say what happened comes from after sending: assume the worst.
	return moneyEffectOf(error) ?? 'mayHaveMoved';
}

function rank(error: Error): number {
	return severity(effect(error));
}

function describe(outcome: ItemOutcome): string {
	if ('error' in outcome) {
		const what = { notSent: 'nothing was sent', noMoneyMoved: 'no money moved', mayHaveMoved: 'money MAY have moved' }[effect(outcome.error)];
		return `item ${outcome.index}: failed (${what}): ${outcome.error.message}`;
	}
	const { output } = outcome;
	if (output.dryRun === true) return `item ${outcome.index} (order "${String(output.client_orderid ?? '')}"): dry run, nothing sent that moves money: ${String(output.wouldDo)}`;
	const money = output.amount ? `, ${String(output.amount)} ${String(output.currency ?? '')}`.trimEnd() : '';
	return `item ${outcome.index} (order "${String(output.client_orderid ?? '')}", gateway order ${String(output.orderid ?? '?')}): ${String(output.status ?? 'sent')}${money}`;
}
