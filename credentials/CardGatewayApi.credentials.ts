import { KeyObject } from 'node:crypto';

import type {
	IAuthenticateRuleResponseCode,
	IAuthenticateRuleResponseSuccessBody,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeProperties,
} from 'n8n-workflow';

import { OPERATIONS, operationUrl } from '../nodes/shared/protocol/catalogue';
import { GatewayInputError } from '../nodes/shared/protocol/errors';
import { signOAuthRequest } from '../nodes/shared/protocol/oauth';
import { JSON_MEDIA_TYPE, notAGatewayReply, parseGatewayReply } from '../nodes/shared/protocol/reply';
import { DEFAULT_TIMEOUT_MS } from '../nodes/shared/transport';
import {
	CREDENTIAL_TEST_ORDER_ID,
	PARSED_RSA_KEY,
	SIGNING_HEADER,
	credentialTestBody,
	decodeForm,
	encodeForm,
	oauthAuthorization,
	type MerchantCredentials,
	type SigningRequest,
} from '../nodes/shared/protocol/signing';

/** What the credential test says when the gateway refuses the RSA probe's signature (HTTP 401 or 403). */
function rsaRefused(status: number): string {
	return `The gateway refused the RSA signature (HTTP ${status}): check the private key and the login. The gateway must hold the public half of this private key for this merchant login. (The merchant control key was accepted: the test checks it first, with a request of its own.)`;
}

/**
 * How the gateway refuses the control-signed status query (the probe without an RSA key, and the
 * first of two with one): HTTP 400 with a validation-error, as the sandbox does; assumed, the public
 * docs show no answer to a bad control (gateway-facts §5).
 */
const CONTROL_REFUSED_STATUS = 400;

/** What the credential test says when the gateway refuses the control-signed probe. */
const CONTROL_REFUSED = `The gateway refused the test request signed with the merchant control key (HTTP ${CONTROL_REFUSED_STATUS}): check the merchant control key, the merchant login and the endpoint ID`;

/**
 * The credential test's probe with an RSA key: a V4 status query, RSA-signed, for an order that does
 * not exist. Only a refusal of the signature (401/403), a missing API (404) or a server error may fail
 * it: "order not found" is HTTP 400 with a JSON body in the V4 JSON API, and proves the signature was
 * accepted. n8n passes this to its HTTP client as is (IgnoreStatusErrorConfig: every status but
 * those listed counts as an answer).
 */
const RSA_PROBE_FAILURES = Array.from({ length: 300 }, (_, index) => 300 + index).filter((status) => status !== 400);

/**
 * How n8n words a failed test (packages/cli/src/services/credentials-tester.service.ts): an HTTP
 * error is matched against the responseCode rules, a response that passed against the
 * responseSuccessBody rules (lodash get of `key` on the body equals `value`). Its type allows one kind
 * per array; the tester reads each rule's own type, so one array holds both.
 */
const TEST_RULES: Array<IAuthenticateRuleResponseCode | IAuthenticateRuleResponseSuccessBody> = [
	{
		// Only the control-signed probe can end here: the RSA probe takes a 400 as an answer.
		type: 'responseCode',
		properties: { value: CONTROL_REFUSED_STATUS, message: CONTROL_REFUSED },
	},
	// 401 text/plain from the vendor's emulator, 403 in the public docs (gateway-facts §4).
	{ type: 'responseCode', properties: { value: 401, message: rsaRefused(401) } },
	{ type: 'responseCode', properties: { value: 403, message: rsaRefused(403) } },
	{
		type: 'responseCode',
		properties: { value: 404, message: 'No gateway API answers at this base URL: it should end in /paynet (HTTP 404)' },
	},
	{
		// A body that is not JSON (n8n hands it over as a string; lodash get reads the string's
		// constructor) is no gateway reply: an HTML page of a web server or proxy, say.
		type: 'responseSuccessBody',
		properties: {
			key: 'constructor.name',
			value: 'String',
			message: 'The answer is not a gateway reply (not JSON): check the base URL, which should end in /paynet',
		},
	},
];

export class CardGatewayApi implements ICredentialType {
	name = 'cardGatewayApi';

	displayName = 'Card Gateway API';

	icon = { light: 'file:../icons/cardGateway.svg', dark: 'file:../icons/cardGateway.dark.svg' } as const;

