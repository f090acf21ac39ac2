// Reads the parameters of an incoming callback or customer return into a flat name → string map.
// Pure and never throwing: anything it cannot read safely is reported as a refusal reason (HTTP 400).

/** Bounds that no genuine callback comes near; beyond them the request is refused unread. */
export const REQUEST_LIMITS = {
	maxFields: 100,
	maxNameLength: 64,
	maxValueLength: 4096,
	maxBodyBytes: 64 * 1024,
} as const;

/** Letters, digits and the separators the gateway uses (`last-four-digits`, `client_orderid`). */
const FIELD_NAME = /^[A-Za-z0-9_.:-]+$/;

export interface IncomingRequest {
	method: string;
	query?: unknown;
	body?: unknown;
	rawBody?: Buffer | string;
	contentType?: string;
}

export type FieldSource = 'query' | 'form' | 'json';

export type ReadOutcome =
	{ ok: true; fields: Record<string, string>; source: FieldSource } | { ok: false; reason: string };

/**
 * GET: the query string. POST: the parsed body (form-urlencoded or JSON), falling back to the raw
 * body and, when the body is empty, to the query string. Repeated or nested parameters, bodies
 * that do not parse, oversized requests and requests without any parameter are refused.
 */
export function readCallbackFields(request: IncomingRequest): ReadOutcome {
	const method = String(request.method ?? '').toUpperCase();
	if (method === 'POST') return readBody(request);
	return fromObject(request.query, 'query');
}

function readBody(request: IncomingRequest): ReadOutcome {
	const raw = rawText(request.rawBody);
	if (raw.bytes > REQUEST_LIMITS.maxBodyBytes)
		return refuse(`body of ${raw.bytes} bytes is larger than ${REQUEST_LIMITS.maxBodyBytes}`);
	const json = /json/i.test(request.contentType ?? '');
	let outcome: ReadOutcome;
	if (isPlainObject(request.body) && Object.keys(request.body).length > 0) {
		outcome = fromObject(request.body, json ? 'json' : 'form');
	} else if (json || (raw.text.trimStart().startsWith('{') && !request.contentType)) {
		outcome = raw.text.trim() ? parseJson(raw.text) : refuse('no parameters');
	} else if (typeof request.body === 'string' && request.body.trim()) {
		outcome = parseForm(request.body);
	} else if (raw.text.trim()) {
		outcome = parseForm(raw.text);
	} else {
		outcome = refuse('no parameters');
	}
	if (!outcome.ok && outcome.reason === 'no parameters' && hasKeys(request.query)) {
		return fromObject(request.query, 'query');
	}
	return outcome;
}

function parseJson(text: string): ReadOutcome {
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		return refuse('body is not valid JSON');
	}
	if (!isPlainObject(parsed)) return refuse('JSON body is not an object');
	return fromObject(parsed, 'json');
}

function parseForm(text: string): ReadOutcome {
	const pairs = [...new URLSearchParams(text.trim())];
	const seen = new Set<string>();
	for (const [name] of pairs) {
		if (seen.has(name)) return refuse(`parameter "${safeName(name)}" is repeated`);
		seen.add(name);
	}
	return fromPairs(pairs, 'form');
}

function fromObject(value: unknown, source: FieldSource): ReadOutcome {
	if (value === undefined || value === null) return refuse('no parameters');
	if (!isPlainObject(value)) return refuse('parameters are not a name/value map');
	const pairs: Array<[string, string]> = [];
	for (const [name, inner] of Object.entries(value)) {
		if (Array.isArray(inner)) return refuse(`parameter "${safeName(name)}" is repeated`);
		if (inner !== null && typeof inner === 'object') return refuse(`parameter "${safeName(name)}" is nested`);
		if (inner === undefined || inner === null) {
			pairs.push([name, '']);
		} else if (typeof inner === 'string' || typeof inner === 'number' || typeof inner === 'boolean') {
			pairs.push([name, String(inner)]);
		} else {
			return refuse(`parameter "${safeName(name)}" has an unsupported value`);
		}
	}
	return fromPairs(pairs, source);
}

function fromPairs(pairs: Array<[string, string]>, source: FieldSource): ReadOutcome {
	if (pairs.length === 0) return refuse('no parameters');
	if (pairs.length > REQUEST_LIMITS.maxFields)
		return refuse(`${pairs.length} parameters (at most ${REQUEST_LIMITS.maxFields})`);
	for (const [name, value] of pairs) {
		if (!name || name.length > REQUEST_LIMITS.maxNameLength || !FIELD_NAME.test(name)) {
			return refuse(`parameter name "${safeName(name)}" is not acceptable`);
		}
		if (value.length > REQUEST_LIMITS.maxValueLength)
			return refuse(`parameter "${name}" is longer than ${REQUEST_LIMITS.maxValueLength} characters`);
	}
	// Object.fromEntries defines own properties, so a "__proto__" parameter cannot reach the prototype.
	return { ok: true, fields: Object.fromEntries(pairs), source };
}

function rawText(raw: Buffer | string | undefined): { text: string; bytes: number } {
	if (raw === undefined || raw === null) return { text: '', bytes: 0 };
	if (typeof raw === 'string') return { text: raw, bytes: Buffer.byteLength(raw) };
	if (Buffer.isBuffer(raw)) {
		// Decoding is skipped for oversized bodies: they are refused on their size alone.
		return { text: raw.length > REQUEST_LIMITS.maxBodyBytes ? '' : raw.toString('utf8'), bytes: raw.length };
	}
	return { text: '', bytes: 0 };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	if (value === null || typeof value !== 'object' || Array.isArray(value) || Buffer.isBuffer(value)) return false;
	const prototype = Object.getPrototypeOf(value);
	return prototype === Object.prototype || prototype === null;
}

function hasKeys(value: unknown): boolean {
	return isPlainObject(value) && Object.keys(value).length > 0;
}

/** A parameter name as it may appear in a log line: short, printable, never the value. */
function safeName(name: string): string {
	const printable = name.replace(/[^\x20-\x7e]/g, '?');
	return printable.length > 40 ? `${printable.slice(0, 40)}…` : printable;
}

function refuse(reason: string): ReadOutcome {
	return { ok: false, reason };
}
