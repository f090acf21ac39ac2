/**
 * The gateway's reply and callback vocabulary, declared once: every field the package reads from a
 * gateway reply (both formats, both API generations) or from a callback / customer return, with
 * every spelling the gateway and its white labels use for it, and the reader that turns the flat
 * fields into a typed record. Nothing else spells a field: the node's outputs, the reply checks,
 * the trigger's item, its refusals and its confirmation all read the record.
 */
import { MONEY_ACTIONS } from './money';
import { comparableName } from './names';

/** Where flat fields come from: a reply to a request the package sent, or a callback (or customer return) the gateway sent. */
export type FieldSource = 'reply' | 'callback';

interface FieldDeclaration {
	/** Every spelling, in the order a reply's are read: the first non-empty one wins. */
	readonly spellings: readonly string[];
	/**
	 * A callback's reading order, where it differs: these spellings first, the others after them in
	 * reply order. A callback's own spellings lead: the ones its signature covers (`orderid`,
	 * `client_orderid` / `merchant_order`), `error_message` / `error_code`, and `type`, which in a
	 * callback names the transaction and in a reply names the reply.
	 */
	readonly callbackFirst?: readonly string[];
	/** Only a reply has it (a callback's `type` is its transaction type). */
	readonly replyOnly?: true;
}

/** Record field → its spellings. The record's keys are these names. */
export const VOCABULARY = {
	status: { spellings: ['status'] },
	/** The reply's own type (`sale-response`, `status-response`, `validation-error`, `error`); absent in v4 JSON replies. */
	replyType: { spellings: ['type'], replyOnly: true },
	/** The transaction the reply or callback is about (a status reply: the order's latest one, or the one `by-request-sn` names). */
	transactionType: { spellings: ['transaction-type', 'transaction_type'], callbackFirst: ['type'] },
	/** The gateway's order ID. */
	orderId: { spellings: ['paynet-order-id', 'orderid', 'paynet_order_id'], callbackFirst: ['orderid'] },
	/** The merchant's order ID (client_orderid as sent). */
	clientOrderId: {
		spellings: ['merchant-order-id', 'client_orderid', 'client-order-id', 'client-orderid', 'merchant_order'],
		callbackFirst: ['client_orderid', 'merchant_order', 'client-order-id'],
	},
	/** The serial number of this reply's transaction. */
	serialNumber: { spellings: ['serial-number'] },
	/** A status reply about one transaction: the serial number the status query asked about. */
	requestSerialNumber: { spellings: ['by-request-sn'] },
	orderStage: { spellings: ['order-stage'] },
	amount: { spellings: ['amount'] },
	currency: { spellings: ['currency'] },
	redirectUrl: { spellings: ['redirect-url', 'redirect-to', 'redirect_url'] },
	html: { spellings: ['html'] },
	cardRefId: { spellings: ['card-ref-id', 'cardrefid'] },
	uniqueCardRefId: { spellings: ['unq-card-ref-id'] },
	recurringPaymentId: { spellings: ['recurring-payment-id'] },
	errorMessage: { spellings: ['error-message', 'error_message'], callbackFirst: ['error_message'] },
	errorCode: { spellings: ['error-code', 'error_code'], callbackFirst: ['error_code'] },
	approvalCode: { spellings: ['approval-code', 'approval_code'] },
	cardType: { spellings: ['card-type', 'card_type'] },
	bin: { spellings: ['bin'] },
	lastFourDigits: { spellings: ['last-four-digits', 'last_four_digits'] },
	cardHolderName: { spellings: ['cardholder-name', 'card-printed-name'] },
	expireMonth: { spellings: ['expire-month', 'card-exp-month'] },
	expireYear: { spellings: ['expire-year', 'card-exp-year'] },
	descriptor: { spellings: ['descriptor'] },
	processorTxId: { spellings: ['processor-tx-id', 'processor_tx_id'] },
	processorRrn: { spellings: ['processor-rrn'] },
	bankMessage: { spellings: ['bank_message', 'bank-message'] },
	endpointId: { spellings: ['end-point-id'] },
} as const satisfies Record<string, FieldDeclaration>;

export type FieldName = keyof typeof VOCABULARY;

export const FIELD_NAMES = Object.keys(VOCABULARY) as readonly FieldName[];

/** One field spelled more than once with different values: every spelling present, every value (distinct, in reading order). */
export interface FieldConflict {
	readonly field: FieldName;
	readonly spellings: readonly string[];
	readonly values: readonly string[];
}

