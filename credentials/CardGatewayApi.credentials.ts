import { KeyObject } from 'node:crypto';

import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { signOAuthRequest } from '../nodes/shared/protocol/oauth';
import { JSON_MEDIA_TYPE } from '../nodes/shared/protocol/reply';
import {
	PARSED_RSA_KEY,
	SIGNING_HEADER,
	credentialTestBody,
	decodeForm,
	oauthAuthorization,
	type MerchantCredentials,
	type SigningRequest,
} from '../nodes/shared/protocol/signing';

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
			description: 'The gateway address up to and including /paynet. Operation paths such as /api/v2/sale are added to it.',
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
			description: 'Optional multi-currency endpoint group. When set, paths become …/group/{ID} where the gateway allows it.',
		},
	];

	// OAuth-signed operations ask for a signature through a marker header; everything else passes through.
	async authenticate(credentials: ICredentialDataDecryptedObject, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		const headers = { ...(requestOptions.headers ?? {}) } as Record<string, string>;
		const marker = takeHeader(headers, SIGNING_HEADER) as SigningRequest | undefined;
		if (!marker) return requestOptions;
		const merchant = credentials as unknown as MerchantCredentials;
		if (marker === 'credential-test') {
			return { ...requestOptions, headers, body: credentialTestBody(merchant) };
		}
		const url = new URL(requestOptions.url, requestOptions.baseURL || undefined).toString();
		const body = typeof requestOptions.body === 'string' ? requestOptions.body : '';
		headers.Authorization = signedWithParsedKey(merchant, marker, url, body, requestOptions) ?? oauthAuthorization(merchant, marker, url, body);
		return { ...requestOptions, headers };
	}

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{ String($credentials.baseUrl).trim().replace(/\\/+$/, "") }}',
			url: '={{ "/api/v2/status/" + ($credentials.endpointGroupId ? "group/" + $credentials.endpointGroupId : $credentials.endpointId) }}',
			method: 'POST',
			headers: {
				Accept: JSON_MEDIA_TYPE,
				'Content-Type': 'application/x-www-form-urlencoded',
				[SIGNING_HEADER]: 'credential-test',
			},
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 400,
					message: 'The gateway refused the signed test request: check the merchant login, the merchant control key and the endpoint ID',
				},
			},
			{
				type: 'responseCode',
				properties: { value: 403, message: 'The gateway refused the merchant login or signature (HTTP 403)' },
			},
			{
				type: 'responseCode',
				properties: { value: 404, message: 'No gateway API answers at this base URL: it should end in /paynet (HTTP 404)' },
			},
		],
	};
}

/**
 * The node's transport parses the RSA key once per execution and hands it over on the request
 * options (PARSED_RSA_KEY). Parsing a PEM costs more than an RSA-2048 signature; without the key
 * (the credential test, other callers) the PEM is parsed here as before.
 */
function signedWithParsedKey(merchant: MerchantCredentials, marker: string, url: string, body: string, requestOptions: IHttpRequestOptions): string | undefined {
	if (marker !== 'RSA-SHA256' || !merchant.login) return undefined;
	const key = (requestOptions as unknown as Record<symbol, unknown>)[PARSED_RSA_KEY];
	if (!(key instanceof KeyObject) || key.type !== 'private' || key.asymmetricKeyType !== 'rsa') return undefined;
	return signOAuthRequest({ url, body: decodeForm(body), consumerKey: merchant.login, signatureMethod: 'RSA-SHA256', privateKey: key }).authorization;
}

function takeHeader(headers: Record<string, string>, name: string): string | undefined {
	const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
	if (key === undefined) return undefined;
	const value = headers[key];
	delete headers[key];
	return value;
}
