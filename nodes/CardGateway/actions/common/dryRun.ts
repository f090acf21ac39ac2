import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { amountUnits } from '../../../shared/protocol/amount';
import { OPERATIONS, type OperationId } from '../../../shared/protocol/catalogue';
import { maskSensitive } from '../../../shared/protocol/masking';
import { buildGatewayRequest, type GatewayCall } from '../../../shared/transport';

import { learnStatus, type DeliveryPlan, type StatusKnowledge } from './delivery';
import { admit, hasLimits, runSettings, stakeOf, type Stake } from './limits';

/** What each money-moving operation does, for "would …" sentences. */
const VERBS: Partial<Record<OperationId, string>> = {
	sale: 'charge',
	preauth: 'hold',
	capture: 'capture',
	void: 'void',
	return: 'return',
	makeRebill: 'charge',
	makeRebillSale: 'charge',
	makeRebillPreauth: 'hold',
	createRecurringPayment: 'set up recurring charges of',
	updateRecurringPayment: 'set the recurring charge to',
	payout: 'pay out',
	payoutV4: 'pay out',
	payoutPay: 'pay out',
	payoutForm: 'open a payout form for',
	transfer: 'transfer',
	transferByRef: 'transfer',
};

const SIGNING: Record<string, string> = {
	control: 'control (SHA-1): computed, not shown',
	'oauth-hmac-sha1': 'OAuth HMAC-SHA1: signing material checked; the header is made only when sending',
	'oauth-rsa-sha256': 'OAuth RSA-SHA256: private key checked; the header is made only when sending',
	none: 'none',
};

export interface Rehearsal {
	label: string;
	gateway: OperationId;
	/** Acts on an existing order (capture, return, void, payout pay). */
	followUp: boolean;
	values: Record<string, string>;
	generatedOrderId?: boolean;
}

/**
 * A dry run of one item: the request is built and signed exactly as for sending, then described
 * instead of sent. The only request that leaves is a status query about the order it targets.
 */
export async function rehearse(ctx: IExecuteFunctions, item: Rehearsal, call: GatewayCall, plan: DeliveryPlan): Promise<IDataObject> {
	const built = await buildGatewayRequest(ctx, call);
	const askable = !!plan.clientOrderId && !item.generatedOrderId && OPERATIONS[item.gateway].statusFindsIt;
	const order = askable ? await learnStatus(ctx, call, plan) : undefined;
	const stake = stakeOf(item.values, item.followUp ? order : undefined);
	const output: IDataObject = {
		dryRun: true,
		operation: item.label,
		sent: `no ${built.operation.name} request: this is a dry run${order ? ' (only a status query about the order was sent)' : ''}`,
		request: {
			method: built.request.method ?? 'POST',
			url: built.request.url,
			signature: SIGNING[built.auth],
			fields: maskSensitive(Object.fromEntries(built.fields)),
		},
		...(plan.clientOrderId ? { client_orderid: plan.clientOrderId } : {}),
		...(plan.orderId ? { orderid: plan.orderId } : {}),
		...(order ? { order: orderNow(order) } : {}),
		wouldDo: item.followUp ? followUpEffect(item, stake, order) : newOrderEffect(item, plan, stake, order),
	};
	if (hasLimits(runSettings(ctx, plan.itemIndex))) {
		// Counted as a real run would count it, so that the items a limit would stop show up.
		const admission = admit(ctx, item.label, plan.itemIndex, stake);
		output.stoppedByLimit = !admission.admitted;
		output.limits = admission.admitted ? 'within the spending limits' : `${admission.message}. ${admission.description}`;
	}
	return output;
}

function orderNow(order: StatusKnowledge): IDataObject {
	if (order.kind === 'unknown') return { known: 'could not be learned', reason: order.reason };
	if (order.kind === 'notFound') return { known: false };
	const { fields } = order.reply;
	return { known: true, status: fields.status, amount: fields.amount, currency: fields.currency, transactionType: fields['transaction-type'] };
}

const money = (stake: Stake) => `${stake.amount} ${stake.currency}`;

function followUpEffect(item: Rehearsal, stake: Stake | { unknown: string }, order: StatusKnowledge | undefined): string {
	const verb = VERBS[item.gateway] ?? 'apply to';
	if (order?.kind !== 'found') return `would ${verb} the order, but ${'unknown' in stake ? stake.unknown : 'its state is unknown'}: a real run would most likely be refused`;
	const { status, amount: left, currency } = order.reply.fields;
	const partial = !!item.values.amount && 'amount' in stake;
	let sentence = partial ? `would ${verb} ${money(stake as Stake)} of ${left} ${currency} left` : `would ${verb} ${left} ${currency} (all that is left)`;
	if (partial && left && amountUnits((stake as Stake).amount) > amountUnits(left)) sentence += ', but that is more than is left: the gateway would refuse it';
	if (status !== 'approved') sentence += `, but the order is "${status || 'processing'}" and the gateway accepts this only on approved orders`;
	return sentence;
}

function newOrderEffect(item: Rehearsal, plan: DeliveryPlan, stake: Stake | { unknown: string }, order: StatusKnowledge | undefined): string {
	const verb = VERBS[item.gateway] ?? 'send';
	const what = 'amount' in stake ? `${verb} ${money(stake)}` : `send ${item.label}`;
	if (!plan.clientOrderId) return `would ${what}`;
	const sentence = `would ${what} as new order "${plan.clientOrderId}"`;
	if (item.generatedOrderId) return `${sentence} (an order ID generated for this dry run: a real run generates another)`;
	if (!order) return sentence;
	if (order.kind === 'notFound') return `${sentence} (the gateway does not know this order ID yet)`;
	if (order.kind === 'unknown') return `${sentence} (whether the gateway already knows this order ID could not be learned: ${order.reason})`;
	const { status, amount, currency } = order.reply.fields;
	return `${sentence}, but the gateway already has an order "${plan.clientOrderId}" (status "${status || 'processing'}", ${amount ?? '?'} ${currency ?? ''}): a real run would get that order's result, not a new one`;
}
