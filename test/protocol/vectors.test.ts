// Published vectors from gateway-facts.md (V2, C1, C2, O1–O3) and vectors computed independently
// with python (hashlib, hmac, decimal) and openssl; see the comment on each.
import { execFileSync } from 'node:child_process';
import { createHmac, createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { callbackControl, isGenuineCallback } from '../../nodes/shared/protocol/callback';
import { OPERATIONS } from '../../nodes/shared/protocol/catalogue';
import { controlSignature, controlString, sha1Hex } from '../../nodes/shared/protocol/control';
import {
	authorizationHeader,
	loadRsaPrivateKey,
	normalizeUrl,
	signOAuthRequest,
	signatureBaseString,
} from '../../nodes/shared/protocol/oauth';

const KEYS = join(__dirname, '../../sandbox/keys');
const SANDBOX_KEY = 'TEST-ONLY-CONTROL-KEY-5f0c9a1e';

describe('SHA-1 control', () => {
	it('V2: sale formula from the PHP library test inputs (amount 0.99 → 99)', () => {
		const inputs = {
			endpointId: '789',
			login: '',
			fields: { client_orderid: 'CLIENT-112233', amount: '0.99', email: 'vass.pupkin@example.com' },
		};
		expect(controlString(OPERATIONS.sale.control, inputs)).toBe('789CLIENT-11223399vass.pupkin@example.com');
		expect(controlSignature(OPERATIONS.sale.control, inputs, 'D5F82EC1-8575-4482-AD89-97X6X0X20X22')).toBe(
			'9ae745207ca7de4543703ea8c334286d57b5d1d4',
		);
	});

	it('P1 (python hashlib): preauth with 19.99 signs 1999, not a float artefact', () => {
		const inputs = {
			endpointId: '1001',
			login: '',
			fields: { client_orderid: 'order-42', amount: '19.99', email: 'ops@example.com' },
		};
		expect(controlSignature(OPERATIONS.preauth.control, inputs, SANDBOX_KEY)).toBe(
			'4c6e39c82bb779389a63640412e25da79b34bc1e',
		);
	});

	it('P2 (python hashlib): partial return signs amount 0.29 → 29 and currency', () => {
		const inputs = {
			endpointId: '1001',
			login: 'n8n-test-merchant',
			fields: { client_orderid: 'refund-7', orderid: '5550001', amount: '0.29', currency: 'USD' },
		};
		expect(controlSignature(OPERATIONS.return.control, inputs, SANDBOX_KEY)).toBe(
			'081b2c131601e6efa32f11c7bbae3b03cc876a80',
		);
	});

	it('a full return signs neither amount nor currency; capture always signs both', () => {
		const inputs = { endpointId: '1', login: 'm', fields: { client_orderid: 'c', orderid: 'o', currency: 'USD' } };
		expect(controlString(OPERATIONS.return.control, inputs)).toBe('mco');
		expect(
			controlString(OPERATIONS.capture.control, { ...inputs, fields: { ...inputs.fields, amount: '10.00' } }),
		).toBe('mco1000USD');
	});

	// Hundredths for every currency, as the vendor's clients compute the control amount (amount × 100).
	// Digests computed with python3 (hashlib.sha1, decimal.Decimal(amount) * 100); J1 also with
	// `printf %s '<string>' | openssl sha1`.
	it('J1 (python hashlib, openssl): JPY 1000 is signed as 100000', () => {
		const inputs = {
			endpointId: '1003',
			login: '',
			fields: { client_orderid: 'jpy-1', amount: '1000', currency: 'JPY', email: 'ops@example.com' },
		};
		expect(controlString(OPERATIONS.sale.control, inputs)).toBe('1003jpy-1100000ops@example.com');
		expect(controlSignature(OPERATIONS.sale.control, inputs, SANDBOX_KEY)).toBe(
			'718adf9d6b8b326bd3fdf828a74bca75888794a7',
		);
	});

	it('E1 (python hashlib): EUR rebill 4.35 → 435', () => {
		const inputs = {
			endpointId: '1002',
			login: 'n8n-test-merchant',
			fields: { client_orderid: 'eur-rebill-1', cardrefid: '500001', amount: '4.35', currency: 'EUR' },
		};
		expect(controlSignature(OPERATIONS.makeRebill.control, inputs, SANDBOX_KEY)).toBe(
			'efd8331bdc638d4f10bf063984f6bc697ca94a49',
		);
	});

	it('K1 (python hashlib): KWD return 1.230 → 123; a third non-zero decimal cannot be signed', () => {
		const inputs = {
			endpointId: '1',
			login: 'n8n-test-merchant',
			fields: { client_orderid: 'kwd-return-1', orderid: '5550002', amount: '1.230', currency: 'KWD' },
		};
		expect(controlSignature(OPERATIONS.return.control, inputs, SANDBOX_KEY)).toBe(
			'cad181c9d91ab916042ddb7c8e425111a04376a4',
		);
		expect(() =>
			controlString(OPERATIONS.return.control, { ...inputs, fields: { ...inputs.fields, amount: '1.234' } }),
		).toThrow(/hundredths/);
	});

	it('F1 (python hashlib): full capture of a 10.00 USD preauth, amount learned and signed', () => {
		const inputs = {
			endpointId: '1001',
			login: 'n8n-test-merchant',
			fields: { client_orderid: 'cap-1', orderid: '100001', amount: '10.00', currency: 'USD' },
		};
		expect(controlSignature(OPERATIONS.capture.control, inputs, SANDBOX_KEY)).toBe(
			'5818efb73eae6502c00f7a851a9b6c79f1251713',
		);
	});

	it('T1 (python hashlib): v2 transfer-by-ref signs login, order, source and destination references, 25.50 EUR → 2550', () => {
		const inputs = {
			endpointId: '1002',
			login: 'n8n-test-merchant',
			fields: {
				client_orderid: 'tbr-1',
				'source-card-ref-id': '500001',
				'destination-card-ref-id': '500002',
				amount: '25.50',
				currency: 'EUR',
			},
		};
		expect(controlString(OPERATIONS.transferByRefV2.control, inputs)).toBe('n8n-test-merchanttbr-15000015000022550EUR');
		expect(controlSignature(OPERATIONS.transferByRefV2.control, inputs, SANDBOX_KEY)).toBe(
			'b567e99cc3a525cf9e7da97bcdf1d05cdeb40a5d',
		);
	});

	it('3-D Secure uploads sign the client-order-id field', () => {
		const inputs = { endpointId: '1', login: 'm', fields: { 'client-order-id': 'c-1', orderid: '9' } };
		expect(controlString(OPERATIONS.uploadCRes.control, inputs)).toBe('mc-19');
	});
});

describe('callback control', () => {
	it('C1: customer return with "_" ids (ruby library test)', () => {
		expect(callbackControl({ status: 'approved', orderid: '_', merchant_order: '_' }, 'key')).toBe(
			'2c84ae87d73fa3dc116b3203e8bb1c133eed829d',
		);
	});

	it('C2: hosted-fields callback test, and its empty-field twin', () => {
		const fields = { status: 'approved', orderid: '1234567', merchant_order: 'hf-abc' };
		expect(callbackControl(fields, 'test-merchant-control')).toBe('652ace404c4dfe8bba069ecee594ec23a89340e1');
		expect(callbackControl({}, 'test-merchant-control')).toBe('1a66987ac24e927ff2979f83a41cb818936a9e62');
	});

	it('falls back to client_orderid, accepts uppercase hex, refuses truncated, wrong and missing controls', () => {
		const signed = { status: 'approved', orderid: '1234567', client_orderid: 'hf-abc' };
		const control = '652ace404c4dfe8bba069ecee594ec23a89340e1';
		expect(isGenuineCallback({ ...signed, control }, 'test-merchant-control')).toBe(true);
		expect(isGenuineCallback({ ...signed, control: control.toUpperCase() }, 'test-merchant-control')).toBe(true);
		expect(isGenuineCallback({ ...signed, control: control.slice(0, 39) }, 'test-merchant-control')).toBe(false);
		expect(isGenuineCallback({ ...signed, control: sha1Hex('x') }, 'test-merchant-control')).toBe(false);
		expect(isGenuineCallback(signed, 'test-merchant-control')).toBe(false);
		expect(isGenuineCallback({ ...signed, status: 'declined', control }, 'test-merchant-control')).toBe(false);
		expect(isGenuineCallback({ ...signed, control }, '')).toBe(false);
	});
});

describe('OAuth 1.0a', () => {
	it('O1: the RFC 5849 / OAuth 1.0a worked example', () => {
		const base = signatureBaseString('GET', 'http://photos.example.net/photos', [
			['file', 'vacation.jpg'],
			['size', 'original'],
			['oauth_consumer_key', 'dpf43f3p2l4k3l03'],
			['oauth_token', 'nnch734d00sl2jdk'],
			['oauth_nonce', 'kllo9940pd9333jh'],
			['oauth_timestamp', '1191242096'],
			['oauth_signature_method', 'HMAC-SHA1'],
			['oauth_version', '1.0'],
		]);
		expect(base).toBe(
			'GET&http%3A%2F%2Fphotos.example.net%2Fphotos&file%3Dvacation.jpg%26oauth_consumer_key%3Ddpf43f3p2l4k3l03%26oauth_nonce%3Dkllo9940pd9333jh%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1191242096%26oauth_token%3Dnnch734d00sl2jdk%26oauth_version%3D1.0%26size%3Doriginal',
		);
		expect(createHmac('sha1', 'kd94hf93k423kf44&pfkkdhi9sl3r4s00').update(base).digest('base64')).toBe(
			'tR3+Ty81lMeYAr/Fid0kMTYa/WM=',
		);
	});

	it('O2: the hosted-fields base string', () => {
		expect(
			signatureBaseString('POST', 'https://gateway.example/paynet/api/v4/sale/123', [
				['oauth_consumer_key', 'merchant'],
				['amount', '1.00'],
				['client_orderid', 'hf-1'],
			]),
		).toBe(
			'POST&https%3A%2F%2Fgateway.example%2Fpaynet%2Fapi%2Fv4%2Fsale%2F123&amount%3D1.00%26client_orderid%3Dhf-1%26oauth_consumer_key%3Dmerchant',
		);
	});

	it('O3: PaynetEasy-shaped HMAC-SHA1 for pan-eligibility send', () => {
		const signed = signOAuthRequest({
			url: 'https://sandbox.payneteasy.com/paynet/api/v2/pan-eligibility/send/1',
			body: [
				['client-order-id', '1234567890'],
				['sending-card-ref-id', '7654321'],
			],
			consumerKey: 'merchantlogin',
			signatureMethod: 'HMAC-SHA1',
			controlKey: 'F9F65098-1111-1111-1111-621611111111',
			nonce: 'y3qlvMPky7g',
			timestamp: '1669966913',
		});
		expect(signed.authorization).toContain('oauth_signature="rW%2BodYt1x18RTGECEzXSDD%2F8z%2Fo%3D"');
	});

	it('P3 (python urllib + hmac): reserved characters, spaces and UTF-8 in a value', () => {
		const signed = signOAuthRequest({
			url: 'http://127.0.0.1:8899/paynet/api/v2/payout/1001',
			body: [
				['client_orderid', 'payout 1/ä+!'],
				['amount', '10.50'],
				['currency', 'EUR'],
			],
			consumerKey: 'n8n-test-merchant',
			signatureMethod: 'HMAC-SHA1',
			controlKey: SANDBOX_KEY,
			nonce: 'abc123nonce',
			timestamp: '1700000000',
		});
		expect(signed.baseString).toBe(
			'POST&http%3A%2F%2F127.0.0.1%3A8899%2Fpaynet%2Fapi%2Fv2%2Fpayout%2F1001&amount%3D10.50%26client_orderid%3Dpayout%25201%252F%25C3%25A4%252B%2521%26currency%3DEUR%26oauth_consumer_key%3Dn8n-test-merchant%26oauth_nonce%3Dabc123nonce%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1700000000%26oauth_version%3D1.0',
		);
		expect(signed.oauthParams.oauth_signature_method).toBe('HMAC-SHA1');
		expect(signed.authorization).toContain(`oauth_signature="${encodeURIComponent('CGVM4ZXkSB6O1yU+EqkZ0LoNWMA=')}"`);
	});

	it('P4: URL normalisation drops default ports, lowercases the host and drops the query', () => {
		expect(normalizeUrl('https://Gate.Example.COM:443/paynet/api/v4/payout-check/7?x=1')).toBe(
			'https://gate.example.com/paynet/api/v4/payout-check/7',
		);
		expect(normalizeUrl('http://127.0.0.1:8899/paynet')).toBe('http://127.0.0.1:8899/paynet');
	});

	it('oauth_* values repeated in the body are signed once', () => {
		const common = {
			url: 'http://h/paynet/api/v2/payout/1',
			consumerKey: 'm',
			signatureMethod: 'HMAC-SHA1' as const,
			controlKey: 'k',
			nonce: 'n',
			timestamp: '1',
		};
		const plain = signOAuthRequest({ ...common, body: [['a', '1']] });
		const repeated = signOAuthRequest({
			...common,
			body: [
				['a', '1'],
				['oauth_nonce', 'n'],
				['oauth_consumer_key', 'm'],
			],
		});
		expect(repeated.baseString).toBe(plain.baseString);
	});

	it('P5 (openssl dgst -verify): an RSA-SHA256 signature made here verifies with openssl', () => {
		const pem = readFileSync(join(KEYS, 'test-merchant-2048.key.pem'), 'utf8');
		const signed = signOAuthRequest({
			url: 'http://127.0.0.1:8899/paynet/api/v4/payout-check/1001',
			body: [
				['client_orderid', 'check-1'],
				['amount', '25.00'],
				['currency', 'USD'],
			],
			consumerKey: 'n8n-test-merchant',
			signatureMethod: 'RSA-SHA256',
			privateKey: loadRsaPrivateKey(pem),
		});
		const signature = decodeURIComponent(/oauth_signature="([^"]+)"/.exec(signed.authorization)![1]);
		const dir = mkdtempSync(join(tmpdir(), 'rsa-vector-'));
		writeFileSync(join(dir, 'base.txt'), signed.baseString, 'utf8');
		writeFileSync(join(dir, 'sig.bin'), Buffer.from(signature, 'base64'));
		const out = execFileSync('openssl', [
			'dgst',
			'-sha256',
			'-verify',
			join(KEYS, 'test-merchant-2048.pub.pem'),
			'-signature',
			join(dir, 'sig.bin'),
			join(dir, 'base.txt'),
		]).toString();
		expect(out.trim()).toBe('Verified OK');
		const publicKey = createPublicKey(readFileSync(join(KEYS, 'test-merchant-2048.pub.pem')));
		expect(verify('sha256', Buffer.from(signed.baseString), publicKey, Buffer.from(signature, 'base64'))).toBe(true);
	});

	it('the header encodes every value once and sorts the pairs', () => {
		expect(authorizationHeader({ oauth_signature: 'a+b/c=', oauth_nonce: 'x y' })).toBe(
			'OAuth oauth_nonce="x%20y", oauth_signature="a%2Bb%2Fc%3D"',
		);
	});
});