	documentationUrl = 'https://github.com/card-gateway/n8n-nodes-card-gateway#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. https://sandbox.example.com/paynet',
			description:
				'The gateway address up to and including /paynet. Operation paths such as /api/v2/sale are added to it.',
			// n8n reports a connection failure of the credential test as the bare error code, and a
			// credential can only be tested declaratively (a test function would need the deprecated
			// helpers.request): the field says what the codes mean.
			hint: 'Test says ECONNREFUSED, ENOTFOUND or ETIMEDOUT? Nothing answered at this address: check host, port and http/https, and that the gateway (or the sandbox) is reachable from the n8n server.',
		},
		{
			displayName: 'Merchant Login',
			name: 'login',
			type: 'string',
			default: '',
			required: true,
			description: 'The merchant login the gateway issued (also the OAuth consumer key)',
		},
		// eslint-disable-next-line @n8n/community-nodes/credential-unnecessary-password -- the control key is the merchant's signing secret
		{
			displayName: 'Merchant Control Key',
			name: 'controlKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Secret used to sign requests (SHA-1 control and OAuth HMAC-SHA1). It is never sent.',
		},
		{
			displayName: 'RSA Private Key',
			name: 'privateKey',
			type: 'string',
			typeOptions: { password: true, rows: 4 },
			default: '',
			description:
				'PEM private key (PKCS#1 or PKCS#8, at least 2048 bits) whose public key the gateway registered. Only the v4 (RSA-SHA256) operations need it.',
			hint: 'With a key here, the credential test sends two status queries for an order that does not exist: one signed with the control key (checks the control key, the login and the endpoint ID), then one RSA-signed V4 query (checks this key and the login). Leave empty if you only use control-signed operations: the test then sends the first one only.',
		},
		{
			displayName: 'Private Key Passphrase',
			name: 'privateKeyPassphrase',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description: 'Only for an encrypted private key',
		},
		{
			displayName: 'Endpoint ID',
			name: 'endpointId',
			type: 'string',
			default: '',
			required: true,
			description: 'Default endpoint (single-currency entry point); a node can override it per operation',
		},
		{
			displayName: 'Endpoint Group ID',
			name: 'endpointGroupId',
			type: 'string',
			default: '',
			description:
				'Optional multi-currency endpoint group. When set, paths become …/group/{ID} where the gateway allows it.',
		},
		{
			// n8n runs preAuthentication only for a credential type with a hidden expirable field: while
			// the field is empty (never: it has a default), or after signing or sending a request failed
			// with HTTP 401 (ControlKeyFirst). n8n stores nothing: preAuthentication never returns it.
			displayName: 'Control Key Probe',
			name: 'controlKeyProbe',
			type: 'hidden',
			typeOptions: { expirable: true },
			default: 'in the credential test only',
		},
	];

	// OAuth-signed operations ask for a signature through a marker header; everything else passes through.
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const headers = { ...(requestOptions.headers ?? {}) } as Record<string, string>;
		const marker = takeHeader(headers, SIGNING_HEADER) as SigningRequest | undefined;
		if (!marker) return requestOptions;
		const merchant = credentials as unknown as MerchantCredentials;
		if (marker === 'credential-test') return credentialTestProbe(merchant, credentials, requestOptions, headers);
		const url = new URL(requestOptions.url, requestOptions.baseURL || undefined).toString();
		const body = typeof requestOptions.body === 'string' ? requestOptions.body : '';
		headers.Authorization =
			signedWithParsedKey(merchant, marker, url, body, requestOptions) ??
			oauthAuthorization(merchant, marker, url, body, requestOptions.method);
		return { ...requestOptions, headers };
	}

	/**
	 * The credential test's control-signed V2 status query when an RSA private key is set, sent before
	 * the declared RSA query (see ControlKeyFirst): the declared test checks the RSA key, this the
	 * control key. n8n calls it with `this` restricted to httpRequest and makes what it throws the
	 * test's message. Called for anything else (n8n also calls it after any failed request of the HTTP
	 * Request node), it sends nothing.
	 */
	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject): Promise<IDataObject> {
		if (!controlKeyFirst.delete(credentials)) return {};
		const merchant = credentials as unknown as MerchantCredentials;
		const answer = (await this.helpers.httpRequest({
			method: 'POST',
			url: operationUrl(merchant.baseUrl, OPERATIONS.status, {
				endpointId: String(merchant.endpointId ?? ''),
				endpointGroupId: String(merchant.endpointGroupId ?? ''),
			}),
			headers: { Accept: JSON_MEDIA_TYPE, 'Content-Type': 'application/x-www-form-urlencoded' },
			body: credentialTestBody(merchant),
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: DEFAULT_TIMEOUT_MS,
		})) as IN8nHttpFullResponse;
		const reply = parseGatewayReply(answer.statusCode, String(answer.headers['content-type'] ?? ''), answer.body);
		// Anything but the gateway's refusal (no API here, not a gateway reply) is left to the
		// declared test, which words it.
		if (answer.statusCode === CONTROL_REFUSED_STATUS && notAGatewayReply(reply) === undefined) {
			throw new Error(CONTROL_REFUSED);
		}
		controlKeyChecked.add(credentials);
		return {};
	}

	/**
	 * With an RSA private key the V4 probe (RSA_PROBE_FAILURES), after preAuthentication's control
	 * probe; without one the V2 status query signed with the control key, alone. `authenticate`
	 * builds the body and the signature from the path. (A test function would need the deprecated
	 * helpers.request.) n8n answers OK with its own fixed words ("Connection successful!"); only
	 * failures carry a message of ours.
	 */
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{ String($credentials.baseUrl).trim().replace(/\\/+$/, "") }}',
			url: '={{ "/api/" + (String($credentials.privateKey || "").trim() ? "v4" : "v2") + "/status/" + ($credentials.endpointGroupId ? "group/" + $credentials.endpointGroupId : $credentials.endpointId) }}',
			method: 'POST',
			headers: {
				Accept: JSON_MEDIA_TYPE,
				'Content-Type': 'application/x-www-form-urlencoded',
				[SIGNING_HEADER]: 'credential-test',
			},
		},
		rules: TEST_RULES as IAuthenticateRuleResponseCode[],
	};
}

