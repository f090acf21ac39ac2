// Turns the received parameters into the item the trigger emits: stable camelCase fields, card data
// reduced to BIN / last four digits, free text scrubbed of card numbers, plus the masked raw map.
import type { IDataObject } from 'n8n-workflow';

import { maskSensitive, maskText } from '../shared/protocol/masking';

export type CallbackEvent = 'serverCallback' | 'customerReturn';

export interface NormaliseOptions {
	event: CallbackEvent;
	method: string;
	receivedAt: string;
	verified: boolean;
	/** Values that must never appear in the item (the merchant control key, …). */
	secrets: readonly string[];
}

// Output name → the spellings the gateway (or its white labels) use for it, first match wins.
export const IDENTIFIERS: ReadonlyArray<readonly [string, readonly string[]]> = [
	['orderid', ['orderid', 'paynet-order-id', 'paynet_order_id']],
	['client_orderid', ['client_orderid', 'merchant_order', 'client-order-id', 'merchant-order-id']],
];

// Every value is scrubbed of card numbers and secrets, identifiers too: a value that reads as a card
// number (12–19 digits passing the Luhn check) is masked wherever it stands. Checks compare masked forms.
const OPTIONAL_FIELDS: ReadonlyArray<readonly [string, readonly string[]]> = [
	['amount', ['amount']],
	['currency', ['currency']],
	['errorCode', ['error_code', 'error-code']],
	['errorMessage', ['error_message', 'error-message']],
	['approvalCode', ['approval-code', 'approval_code']],
	['descriptor', ['descriptor']],
	['processorTxId', ['processor-tx-id', 'processor_tx_id']],
	['cardType', ['card-type', 'card_type']],
];

/** Every field the item reads under more than one spelling. */
const TYPE_SPELLINGS = ['type', 'transaction-type', 'transaction_type'] as const;

/**
 * A request that spells one field twice with different values is refused: the item reads one
 * spelling, a check could read the other (a forged `transaction-type` beside a genuine `type`).
 */
export function conflictingSpellings(fields: Readonly<Record<string, string>>): string | undefined {
	const groups = [TYPE_SPELLINGS, ...OPTIONAL_FIELDS.map(([, spellings]) => spellings), ['last-four-digits', 'last_four_digits']];
	for (const spellings of groups) {
		const values = new Set(spellings.filter((name) => Object.prototype.hasOwnProperty.call(fields, name)).map((name) => fields[name]));
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
export function typeKey(value: string | undefined): string {
	return (value ?? '').toLowerCase().replace(/[^a-z0-9]/g, '');
}

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
	const type = pick(fields, TYPE_SPELLINGS);
	if (type !== undefined) item.type = maskText(type.trim().toLowerCase(), secrets);
	for (const [name, spellings] of IDENTIFIERS) item[name] = maskText(pick(fields, spellings) ?? '', secrets);
	for (const [name, spellings] of OPTIONAL_FIELDS) {
		const value = pick(fields, spellings);
		if (value !== undefined) item[name] = maskText(value, secrets);
	}
	const bin = pick(fields, ['bin']);
	if (bin !== undefined) item.bin = safeBin(bin);
	const lastFour = pick(fields, ['last-four-digits', 'last_four_digits']);
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
