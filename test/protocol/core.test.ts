import { generateKeyPairSync } from 'node:crypto';

import { controlAmount, parseAmount, parseCurrency } from '../../nodes/shared/protocol/amount';
import { GatewayInputError } from '../../nodes/shared/protocol/errors';
import { maskPan, maskSensitive, maskText } from '../../nodes/shared/protocol/masking';
import { loadRsaPrivateKey } from '../../nodes/shared/protocol/oauth';
import { classifyReply, isOrderNotFound, parseGatewayReply } from '../../nodes/shared/protocol/reply';
import { unreachable } from '../../nodes/shared/transport';

function inputError(run: () => unknown): GatewayInputError {
	try {
		run();
	} catch (error) {
		if (error instanceof GatewayInputError) return error;
		throw error;
	}
	throw new Error('expected a GatewayInputError');
}

describe('amounts', () => {
	it.each([
		['0.29', '29'],
		['19.99', '1999'],
		['4.35', '435'],
		['10', '1000'],
		['10.5', '1050'],
		['0010.50', '1050'],
		['1234567890.99', '123456789099'],
	])('%s → %s hundredths (from the string)', (amount, hundredths) => {
		expect(controlAmount(parseAmount(amount, 'USD'))).toBe(hundredths);
	});

	it('signs hundredths whatever the currency; request amounts keep the currency decimals', () => {
		expect(controlAmount(parseAmount('1500', 'JPY'))).toBe('150000');
		expect(controlAmount(parseAmount('1.230', 'KWD'))).toBe('123');
		expect(inputError(() => controlAmount(parseAmount('1.234', 'KWD'))).message).toMatch(
			/"amount" 1\.234 cannot be signed/,
		);
		expect(inputError(() => controlAmount('1.234', 'Amount')).field).toBe('Amount');
		expect(inputError(() => parseAmount('1.5', 'JPY')).message).toContain('JPY allows at most 0');
	});

	it('accepts exact numbers, refuses float artefacts and malformed values', () => {
		expect(parseAmount(12.5, 'EUR')).toBe('12.5');
		for (const bad of [
			0.1 + 0.2,
			-1,
			NaN,
			Infinity,
			'1e3',
			'-5',
			'1,000.00',
			'',
			'.5',
			'5.',
			'0',
			'0.00',
			'12345678901',
			{},
			null,
			[1],
		]) {
			const error = inputError(() => parseAmount(bad, 'USD'));
			expect(error.field).toBe('amount');
		}
	});

	it('normalises currency codes and refuses others', () => {
		expect(parseCurrency(' usd ')).toBe('USD');
		expect(inputError(() => parseCurrency('US')).field).toBe('currency');
		expect(inputError(() => parseCurrency(840)).field).toBe('currency');
	});
});

describe('replies', () => {
	it('parses the legacy key=value\\n& form with urlencoded values', () => {
		const body =
			'type=async-response\n&serial-number=00000000-0000-0000-0000-000002d9b22a\n&merchant-order-id=inv4097763\n&paynet-order-id=6768788\n&end-point-id=22903\n';
		const reply = parseGatewayReply(200, 'text/html;charset=utf-8', body);
		expect(reply.format).toBe('legacy');
		expect(reply.fields).toEqual({
			type: 'async-response',
			'serial-number': '00000000-0000-0000-0000-000002d9b22a',
			'merchant-order-id': 'inv4097763',
			'paynet-order-id': '6768788',
			'end-point-id': '22903',
		});
		expect(classifyReply(reply)).toBeUndefined();
		const html = parseGatewayReply(200, 'text/html', 'type=status-response\n&html=%3Cform+action%3D%22x%22%3E\n');
		expect(html.fields.html).toBe('<form action="x">');
	});

	it('parses JSON replies, stringifying numbers', () => {
		const reply = parseGatewayReply(200, 'application/vnd.pay+json', {
			type: 'status-response',
			'paynet-order-id': 42,
			status: 'approved',
		});
		expect(reply.fields['paynet-order-id']).toBe('42');
	});

	it('classifies validation errors in both formats, auth refusals, server errors and non-gateway replies', () => {
		const legacy = parseGatewayReply(
			200,
			'text/html',
			'type=validation-error\n&error-message=Invalid+control\n&error-code=2\n',
		);
		expect(classifyReply(legacy)).toMatchObject({ kind: 'validation', message: 'Invalid control', code: '2' });
		const json = parseGatewayReply(
			400,
			'application/vnd.pay+json',
			'{"type":"validation-error","error-message":"Bad amount","error-code":1}',
		);
		expect(classifyReply(json)).toMatchObject({
			kind: 'validation',
			message: 'Bad amount',
			code: '1',
			httpStatus: 400,
		});
		expect(classifyReply(parseGatewayReply(403, 'text/plain', 'Forbidden'))).toMatchObject({ kind: 'authentication' });
		expect(
			classifyReply(parseGatewayReply(500, 'application/vnd.pay+json', '{"type":"error","error-message":"boom"}')),
		).toMatchObject({
			kind: 'server',
			message: 'boom',
		});
		expect(classifyReply(parseGatewayReply(200, 'text/html', '<html>hello</html>'))).toMatchObject({
			kind: 'transport',
		});
		expect(classifyReply(parseGatewayReply(404, 'text/html', 'Not Found'))).toMatchObject({ kind: 'transport' });
	});

	it('recognises "no such order"', () => {
		expect(
			isOrderNotFound(
				parseGatewayReply(200, 'application/json', {
					type: 'status-response',
					status: 'error',
					'error-message': 'Order not found',
				}),
			),
		).toBe(true);
		expect(
			isOrderNotFound(parseGatewayReply(200, 'application/json', { type: 'status-response', status: 'approved' })),
		).toBe(false);
	});
});

