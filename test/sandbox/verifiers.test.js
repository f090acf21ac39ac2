'use strict';
// The sandbox's verifiers against published vectors (gateway-facts §3.2, §4.1) and an RSA
// signature made by the openssl CLI.
const { describe, it, expect } = require('@jest/globals');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createVerifier, controlMatches } = require('../../sandbox/verifier');
const oauth = require('../../sandbox/oauth');
const { parseAmount, formatMinor, currencyDigits, controlHundredths } = require('../../sandbox/amount');
const cards = require('../../sandbox/cards');

const KEYS = path.join(__dirname, '..', '..', 'sandbox', 'keys');

describe.each(['forge', 'node'])('verifier backend %s', (name) => {
	const v = createVerifier(name);

	it('SHA-1 vectors V2, C1, C2 and C2 with empty fields', () => {
		expect(v.sha1Hex('789CLIENT-11223399vass.pupkin@example.comD5F82EC1-8575-4482-AD89-97X6X0X20X22')).toBe(
			'9ae745207ca7de4543703ea8c334286d57b5d1d4',
		);
		expect(v.sha1Hex('approved__key')).toBe('2c84ae87d73fa3dc116b3203e8bb1c133eed829d');
		expect(v.sha1Hex('approved1234567hf-abctest-merchant-control')).toBe('652ace404c4dfe8bba069ecee594ec23a89340e1');
		expect(v.sha1Hex('test-merchant-control')).toBe('1a66987ac24e927ff2979f83a41cb818936a9e62');
	});

	it('control comparison: case-insensitive, exactly 40 hex chars', () => {
		const s = 'approved1234567hf-abctest-merchant-control';
		expect(controlMatches(v, s, '652ace404c4dfe8bba069ecee594ec23a89340e1')).toBe(true);
		expect(controlMatches(v, s, '652ACE404C4DFE8BBA069ECEE594EC23A89340E1')).toBe(true);
		expect(controlMatches(v, s, '652ace404c4dfe8bba069ecee594ec23a89340e')).toBe(false);
		expect(controlMatches(v, s, '652ace404c4dfe8bba069ecee594ec23a89340e1 ')).toBe(false);
		expect(controlMatches(v, s, '752ace404c4dfe8bba069ecee594ec23a89340e1')).toBe(false);
		expect(controlMatches(v, s, '')).toBe(false);
	});

	it('O1: RFC 5849 example (GET with oauth_token)', () => {
		const base = oauth.signatureBaseString(
			'GET',
			oauth.normaliseUrlString('http://photos.example.net:80/photos?size=original&file=vacation.jpg'),
			[
				['file', 'vacation.jpg'],
				['size', 'original'],
				['oauth_consumer_key', 'dpf43f3p2l4k3l03'],
				['oauth_token', 'nnch734d00sl2jdk'],
				['oauth_nonce', 'kllo9940pd9333jh'],
				['oauth_timestamp', '1191242096'],
				['oauth_signature_method', 'HMAC-SHA1'],
				['oauth_version', '1.0'],
			],
		);
		expect(base).toBe(
			'GET&http%3A%2F%2Fphotos.example.net%2Fphotos&file%3Dvacation.jpg%26oauth_consumer_key%3Ddpf43f3p2l4k3l03%26oauth_nonce%3Dkllo9940pd9333jh%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1191242096%26oauth_token%3Dnnch734d00sl2jdk%26oauth_version%3D1.0%26size%3Doriginal',
		);
		expect(v.hmacSha1Base64('kd94hf93k423kf44&pfkkdhi9sl3r4s00', base)).toBe('tR3+Ty81lMeYAr/Fid0kMTYa/WM=');
	});

	it('O2: hosted-fields base string', () => {
		const base = oauth.signatureBaseString(
			'POST',
			oauth.normaliseUrlString('https://gateway.example/paynet/api/v4/sale/123'),
			[
				['oauth_consumer_key', 'merchant'],
				['amount', '1.00'],
				['client_orderid', 'hf-1'],
			],
		);
		expect(base).toBe(
			'POST&https%3A%2F%2Fgateway.example%2Fpaynet%2Fapi%2Fv4%2Fsale%2F123&amount%3D1.00%26client_orderid%3Dhf-1%26oauth_consumer_key%3Dmerchant',
		);
	});

	it('O3: PaynetEasy-shaped HMAC-SHA1, verified through the full request verifier', () => {
		const header =
			'OAuth realm="",oauth_version="1.0",oauth_signature_method="HMAC-SHA1",oauth_consumer_key="merchantlogin",oauth_timestamp="1669966913",oauth_nonce="y3qlvMPky7g",oauth_signature="rW%2BodYt1x18RTGECEzXSDD%2F8z%2Fo%3D"';
		const merchant = { login: 'merchantlogin', controlKey: 'F9F65098-1111-1111-1111-621611111111', publicKeys: [] };
		const req = {
			header,
			method: 'POST',
			url: 'https://sandbox.payneteasy.com/paynet/api/v2/pan-eligibility/send/1',
			bodyPairs: [
				['client-order-id', '1234567890'],
				['sending-card-ref-id', '7654321'],
			],
			queryPairs: [],
			allowedMethods: ['HMAC-SHA1'],
			merchantByLogin: (l) => (l === 'merchantlogin' ? merchant : null),
			verifier: v,
		};
		const r = oauth.verifyOAuthRequest(req);
		expect(r.ok).toBe(true);
		expect(
			v.hmacSha1Base64(
				'F9F65098-1111-1111-1111-621611111111&',
				'POST&https%3A%2F%2Fsandbox.payneteasy.com%2Fpaynet%2Fapi%2Fv2%2Fpan-eligibility%2Fsend%2F1&client-order-id%3D1234567890%26oauth_consumer_key%3Dmerchantlogin%26oauth_nonce%3Dy3qlvMPky7g%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1669966913%26oauth_version%3D1.0%26sending-card-ref-id%3D7654321',
			),
		).toBe('rW+odYt1x18RTGECEzXSDD/8z/o=');
		// oauth params repeated in the body are accepted when equal, refused when different
		const repeated = [
			['oauth_consumer_key', 'merchantlogin'],
			['oauth_nonce', 'y3qlvMPky7g'],
			['oauth_signature_method', 'HMAC-SHA1'],
			['oauth_timestamp', '1669966913'],
			['oauth_version', '1.0'],
		];
		expect(oauth.verifyOAuthRequest({ ...req, bodyPairs: [...req.bodyPairs, ...repeated] }).ok).toBe(true);
		expect(oauth.verifyOAuthRequest({ ...req, bodyPairs: [...req.bodyPairs, ['oauth_nonce', 'other']] }).ok).toBe(
			false,
		);
		expect(
			oauth.verifyOAuthRequest({
				...req,
				bodyPairs: [
					['client-order-id', '1234567891'],
					['sending-card-ref-id', '7654321'],
				],
			}).ok,
		).toBe(false);
		expect(oauth.verifyOAuthRequest({ ...req, allowedMethods: ['RSA-SHA256'] }).ok).toBe(false);
	});

	it('RSA-SHA256: a signature made by openssl dgst -sha256 -sign verifies; others do not', () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-rsa-'));
		const text =
			'POST&http%3A%2F%2F127.0.0.1%3A8899%2Fpaynet%2Fapi%2Fv4%2Fpayout-check%2F1001&amount%3D1.00%26client_orderid%3Dé';
		fs.writeFileSync(path.join(dir, 'base.txt'), text, 'utf8');
		const sig = execFileSync('openssl', [
			'dgst',
			'-sha256',
			'-sign',
			path.join(KEYS, 'test-merchant-2048.key.pem'),
			path.join(dir, 'base.txt'),
		]);
		fs.rmSync(dir, { recursive: true, force: true });
		expect(sig.length).toBe(256);
		const pub = v.loadPublicKey(fs.readFileSync(path.join(KEYS, 'test-merchant-2048.pub.pem'), 'utf8'));
		const other = v.loadPublicKey(fs.readFileSync(path.join(KEYS, 'other-merchant-2048.pub.pem'), 'utf8'));
		expect(v.rsaSha256Verify(pub, text, sig)).toBe(true);
		expect(v.rsaSha256Verify(pub, `${text}x`, sig)).toBe(false);
		expect(v.rsaSha256Verify(other, text, sig)).toBe(false);
		const bad = Buffer.from(sig);
		bad[10] ^= 1;
		expect(v.rsaSha256Verify(pub, text, bad)).toBe(false);
		expect(v.rsaSha256Verify(pub, text, sig.subarray(1))).toBe(false);
	});
});

