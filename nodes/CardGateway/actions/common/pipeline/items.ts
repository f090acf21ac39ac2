// The item loop of a per-item operation: every input item through executeOperation, at most the
// run's Concurrency at a time, the items after them read ahead (ahead.ts). Output order and pairedItem
// follow the input; with Continue On Fail a failed item becomes an error item in its place.
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { moneyEffectOf, withMoneyEffect } from '../../../../shared/moneyEffect';
import { maskSensitive } from '../../../../shared/protocol/masking';

import { movesMoney } from '../core/facts';
import type { OperationSpec } from '../core/operation';
import { scrub } from '../core/scrub';
import { runOptions } from '../read/options';
import { nodeParameter } from '../read/parameters';
import { refuseDuplicateOrderIds, stoppedRunError, type ItemOutcome } from '../guard/runReport';
import { errorItem } from '../outcome/items';
import { readFirst } from '../outcome/output';
import { readFieldsAhead, type ItemLoop } from './ahead';
import { executeOperation } from './execute';

export async function runItems(
	ctx: IExecuteFunctions,
	spec: OperationSpec,
	secrets: readonly string[],
): Promise<INodeExecutionData[]> {
	const count = ctx.getInputData().length;
	const concurrency = runOptions(nodeParameter(ctx, 'options', 0, {}) as IDataObject).concurrency;
	const money = movesMoney(spec);
	if (money) {
		try {
			refuseDuplicateOrderIds(ctx, spec, count);
		} catch (error) {
			throw scrub(error as Error, secrets);
		}
	}
	const results: INodeExecutionData[] = new Array(count);
	const outcomes: ItemOutcome[] = [];
	const loop: ItemLoop = { count, next: 0, failed: false };

	const worker = async () => {
		// After a failure (without Continue On Fail) nothing new starts; items in flight finish.
		while (!loop.failed && loop.next < count) {
			const index = loop.next++;
			try {
				const running = executeOperation(ctx, spec, index);
				if (loop.next < count) void readFieldsAhead(ctx, spec, loop);
				// The one place every output item of a per-item operation passes: what became of the money leads.
				const json = readFirst(maskSensitive(await running, secrets));
				results[index] = { json, pairedItem: { item: index } };
				outcomes.push({ index, output: json });
			} catch (error) {
				const safe = scrub(error as Error, secrets);
				if (ctx.continueOnFail()) {
					// What became of the money travels with the error (n8n keeps its context on the item).
					if (money && !moneyEffectOf(safe)) withMoneyEffect(safe, 'mayHaveMoved');
					results[index] = errorItem(ctx, safe, index, true, money);
				} else {
					loop.failed = true;
					outcomes.push({ index, error: safe });
				}
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
	if (loop.failed) {
		if (money) throw stoppedRunError(outcomes, count);
		const failures = outcomes.filter((outcome): outcome is { index: number; error: Error } => 'error' in outcome);
		throw failures.reduce((first, failure) => (failure.index < first.index ? failure : first)).error;
	}
	return results;
}
