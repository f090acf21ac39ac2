// Turns the received parameters into the item the trigger emits: stable camelCase fields, card data
// reduced to BIN / last four digits, free text scrubbed of card numbers, plus the masked raw map.
import type { IDataObject } from 'n8n-workflow';

import { maskSensitive, maskText } from '../shared/protocol/masking';
import { conflictOn, readCallback, spellingsOf, type FieldName } from '../shared/protocol/vocabulary';
import { canonicalType, kindOf } from './transactionTypes';

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
 * Item field → the field of the callback's record it reports (vocabulary.ts declares the spellings).
 * The item, the filters and the confirmation all read the record; in a status reply `type` names the
 * reply, so the confirmation reads the transaction type from its own spellings there.
 */
export const ITEM_FIELDS = {
	orderid: 'orderId',
	client_orderid: 'clientOrderId',
	type: 'transactionType',
	amount: 'amount',
	currency: 'currency',
	errorCode: 'errorCode',
	errorMessage: 'errorMessage',
	approvalCode: 'approvalCode',
	descriptor: 'descriptor',
	processorTxId: 'processorTxId',
	cardType: 'cardType',
	bin: 'bin',
	lastFourDigits: 'lastFourDigits',
} as const satisfies Record<string, FieldName>;

export type ItemField = keyof typeof ITEM_FIELDS;

/** Item field → every spelling a callback may use for it, in reading order (verify.ts checks the order IDs' against the signed values). */
export const FIELD_SPELLINGS = Object.fromEntries(
	(Object.keys(ITEM_FIELDS) as ItemField[]).map((name) => [name, spellingsOf(ITEM_FIELDS[name], 'callback')]),
) as Readonly<Record<ItemField, readonly string[]>>;

// Every value is scrubbed of card numbers and secrets, identifiers too: a value that reads as a card
// number (12–19 digits passing the Luhn check) is masked wherever it stands. Checks compare masked forms.
const TEXT_FIELDS: readonly ItemField[] = [
	'amount',
	'currency',
	'errorCode',
	'errorMessage',
	'approvalCode',
	'descriptor',
	'processorTxId',
	'cardType',
];

/**
 * A request that spells one field twice with different values is refused: the item reads one
 * spelling, a check could read the other (a forged `transaction-type` beside a genuine `type`).
 * (The order IDs are checked against the signed values by verify.ts.)
 */
export function conflictingSpellings(fields: Readonly<Record<string, string>>): string | undefined {
	const record = readCallback(fields);
	for (const name of Object.keys(ITEM_FIELDS) as ItemField[]) {
		if (name === 'orderid' || name === 'client_orderid') continue;
		const field = ITEM_FIELDS[name];
		if (conflictOn(record, field)) return `the parameters ${spellingsOf(field, 'callback').join(' / ')} disagree`;
	}
	return undefined;
}

/** Lower-case, trimmed: `Approved ` → `approved`. */
export function normaliseStatus(value: string | undefined): string {
	return (value ?? '').trim().toLowerCase();
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
	const record = readCallback(fields);
	const read = (name: ItemField) => record[ITEM_FIELDS[name]];
	const item: IDataObject = {
		event: options.event,
		status: maskText(normaliseStatus(record.status), options.secrets),
	};
	const type = read('type');
	if (type !== undefined) {
		item.type = maskText(canonicalType(type), secrets);
		item.kind = maskText(kindOf(type), secrets);
	}
	for (const name of ['orderid', 'client_orderid'] as const) item[name] = maskText(read(name) ?? '', secrets);
	for (const name of TEXT_FIELDS) {
		const value = read(name);
		if (value !== undefined) item[name] = maskText(value, secrets);
	}
	const bin = read('bin');
	if (bin !== undefined) item.bin = safeBin(bin);
	const lastFour = read('lastFourDigits');
	if (lastFour !== undefined) item.lastFourDigits = safeLastFour(lastFour);
	item.eventKey = eventKeyOf(item);
	// Nothing is confirmed yet: a callback's type is unsigned (handle.ts sets both after a status query).
	item.eventKeyConfirmed = options.event === 'customerReturn' && options.verified;
	item.amountConfirmed = false;
	item.verified = options.verified;
	item.method = options.method.toUpperCase();
	item.receivedAt = options.receivedAt;
	item.raw = maskSensitive({ ...fields }, secrets) as IDataObject;
	return item;
}

/** A customer return's third key part: it carries no type, and no canonical type has this spelling. */
const RETURN_KEY_PART = 'customer-return';

/**
 * The event's one key, `orderid:status:type`: the gateway's order ID and the status (both signed) and
 * the transaction type in its one spelling (canonicalType), empty when the callback names none. Every
 * spelling of one callback gives one key; for a sale or reversal it reads as the recipe's key always
 * did (`100001:approved:sale`), so claims made under that key still hold.
 */
export function eventKeyOf(item: IDataObject): string {
	const third = item.event === 'customerReturn' ? RETURN_KEY_PART : ((item.type as string | undefined) ?? '');
	return `${item.orderid as string}:${item.status as string}:${third}`;
}

/** A short, masked description of a request for log lines: identifiers only, never card data or keys. */
export function logSummary(fields: Readonly<Record<string, string>>, secrets: readonly string[]): IDataObject {
	const summary: IDataObject = {};
	const record = readCallback(fields);
	const entries: Array<[string, string | undefined]> = [
		['status', record.status],
		['type', record.transactionType],
		['orderid', record.orderId],
		['client_orderid', record.clientOrderId],
	];
	for (const [name, value] of entries) {
		if (value !== undefined) summary[name] = maskText(value.length > 128 ? `${value.slice(0, 128)}…` : value, secrets);
	}
	return summary;
}

/**
 * The callback a log line is about, in the line's text (n8n's default log output prints the message,
 * not its metadata): `order 123 (client_orderid A-1, reversal approved)`. Built from logSummary.
 */
export function callbackInWords(summary: IDataObject): string {
	const text = (name: string) =>
		typeof summary[name] === 'string' && summary[name] !== '' ? summary[name] : undefined;
	const what = [text('type') ?? 'no type', text('status') ?? 'no status'].join(' ');
	return `order ${text('orderid') ?? '(none)'} (client_orderid ${text('client_orderid') ?? '(none)'}, ${what})`;
}
