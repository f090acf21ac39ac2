import type { KeyObject } from 'node:crypto';

import {
	NodeApiError,
	NodeOperationError,
	type ICredentialDataDecryptedObject,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	type IN8nHttpFullResponse,
	type IWebhookFunctions,
	type JsonObject,
} from 'n8n-workflow';

import { withMoneyEffect } from './moneyEffect';
import { perRun } from './perRun';
import {
	OPERATIONS,
	operationUrl,
	type AuthScheme,
	type GatewayOperation,
	type OperationId,
} from './protocol/catalogue';
import { controlSignature } from './protocol/control';
import { GatewayInputError } from './protocol/errors';
import { maskText } from './protocol/masking';
import { loadRsaPrivateKey } from './protocol/oauth';
import {
	classifyReply,
	JSON_MEDIA_TYPE,
	notAGatewayReply,
	parseGatewayReply,
	type GatewayFailure,
	type GatewayReply,
} from './protocol/reply';
import {
	PARSED_RSA_KEY,
	SIGNING_HEADER,
	credentialSecrets,
	encodeForm,
	type MerchantCredentials,
} from './protocol/signing';

export const CREDENTIAL_TYPE = 'cardGatewayApi';

export type GatewayContext = IExecuteFunctions | IWebhookFunctions;

export interface EndpointChoice {
	endpointId?: string;
	endpointGroupId?: string;
}

export interface GatewayCall {
	operation: OperationId;
	/** Body fields in wire spelling, without `control` (it is computed here). */
	fields: ReadonlyArray<readonly [string, string]>;
	/** Overrides the credential's endpoint and group. */
	endpoint?: EndpointChoice;
	/** Overrides the catalogue's scheme (only for operations whose scheme the interface leaves open). */
	auth?: AuthScheme;
	timeoutMs?: number;
	itemIndex?: number;
}

/**
 * What came back: a gateway reply to this request (with its refusal, if it is one), or a lost
 * reply. `lost` covers everything after which the request may or may not have been carried out
 * (timeouts, resets, HTTP 5xx, redirects, bodies that are not a gateway reply, replies about
 * another order); `nothingSent` is true only when no connection could be opened at all.
 */
export type GatewayOutcome = { kind: 'reply'; reply: GatewayReply; failure?: GatewayFailure } | LostReply;

export interface LostReply {
	kind: 'lost';
	/** A network error code (ETIMEDOUT…) or `HTTP <status>`. */
	code: string;
	/** In words, for messages (n8n replaces messages that contain bare error codes). */
	what: string;
	/** Details, masked. */
	message: string;
	nothingSent: boolean;
	httpStatus?: number;
}

/** Connection errors that happen before a single byte of the request left: nothing was sent. */
/** n8n's SSRF protection refused the address: no connection was opened. */
const SSRF_BLOCKED = 'SSRF_BLOCKED';
const NOTHING_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', SSRF_BLOCKED]);

const CODE_WORDS: Record<string, string> = {
	ECONNABORTED: 'the reply timed out',
	ETIMEDOUT: 'the reply timed out',
	ESOCKETTIMEDOUT: 'the reply timed out',
	ECONNRESET: 'the connection was reset',
	EPIPE: 'the connection broke',
	ECONNREFUSED: 'the connection was refused',
	ENOTFOUND: 'the host name is unknown',
	EAI_AGAIN: 'the host name could not be resolved',
	EHOSTUNREACH: 'the host is unreachable',
	ENETUNREACH: 'the network is unreachable',
	SSRF_BLOCKED: "n8n's SSRF protection blocked the gateway's address (ask the n8n administrator to allow it)",
};

/** Node's timers fire at once beyond this (2^31 - 1 ms), which would turn a timeout into an instant failure. */
export const MAX_TIMEOUT_MS = 2_147_483_647;

export const DEFAULT_TIMEOUT_MS = 30_000;

/** What one run reuses across its items: the decrypted credential and the parsed RSA key. */
interface TransportMemo {
	/** n8n reads the credential from its database and decrypts it on every getCredentials call. */
	credentials?: Promise<MerchantCredentials>;
	/** The node's reference to its credential (getNode() deep-copies the node on every call). */
	credentialRef?: { id: string; name: string };
	rsaKey?: { pem: string; passphrase: string; key: KeyObject };
}

