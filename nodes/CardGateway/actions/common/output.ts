import type { IDataObject } from 'n8n-workflow';

import type { GatewayReply } from '../../../shared/protocol/reply';

/** Statuses after which an order no longer changes by itself. */
export const FINAL_STATUSES: ReadonlySet<string> = new Set(['approved', 'declined', 'filtered', 'error', 'unknown']);

/** Output key ← the gateway's spellings of it (both reply formats and both API generations). */
const SUMMARY: ReadonlyArray<readonly [string, readonly string[]]> = [
	['status', ['status']],
	['type', ['type']],
	['orderid', ['paynet-order-id', 'orderid', 'paynet_order_id']],
	['client_orderid', ['merchant-order-id', 'client_orderid', 'client-order-id', 'client-orderid', 'merchant_order']],
	['serialNumber', ['serial-number']],
	['transactionType', ['transaction-type']],
	['orderStage', ['order-stage']],
	['amount', ['amount']],
	['currency', ['currency']],
	['redirectUrl', ['redirect-url', 'redirect-to', 'redirect_url']],
	['html', ['html']],
	['cardRefId', ['card-ref-id', 'cardrefid']],
	['uniqueCardRefId', ['unq-card-ref-id']],
	['recurringPaymentId', ['recurring-payment-id']],
	['errorMessage', ['error-message', 'error_message']],
	['errorCode', ['error-code', 'error_code']],
	['approvalCode', ['approval-code']],
	['cardType', ['card-type']],
	['bin', ['bin']],
	['lastFourDigits', ['last-four-digits']],
	['cardHolderName', ['cardholder-name', 'card-printed-name']],
	['expireMonth', ['expire-month', 'card-exp-month']],
	['expireYear', ['expire-year', 'card-exp-year']],
	['descriptor', ['descriptor']],
	['processorTxId', ['processor-tx-id']],
	['processorRrn', ['processor-rrn']],
	['bankMessage', ['bank_message', 'bank-message']],
	['endpointId', ['end-point-id']],
];

export function isFinal(reply: GatewayReply): boolean {
	return FINAL_STATUSES.has(reply.fields.status ?? '');
}

/** The order waits for the customer at the issuer's 3-D Secure page. */
export function needsThreeDSecure(reply: GatewayReply): boolean {
	const { fields } = reply;
	return !isFinal(reply) && !!(fields.html || fields['redirect-to']);
}

/** Facts about how the reply was obtained, added to the output. */
export interface DeliveryNotes {
	recoveredFromLostReply?: boolean;
	resentAfterLostReply?: boolean;
	waitTimedOut?: boolean;
	/** The gateway had the order before this run: nothing was sent. */
	alreadyExisted?: boolean;
}

/**
 * The normalised output: camelCase summary of the reply (status, ids, 3-D Secure data, errors),
 * what this operation did to the money (money.ts), how the reply was obtained, and optionally every raw field. Masking happens in the router.
 */
export function summarise(
	reply: GatewayReply,
	sent: { clientOrderId?: string; generatedOrderId?: boolean },
	notes: DeliveryNotes,
	includeRaw: boolean,
	moneyEffect: IDataObject = {},
): IDataObject {
	const output: IDataObject = {};
	for (const [key, spellings] of SUMMARY) {
		const spelling = spellings.find((name) => reply.fields[name] !== undefined && reply.fields[name] !== '');
		if (spelling) output[key] = reply.fields[spelling];
	}
	// An accepted asynchronous request carries no status: the order is processing. The v4 sale's
	// JSON reply has no type either, only the new order's IDs.
	const type = reply.fields.type ?? '';
	if (!output.status && (/^async-/.test(type) || (!type && output.orderid && reply.httpStatus < 400))) output.status = 'processing';
	if (!output.client_orderid && sent.clientOrderId) output.client_orderid = sent.clientOrderId;
	output.final = isFinal(reply);
	if (needsThreeDSecure(reply)) {
		output.status = 'processing';
		output.threeDSecureRequired = true;
	}
	Object.assign(output, moneyEffect);
	if (sent.generatedOrderId) output.clientOrderIdGenerated = true;
	for (const [key, value] of Object.entries(notes)) if (value !== undefined) output[key] = value;
	if (includeRaw) output.raw = { ...reply.fields };
	return output;
}