describe('OAuth header parsing', () => {
	it('accepts any order, with or without spaces, realm, unquoted values; decodes values', () => {
		const a = oauth.parseAuthorization('OAuth realm="x", oauth_signature="a%2Bb%3D", oauth_consumer_key="m"');
		expect(a.params.get('oauth_signature')).toBe('a+b=');
		expect(a.params.has('realm')).toBe(false);
		const b = oauth.parseAuthorization('OAuth oauth_consumer_key=m,oauth_signature="s"');
		expect(b.params.get('oauth_consumer_key')).toBe('m');
		expect(oauth.parseAuthorization('Basic abc').error).toBeTruthy();
		expect(oauth.parseAuthorization('OAuth a="1", a="2"').error).toBeTruthy();
	});

	it('RFC 3986 encoding', () => {
		expect(oauth.percentEncode("!'()*")).toBe('%21%27%28%29%2A');
		expect(oauth.percentEncode('John Smith')).toBe('John%20Smith');
		expect(oauth.percentEncode('a+b')).toBe('a%2Bb');
		expect(oauth.percentEncode('é')).toBe('%C3%A9');
		expect(oauth.percentEncode('-._~')).toBe('-._~');
	});

	it('URL normalisation drops default ports and lowercases scheme and host only', () => {
		expect(oauth.normaliseUrl('HTTP', 'LocalHost:80', '/Paynet/x')).toBe('http://localhost/Paynet/x');
		expect(oauth.normaliseUrl('http', '127.0.0.1:8899', '/paynet/api')).toBe('http://127.0.0.1:8899/paynet/api');
		expect(oauth.normaliseUrlString('https://Example.com:443/a?b=c')).toBe('https://example.com/a');
	});
});