const memoOf = (ctx: GatewayContext): TransportMemo => perRun(ctx, 'transport', () => ({}));

export async function merchantCredentials(ctx: GatewayContext): Promise<MerchantCredentials> {
	const memo = memoOf(ctx);
	if (!memo.credentials) {
		memo.credentials = ctx.getCredentials(CREDENTIAL_TYPE) as unknown as Promise<MerchantCredentials>;
		// a failed read is not remembered: the next item asks again
		memo.credentials.catch(() => (memo.credentials = undefined));
	}
	return memo.credentials;
}

/** The node's reference to its credential. */
function credentialRef(ctx: GatewayContext): { id: string; name: string } {
	const memo = memoOf(ctx);
	if (!memo.credentialRef) {
		const ref = ctx.getNode().credentials?.[CREDENTIAL_TYPE];
		memo.credentialRef = { id: ref?.id ?? '', name: ref?.name ?? '' };
	}
	return memo.credentialRef;
}

/** The credential's RSA key, parsed once per execution (per PEM and passphrase). */
function rsaKeyOf(ctx: GatewayContext, credentials: MerchantCredentials): KeyObject {
	const memo = memoOf(ctx);
	const pem = credentials.privateKey ?? '';
	const passphrase = credentials.privateKeyPassphrase ?? '';
	if (memo.rsaKey?.pem === pem && memo.rsaKey.passphrase === passphrase) return memo.rsaKey.key;
	const key = loadRsaPrivateKey(pem, passphrase);
	memo.rsaKey = { pem, passphrase, key };
	return key;
}

/** A request ready to send: signed with `control` where that applies, OAuth material checked. */
export interface BuiltGatewayRequest {
	operation: GatewayOperation;
	/** The body fields sent, without `control`. */
	fields: ReadonlyArray<readonly [string, string]>;
	auth: AuthScheme;
	request: IHttpRequestOptions;
	credentials: MerchantCredentials;
	itemIndex?: number;
}

/**
 * Signs (control here, OAuth in the credential), sends and parses one gateway request. What it
 * throws is thrown before anything was sent; what happened after sending is in the outcome.
 */
export async function gatewayRequest(ctx: GatewayContext, call: GatewayCall): Promise<GatewayOutcome> {
	return await sendGatewayRequest(ctx, await buildGatewayRequest(ctx, call));
}

/**
 * Everything before sending: endpoint, URL, timeout, `control` computed, OAuth signing material
 * checked. Sends nothing (a dry run runs exactly this step); throws on what a real send would refuse.
 */
export async function buildGatewayRequest(ctx: GatewayContext, call: GatewayCall): Promise<BuiltGatewayRequest> {
	const credentials = await merchantCredentials(ctx);
	const operation = OPERATIONS[call.operation];
	const auth = call.auth ?? operation.auth;
	const endpoint = resolveEndpoint(ctx, credentials, call);
	const fields = call.fields.filter(([, value]) => value !== undefined && value !== '');
	const body: Array<readonly [string, string]> = [...fields];
	if (auth === 'control') {
		if (!operation.control)
			throw new NodeOperationError(ctx.getNode(), `${operation.name} has no control formula`, {
				itemIndex: call.itemIndex,
			});
		const control = withInputErrors(ctx, call.itemIndex, () =>
			controlSignature(
				operation.control!,
				{
					endpointId:
						endpoint.endpointGroupId && operation.groupCapable ? endpoint.endpointGroupId : (endpoint.endpointId ?? ''),
					login: credentials.login,
					fields: Object.fromEntries(fields),
				},
				credentials.controlKey,
			),
		);
		body.push(['control', control]);
	}
	let rsaKey: KeyObject | undefined;
	if (auth === 'oauth-hmac-sha1' || auth === 'oauth-rsa-sha256') {
		rsaKey = withInputErrors(ctx, call.itemIndex, () => checkSigningMaterial(ctx, auth, credentials));
	}
	const headers: Record<string, string> = {
		Accept: JSON_MEDIA_TYPE,
		'Content-Type': 'application/x-www-form-urlencoded',
	};
	if (auth === 'oauth-hmac-sha1') headers[SIGNING_HEADER] = 'HMAC-SHA1';
	if (auth === 'oauth-rsa-sha256') headers[SIGNING_HEADER] = 'RSA-SHA256';
	const request: IHttpRequestOptions = {
		method: 'POST',
		url: checkedUrl(ctx, credentials.baseUrl, operation, endpoint, call.itemIndex),
		headers,
		body: encodeForm(body),
		json: false,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// A redirect would re-send the body (card data) and the signature to another host.
		disableFollowRedirect: true,
		timeout: checkedTimeout(ctx, call.timeoutMs, call.itemIndex),
	};
	if (rsaKey) Object.defineProperty(request, PARSED_RSA_KEY, { value: rsaKey, enumerable: false });
	return { operation, fields, auth, request, credentials, itemIndex: call.itemIndex };
}

