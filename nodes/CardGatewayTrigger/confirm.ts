// "Confirm With Status Query": after a callback verified, ask the gateway itself for the order's
// status (a signed status request) and compare. The callback signature covers only status, orderid
// and merchant order, so this is what catches an altered amount, currency or type.
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { maskText } from '../shared/protocol/masking';
import { isOrderNotFound } from '../shared/protocol/reply';
import { gatewayRequest, merchantCredentials, type GatewayOutcome } from '../shared/transport';
import { normaliseStatus, pick, typeKey } from './normalise';

export type ConfirmMode = 'off' | 'emitOnlyWhenConfirmed' | 'emitWithConfirmedFlag';

export const DEFAULT_CONFIRM_TIMEOUT_SECONDS = 10;
export const MAX_CONFIRM_TIMEOUT_SECONDS = 60;

/**
 * `definitive`: the gateway answered about this order; `confirmed` says whether it agrees.
 * `retry`: no definite answer (unreachable, timeout, server error, refused credentials, order still
 * processing). The trigger then answers 503 so that the gateway sends the callback again later.
 */
export type ConfirmOutcome =
	| { kind: 'definitive'; confirmed: boolean; confirmation: IDataObject }
	| { kind: 'retry'; reason: string };

/** What the callback claims, in the terms the status reply is compared on. */
export interface CallbackClaim {
	status: string;
	type?: string;
	amount?: string;
	currency?: string;
	orderid?: string;
}

export function claimOf(fields: Readonly<Record<string, string>>): CallbackClaim {
	return {
		status: normaliseStatus(fields.status),
		type: emptyToUndefined(fields.type),
		amount: emptyToUndefined(fields.amount),
		currency: emptyToUndefined(fields.currency),
		orderid: emptyToUndefined(fields.orderid),
	};
}

/**
 * Transactions that follow an initial payment on the same order. For them the status reply's amount
 * describes the order (e.g. what remains after a partial refund), not the follow-up itself, so it
 * cannot confirm the callback's amount.
 */
const FOLLOW_UP_TYPES = new Set(['capture', 'reversal', 'cancel', 'chargeback', 'void', 'return', 'refund'].map(typeKey));

export async function confirmWithStatusQuery(
	ctx: IWebhookFunctions,
	fields: Readonly<Record<string, string>>,
	timeoutSeconds: number,
): Promise<ConfirmOutcome> {
	const credentials = await merchantCredentials(ctx);
	const clientOrderId = pick(fields, ['client_orderid', 'merchant_order']) ?? '';
	let outcome: GatewayOutcome;
	try {
		outcome = await gatewayRequest(ctx, {
			operation: 'status',
			fields: [
				['login', String(credentials.login ?? '')],
				['client_orderid', clientOrderId],
				['orderid', fields.orderid ?? ''],
			],
			timeoutMs: clampTimeout(timeoutSeconds) * 1000,
		});
	} catch (error) {
		// A configuration problem found before sending (e.g. no endpoint ID in the credential).
		return { kind: 'retry', reason: `the status query could not be sent: ${(error as Error).message}` };
	}
	return interpretStatusOutcome(outcome, claimOf(fields), [String(credentials.controlKey ?? '')]);
}

export function clampTimeout(seconds: unknown): number {
	const value = Number(seconds);
	if (!Number.isFinite(value) || value <= 0) return DEFAULT_CONFIRM_TIMEOUT_SECONDS;
	return Math.min(Math.max(value, 1), MAX_CONFIRM_TIMEOUT_SECONDS);
}