/**
 * The credential test's request, signed. The path says which probe: `/api/v4/status/` is the RSA probe
 * (login, client_orderid, orderid; OAuth RSA-SHA256, no control), anything else the control-signed
 * V2 status query.
 */
function credentialTestProbe(
	merchant: MerchantCredentials,
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
	headers: Record<string, string>,
): IHttpRequestOptions {
	if (!/\/api\/v4\/status\//.test(requestOptions.url))
		return { ...requestOptions, headers, body: credentialTestBody(merchant) };
	// The URL the HTTP client will call, whole, so that the one signed is the one sent.
	const url = requestedUrl(requestOptions);
	// Order ID 0, which no order has (the gateway numbers orders with positive integers), so that the
	// gateway gets as far as looking the order up; a status query changes nothing either way.
	const body = encodeForm([
		['login', merchant.login],
		['client_orderid', CREDENTIAL_TEST_ORDER_ID],
		['orderid', '0'],
	]);
	let authorization: string;
	try {
		authorization = oauthAuthorization(merchant, 'RSA-SHA256', url, body);
	} catch (error) {
		if (!(error instanceof GatewayInputError)) throw error;
		throw new GatewayInputError(
			error.field,
			`${error.message}. The credential test signs with the RSA private key whenever the field is filled in: correct the key, or empty the field if you only use control-signed operations.`,
		);
	}
	// Signed before the control key's query, so that an unreadable key is named before anything is sent.
	if (!controlKeyChecked.has(credentials)) {
		controlKeyFirst.add(credentials);
		throw new ControlKeyFirst();
	}
	const probe: IHttpRequestOptions = {
		...requestOptions,
		url,
		headers: { ...headers, Authorization: authorization },
		body,
		ignoreHttpStatusErrors: { ignore: true, except: RSA_PROBE_FAILURES },
	};
	delete probe.baseURL;
	return probe;
}

/**
 * How the credential test sends the control key's query before the RSA one. n8n runs exactly one
 * declared request, and calls preAuthentication in a test only for a node of type
 * 'n8n-nodes-base.noOp', while its tester's node is of type 'noOp' (n8n 2.41.1:
 * credentials-helper.js line 108, credentials-tester.service.js runRequestTest). But when signing
 * or sending fails with HTTP 401, n8n-core's httpRequestWithAuthentication runs preAuthentication
 * and then signs and sends the request again. So the RSA query's first signing throws this (nothing
 * is sent), preAuthentication sends the control-signed query, and the second signing signs the RSA
 * query. Should an n8n not retry, the test fails with the message of HTTP 401.
 */
class ControlKeyFirst extends Error {
	readonly response = { status: 401 };

	constructor() {
		super('The credential test checks the merchant control key first (through preAuthentication)');
	}
}

/**
 * The credential objects of tests whose control-signed query is due, and of those whose control key
 * passed. n8n hands `authenticate` and preAuthentication of one request the same object; weak, so
 * each is forgotten with its test.
 */
const controlKeyFirst = new WeakSet<object>();
const controlKeyChecked = new WeakSet<object>();

/** The URL axios calls for these options: an absolute `url` as is, otherwise baseURL + '/' + url. */
function requestedUrl({ url, baseURL }: IHttpRequestOptions): string {
	if (!baseURL || /^[a-z][a-z\d+.-]*:\/\//i.test(url)) return url;
	return `${baseURL.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`;
}

/**
 * The node's transport parses the RSA key once per execution and hands it over on the request
 * options (PARSED_RSA_KEY). Parsing a PEM costs more than an RSA-2048 signature; without the key
 * (the credential test, other callers) the PEM is parsed here as before.
 */
function signedWithParsedKey(
	merchant: MerchantCredentials,
	marker: string,
	url: string,
	body: string,
	requestOptions: IHttpRequestOptions,
): string | undefined {
	if (marker !== 'RSA-SHA256' || !merchant.login) return undefined;
	const key = (requestOptions as unknown as Record<symbol, unknown>)[PARSED_RSA_KEY];
	if (!(key instanceof KeyObject) || key.type !== 'private' || key.asymmetricKeyType !== 'rsa') return undefined;
	return signOAuthRequest({
		url,
		body: decodeForm(body),
		consumerKey: merchant.login,
		signatureMethod: 'RSA-SHA256',
		privateKey: key,
	}).authorization;
}

function takeHeader(headers: Record<string, string>, name: string): string | undefined {
	const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
	if (key === undefined) return undefined;
	const value = headers[key];
	delete headers[key];
	return value;
}