/** Sends a built request and parses the answer. */
export async function sendGatewayRequest(ctx: GatewayContext, built: BuiltGatewayRequest): Promise<GatewayOutcome> {
	const { operation, fields, request, credentials } = built;
	let response: IN8nHttpFullResponse;
	try {
		// The credential this run already read: n8n would otherwise read and decrypt it again for every request.
		const credentialsDecrypted = {
			...credentialRef(ctx),
			type: CREDENTIAL_TYPE,
			data: credentials as unknown as ICredentialDataDecryptedObject,
		};
		response = (await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, request, {
			credentialsDecrypted,
		})) as IN8nHttpFullResponse;
	} catch (error) {
		if (error instanceof GatewayInputError) throw inputError(ctx, error, built.itemIndex);
		return unreachable(error, credentials);
	}
	const contentType = String(response.headers?.['content-type'] ?? '');
	const reply = parseGatewayReply(response.statusCode, contentType, response.body);
	if (reply.httpStatus >= 500) {
		return lost(
			`HTTP ${reply.httpStatus}`,
			`the gateway answered HTTP ${reply.httpStatus}`,
			classifyReply(reply)?.message ?? '',
		);
	}
	const foreign = notAGatewayReply(reply, {
		clientOrderId: operation.orderIdField ? fieldValue(fields, operation.orderIdField) : undefined,
		orderId: fieldValue(fields, 'orderid'),
	});
	if (foreign) {
		const refused =
			reply.httpStatus === 401 || reply.httpStatus === 403
				? ' (a refusal of the signature, but not in a gateway reply)'
				: '';
		return lost(
			`HTTP ${reply.httpStatus}`,
			`the answer was ${foreign}${refused}`,
			contentType ? `content type ${contentType}` : 'no content type',
		);
	}
	return { kind: 'reply', reply, failure: classifyReply(reply) };
}

/** Words for a lost reply's code, for messages. */
export function inWords(code: string): string {
	return CODE_WORDS[code] ?? (code.startsWith('HTTP ') ? `the gateway answered ${code}` : 'the connection failed');
}

function lost(code: string, what: string, message: string, httpStatus = Number(code.slice(5)) || undefined): LostReply {
	return { kind: 'lost', code, what, message, nothingSent: false, httpStatus };
}

function fieldValue(fields: ReadonlyArray<readonly [string, string]>, name: string): string | undefined {
	return fields.find(([field]) => field === name)?.[1];
}

/** The request URL; a base URL that is not http(s) is refused before anything is sent. */
function checkedUrl(
	ctx: GatewayContext,
	baseUrl: string,
	operation: GatewayOperation,
	endpoint: EndpointChoice,
	itemIndex?: number,
): string {
	checkedBaseUrl(ctx, baseUrl, itemIndex);
	return operationUrl(baseUrl, operation, endpoint);
}

function checkedBaseUrl(ctx: GatewayContext, baseUrl: string, itemIndex?: number): void {
	let parsed: URL | undefined;
	try {
		parsed = new URL(String(baseUrl ?? '').trim());
	} catch {
		parsed = undefined;
	}
	if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || !parsed.hostname) {
		throw withMoneyEffect(
			new NodeOperationError(
				ctx.getNode(),
				'The credential\'s "Base URL" is not an absolute http(s) URL; nothing was sent',
				{
					itemIndex,
					description:
						'Set the Base URL to the gateway address up to /paynet, e.g. https://sandbox.example.com/paynet.',
				},
			),
			'notSent',
		);
	}
}

