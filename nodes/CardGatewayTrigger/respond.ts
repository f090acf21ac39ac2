// Refusals are written here (the trigger then returns `noWebhookResponse: true`), so they never echo
// anything that was sent. An accepted callback only gets its headers here: n8n writes the `OK` itself
// once the execution is stored (see handle.ts).

/** The part of express's Response the trigger uses. */
export interface ResponseWriter {
	headersSent?: boolean;
	status(code: number): ResponseWriter;
	setHeader(name: string, value: string): unknown;
	send(body?: unknown): unknown;
	redirect(status: number, url: string): unknown;
}

export const FIXED_BODIES = {
	200: 'OK',
	400: 'Bad Request',
	403: 'Forbidden',
	404: 'Not Found',
	500: 'Internal Server Error',
	503: 'Service Unavailable',
} as const;

export type FixedStatus = keyof typeof FIXED_BODIES;

/** The gateway reads the acknowledgement as plain text; nothing about it may be cached. */
export function setPlainTextHeaders(res: ResponseWriter): void {
	res.setHeader('Content-Type', 'text/plain; charset=utf-8');
	res.setHeader('Cache-Control', 'no-store');
}

export function sendFixed(res: ResponseWriter, status: FixedStatus): void {
	setPlainTextHeaders(res);
	if (status === 503) res.setHeader('Retry-After', '60');
	res.status(status).send(FIXED_BODIES[status]);
}

/** 303 See Other: the browser follows with a GET whatever method it came with. */
export function sendRedirect(res: ResponseWriter, url: string): void {
	res.setHeader('Cache-Control', 'no-store');
	res.redirect(303, url);
}

/** Only absolute http(s) URLs are used as redirect targets. */
export function redirectTarget(value: unknown): string | undefined {
	if (typeof value !== 'string' || !value.trim()) return undefined;
	try {
		const url = new URL(value.trim());
		return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : undefined;
	} catch {
		return undefined;
	}
}

/** The ports the gateway is allowed to call back on. */
export const GATEWAY_CALLBACK_PORTS = ['80', '443', '8080', '8443'] as const;

/** The effective port of a URL (default ports made explicit), or undefined if it does not parse. */
export function effectivePort(value: string | undefined): string | undefined {
	if (!value) return undefined;
	try {
		const url = new URL(value);
		if (url.port) return url.port;
		return url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : undefined;
	} catch {
		return undefined;
	}
}
