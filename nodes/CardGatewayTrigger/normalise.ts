// Turns the received parameters into the item the trigger emits: stable camelCase fields, card data
// reduced to BIN / last four digits, free text scrubbed of card numbers, plus the masked raw map.
import type { IDataObject } from 'n8n-workflow';

import { maskSensitive, maskText } from '../shared/protocol/masking';
import { comparableName } from '../shared/protocol/names';

export type CallbackEvent = 'serverCallback' | 'customerReturn';

export interface NormaliseOptions {
	event: CallbackEvent;
	method: string;
	receivedAt: string;
	verified: boolean;
	/** Values that must never appear in the item (the merchant control key, …). */
	secrets: readonly string[];
}

/**
 * Item field → the spellings the gateway (or its white labels) use for it, first match wins.
 * Status replies use the same spellings (but for `type`, which names the reply there); the item, the
 * filters and the confirmation all read them from here.
 */
export const FIELD_SPELLINGS = {
	orderid: ['orderid', 'paynet-order-id', 'paynet_order_id'],
	client_orderid: ['client_orderid', 'merchant_order', 'client-order-id', 'merchant-order-id'],
	type: ['type', 'transaction-type', 'transaction_type'],
	amount: ['amount'],
	currency: ['currency'],
	errorCode: ['error_code', 'error-code'],
	errorMessage: ['error_message', 'error-message'],
	approvalCode: ['approval-code', 'approval_code'],
	descriptor: ['descriptor'],
	processorTxId: ['processor-tx-id', 'processor_tx_id'],
	cardType: ['card-type', 'card_type'],
	bin: ['bin'],
	lastFourDigits: ['last-four-digits', 'last_four_digits'],
} as const satisfies Record<string, readonly string[]>;

export type ItemField = keyof typeof FIELD_SPELLINGS;

// Every value is scrubbed of card numbers and secrets, identifiers too: a value that reads as a card
// number (12–19 digits passing the Luhn check) is masked wherever it stands. Checks compare masked forms.
const TEXT_FIELDS: readonly ItemField[] = ['amount', 'currency', 'errorCode', 'errorMessage', 'approvalCode', 'descriptor', 'processorTxId', 'cardType'];

/**
 * A request that spells one field twice with different values is refused: the item reads one
 * spelling, a check could read the other (a forged `transaction-type` beside a genuine `type`).
 * (The order IDs are checked against the signed values by verify.ts.)
 */
export function conflictingSpellings(fields: Readonly<Record<string, string>>): string | undefined {
	for (const [name, spellings] of Object.entries(FIELD_SPELLINGS)) {
		if (name === 'orderid' || name === 'client_orderid') continue;
		const values = new Set(spellings.filter((spelling) => Object.prototype.hasOwnProperty.call(fields, spelling)).map((spelling) => fields[spelling]));
		if (values.size > 1) return `the parameters ${spellings.join(' / ')} disagree`;
	}
	return undefined;
}

export function pick(fields: Readonly<Record<string, string>>, names: readonly string[]): string | undefined {
	for (const name of names) {
		if (Object.prototype.hasOwnProperty.call(fields, name) && typeof fields[name] === 'string') return fields[name];
	}
	return undefined;
}

/** Lower-case, trimmed: `Approved ` → `approved`. */
export function normaliseStatus(value: string | undefined): string {
	return (value ?? '').trim().toLowerCase();
}

/** Transaction types compare without case or separators: `account-verification` = `Account Verification`. */
export const typeKey = comparableName;

/** A BIN is at most 8 leading digits; anything longer is cut back to the first 6. */
export function safeBin(value: string): string {
	const digits = value.replace(/\D/g, '');
	return digits.length <= 8 ? digits : digits.slice(0, 6);
}

/** Only the last four digits survive. */
export function safeLastFour(value: string): string {
	return value.replace(/\D/g, '').slice(-4);
}

export function normaliseCallback(fields: Readonly<Record<string, string>>, options: NormaliseOptions): IDataObject {
	const { secrets } = options;
	const item: IDataObject = {
		event: options.event,
		status: maskText(normaliseStatus(fields.status), options.secrets),
	};
	const type = pick(fields, FIELD_SPELLINGS.type);
	if (type !== undefined) item.type = maskText(type.trim().toLowerCase(), secrets);
	for (const name of ['orderid', 'client_orderid'] as const) item[name] = maskText(pick(fields, FIELD_SPELLINGS[name]) ?? '', secrets);
	for (const name of TEXT_FIELDS) {
		const value = pick(fields, FIELD_SPELLINGS[name]);
		if (value !== undefined) item[name] = maskText(value, secrets);
	}
	const bin = pick(fields, FIELD_SPELLINGS.bin);
	if (bin !== undefined) item.bin = safeBin(bin);
	const lastFour = pick(fields, FIELD_SPELLINGS.lastFourDigits);
	if (lastFour !== undefined) item.lastFourDigits = safeLastFour(lastFour);
	item.verified = options.verified;
	item.method = options.method.toUpperCase();
	item.receivedAt = options.receivedAt;
	item.raw = maskSensitive({ ...fields }, secrets) as IDataObject;
	return item;
}

/** A short, masked description of a request for log lines: identifiers only, never card data or keys. */
export function logSummary(fields: Readonly<Record<string, string>>, secrets: readonly string[]): IDataObject {
	const summary: IDataObject = {};
	const entries: Array<[string, string | undefined]> = [
		['status', fields.status],
		['type', fields.type],
		['orderid', pick(fields, ['orderid'])],
		['client_orderid', pick(fields, ['client_orderid', 'merchant_order'])],
	];
	for (const [name, value] of entries) {
		if (value !== undefined) summary[name] = maskText(value.length > 128 ? `${value.slice(0, 128)}…` : value, secrets);
	}
	return summary;
}
