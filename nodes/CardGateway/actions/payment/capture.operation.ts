import { NodeOperationError, type IExecuteFunctions } from 'n8n-workflow';

import { parseAmount, parseCurrency } from '../../../shared/protocol/amount';
import { replyRecord } from '../../../shared/protocol/reply';
import { STATUS } from '../../../shared/protocol/statusWords';
import { learnStatus } from '../common/send/delivery';
import { defineOperation } from '../common/define/operation';
import type { PrepareStep } from '../common/core/operation';
import { PARTIAL_FOLLOW_UP } from '../common/define/requests';

// Readings of capture's control differ: the interface and the vendor's PHP library sign amount
// and currency always, the public docs only "if sent". Sending and signing both satisfies every
// reading, so a full capture (no amount given) first learns the held amount from a status query.
async function completeFullCapture(ctx: IExecuteFunctions, step: PrepareStep): Promise<void> {
	const { request, label, itemIndex } = step;
	if (request.values.amount) return;
	const order = `order "${request.clientOrderId}"`;
	const refuse = (why: string) =>
		new NodeOperationError(ctx.getNode(), `${label} on ${order}: ${why}; the capture was not sent`, {
			itemIndex,
			description:
				'Only a status query went to the gateway: nothing was captured and no money moved. A full capture needs an approved preauth; to capture a part, set Amount and Currency under Additional Fields.',
		});
	const knowledge = await learnStatus(
		ctx,
		{ endpoint: step.endpoint, timeoutMs: step.timeoutMs },
		{
			itemIndex,
			login: step.login,
			clientOrderId: request.clientOrderId,
			orderId: request.values.gatewayOrderId,
			operation: 'capture',
		},
	);
	if (knowledge.kind === 'unknown') throw refuse(`the held amount could not be learned (${knowledge.reason})`);
	if (knowledge.kind === 'notFound') throw refuse('the gateway does not know the order');
	const fields = replyRecord(knowledge.reply);
	if (fields.status !== STATUS.approved || fields.transactionType !== 'preauth') {
		const last = fields.transactionType ? `, last transaction "${fields.transactionType}"` : '';
		// Run again after a capture: say so, and how to capture what may still be held.
		const earlier =
			fields.transactionType === 'capture'
				? '; it was captured before (if by this step, there is nothing left to do; to capture what is still held, set Amount and Currency and give that capture a key of its own under Options → Act Once per Key)'
				: '';
		throw refuse(`the order is not an approved preauth (status "${fields.status ?? STATUS.unknown}"${last})${earlier}`);
	}
	let held: { amount: string; currency: string };
	try {
		const currency = parseCurrency(fields.currency);
		held = { amount: parseAmount(fields.amount, currency), currency };
	} catch {
		throw refuse(
			`the gateway reported the held amount as "${fields.amount ?? ''} ${fields.currency ?? ''}", which is not an amount and currency`,
		);
	}
	request.values.amount = held.amount;
	request.values.currency = held.currency;
	request.fields.push(['amount', held.amount], ['currency', held.currency]);
}

export default defineOperation({
	gateway: 'capture',
	menu: {
		name: 'Capture',
		description: 'Settle a preauthorized amount, in full or in part',
		action: 'Capture a held payment',
	},
	...PARTIAL_FOLLOW_UP,
	prepare: completeFullCapture,
});