describe('amounts and cards', () => {
	it('the signed amount: hundredths of the decimal string for every currency', () => {
		const cases = [
			['0.29', '29'],
			['19.99', '1999'],
			['1000', '100000'],
			['1.230', '123'],
			['0010.5', '1050'],
			['999999999999999.99', '99999999999999999'],
		];
		for (const [amount, hundredths] of cases) expect(controlHundredths(amount)).toEqual({ hundredths });
		expect(controlHundredths('1.234').error).toMatch(/hundredths/);
		for (const bad of ['', '-1', '1e3', '.5', 'abc']) expect(controlHundredths(bad).error).toBeTruthy();
	});

	it('minor units from decimal strings, per currency', () => {
		expect(parseAmount('0.29', 'USD').minor).toBe(29);
		expect(parseAmount('19.99', 'USD').minor).toBe(1999);
		expect(parseAmount('4.35', 'EUR').minor).toBe(435);
		expect(parseAmount('10', 'USD').minor).toBe(1000);
		expect(parseAmount('10.5', 'USD').minor).toBe(1050);
		expect(parseAmount('10.500', 'USD').minor).toBe(1050);
		expect(parseAmount('1500', 'JPY').minor).toBe(1500);
		expect(parseAmount('15.5', 'JPY').error).toMatch(/JPY allows 0/);
		expect(parseAmount('1.234', 'KWD').minor).toBe(1234);
		expect(parseAmount('1.2345', 'KWD').error).toBeTruthy();
		expect(parseAmount('1.234', 'USD').error).toBeTruthy();
		for (const bad of ['', '1,00', '-1', '1e3', '.5', '1.', 'abc']) expect(parseAmount(bad, 'USD').error).toBeTruthy();
		expect(currencyDigits('krw')).toBe(0);
		expect(currencyDigits('BHD')).toBe(3);
		expect(formatMinor(1050, 'USD')).toBe('10.50');
		expect(formatMinor(5, 'USD')).toBe('0.05');
		expect(formatMinor(1500, 'JPY')).toBe('1500');
		expect(formatMinor(1234, 'KWD')).toBe('1.234');
	});

	it('Luhn, masking, expiry and the CVV table', () => {
		expect(cards.luhnValid('4444555566661111')).toBe(true);
		expect(cards.luhnValid('4444555566661112')).toBe(false);
		expect(cards.maskPan('4444555566661111')).toBe('444455******1111');
		expect(cards.cardType('5555555555554444')).toBe('MASTERCARD');
		expect(cards.expiryError('13', '2030')).toMatch(/expire_month/);
		expect(cards.expiryError('01', '2020')).toBe('Card is expired');
		expect(cards.expiryError('12', '35')).toBeNull();
		expect(cards.cvvOutcome('123').status).toBe('approved');
		expect(cards.cvvOutcome('1234').status).toBe('approved');
		expect(cards.cvvOutcome('111')).toEqual({ status: 'approved' });
		expect(cards.cvvOutcome('321')).toEqual({ status: 'approved', threeDS: true });
		expect(cards.cvvOutcome('217').status).toBe('unknown');
		expect(cards.cvvOutcome('116')).toMatchObject({ status: 'declined', errorMessage: 'Insufficient funds' });
		expect(cards.cvvOutcome('999').status).toBe('declined');
		expect(cards.cvvOutcome(undefined).status).toBe('approved');
	});
});

describe('independence', () => {
	it('no sandbox file requires the node package (nodes/, credentials/, dist/)', () => {
		const root = path.join(__dirname, '../../sandbox');
		const files = (dir) =>
			fs
				.readdirSync(dir, { withFileTypes: true })
				.flatMap((e) =>
					e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.js') ? [path.join(dir, e.name)] : [],
				);
		const all = files(root);
		expect(all.filter((f) => f.includes(`${path.sep}engine${path.sep}`)).length).toBeGreaterThan(10);
		const offending = all.filter((f) =>
			/require\(['"][^'"]*\b(nodes|credentials|dist)\//.test(fs.readFileSync(f, 'utf8')),
		);
		expect(offending).toEqual([]);
	});
});
