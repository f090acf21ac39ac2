// "Confirm With Status Query": after a callback verified, ask the gateway itself for the order's
// status (a signed status request) and compare. The callback signature covers only status, orderid
// and merchant order, so this is what catches an altered amount, currency or type.
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { maskText } from '../shared/protocol/masking';
import { isOrderNotFound, replyRecord } from '../shared/protocol/reply';
import { isFollowUpTransactionType, valuesOf, type FieldName, type FieldRecord } from '../shared/protocol/vocabulary';
import { gatewayRequest, merchantCredentials, type GatewayOutcome } from '../shared/transport';
import { sameAmount } from '../shared/protocol/amount';
import { STATUS } from '../shared/protocol/statusWords';
import { ITEM_FIELDS, normaliseStatus, safeBin, safeLastFour, type ItemField } from './normalise';
import { typeKey } from './transactionTypes';

export type ConfirmMode = 'off' | 'emitOnlyWhenConfirmed' | 'emitWithConfirmedFlag';

export const DEFAULT_CONFIRM_TIMEOUT_SECONDS = 10;
export const MAX_CONFIRM_TIMEOUT_SECONDS = 60;

/**
 * `definitive`: the gateway answered about this order; `confirmed` says whether it agrees.
 * `retry`: no definite answer (unreachable, timeout, server error, refused credentials, order still
 * processing). The trigger then answers 503 so that the gateway sends the callback again later.
 */
export type ConfirmOutcome =
	{ kind: 'definitive'; confirmed: boolean; confirmation: IDataObject } | { kind: 'retry'; reason: string };

/** What the callback claims: the fields of the emitted item, in the terms the status reply is compared on. */
export interface CallbackClaim {
	status: string;
	type?: string;
	amount?: string;
	currency?: string;
	orderid?: string;
	client_orderid?: string;
	/** Other item fields that a status reply may also carry, by item name. */
	details: Record<string, string>;
}

/** Item fields besides the core ones: compared when the status reply carries them. */
const DETAILS: readonly ItemField[] = [
	'approvalCode',
	'errorCode',
	'errorMessage',
	'descriptor',
	'processorTxId',
	'cardType',
	'bin',
	'lastFourDigits',
];

export function claimOf(item: IDataObject): CallbackClaim {
	const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
	const details: Record<string, string> = {};
	for (const name of DETAILS) {
		const value = text(item[name]);
		if (value !== undefined) details[name] = value;
	}
	return {
		status: normaliseStatus(text(item.status)),
		type: text(item.type),
		amount: text(item.amount),
		currency: text(item.currency),
		orderid: text(item.orderid),
		client_orderid: text(item.client_orderid),
		details,
	};
}

/**
 * Asks the gateway about the order the verified callback names (`ids`: its signed identifiers, as
 * received) and compares every field the item reports.
 */
export async function confirmWithStatusQuery(
	ctx: IWebhookFunctions,
	item: IDataObject,
	ids: { orderid: string; client_orderid: string },
	timeoutSeconds: number,
): Promise<ConfirmOutcome> {
	const credentials = await merchantCredentials(ctx);
	const claim = claimOf(item);
	let outcome: GatewayOutcome;
	try {
		outcome = await gatewayRequest(ctx, {
			operation: 'status',
			fields: [
				['login', String(credentials.login ?? '')],
				['client_orderid', ids.client_orderid],
				['orderid', ids.orderid],
			],
			timeoutMs: clampTimeout(timeoutSeconds) * 1000,
		});
	} catch (error) {
		// A configuration problem found before sending (e.g. no endpoint ID in the credential).
		return { kind: 'retry', reason: `the status query could not be sent: ${(error as Error).message}` };
	}
	return interpretStatusOutcome(outcome, claim, [String(credentials.controlKey ?? '')]);
}

export function clampTimeout(seconds: unknown): number {
	const value = Number(seconds);
	if (!Number.isFinite(value) || value <= 0) return DEFAULT_CONFIRM_TIMEOUT_SECONDS;
	return Math.min(Math.max(value, 1), MAX_CONFIRM_TIMEOUT_SECONDS);
}

