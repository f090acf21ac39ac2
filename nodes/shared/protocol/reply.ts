import { isGatewayStatus } from './statusWords';
import { readReply, spellingsOf, valuesOf, type FieldRecord } from './vocabulary';

/**
 * A gateway reply with its fields flattened to trimmed strings under the gateway's own (kebab-case)
 * keys, and what they say read through the vocabulary (vocabulary.ts).
 */
export interface GatewayReply {
	httpStatus: number;
	format: 'json' | 'legacy';
	fields: Record<string, string>;
	/** The fields read through the vocabulary, computed once by parseGatewayReply; read it with replyRecord(). */
	record?: FieldRecord;
}

export type GatewayErrorKind = 'validation' | 'declined' | 'authentication' | 'server' | 'transport';

/** A reply that is an error: the gateway's own message and code, and how it was classified. */
export interface GatewayFailure {
	kind: GatewayErrorKind;
	httpStatus: number;
	message: string;
	code?: string;
	type?: string;
	serialNumber?: string;
}

export const JSON_MEDIA_TYPE = 'application/vnd.pay+json';

/**
 * Parses either reply format. JSON arrives when `Accept: application/vnd.pay+json` was honoured;
 * the legacy form is `key=value\n&key=value\n` with urlencoded values (HTTP 200 even for errors).
 */
export function parseGatewayReply(httpStatus: number, contentType: string | undefined, body: unknown): GatewayReply {
	const text = typeof body === 'string' ? body : Buffer.isBuffer(body) ? body.toString('utf8') : undefined;
	if (text === undefined) {
		return withRecord({ httpStatus, format: 'json', fields: flatten(body) });
	}
	const trimmed = text.trim();
	if (/json/i.test(contentType ?? '') || trimmed.startsWith('{')) {
		try {
			return withRecord({ httpStatus, format: 'json', fields: flatten(JSON.parse(trimmed)) });
		} catch {
			// not JSON after all: fall through to the legacy parser, which keeps whatever it can read
		}
	}
	return withRecord({ httpStatus, format: 'legacy', fields: parseLegacy(trimmed) });
}

function withRecord(reply: GatewayReply): GatewayReply {
	return { ...reply, record: readReply(reply.fields) };
}

/** What the reply says (vocabulary.ts): the record parseGatewayReply computed, or read now from a reply built elsewhere. */
export function replyRecord(reply: GatewayReply): FieldRecord {
	return reply.record ?? readReply(reply.fields);
}

export function parseLegacy(text: string): Record<string, string> {
	const fields: Record<string, string> = {};
	for (const pair of text.split('&')) {
		const separator = pair.indexOf('=');
		if (separator <= 0) continue;
		const name = decodeFormComponent(pair.slice(0, separator)).trim();
		fields[name] = decodeFormComponent(pair.slice(separator + 1)).trim();
	}
	return fields;
}

/**
 * Classifies a reply: gateway `validation-error` / `error` types, authentication refusals
 * (401/403), server errors (5xx) and anything else that is not a gateway answer.
 */
export function classifyReply(reply: GatewayReply): GatewayFailure | undefined {
	const { fields, httpStatus } = reply;
	const record = replyRecord(reply);
	const type = record.replyType;
	const message = record.errorMessage;
	const code = record.errorCode || undefined;
	const base = { httpStatus, code, type, serialNumber: record.serialNumber || undefined };
	if (httpStatus === 401 || httpStatus === 403) {
		return {
			...base,
			kind: 'authentication',
			message: message || `The gateway refused the request signature (HTTP ${httpStatus})`,
		};
	}
	if (httpStatus >= 500) {
		return { ...base, kind: 'server', message: message || `The gateway had an internal error (HTTP ${httpStatus})` };
	}
	if (type === 'validation-error') {
		return { ...base, kind: 'validation', message: message || 'The gateway refused the request as invalid' };
	}
	if (type === 'error') {
		return { ...base, kind: 'declined', message: message || 'The gateway reported an error' };
	}
	if (httpStatus >= 400) {
		return {
			...base,
			kind: httpStatus === 400 ? 'validation' : 'transport',
			message: message || `The gateway answered HTTP ${httpStatus}`,
		};
	}
	if (Object.keys(fields).length === 0) {
		return {
			...base,
			kind: 'transport',
			message: `The reply (HTTP ${httpStatus}) is not a gateway reply: check the base URL`,
		};
	}
	return undefined;
}

/** What a reply must be about: the IDs the request sent (absent ones are not checked). */
export interface ReplyExpectation {
	clientOrderId?: string;
	orderId?: string;
}

/** Every spelling under which a reply names the merchant's and the gateway's order ID (declared in vocabulary.ts). */
export const MERCHANT_ORDER_ID_SPELLINGS: readonly string[] = spellingsOf('clientOrderId', 'reply');
export const GATEWAY_ORDER_ID_SPELLINGS: readonly string[] = spellingsOf('orderId', 'reply');

const GATEWAY_TYPE = /^(validation-error|error|[a-z0-9]+(?:-[a-z0-9]+)*-response)$/;
const ERROR_TYPES = new Set(['validation-error', 'error']);

