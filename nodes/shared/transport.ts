import type { KeyObject } from 'node:crypto';

import {
	NodeApiError,
	NodeOperationError,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	type IN8nHttpFullResponse,
	type IWebhookFunctions,
	type JsonObject,
} from 'n8n-workflow';

import { OPERATIONS, operationUrl, type AuthScheme, type OperationId } from './protocol/catalogue';
import { controlSignature } from './protocol/control';
import { GatewayInputError } from './protocol/errors';
import { maskText } from './protocol/masking';
import { loadRsaPrivateKey } from './protocol/oauth';
import { classifyReply, JSON_MEDIA_TYPE, parseGatewayReply, type GatewayFailure, type GatewayReply } from './protocol/reply';
import { PARSED_RSA_KEY, SIGNING_HEADER, credentialSecrets, encodeForm, type MerchantCredentials } from './protocol/signing';

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
 * What came back: a parsed gateway reply (with its failure, if it is one), or no reply at all.
 * `unreachable` means the request may or may not have reached the gateway.
 */
export type GatewayOutcome =
	| { kind: 'reply'; reply: GatewayReply; failure?: GatewayFailure }
	| { kind: 'unreachable'; code: string; message: string };

export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * What one execution reuses across its items: the decrypted credential (n8n reads it from the
 * database and decrypts it on every getCredentials call) and the parsed RSA key. Keyed by the
 * execution's own context object, so it lives exactly as long as that `execute()` / `webhook()`
 * call: nothing is shared between executions, credentials or queue-mode jobs.
 */
interface ExecutionMemo {
	credentials?: Promise<MerchantCredentials>;
	rsaKey?: { pem: string; passphrase: string; key: KeyObject };
}
const perExecution = new WeakMap<object, ExecutionMemo>();

function memoOf(ctx: GatewayContext): ExecutionMemo {
	let memo = perExecution.get(ctx);
	if (!memo) perExecution.set(ctx, (memo = {}));
	return memo;
}

export async function merchantCredentials(ctx: GatewayContext): Promise<MerchantCredentials> {
	const memo = memoOf(ctx);
	if (!memo.credentials) {
		memo.credentials = ctx.getCredentials(CREDENTIAL_TYPE) as unknown as Promise<MerchantCredentials>;
		// a failed read is not remembered: the next item asks again
		memo.credentials.catch(() => (memo.credentials = undefined));
	}
	return memo.credentials;
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

/** Signs (control here, OAuth in the credential), sends and parses one gateway request. */
export async function gatewayRequest(ctx: GatewayContext, call: GatewayCall): Promise<GatewayOutcome> {
	const credentials = await merchantCredentials(ctx);
	const operation = OPERATIONS[call.operation];
	const auth = call.auth ?? operation.auth;
	const endpoint = resolveEndpoint(ctx, credentials, call);
	const fields = call.fields.filter(([, value]) => value !== undefined && value !== '');
	const body: Array<readonly [string, string]> = [...fields];
	if (auth === 'control') {
		if (!operation.control) throw new NodeOperationError(ctx.getNode(), `${operation.name} has no control formula`, { itemIndex: call.itemIndex });
		const control = withInputErrors(ctx, call.itemIndex, () =>
			controlSignature(
				operation.control!,
				{
					endpointId: endpoint.endpointGroupId && operation.groupCapable ? endpoint.endpointGroupId : endpoint.endpointId ?? '',
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
		url: operationUrl(credentials.baseUrl, operation, endpoint),
		headers,
		body: encodeForm(body),
		json: false,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: call.timeoutMs ?? DEFAULT_TIMEOUT_MS,
	};
	if (rsaKey) Object.defineProperty(request, PARSED_RSA_KEY, { value: rsaKey, enumerable: false });
	let response: IN8nHttpFullResponse;
	try {
		response = (await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, request)) as IN8nHttpFullResponse;
	} catch (error) {
		if (error instanceof GatewayInputError) throw inputError(ctx, error, call.itemIndex);
		return unreachable(error, credentials);
	}
	const contentType = String(response.headers?.['content-type'] ?? '');
	const reply = parseGatewayReply(response.statusCode, contentType, response.body);
	return { kind: 'reply', reply, failure: classifyReply(reply) };
}

/** The gateway's refusal as the error n8n shows: its message and code, nothing the user sent. */
export function gatewayError(ctx: GatewayContext, failure: GatewayFailure, itemIndex?: number, context = ''): NodeApiError {
	const code = failure.code ? ` (code ${failure.code})` : '';
	return new NodeApiError(ctx.getNode(), { type: failure.type ?? failure.kind, message: failure.message, code: failure.code ?? null } as JsonObject, {
		message: `${context}${failure.message}${code}`,
		description: failure.serialNumber ? `Gateway serial number ${failure.serialNumber}` : undefined,
		httpCode: String(failure.httpStatus),
		itemIndex,
	});
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
	for (const [name, value] of [['Endpoint ID', endpointId], ['Endpoint Group ID', endpointGroupId]] as const) {
		if (value && !/^\d{1,19}$/.test(value)) {
			throw new NodeOperationError(ctx.getNode(), `"${name}" must be a whole number, got "${value}"`, { itemIndex: call.itemIndex });
		}
	}
	if (!endpointId && !(endpointGroupId && OPERATIONS[call.operation].groupCapable)) {
		throw new NodeOperationError(ctx.getNode(), 'No endpoint ID: set one in the credential or in the node', { itemIndex: call.itemIndex });
	}
	return { endpointId, endpointGroupId: endpointGroupId || undefined };
}

/**
 * The credential signs OAuth requests inside n8n's request helper, which turns any error into a
 * NodeApiError indistinguishable from a network failure. A credential that cannot sign is
 * therefore refused here, before anything is sent, so it never looks like a lost reply.
 */
function checkSigningMaterial(ctx: GatewayContext, auth: 'oauth-hmac-sha1' | 'oauth-rsa-sha256', credentials: MerchantCredentials): KeyObject | undefined {
	if (!credentials.login) throw new GatewayInputError('login', 'The credential has no merchant login');
	if (auth === 'oauth-hmac-sha1' && !credentials.controlKey) {
		throw new GatewayInputError('controlKey', 'HMAC-SHA1 signing needs the merchant control key');
	}
	return auth === 'oauth-rsa-sha256' ? rsaKeyOf(ctx, credentials) : undefined;
}

function unreachable(error: unknown, credentials: MerchantCredentials): GatewayOutcome {
	// n8n wraps network errors in NodeApiError and keeps their code in httpCode.
	const cause = error as { code?: string; cause?: { code?: string }; httpCode?: string; message?: string };
	const code = cause.code ?? cause.cause?.code ?? cause.httpCode ?? 'UNKNOWN';
	return { kind: 'unreachable', code, message: maskText(String(cause.message ?? error), credentialSecrets(credentials)) };
}