/**
 * Pure: decides from the status query's outcome whether the callback is confirmed, refuted or
 * undecided. Confirmed means every core field the item reports (status, type, amount, currency,
 * both order IDs) was compared with the gateway's answer and agrees, and the callback's transaction
 * is the order's latest; a field that cannot be compared is a reason not to confirm. A follow-up's
 * own amount and the other fields are compared when the reply can say them and otherwise listed as
 * `unchecked` (a confirmed item drops them).
 */
export function interpretStatusOutcome(
	outcome: GatewayOutcome,
	claim: CallbackClaim,
	secrets: readonly string[] = [],
): ConfirmOutcome {
	if (outcome.kind === 'lost') {
		return {
			kind: 'retry',
			reason: `no gateway reply to the status query: ${outcome.what} (${maskText(outcome.message, secrets)})`,
		};
	}
	const { reply, failure } = outcome;
	if (failure) {
		if (isOrderNotFound(reply)) {
			const confirmation: IDataObject = {
				found: false,
				errorMessage: maskText(failure.message, secrets),
				mismatches: ['order not found'],
			};
			if (failure.code) confirmation.errorCode = failure.code;
			return { kind: 'definitive', confirmed: false, confirmation };
		}
		const code = failure.code ? `, code ${failure.code}` : '';
		return {
			kind: 'retry',
			reason: `the gateway refused the status query (${failure.kind}, HTTP ${failure.httpStatus}${code}): ${maskText(failure.message, secrets)}`,
		};
	}
	const record = replyRecord(reply);
	const confirmation = confirmationOf(record, secrets);
	const status = normaliseStatus(record.status);
	if (!status) {
		return { kind: 'retry', reason: 'the status reply carries no status' };
	}
	if (status === STATUS.processing && claim.status !== STATUS.processing) {
		return {
			kind: 'retry',
			reason: `the gateway still reports the order as processing while the callback says ${claim.status || 'nothing'}`,
		};
	}
	const mismatches: string[] = [];
	// The item's values are masked (a value that reads as a card number is cut): compare masked forms.
	const gateway = (field: FieldName) => {
		const value = emptyToUndefined(record[field]);
		return value === undefined ? undefined : maskText(value, secrets);
	};
	if (status === STATUS.error && isOrderNotFound(reply)) {
		// Some gateways answer a signed query for an unknown order with a status reply, not an error.
		confirmation.found = false;
		mismatches.push('order not found');
	}
	if (status !== claim.status) mismatches.push(`status: callback "${claim.status}", gateway "${status}"`);

	// The reply describes the order's latest transaction. When that is not the callback's own
	// transaction (a sale callback retried after a refund), it cannot confirm the callback.
	// In a status reply `type` is the reply's own type (status-response); the record's transaction type never reads it there.
	const gatewayType = gateway('transactionType');
	if (claim.type === undefined)
		mismatches.push('type: the callback names no transaction type, so it cannot be compared');
	else if (gatewayType === undefined)
		mismatches.push('type: the status reply names no transaction type, so it cannot be compared');
	else if (typeKey(claim.type) !== typeKey(gatewayType))
		mismatches.push(`type: callback "${claim.type}", gateway "${gatewayType}" (the order has a later transaction)`);

	// A status reply names no transaction of its own, and a callback carries no serial number to ask
	// about one (by-request-sn): the reply describes the order. Its amount is the follow-up's own only
	// while nothing followed; after a follow-up (vocabulary.ts) it is what remains of the order. A
	// follow-up whose status and type the reply confirms is confirmed without its amount: the item
	// then reports none (it stays in `raw`), and `confirmation.amount` is what the gateway says remains.
	const unchecked: string[] = [];
	const amount = gateway('amount');
	const followUp = [claim.type, gatewayType].find((type) => type !== undefined && isFollowUpTransactionType(type));
	confirmation.amountChecked = claim.amount !== undefined && amount !== undefined && !followUp;
	if (claim.amount !== undefined) {
		if (followUp) {
			unchecked.push('amount');
			confirmation.amountNote = `after a ${followUp} the status reports what remains of the order ("${amount ?? ''}"), not the ${followUp}'s own amount`;
		} else if (amount === undefined)
			mismatches.push('amount: the status reply carries no amount, so it cannot be compared');
		else if (!sameAmount(claim.amount, amount))
			mismatches.push(`amount: callback "${claim.amount}", gateway "${amount}"`);
	}
	compareExact(mismatches, 'currency', claim.currency?.trim().toUpperCase(), gateway('currency')?.trim().toUpperCase());
	compareExact(mismatches, 'orderid', claim.orderid, gateway(ITEM_FIELDS.orderid));
	compareExact(mismatches, 'client_orderid', claim.client_orderid, gateway(ITEM_FIELDS.client_orderid));

	for (const name of DETAILS) {
		const claimed = claim.details[name];
		if (claimed === undefined) continue;
		const answered = gateway(ITEM_FIELDS[name]);
		if (answered === undefined) unchecked.push(name);
		else if (!sameDetail(name, claimed, answered))
			mismatches.push(`${name}: callback "${claimed}", gateway "${answered}"`);
	}
	// A status reply that spells a compared field twice with different values says two things: neither confirms.
	for (const name of COMPARED) {
		if (claimOfField(claim, name) === undefined) continue;
		const values = valuesOf(record, ITEM_FIELDS[name]).filter((value) => value.trim() !== '');
		if (values.length > 1)
			mismatches.push(
				`${name}: the status reply gives it twice, as "${values.map((value) => maskText(value, secrets)).join('" and "')}"`,
			);
	}
	confirmation.unchecked = unchecked;
	confirmation.mismatches = mismatches.map((text) => maskText(text, secrets));
	return { kind: 'definitive', confirmed: mismatches.length === 0, confirmation };
}