/**
 * What a reply or callback says, field by field, as received (not trimmed, cased or masked). A field
 * is absent when no spelling of it is present. In a reply it is the first non-empty value in reading
 * order (`''` when every spelling present is empty): an empty field says nothing. In a callback it is
 * the first spelling present, empty or not, as the callback sent it: the trigger refuses a callback
 * whose spellings disagree, or checks them against the signature (the order IDs).
 * `conflicts` lists the fields spelled twice with different values (an empty value counts as a value).
 */
export type FieldRecord = { readonly [F in FieldName]?: string } & { readonly conflicts: readonly FieldConflict[] };

const DECLARATIONS: Readonly<Record<FieldName, FieldDeclaration>> = VOCABULARY;

function spellingsFor(declaration: FieldDeclaration, source: FieldSource): readonly string[] {
	if (source === 'reply') return declaration.spellings;
	if (declaration.replyOnly) return [];
	const first = declaration.callbackFirst ?? [];
	return [...first, ...declaration.spellings.filter((spelling) => !first.includes(spelling))];
}

const SPELLINGS: Readonly<Record<FieldSource, Readonly<Record<FieldName, readonly string[]>>>> = {
	reply: Object.fromEntries(FIELD_NAMES.map((name) => [name, spellingsFor(DECLARATIONS[name], 'reply')])) as Record<
		FieldName,
		readonly string[]
	>,
	callback: Object.fromEntries(
		FIELD_NAMES.map((name) => [name, spellingsFor(DECLARATIONS[name], 'callback')]),
	) as Record<FieldName, readonly string[]>,
};

/** The spellings of a field in a reply or a callback, in reading order (none: the source never has it). */
export function spellingsOf(field: FieldName, source: FieldSource): readonly string[] {
	return SPELLINGS[source][field];
}

/** Reads flat fields (name → string) into the record. Pure; never throws; own properties only. */
export function readFields(fields: Readonly<Record<string, string>>, source: FieldSource): FieldRecord {
	const record: { [F in FieldName]?: string } = {};
	const conflicts: FieldConflict[] = [];
	for (const field of FIELD_NAMES) {
		const present = spellingsOf(field, source).filter(
			(spelling) => Object.prototype.hasOwnProperty.call(fields, spelling) && typeof fields[spelling] === 'string',
		);
		if (present.length === 0) continue;
		const values = present.map((spelling) => fields[spelling]);
		record[field] = source === 'callback' ? values[0] : (values.find((value) => value !== '') ?? '');
		const distinct = [...new Set(values)];
		if (distinct.length > 1) conflicts.push({ field, spellings: present, values: distinct });
	}
	return Object.freeze({ ...record, conflicts: Object.freeze(conflicts) });
}

/** The record of a gateway reply's flat fields. */
export function readReply(fields: Readonly<Record<string, string>>): FieldRecord {
	return readFields(fields, 'reply');
}

/** The record of a callback's (or customer return's) parameters. */
export function readCallback(fields: Readonly<Record<string, string>>): FieldRecord {
	return readFields(fields, 'callback');
}

/** The conflict on one field, if the record has one. */
export function conflictOn(record: FieldRecord, field: FieldName): FieldConflict | undefined {
	return record.conflicts.find((conflict) => conflict.field === field);
}

/**
 * Every non-empty value a field is given, distinct, in reading order (none, one, or more when its
 * spellings disagree).
 */
export function valuesOf(record: FieldRecord, field: FieldName): readonly string[] {
	const conflict = conflictOn(record, field);
	const values = conflict ? conflict.values : record[field] !== undefined ? [record[field] as string] : [];
	return values.filter((value) => value !== '');
}

/**
 * Transaction types that only ever follow an initial payment on the same order: the own types of
 * the follow-up money actions that no initial action has (capture, reversal, cancel, return,
 * refund, void), and the chargeback, which the gateway reports but no operation makes. After one of
 * them a status reply's amount describes the order (what is left), not the follow-up.
 */
export const FOLLOW_UP_TRANSACTION_TYPES: readonly string[] = (() => {
	const facts = Object.values(MONEY_ACTIONS);
	const initial = new Set(facts.filter((action) => !action.followUp).flatMap((action) => action.ownTypes));
	const followUps = facts
		.filter((action) => action.followUp)
		.flatMap((action) => action.ownTypes.filter((type) => !initial.has(type)));
	return Object.freeze([...new Set([...followUps, 'chargeback'])]);
})();

const FOLLOW_UP_KEYS = new Set(FOLLOW_UP_TRANSACTION_TYPES.map(comparableName));

/** True for a follow-up transaction type, compared without case or separators. */
export function isFollowUpTransactionType(type: string | undefined): boolean {
	return type !== undefined && FOLLOW_UP_KEYS.has(comparableName(type));
}
