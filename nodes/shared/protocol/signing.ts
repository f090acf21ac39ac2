import { controlSignature } from './control';
import { GatewayInputError } from './errors';
import { loadRsaPrivateKey, percentEncode, signOAuthRequest, type OAuthSignatureMethod } from './oauth';
import { STATUS_FORMULA } from './catalogue';

/**
 * Header through which a request asks the credential to sign it. The credential's `authenticate`
 * removes it and adds the signature, so every signed call goes through n8n's authenticated path.
 */
export const SIGNING_HEADER = 'x-card-gateway-signing';

export type SigningRequest = OAuthSignatureMethod | 'credential-test';

export interface MerchantCredentials {
	baseUrl: string;
	login: string;
	controlKey: string;
	privateKey?: string;
	privateKeyPassphrase?: string;
	endpointId?: string | number;
	endpointGroupId?: string | number;
}

/**
 * The request option through which the node's transport hands the RSA key it parsed once per
 * execution to the credential's `authenticate` (which otherwise parses the PEM for every request).
 * Not enumerable: it never reaches the HTTP client or a log.
 */
export const PARSED_RSA_KEY = Symbol.for('n8n-nodes-card-gateway.parsedRsaKey');

/** The credential's secrets, which never leave the node: masked out of every output, error and log. */
export function credentialSecrets(credentials: MerchantCredentials): string[] {
	return [credentials.controlKey, credentials.privateKey, credentials.privateKeyPassphrase].filter(
		(value): value is string => typeof value === 'string' && value.length > 0,
	);
}

/** Orders the credential test asks about; it never exists, so the probe moves nothing. */
export const CREDENTIAL_TEST_ORDER_ID = 'n8n-credential-test';

/** `a=b&c=d` with RFC 3986 encoding (spaces as %20), in the given order. */
export function encodeForm(fields: ReadonlyArray<readonly [string, string]>): string {
	return fields.map(([name, value]) => `${percentEncode(name)}=${percentEncode(value)}`).join('&');
}

export function decodeForm(body: string): Array<[string, string]> {
	return [...new URLSearchParams(body)];
}

/** The body of the credential test: a signed status query for an order that does not exist. */
export function credentialTestBody(credentials: MerchantCredentials): string {
	const fields = { login: credentials.login, client_orderid: CREDENTIAL_TEST_ORDER_ID, orderid: '' };
	const control = controlSignature(
		STATUS_FORMULA,
		{ endpointId: '', login: credentials.login, fields },
		credentials.controlKey,
	);
	return encodeForm([...Object.entries(fields), ['control', control]]);
}

/** The Authorization header value for an OAuth-signed request: a form POST, or a GET signed over its query. */
export function oauthAuthorization(
	credentials: MerchantCredentials,
	method: OAuthSignatureMethod,
	url: string,
	body: string,
	httpMethod = 'POST',
): string {
	if (!credentials.login) throw new GatewayInputError('login', 'The credential has no merchant login');
	return signOAuthRequest({
		method: httpMethod,
		url,
		body: decodeForm(body),
		consumerKey: credentials.login,
		signatureMethod: method,
		controlKey: credentials.controlKey,
		privateKey:
			method === 'RSA-SHA256'
				? loadRsaPrivateKey(credentials.privateKey ?? '', credentials.privateKeyPassphrase)
				: undefined,
	}).authorization;
}
