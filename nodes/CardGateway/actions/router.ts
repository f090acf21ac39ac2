import {
	NodeApiError,
	NodeOperationError,
	sleep,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { moneyEffectOf, withMoneyEffect } from '../../shared/moneyEffect';
import { maskSensitive } from '../../shared/protocol/masking';
import { credentialSecrets } from '../../shared/protocol/signing';
import { merchantCredentials } from '../../shared/transport';

import * as balance from './balance';
import * as cardReference from './cardReference';
import { movesMoney } from './common/core/facts';
import { readItemAhead } from './common/read/request';
import type { OperationModule } from './common/core/operation';
import { runOptions } from './common/read/options';
import { nodeParameter } from './common/read/parameters';
import { scrub } from './common/core/scrub';
import { readAheadAlready } from './common/pipeline/execute';
import { runReadMany } from './common/pipeline/readMany';
import { refuseDuplicateOrderIds, stoppedRunError, type ItemOutcome } from './common/guard/runReport';
import * as hostedForm from './hostedForm';
import type { CardGatewayType, OperationOf, Resource } from './node.type';
import * as payment from './payment';
import * as payout from './payout';
import * as recurringPayment from './recurringPayment';
import * as threeDSecure from './threeDSecure';
import * as transaction from './transaction';
import * as transfer from './transfer';

/** Every resource's handlers; a missing operation of CardGatewayMap is a compile error. */
const handlers: { [R in Resource]: Record<OperationOf<R>, OperationModule> } = {
	balance: balance.operations,
	cardReference: cardReference.operations,
	hostedForm: hostedForm.operations,
	payment: payment.operations,
	payout: payout.operations,
	recurringPayment: recurringPayment.operations,
	threeDSecure: threeDSecure.operations,
	transaction: transaction.operations,
	transfer: transfer.operations,
};

/**
 * Runs the chosen operation for every input item, at most `concurrency` at a time. Output order
 * and pairedItem follow the input; with "Continue On Fail" a failed item becomes an error item.
 * Everything that leaves the node is masked (card numbers, CVV, the credential's secrets).
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	try {
		return await runItems.call(this);
	} catch (error) {
		// Errors thrown for the whole run (a batch refused, a missing handler) carry the node and its
		// parameters as well: the same net as for the items' own errors.
		throw scrub(error as Error, []);
	}
}

async function runItems(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as CardGatewayType['resource'];
	const operation = this.getNodeParameter('operation', 0) as string;
	const handler = (handlers[resource] as Record<string, OperationModule> | undefined)?.[operation];
	if (!handler)
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`);
	if (!items.length) return [[]];

	const credentials = await merchantCredentials(this);
	const secrets = credentialSecrets(credentials);
	if (handler.spec.readMany) return [await runReadMany(this, handler.spec.readMany, secrets)];
	const concurrency = runOptions(nodeParameter(this, 'options', 0, {}) as IDataObject).concurrency;
	const money = movesMoney(handler.spec);
	if (money) {
		try {
			refuseDuplicateOrderIds(this, handler.spec, items.length);
		} catch (error) {
			throw scrub(error as Error, secrets);
		}
	}
	const results: INodeExecutionData[] = new Array(items.length);
	const outcomes: ItemOutcome[] = [];
	let failed = false;
	let next = 0;
	let readAheadUpTo = 0;

	// Once an item's request has left, the next item's fields are read while it is in flight: the
	// CPU n8n spends on their expressions is then not added to every round trip.
	const readNextItemAhead = async () => {
		await sleep(0);
		const index = Math.max(next, readAheadUpTo);
		if (failed || index >= items.length) return;
		readAheadUpTo = index + 1;
		// Read, checked and asked about ahead by the money pipeline already (pipeline/execute.ts).
		if (readAheadAlready(this, index)) return;
		readItemAhead(this, handler.spec, index);
	};

	const worker = async () => {
		// After a failure (without Continue On Fail) nothing new starts; items in flight finish.
		while (!failed && next < items.length) {
			const index = next++;
			try {
				const running = handler.execute.call(this, index);
				if (next < items.length) void readNextItemAhead();
				const json = maskSensitive(await running, secrets);
				results[index] = { json, pairedItem: { item: index } };
				outcomes.push({ index, output: json });
			} catch (error) {
				const safe = scrub(error as Error, secrets);
				if (this.continueOnFail()) {
					const description = (safe as { description?: unknown }).description;
					// What became of the money travels with the error (n8n keeps its context on the item).
					if (money && !moneyEffectOf(safe)) withMoneyEffect(safe, 'mayHaveMoved');
					results[index] = {
						json: { error: safe.message, ...(typeof description === 'string' && description ? { description } : {}) },
						// The item's own `error` is what routes it to the error output ("Continue (using error output)").
						error:
							safe instanceof NodeApiError || safe instanceof NodeOperationError
								? safe
								: new NodeOperationError(this.getNode(), safe, { itemIndex: index }),
						pairedItem: { item: index },
					};
				} else {
					failed = true;
					outcomes.push({ index, error: safe });
				}
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
	if (failed) {
		if (money) throw stoppedRunError(outcomes, items.length);
		const failures = outcomes.filter((outcome): outcome is { index: number; error: Error } => 'error' in outcome);
		throw failures.reduce((first, failure) => (failure.index < first.index ? failure : first)).error;
	}
	return [results];
}