/** A field the item reports must be in the reply and equal there; one the item does not report is not compared. */
function compareExact(
	mismatches: string[],
	name: string,
	claimed: string | undefined,
	answered: string | undefined,
): void {
	if (claimed === undefined) return;
	if (answered === undefined) mismatches.push(`${name}: the status reply carries none, so it cannot be compared`);
	else if (claimed !== answered) mismatches.push(`${name}: callback "${claimed}", gateway "${answered}"`);
}

/** The item reduces card data (BIN to 6–8 digits, last four) and lower-cases nothing else. */
function sameDetail(name: string, claimed: string, answered: string): boolean {
	if (name === 'bin') return safeBin(answered) === claimed;
	if (name === 'lastFourDigits') return safeLastFour(answered) === claimed;
	if (name === 'cardType') return answered.trim().toLowerCase() === claimed.trim().toLowerCase();
	return claimed.trim() === answered.trim();
}

/** Confirmation key ← the field of the status reply's record. */
const CONFIRMATION: ReadonlyArray<readonly [string, FieldName]> = [
	['status', 'status'],
	['amount', 'amount'],
	['currency', 'currency'],
	['transactionType', 'transactionType'],
	['orderid', 'orderId'],
	['client_orderid', 'clientOrderId'],
	['orderStage', 'orderStage'],
	['serialNumber', 'serialNumber'],
	['approvalCode', 'approvalCode'],
	['errorCode', 'errorCode'],
	['errorMessage', 'errorMessage'],
];

/** Every item field the confirmation compares with the status reply. */
const COMPARED: readonly ItemField[] = ['type', 'amount', 'currency', 'orderid', 'client_orderid', ...DETAILS];

function claimOfField(claim: CallbackClaim, name: ItemField): string | undefined {
	if (name === 'type' || name === 'amount' || name === 'currency' || name === 'orderid' || name === 'client_orderid')
		return claim[name];
	return claim.details[name];
}

function confirmationOf(record: FieldRecord, secrets: readonly string[]): IDataObject {
	const confirmation: IDataObject = { found: true };
	for (const [name, field] of CONFIRMATION) {
		const value = record[field];
		if (value === undefined || value === '') continue;
		confirmation[name] = maskText(name === 'status' ? normaliseStatus(value) : value, secrets);
	}
	return confirmation;
}

function emptyToUndefined(value: string | undefined): string | undefined {
	return value === undefined || value.trim() === '' ? undefined : value;
}