function checkedTimeout(ctx: GatewayContext, timeoutMs: number | undefined, itemIndex?: number): number {
	const timeout = timeoutMs ?? DEFAULT_TIMEOUT_MS;
	if (!Number.isFinite(timeout) || timeout < 1 || timeout > MAX_TIMEOUT_MS) {
		throw withMoneyEffect(
			new NodeOperationError(
				ctx.getNode(),
				`"Timeout (Seconds)" must be between 0.001 and ${Math.floor(MAX_TIMEOUT_MS / 1000)}; nothing was sent`,
				{ itemIndex },
			),
			'notSent',
		);
	}
	return timeout;
}

/** The gateway's refusal as the error n8n shows: its message and code, nothing the user sent; `note` adds to its description. */
export function gatewayError(
	ctx: GatewayContext,
	failure: GatewayFailure,
	itemIndex?: number,
	context = '',
	note?: string,
): NodeApiError {
	const code = failure.code ? ` (code ${failure.code})` : '';
	const serial = failure.serialNumber ? `Gateway serial number ${failure.serialNumber}` : undefined;
	return new NodeApiError(
		ctx.getNode(),
		{ type: failure.type ?? failure.kind, message: failure.message, code: failure.code ?? null } as JsonObject,
		{
			message: `${context}${failure.message}${code}`,
			description: [serial, note].filter(Boolean).join('. ') || undefined,
			httpCode: String(failure.httpStatus),
			itemIndex,
		},
	);
}

export function inputError(ctx: GatewayContext, error: GatewayInputError, itemIndex?: number): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), error.message, {
		itemIndex,
		description: `Check the "${error.field}" ${error.field === 'privateKey' || error.field === 'privateKeyPassphrase' ? 'credential field' : 'parameter'}.`,
	});
}

/** Runs protocol code that validates input, turning its errors into n8n's. */
export function withInputErrors<T>(ctx: GatewayContext, itemIndex: number | undefined, run: () => T): T {
	try {
		return run();
	} catch (error) {
		if (error instanceof GatewayInputError) throw inputError(ctx, error, itemIndex);
		throw new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
	}
}

function resolveEndpoint(ctx: GatewayContext, credentials: MerchantCredentials, call: GatewayCall): EndpointChoice {
	const endpointId = String(call.endpoint?.endpointId || credentials.endpointId || '').trim();
	const endpointGroupId = String(call.endpoint?.endpointGroupId ?? credentials.endpointGroupId ?? '').trim();
	for (const [name, value] of [
		['Endpoint ID', endpointId],
		['Endpoint Group ID', endpointGroupId],
	] as const) {
		if (value && !/^\d{1,19}$/.test(value)) {
			throw new NodeOperationError(ctx.getNode(), `"${name}" must be a whole number, got "${value}"`, {
				itemIndex: call.itemIndex,
			});
		}
	}
	if (!endpointId && !(endpointGroupId && OPERATIONS[call.operation].groupCapable)) {
		throw new NodeOperationError(ctx.getNode(), 'No endpoint ID: set one in the credential or in the node', {
			itemIndex: call.itemIndex,
		});
	}
	return { endpointId, endpointGroupId: endpointGroupId || undefined };
}

/**
 * The credential signs OAuth requests inside n8n's request helper, which turns any error into a
 * NodeApiError indistinguishable from a network failure. A credential that cannot sign is
 * therefore refused here, before anything is sent, so it never looks like a lost reply.
 */
function checkSigningMaterial(
	ctx: GatewayContext,
	auth: 'oauth-hmac-sha1' | 'oauth-rsa-sha256',
	credentials: MerchantCredentials,
): KeyObject | undefined {
	if (!credentials.login) throw new GatewayInputError('login', 'The credential has no merchant login');
	if (auth === 'oauth-hmac-sha1' && !credentials.controlKey) {
		throw new GatewayInputError('controlKey', 'HMAC-SHA1 signing needs the merchant control key');
	}
	return auth === 'oauth-rsa-sha256' ? rsaKeyOf(ctx, credentials) : undefined;
}

