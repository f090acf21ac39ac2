import { createHmac, createPrivateKey, createSign, randomBytes, type KeyObject } from 'node:crypto';

import { GatewayInputError } from './errors';

export type OAuthSignatureMethod = 'HMAC-SHA1' | 'RSA-SHA256';

export const MIN_RSA_BITS = 2048;

/** RFC 3986 percent-encoding: only A-Z a-z 0-9 - . _ ~ stay as they are; UTF-8 bytes otherwise. */
export function percentEncode(value: string): string {
	return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** RFC 5849 §3.4.1.2: lowercase scheme and host, no default port, path kept, no query or fragment. */
export function normalizeUrl(url: string): string {
	const parsed = new URL(url);
	const scheme = parsed.protocol.toLowerCase();
	const defaultPort = (scheme === 'http:' && parsed.port === '80') || (scheme === 'https:' && parsed.port === '443');
	const port = parsed.port && !defaultPort ? `:${parsed.port}` : '';
	return `${scheme}//${parsed.hostname.toLowerCase()}${port}${parsed.pathname}`;
}

/**
 * The signature base string: `METHOD&enc(url)&enc(sorted name=value pairs)`. Parameters are the
 * body fields, the URL's query parameters and the oauth_* values (never oauth_signature).
 */
export function signatureBaseString(
	method: string,
	url: string,
	params: ReadonlyArray<readonly [string, string]>,
): string {
	const all: Array<[string, string]> = params
		.filter(([name]) => name !== 'oauth_signature')
		.map(([name, value]) => [percentEncode(name), percentEncode(value)]);
	for (const [name, value] of new URL(url).searchParams) all.push([percentEncode(name), percentEncode(value)]);
	all.sort(([an, av], [bn, bv]) => (an === bn ? compare(av, bv) : compare(an, bn)));
	const joined = all.map(([name, value]) => `${name}=${value}`).join('&');
	return [method.toUpperCase(), percentEncode(normalizeUrl(url)), percentEncode(joined)].join('&');
}

export function hmacSha1Signature(baseString: string, controlKey: string): string {
	return createHmac('sha1', `${controlKey}&`).update(baseString, 'utf8').digest('base64');
}

export function rsaSha256Signature(baseString: string, key: KeyObject): string {
	return createSign('RSA-SHA256').update(baseString, 'utf8').sign(key, 'base64');
}

/**
 * Parses the merchant's RSA private key (PKCS#1 or PKCS#8 PEM, optionally encrypted). Keys pasted
 * into a single-line field with literal `\n` are repaired. Messages never include key material.
 */
export function loadRsaPrivateKey(pem: string, passphrase?: string): KeyObject {
	const text = (pem ?? '').replace(/\\n/g, '\n').trim();
	if (!/-----BEGIN (RSA |ENCRYPTED )?PRIVATE KEY-----/.test(text)) {
		throw new GatewayInputError(
			'privateKey',
			'The credential has no RSA private key in PEM form ("-----BEGIN PRIVATE KEY-----" or "-----BEGIN RSA PRIVATE KEY-----"); RSA-signed operations need one',
		);
	}
	let key: KeyObject | undefined;
	let failure: (Error & { code?: string }) | undefined;
	try {
		key = createPrivateKey({ key: text, format: 'pem', passphrase: passphrase || undefined });
	} catch (error) {
		failure = error as Error & { code?: string };
	}
	if (!key) {
		const encrypted = /ENCRYPTED/.test(text);
		throw new GatewayInputError(
			encrypted ? 'privateKeyPassphrase' : 'privateKey',
			encrypted
				? 'The RSA private key could not be decrypted: check the private key passphrase'
				: `The RSA private key could not be read (${failure?.code ?? 'invalid PEM'})`,
		);
	}
	if (key.asymmetricKeyType !== 'rsa') {
		throw new GatewayInputError(
			'privateKey',
			`The private key is ${key.asymmetricKeyType ?? 'not RSA'}; the gateway needs an RSA key`,
		);
	}
	const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
	if (bits < MIN_RSA_BITS) {
		throw new GatewayInputError(
			'privateKey',
			`The RSA private key has ${bits} bits; the gateway requires at least ${MIN_RSA_BITS}`,
		);
	}
	return key;
}

export interface OAuthSigningInput {
	method?: string;
	url: string;
	/** Form body fields, in the order they are sent. */
	body: ReadonlyArray<readonly [string, string]>;
	consumerKey: string;
	signatureMethod: OAuthSignatureMethod;
	controlKey?: string;
	privateKey?: KeyObject;
	/** Fixed only in tests; fresh random values otherwise. */
	nonce?: string;
	timestamp?: string;
}

export interface OAuthSigned {
	authorization: string;
	oauthParams: Record<string, string>;
	baseString: string;
}

export function signOAuthRequest(input: OAuthSigningInput): OAuthSigned {
	const oauthParams: Record<string, string> = {
		oauth_consumer_key: input.consumerKey,
		oauth_nonce: input.nonce ?? randomBytes(16).toString('hex'),
		oauth_signature_method: input.signatureMethod,
		oauth_timestamp: input.timestamp ?? String(Math.floor(Date.now() / 1000)),
		oauth_version: '1.0',
	};
	// oauth_* values repeated in the body (as some docs show) are signed once, from the header set.
	const body = input.body.filter(([name]) => !(name in oauthParams) && name !== 'oauth_signature');
	const baseString = signatureBaseString(input.method ?? 'POST', input.url, [...body, ...Object.entries(oauthParams)]);
	let signature: string;
	if (input.signatureMethod === 'HMAC-SHA1') {
		if (!input.controlKey)
			throw new GatewayInputError('controlKey', 'HMAC-SHA1 signing needs the merchant control key');
		signature = hmacSha1Signature(baseString, input.controlKey);
	} else {
		if (!input.privateKey) throw new GatewayInputError('privateKey', 'RSA-SHA256 signing needs the RSA private key');
		signature = rsaSha256Signature(baseString, input.privateKey);
	}
	return {
		authorization: authorizationHeader({ ...oauthParams, oauth_signature: signature }),
		oauthParams,
		baseString,
	};
}

export function authorizationHeader(params: Readonly<Record<string, string>>): string {
	const pairs = Object.keys(params)
		.sort()
		.map((name) => `${percentEncode(name)}="${percentEncode(params[name])}"`);
	return `OAuth ${pairs.join(', ')}`;
}

function compare(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}