describe('masking', () => {
	it('keeps at most the first 6 and last 4 digits', () => {
		expect(maskPan('4444 5555 6666 1111')).toBe('444455******1111');
		expect(maskPan('4111111111111111')).toBe('411111******1111');
	});

	it('masks card numbers in text and fields, drops CVV and secrets', () => {
		const masked = maskSensitive(
			{
				credit_card_number: '4111111111111111',
				cvv2: '123',
				note: 'card 4111 1111 1111 1111 was used; key SECRET-KEY-1',
				nested: [{ 'destination-card-no': '5555555555554444' }],
				orderid: '1234567890123',
			},
			['SECRET-KEY-1'],
		);
		expect(masked).toEqual({
			credit_card_number: '411111******1111',
			note: 'card 411111******1111 was used; key [redacted]',
			nested: [{ 'destination-card-no': '555555******4444' }],
			orderid: '1234567890123',
		});
		expect(maskText('order 1234567890123 stays')).toBe('order 1234567890123 stays');
	});
});

describe('RSA private keys', () => {
	const pair = (bits: number) => generateKeyPairSync('rsa', { modulusLength: bits });

	it('reads PKCS#8 and PKCS#1, encrypted or not, and repairs literal \\n', () => {
		const { privateKey } = pair(2048);
		const pkcs8 = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
		const pkcs1 = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
		const encrypted = privateKey
			.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pass phrase' })
			.toString();
		expect(loadRsaPrivateKey(pkcs8).asymmetricKeyDetails?.modulusLength).toBe(2048);
		expect(loadRsaPrivateKey(pkcs1).asymmetricKeyType).toBe('rsa');
		expect(loadRsaPrivateKey(pkcs8.replace(/\n/g, '\\n')).asymmetricKeyType).toBe('rsa');
		expect(loadRsaPrivateKey(encrypted, 'pass phrase').asymmetricKeyType).toBe('rsa');
		const wrong = inputError(() => loadRsaPrivateKey(encrypted, 'nope'));
		expect(wrong.field).toBe('privateKeyPassphrase');
		expect(wrong.message).not.toContain('PRIVATE KEY-----');
	});

	it('refuses keys under 2048 bits, non-RSA keys and non-PEM text', () => {
		const small = pair(1024).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
		expect(inputError(() => loadRsaPrivateKey(small)).message).toContain('1024 bits');
		const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
			.privateKey.export({ type: 'pkcs8', format: 'pem' })
			.toString();
		expect(inputError(() => loadRsaPrivateKey(ec)).message).toContain('ec');
		expect(inputError(() => loadRsaPrivateKey('not a key')).field).toBe('privateKey');
	});
});

describe("n8n's SSRF protection", () => {
	it('a request n8n refused to connect to (SsrfBlockedIpError, however wrapped) is "nothing sent", never a lost reply', () => {
		const blocked = Object.assign(new Error('The request was blocked because it resolves to a restricted IP address'), {
			name: 'SsrfBlockedIpError',
		});
		const wrapped = Object.assign(new Error('The connection failed'), {
			name: 'NodeApiError',
			cause: blocked,
			httpCode: 'UNKNOWN',
		});
		const credentials = {
			baseUrl: 'https://gw.example.com/paynet',
			login: 'm',
			controlKey: 'secret-key',
			endpointId: '1',
		} as never;
		for (const error of [blocked, wrapped]) {
			expect(unreachable(error, credentials)).toMatchObject({
				nothingSent: true,
				code: 'SSRF_BLOCKED',
				what: expect.stringContaining('SSRF protection'),
			});
		}
		expect(unreachable(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), credentials)).toMatchObject({
			nothingSent: false,
		});
	});
});
