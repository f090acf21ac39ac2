// Why a run bound to an approved plan is refused: every difference named, nothing sent.
import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

import { withMoneyEffect } from '../../../../shared/moneyEffect';

import { approvalRefusal, describePlanEntry, planDifferences, type PlanEntry } from '../rehearse/plan';

const PLAN_RULE =
	'A run bound to an approved plan runs only as approved, and once: the whole run is refused when anything differs (a run of the plan before changed its orders too), and nothing was sent for any item. Rehearse again (Dry Run) and have the new plan approved, or fix what changed.';

/** A run bound to a plan whose items could not all be planned: nothing was sent for any item. */
export function planItemMissing(
	ctx: IExecuteFunctions,
	label: string,
	itemIndex: number,
	approved: string,
	failed: readonly number[],
): NodeOperationError {
	return withMoneyEffect(
		new NodeOperationError(
			ctx.getNode(),
			`${label}: item(s) ${failed.join(', ')} failed before the run could be checked against the approved plan ${approved}; nothing was sent for any item`,
			{ itemIndex, description: `Each of those items fails with its own error. ${PLAN_RULE}` },
		),
		'notSent',
	);
}

/** The run is not the approved plan: every difference named, nothing sent. */
export function planDiffers(
	ctx: IExecuteFunctions,
	label: string,
	itemIndex: number,
	approved: string,
	current: string | null,
	now: readonly PlanEntry[],
	approvedItems: readonly PlanEntry[] | undefined,
): NodeOperationError {
	const which = current ? `it is ${current}` : `as it is now it has no plan ID: ${approvalRefusal(now) ?? ''}`;
	const differences = approvedItems
		? planDifferences(approvedItems, now)
		: [
				`the approved plan's items are not in this execution (no earlier node output carries planId ${approved}), so the differences cannot be named one by one; this run's plan:`,
				...now.map((entry) => `item ${entry.item}: ${describePlanEntry(entry)}`),
			];
	const shown = differences.slice(0, MAX_DIFFERENCES);
	if (differences.length > MAX_DIFFERENCES) shown.push(`… and ${differences.length - MAX_DIFFERENCES} more`);
	return withMoneyEffect(
		new NodeOperationError(
			ctx.getNode(),
			`${label}: this run is not the approved plan ${approved} (${which}); nothing was sent${approvedItems ? `. ${differences.length} difference(s): ${inMessage(differences)}` : ''}`,
			{ itemIndex, description: [PLAN_RULE, ...shown.map((line) => `• ${line}`)].join('<br>\n') },
		),
		'notSent',
	);
}

/**
 * An item of a run that matched its approved plan, whose order changed before its turn came: another
 * run under the same approval (or someone else) acted on it meanwhile. Nothing was sent for it.
 */
export function planOrderMoved(
	ctx: IExecuteFunctions,
	label: string,
	itemIndex: number,
	approved: string,
	entry: PlanEntry,
	now: string,
): NodeOperationError {
	return withMoneyEffect(
		new NodeOperationError(
			ctx.getNode(),
			`${label} (${describePlanEntry(entry)}): the order changed after this run was checked against the approved plan ${approved}: it was ${entry.orderState}, it is now ${now}; nothing was sent for this item`,
			{
				itemIndex,
				description:
					'Another run under the same approval, or someone else, acted on this order at the same time. An approved plan runs once: look the order up before anything else, and rehearse again for what is left.',
			},
		),
		'notSent',
	);
}

const MAX_DIFFERENCES = 50;

/** The message names the first differences too: an error's message is what notifications and error workflows show. */
const DIFFERENCES_IN_MESSAGE = 5;

function inMessage(differences: readonly string[]): string {
	const more = differences.length - DIFFERENCES_IN_MESSAGE;
	return [
		...differences.slice(0, DIFFERENCES_IN_MESSAGE),
		...(more > 0 ? [`… and ${more} more (see the details)`] : []),
	].join('; ');
}
