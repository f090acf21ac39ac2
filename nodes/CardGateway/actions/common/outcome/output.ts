import type { IDataObject } from 'n8n-workflow';

import { MONEY_ACTIONS } from '../../../../shared/protocol/money';
import { replyRecord, type GatewayReply } from '../../../../shared/protocol/reply';
import type { FieldName } from '../../../../shared/protocol/vocabulary';
import { STATUS } from '../../../../shared/protocol/statusWords';

import type { DeliveryNotes } from '../core/delivery';
import { isFinal, needsThreeDSecure } from '../core/statuses';

/** Output key ← the field of the reply's record (vocabulary.ts declares its spellings in both reply formats and both API generations). */
const SUMMARY: ReadonlyArray<readonly [string, FieldName]> = [
	['status', 'status'],
	['type', 'replyType'],
	['orderid', 'orderId'],
	['client_orderid', 'clientOrderId'],
	['serialNumber', 'serialNumber'],
	['transactionType', 'transactionType'],
	['orderStage', 'orderStage'],
	['amount', 'amount'],
	['currency', 'currency'],
	['redirectUrl', 'redirectUrl'],
	['html', 'html'],
	['cardRefId', 'cardRefId'],
	['uniqueCardRefId', 'uniqueCardRefId'],
	['recurringPaymentId', 'recurringPaymentId'],
	['errorMessage', 'errorMessage'],
	['errorCode', 'errorCode'],
	['approvalCode', 'approvalCode'],
	['cardType', 'cardType'],
	['bin', 'bin'],
	['lastFourDigits', 'lastFourDigits'],
	['cardHolderName', 'cardHolderName'],
	['expireMonth', 'expireMonth'],
	['expireYear', 'expireYear'],
	['descriptor', 'descriptor'],
	['processorTxId', 'processorTxId'],
	['processorRrn', 'processorRrn'],
	['bankMessage', 'bankMessage'],
	['endpointId', 'endpointId'],
];

/**
 * The keys an ops user reads first, in this order, wherever an item has them: what became of the money
 * (`moneyEffect`, then `outcome`, or a dry run's `wouldDo`), the amounts, the status; the reply's
 * protocol fields follow as they came.
 */
const READ_FIRST: readonly string[] = [
	'moneyEffect',
	'outcome',
	'wouldDo',
	'amountRequested',
	...new Set(Object.values(MONEY_ACTIONS).flatMap(({ movedKey, destinationKey }) => [movedKey, destinationKey])),
	'amountRemaining',
	'status',
	'amount',
	'currency',
].filter((key): key is string => !!key);

/** The item with the keys of READ_FIRST first (what n8n's table and JSON views show first); nothing else changes. */
export function readFirst(json: IDataObject): IDataObject {
	const lead = READ_FIRST.filter((key) => Object.prototype.hasOwnProperty.call(json, key));
	return { ...Object.fromEntries(lead.map((key) => [key, json[key]])), ...json };
}

/**
 * The normalised output: camelCase summary of the reply (status, ids, 3-D Secure data, errors),
 * what this operation did to the money (money.ts), how the reply was obtained, and optionally every raw field. Masked as it leaves the node (pipeline/items.ts).
 */
export function summarise(
	reply: GatewayReply,
	sent: { clientOrderId?: string; generatedOrderId?: boolean },
	notes: DeliveryNotes,
	includeRaw: boolean,
	moneyEffect: IDataObject = {},
): IDataObject {
	const output: IDataObject = {};
	const record = replyRecord(reply);
	for (const [key, field] of SUMMARY) {
		const value = record[field];
		if (value) output[key] = value;
	}
	// An accepted asynchronous request carries no status: the order is processing. The v4 sale's
	// JSON reply has no type either, only the new order's IDs.
	const type = record.replyType ?? '';
	if (!output.status && (/^async-/.test(type) || (!type && output.orderid && reply.httpStatus < 400)))
		output.status = STATUS.processing;
	if (!output.client_orderid && sent.clientOrderId) output.client_orderid = sent.clientOrderId;
	output.final = isFinal(reply);
	if (needsThreeDSecure(reply)) {
		output.status = STATUS.processing;
		output.threeDSecureRequired = true;
	}
	Object.assign(output, moneyEffect);
	if (sent.generatedOrderId) output.clientOrderIdGenerated = true;
	for (const [key, value] of Object.entries(notes)) if (value !== undefined) output[key] = value;
	if (includeRaw) output.raw = { ...reply.fields };
	return output;
}
