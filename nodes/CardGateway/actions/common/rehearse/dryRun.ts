import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { amountUnits } from '../../../../shared/protocol/amount';
import { OPERATIONS, type OperationId } from '../../../../shared/protocol/catalogue';
import { MONEY_ACTIONS, type MoneyActionFacts } from '../../../../shared/protocol/money';
import { replyRecord, type GatewayReply } from '../../../../shared/protocol/reply';
import { maskSensitive } from '../../../../shared/protocol/masking';
import { buildGatewayRequest, type GatewayCall } from '../../../../shared/transport';
import { STATUS } from '../../../../shared/protocol/statusWords';

import type { Delivery, StatusKnowledge } from '../core/delivery';
import { admit, hasLimits, stakeOf, type Stake } from '../guard/limits';
import { runSettings } from '../read/runSettings';

const SIGNING: Record<string, string> = {
	control: 'control (SHA-1): computed, not shown',
	'oauth-hmac-sha1': 'OAuth HMAC-SHA1: signing material checked; the header is made only when sending',
	'oauth-rsa-sha256': 'OAuth RSA-SHA256: private key checked; the header is made only when sending',
	none: 'none',
};

export interface Rehearsal {
	label: string;
	gateway: OperationId;
	values: Record<string, string>;
	generatedOrderId?: boolean;
}

/**
 * A dry run of one item: the request is built and signed exactly as for sending, then described
 * instead of sent. The only request that leaves is a status query about the order it targets.
 */
export async function rehearse(
	ctx: IExecuteFunctions,
	item: Rehearsal,
	call: GatewayCall,
	delivery: Delivery,
	order: StatusKnowledge | undefined,
): Promise<IDataObject> {
	const built = await buildGatewayRequest(ctx, call);
	const facts = MONEY_ACTIONS[OPERATIONS[item.gateway].money];
	const stake = stakeOf(item.values, facts.followUp ? order : undefined);
	const wouldDo = facts.followUp
		? followUpEffect(facts, item, stake, order)
		: newOrderEffect(facts, item, delivery, stake, order);
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
		...(delivery.clientOrderId ? { client_orderid: delivery.clientOrderId } : {}),
		...(delivery.orderId ? { orderid: delivery.orderId } : {}),
		...(order ? { order: orderNow(order) } : {}),
		moneyEffect: 'notSent',
		outcome: `Dry run, nothing sent: ${wouldDo}`,
		wouldDo,
	};
	if (hasLimits(runSettings(ctx, delivery.itemIndex))) {
		// Counted as a real run would count it, so that the items a limit would stop show up.
		const admission = admit(ctx, item.label, delivery.itemIndex, stake);
		output.stoppedByLimit = !admission.admitted;
		output.limits = admission.admitted
			? 'within the spending limits'
			: `${admission.message}. ${admission.description}`;
	}
	return output;
}

function orderNow(order: StatusKnowledge): IDataObject {
	if (order.kind === 'unknown') return { known: 'could not be learned', reason: order.reason };
	if (order.kind === 'notFound') return { known: false };
	const { status, amount, currency, transactionType } = replyRecord(order.reply);
	return { known: true, status, amount, currency, transactionType };
}

const money = (stake: Stake) => `${stake.amount} ${stake.currency}`;

function followUpEffect(
	facts: MoneyActionFacts,
	item: Rehearsal,
	stake: Stake | { unknown: string },
	order: StatusKnowledge | undefined,
): string {
	const { verb } = facts;
	if (order?.kind !== 'found')
		return `would ${verb} the order, but ${'unknown' in stake ? stake.unknown : 'its state is unknown'}: a real run would most likely be refused`;
	const { amount: left, currency } = replyRecord(order.reply);
	const partial = !!item.values.amount && 'amount' in stake;
	// The refusal leads: a dry run that a real run would not carry out must not open with what it would move.
	const refusals = followUpRefusals(facts, item.values, stake, order.reply);
	const sentence = partial
		? `${verb} ${money(stake as Stake)} of ${left} ${currency} left`
		: `${verb} ${left} ${currency} (all that is left)`;
	if (refusals.length) return `would be refused by the gateway: ${refusals.join('; ')} (asked: ${sentence})`;
	return `would ${sentence}`;
}

/** Why the gateway would refuse a follow-up on the order as it reported it (none: it would take it). */
export function followUpRefusals(
	facts: MoneyActionFacts,
	values: Readonly<Record<string, string>>,
	stake: Stake | { unknown: string },
	order: GatewayReply,
): string[] {
	const { status, amount: left, currency } = replyRecord(order);
	const partial = !!values.amount && 'amount' in stake;
	const more = partial && !!left && amountUnits((stake as Stake).amount) > amountUnits(left);
	return [
		...(status !== facts.acceptsStatus
			? [
					`the order is "${status || STATUS.processing}" and the gateway accepts this only on ${facts.acceptsStatus} orders`,
				]
			: []),
		...(more ? [`${money(stake as Stake)} is more than the ${left} ${currency} left`] : []),
	];
}

function newOrderEffect(
	facts: MoneyActionFacts,
	item: Rehearsal,
	delivery: Delivery,
	stake: Stake | { unknown: string },
	order: StatusKnowledge | undefined,
): string {
	const what = 'amount' in stake ? `${facts.verb} ${money(stake)}` : `send ${item.label}`;
	if (!delivery.clientOrderId) return `would ${what}`;
	const sentence = `would ${what} as new order "${delivery.clientOrderId}"`;
	if (item.generatedOrderId && !order)
		return `${sentence} (an order ID drawn for this plan, new by construction: a run bound to the plan sends it, a run without "Approved Plan ID" generates another)`;
	if (!order) return sentence;
	if (order.kind === 'notFound') return `${sentence} (the gateway does not know this order ID yet)`;
	if (order.kind === 'unknown')
		return `${sentence} (whether the gateway already knows this order ID could not be learned: ${order.reason})`;
	const { status, amount, currency } = replyRecord(order.reply);
	return `would send nothing: the gateway already has an order "${delivery.clientOrderId}" (status "${status || STATUS.processing}", ${amount ?? '?'} ${currency ?? ''}), and a real run reports that order instead of moving money again`;
}