/** Pure: decides from the status query's outcome whether the callback is confirmed, refuted or undecided. */
export function interpretStatusOutcome(outcome: GatewayOutcome, claim: CallbackClaim, secrets: readonly string[] = []): ConfirmOutcome {
	if (outcome.kind === 'unreachable') {
		return { kind: 'retry', reason: `the gateway did not answer the status query: ${maskText(outcome.message, secrets)} (${outcome.code})` };
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
	const fields = reply.fields;
	const confirmation = confirmationOf(fields, secrets);
	const status = normaliseStatus(fields.status);
	if (!status) {
		return { kind: 'retry', reason: 'the status reply carries no status' };
	}
	if (status === 'processing' && claim.status !== 'processing') {
		return { kind: 'retry', reason: `the gateway still reports the order as processing while the callback says ${claim.status || 'nothing'}` };
	}
	const mismatches: string[] = [];
	if (status === 'error' && isOrderNotFound(reply)) {
		// Some gateways answer a signed query for an unknown order with a status reply, not an error.
		confirmation.found = false;
		mismatches.push('order not found');
	}
	// The reply describes the order's latest transaction. When that is not the callback's own
	// transaction (a sale callback retried after a refund), it cannot confirm the callback.
	const gatewayType = emptyToUndefined(pick(fields, ['transaction-type', 'transaction_type']));
	if (claim.type !== undefined && gatewayType !== undefined && typeKey(claim.type) !== typeKey(gatewayType)) {
		mismatches.push(`type: callback "${claim.type}", gateway "${gatewayType}" (the order has a later transaction)`);
	}
	if (status !== claim.status) mismatches.push(`status: callback "${claim.status}", gateway "${status}"`);
	const amount = emptyToUndefined(fields.amount);
	const followUp = FOLLOW_UP_TYPES.has(typeKey(claim.type ?? gatewayType));
	confirmation.amountChecked = claim.amount !== undefined && amount !== undefined && !followUp;
	if (confirmation.amountChecked && !sameAmount(claim.amount!, amount!)) {
		mismatches.push(`amount: callback "${claim.amount}", gateway "${amount}"`);
	}
	const currency = emptyToUndefined(fields.currency);
	if (claim.currency !== undefined && currency !== undefined && claim.currency.trim().toUpperCase() !== currency.trim().toUpperCase()) {
		mismatches.push(`currency: callback "${claim.currency}", gateway "${currency}"`);
	}
	const gatewayOrderId = emptyToUndefined(pick(fields, ['paynet-order-id', 'orderid']));
	if (claim.orderid !== undefined && gatewayOrderId !== undefined && claim.orderid.trim() !== gatewayOrderId.trim()) {
		mismatches.push(`orderid: callback "${claim.orderid}", gateway "${gatewayOrderId}"`);
	}
	confirmation.mismatches = mismatches.map((text) => maskText(text, secrets));
	return { kind: 'definitive', confirmed: mismatches.length === 0, confirmation };
}

function confirmationOf(fields: Readonly<Record<string, string>>, secrets: readonly string[]): IDataObject {
	const confirmation: IDataObject = { found: true };
	const picks: Array<[string, readonly string[]]> = [
		['status', ['status']],
		['amount', ['amount']],
		['currency', ['currency']],
		['transactionType', ['transaction-type', 'transaction_type']],
		['orderid', ['paynet-order-id', 'orderid']],
		['client_orderid', ['merchant-order-id', 'client_orderid']],
		['orderStage', ['order-stage']],
		['serialNumber', ['serial-number']],
		['approvalCode', ['approval-code']],
		['errorCode', ['error-code', 'error_code']],
		['errorMessage', ['error-message', 'error_message']],
	];
	for (const [name, spellings] of picks) {
		const value = pick(fields, spellings);
		if (value === undefined || value === '') continue;
		// Identifiers stay exact (a serial number can look like a card number); free text is scrubbed.
		confirmation[name] = name === 'status' ? normaliseStatus(value) : name === 'errorMessage' ? maskText(value, secrets) : value;
	}
	return confirmation;
}

/** Decimal amounts compare by value: "10.5" = "10.50" = "010.50"; anything else compares as text. */
export function sameAmount(a: string, b: string): boolean {
	const canonical = (value: string) => {
		const match = /^(\d+)(?:\.(\d*))?$/.exec(value.trim());
		if (!match) return undefined;
		const integer = match[1].replace(/^0+(?=\d)/, '');
		const fraction = (match[2] ?? '').replace(/0+$/, '');
		return fraction ? `${integer}.${fraction}` : integer;
	};
	const left = canonical(a);
	const right = canonical(b);
	if (left === undefined || right === undefined) return a.trim() === b.trim();
	return left === right;
}

function emptyToUndefined(value: string | undefined): string | undefined {
	return value === undefined || value.trim() === '' ? undefined : value;
}