/**
 * Why a response is not a gateway reply to this request, or undefined when it is one. Only a gateway
 * reply can say what became of a request: anything else (a redirect, a proxy's error page, an empty
 * or truncated body, a reply naming another order) is a lost reply.
 */
export function notAGatewayReply(reply: GatewayReply, expected: ReplyExpectation = {}): string | undefined {
	const { fields, httpStatus } = reply;
	if (httpStatus >= 300 && httpStatus < 400) return `a redirect (HTTP ${httpStatus}), which is never followed`;
	if (Object.keys(fields).length === 0) return `an empty or unreadable body (HTTP ${httpStatus})`;
	const record = replyRecord(reply);
	const type = record.replyType;
	if (type !== undefined) {
		if (!GATEWAY_TYPE.test(type))
			return `a body whose type "${shorten(type)}" no gateway reply has (HTTP ${httpStatus})`;
		if (!ERROR_TYPES.has(type) && httpStatus !== 200) return `a "${type}" with HTTP ${httpStatus}`;
	} else if (httpStatus === 200 && record.status) {
		// The v4 status reply (the vendor's emulator: untyped JSON, no serial-number). Nothing in it
		// but the order IDs says it is the gateway's, so it counts only when it names every order ID
		// the request sent, and the gateway's, and each one is ours: a proxy's {"status":"approved"}
		// or an answer about another order is never read as this order's status.
		const unbound = untypedStatusUnbound(reply, expected);
		if (unbound) return `${unbound} (HTTP ${httpStatus})`;
	} else {
		// Untyped replies of the v4 JSON API: a refusal carries error-message, the sale's answer the
		// serial number and order IDs.
		const refusal = reply.format === 'json' && httpStatus >= 400 && !!record.errorMessage;
		const answer = httpStatus === 200 && !!record.serialNumber && !!record.orderId;
		if (!refusal && !answer) return `a body that is not a gateway reply (HTTP ${httpStatus})`;
	}
	const clientOrderId = record.clientOrderId || undefined;
	if (expected.clientOrderId && clientOrderId !== undefined && clientOrderId !== expected.clientOrderId) {
		return `a reply about another order ("${shorten(clientOrderId)}")`;
	}
	const orderId = record.orderId || undefined;
	if (expected.orderId && orderId !== undefined && orderId !== expected.orderId)
		return `a reply about another gateway order (${shorten(orderId)})`;
	return undefined;
}

/** Why an untyped HTTP-200 reply with a status is not a status reply about the requested order. */
function untypedStatusUnbound(reply: GatewayReply, expected: ReplyExpectation): string | undefined {
	const record = replyRecord(reply);
	const status = record.status ?? '';
	if (reply.format !== 'json') return 'an untyped body that is not JSON';
	if (!isGatewayStatus(status)) return `an untyped body whose status "${shorten(status)}" no gateway reply has`;
	if (!expected.clientOrderId && !expected.orderId) return 'an untyped status for a request that named no order';
	for (const [field, wanted, what] of [
		['clientOrderId', expected.clientOrderId, 'merchant'],
		['orderId', expected.orderId, 'gateway'],
	] as const) {
		const values = valuesOf(record, field);
		if (values.length === 0 && (wanted || what === 'gateway'))
			return `an untyped status that does not name the ${what} order ID`;
		const other = values.find((value) => wanted !== undefined && value !== wanted);
		if (other !== undefined) return `an untyped status about another ${what} order ("${shorten(other)}")`;
		if (new Set(values).size > 1) return `an untyped status naming two ${what} order IDs`;
	}
	return undefined;
}

function shorten(text: string): string {
	return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** True when the gateway says it holds no such order: the one answer after which a resend is safe. */
export function isOrderNotFound(reply: GatewayReply): boolean {
	const message = replyRecord(reply).errorMessage || '';
	return /not found|no such|cannot find|can't find|unknown order|does not exist/i.test(message);
}

/**
 * True when a status query's refusal is the one its declaration (catalogue.ts STATUS_QUERIES) reads as
 * "no such order": the declared HTTP status and wording, naming the gateway order asked about when one
 * was (the vendor's emulator names whatever it was sent, "undefined" when asked by the merchant order ID alone).
 */
export function refusalSaysNoSuchOrder(
	reply: GatewayReply,
	refusal: { httpStatus: number; message: RegExp } | undefined,
	askedOrderId?: string,
): boolean {
	if (!refusal || reply.httpStatus !== refusal.httpStatus) return false;
	const named = refusal.message.exec(replyRecord(reply).errorMessage ?? '');
	return !!named && (!askedOrderId || named[1] === askedOrderId);
}

/** One name or value of a form-encoded body (`+` is a space; a bad escape is kept as it is). */
export function decodeFormComponent(text: string): string {
	const spaced = text.replace(/\+/g, ' ');
	try {
		return decodeURIComponent(spaced);
	} catch {
		return spaced;
	}
}

function flatten(value: unknown): Record<string, string> {
	const fields: Record<string, string> = {};
	if (!value || typeof value !== 'object' || Array.isArray(value)) return fields;
	for (const [name, raw] of Object.entries(value as Record<string, unknown>)) {
		if (raw === null || raw === undefined) continue;
		fields[name] = typeof raw === 'object' ? JSON.stringify(raw) : String(raw).trim();
	}
	return fields;
}
