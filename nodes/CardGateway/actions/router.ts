import { NodeOperationError, type IExecuteFunctions, type INodeExecutionData } from 'n8n-workflow';

import { credentialSecrets } from '../../shared/protocol/signing';
import { merchantCredentials } from '../../shared/transport';

import * as balance from './balance';
import * as cardReference from './cardReference';
import type { Operation } from './common/core/operation';
import { scrub } from './common/core/scrub';
import { runOperation } from './common/pipeline/run';
import * as hostedForm from './hostedForm';
import type { CardGatewayType, OperationOf, Resource } from './node.type';
import * as payment from './payment';
import * as payout from './payout';
import * as recurringPayment from './recurringPayment';
import * as threeDSecure from './threeDSecure';
import * as transaction from './transaction';
import * as transfer from './transfer';

/** Every resource's handlers; a missing operation of CardGatewayMap is a compile error. */
const handlers: { [R in Resource]: Record<OperationOf<R>, Operation> } = {
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
 * Dispatches the chosen operation to the pipeline (common/pipeline/run.ts), which runs it for the input
 * items: output order and pairedItem follow the input, Continue On Fail turns a failure into an error
 * item, and everything that leaves the node is masked (card numbers, CVV, the credential's secrets).
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	try {
		return await dispatch.call(this);
	} catch (error) {
		// Errors thrown for the whole run (a batch refused, a missing handler) carry the node and its
		// parameters as well: the same net as for the items' own errors.
		throw scrub(error as Error, []);
	}
}

async function dispatch(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as CardGatewayType['resource'];
	const operation = this.getNodeParameter('operation', 0) as string;
	const handler = (handlers[resource] as Record<string, Operation> | undefined)?.[operation];
	if (!handler)
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`);
	if (!this.getInputData().length) return [[]];
	const secrets = credentialSecrets(await merchantCredentials(this));
	return [await runOperation(this, handler.spec, secrets)];
}
