import type { IDataObject } from 'n8n-workflow';

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