export function unreachable(error: unknown, credentials: MerchantCredentials): LostReply {
	// n8n wraps network errors in NodeApiError and keeps their code in httpCode.
	const cause = error as { code?: string; cause?: { code?: string }; httpCode?: string; message?: string };
	// n8n's SSRF protection refuses the address when it resolves the host name, before any connection.
	const code = blockedBySsrfProtection(error)
		? SSRF_BLOCKED
		: (cause.code ?? cause.cause?.code ?? cause.httpCode ?? 'UNKNOWN');
	return {
		kind: 'lost',
		code,
		what: inWords(code),
		message: maskText(String(cause.message ?? error), credentialSecrets(credentials)),
		nothingSent: NOTHING_SENT.has(code),
	};
}

function blockedBySsrfProtection(error: unknown): boolean {
	for (
		let link = error as { name?: unknown; cause?: unknown } | undefined, depth = 0;
		link && depth < 5;
		link = link.cause as typeof link, depth++
	) {
		if (link.name === 'SsrfBlockedIpError') return true;
	}
	return false;
}

/** A request outside the order API (the transaction report, the balance), signed with OAuth HMAC-SHA1. */
export interface SignedCall {
	method: 'GET' | 'POST';
	/** The URL from the credential's base URL (checked to be http(s) first). */
	url: (baseUrl: string, credentials: MerchantCredentials) => string;
	/** Query parameters of a GET, body fields of a POST. */
	fields: ReadonlyArray<readonly [string, string]>;
	/** The body comes back as a stream (read as it arrives), not as a string. */
	stream?: boolean;
	accept: string;
	timeoutMs?: number;
	itemIndex?: number;
}

export type SignedOutcome =
	{ kind: 'answer'; statusCode: number; contentType: string; body: AsyncIterable<Uint8Array> | string } | LostReply;

/**
 * Signs (the credential's OAuth HMAC-SHA1 over the query or body fields) and sends one read-only
 * request; the answer comes back unparsed. What it throws is thrown before anything was sent.
 */
export async function signedRequest(ctx: IExecuteFunctions, call: SignedCall): Promise<SignedOutcome> {
	const credentials = await merchantCredentials(ctx);
	withInputErrors(ctx, call.itemIndex, () => checkSigningMaterial(ctx, 'oauth-hmac-sha1', credentials));
	checkedBaseUrl(ctx, credentials.baseUrl, call.itemIndex);
	const url = call.url(credentials.baseUrl, credentials);
	const encoded = encodeForm(call.fields.filter(([, value]) => value !== ''));
	const request: IHttpRequestOptions = {
		method: call.method,
		url: call.method === 'GET' && encoded ? `${url}?${encoded}` : url,
		// The docs ask for this content type on the report's GET too.
		headers: {
			Accept: call.accept,
			'Content-Type': 'application/x-www-form-urlencoded',
			[SIGNING_HEADER]: 'HMAC-SHA1',
		},
		body: call.method === 'POST' ? encoded : undefined,
		json: false,
		encoding: call.stream ? 'stream' : 'text',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		timeout: checkedTimeout(ctx, call.timeoutMs, call.itemIndex),
	};
	let response: IN8nHttpFullResponse;
	try {
		response = (await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, request, {
			credentialsDecrypted: {
				...credentialRef(ctx),
				type: CREDENTIAL_TYPE,
				data: credentials as unknown as ICredentialDataDecryptedObject,
			},
		})) as IN8nHttpFullResponse;
	} catch (error) {
		if (error instanceof GatewayInputError) throw inputError(ctx, error, call.itemIndex);
		return unreachable(error, credentials);
	}
	const body = response.body as AsyncIterable<Uint8Array> | string | Buffer | undefined;
	return {
		kind: 'answer',
		statusCode: response.statusCode,
		contentType: String(response.headers?.['content-type'] ?? ''),
		body: Buffer.isBuffer(body) ? body.toString('utf8') : (body ?? ''),
	};
}
