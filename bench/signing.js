'use strict';
// Signing cost per request: SHA-1 control, OAuth HMAC-SHA1, OAuth RSA-SHA256 2048/4096 — through
// the package's own protocol code (dist/) with the key parsed once per execution vs per item, and
// node:crypto vs node-forge as the reference. Writes bench/out/signing.json.
//
//   node bench/signing.js [--quick]
require('./cli').checkArgs(
	`Usage: node bench/signing.js [--quick]

Signing cost per request: SHA-1 control, OAuth HMAC-SHA1, OAuth RSA-SHA256 2048/4096, through the
package's own protocol code (dist/: npm run build first), the key parsed once per execution vs per
item, node:crypto vs node-forge. Writes bench/out/signing.json.

Flags:
  --quick      1 run instead of 5, a tenth of the calls: writes bench/out/signing.quick.json
  -h, --help   this text`,
	{ flags: ['--quick'] },
);
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const forge = require('node-forge');

const { ROOT, MERCHANT, KEY_FILES, summary, writeJson, log } = require('./common');

const oauth = require(path.join(ROOT, 'dist/nodes/shared/protocol/oauth.js'));
const signing = require(path.join(ROOT, 'dist/nodes/shared/protocol/signing.js'));
const control = require(path.join(ROOT, 'dist/nodes/shared/protocol/control.js'));
const catalogue = require(path.join(ROOT, 'dist/nodes/shared/protocol/catalogue.js'));
const { CardGatewayApi } = require(path.join(ROOT, 'dist/credentials/CardGatewayApi.credentials.js'));

const QUICK = process.argv.includes('--quick');
const RUNS = QUICK ? 1 : 5;
const URL_V4 = 'https://gateway.example.com/paynet/api/v4/payout-check/1001';
const BODY = [
	['client_orderid', 'n8n-0123456789ab'],
	['amount', '10.50'],
	['currency', 'USD'],
	['credit_card_number', '4444555566661111'],
	['expire_month', '12'],
	['expire_year', '2035'],
	['card_printed_name', 'BENCH USER'],
	['email', 'bench@example.com'],
	['order_desc', 'bench payout'],
	['ipaddress', '127.0.0.1'],
];
const BODY_TEXT = signing.encodeForm(BODY);
const PEM = { 2048: fs.readFileSync(KEY_FILES[2048], 'utf8'), 4096: fs.readFileSync(KEY_FILES[4096], 'utf8') };

/** Median over RUNS of the mean time per call (µs), each run timing `n` calls after a warm-up. */
function time(fn, n) {
	for (let i = 0; i < Math.min(n, 20); i++) fn(i);
	const per = [];
	for (let r = 0; r < RUNS; r++) {
		const t0 = process.hrtime.bigint();
		for (let i = 0; i < n; i++) fn(i);
		per.push(Number(process.hrtime.bigint() - t0) / 1e3 / n);
	}
	return summary(per);
}

function main() {
	const started = Date.now();
	const rows = [];
	const add = (what, impl, s, note = '') => {
		rows.push({ what, impl, us: s, note });
		log(
			`${what.padEnd(58)} ${impl.padEnd(11)} ${s.median.toFixed(1).padStart(9)} µs (${s.min.toFixed(1)}–${s.max.toFixed(1)}) ${note}`,
		);
	};
	const q = (n) => (QUICK ? Math.max(3, Math.round(n / 10)) : n);

	// SHA-1 control of a status query, as the transport computes it
	const formula = catalogue.STATUS_FORMULA;
	const inputs = (i) => ({
		endpointId: '1001',
		login: MERCHANT.login,
		fields: { client_orderid: `n8n-${i}`, orderid: '100001' },
	});
	add(
		'SHA-1 control (status formula)',
		'node:crypto',
		time((i) => control.controlSignature(formula, inputs(i), MERCHANT.controlKey), q(50000)),
	);
	add(
		'SHA-1 control (status formula)',
		'node-forge',
		time((i) => {
			const md = forge.md.sha1.create();
			md.update(control.controlString(formula, inputs(i)) + MERCHANT.controlKey, 'utf8');
			return md.digest().toHex();
		}, q(50000)),
	);

	// OAuth HMAC-SHA1: base string + HMAC + header, through the credential's code path
	const merchant = {
		...MERCHANT,
		baseUrl: 'https://gateway.example.com/paynet',
		privateKey: PEM[2048],
		privateKeyPassphrase: '',
	};
	add(
		'OAuth HMAC-SHA1 (base string + sign + header)',
		'node:crypto',
		time(() => signing.oauthAuthorization(merchant, 'HMAC-SHA1', URL_V4, BODY_TEXT), q(20000)),
	);
	const base = oauth.signOAuthRequest({
		url: URL_V4,
		body: BODY,
		consumerKey: MERCHANT.login,
		signatureMethod: 'HMAC-SHA1',
		controlKey: MERCHANT.controlKey,
	}).baseString;
	add(
		'OAuth HMAC-SHA1 (HMAC only)',
		'node:crypto',
		time(() => crypto.createHmac('sha1', `${MERCHANT.controlKey}&`).update(base).digest('base64'), q(50000)),
	);
	add(
		'OAuth HMAC-SHA1 (HMAC only)',
		'node-forge',
		time(() => {
			const h = forge.hmac.create();
			h.start('sha1', `${MERCHANT.controlKey}&`);
			h.update(base, 'utf8');
			return forge.util.encode64(h.digest().getBytes());
		}, q(20000)),
	);

	for (const bits of [2048, 4096]) {
		const n = bits === 2048 ? q(1000) : q(200);
		const key = oauth.loadRsaPrivateKey(PEM[bits]);
		const m = { ...merchant, privateKey: PEM[bits] };
		add(
			`RSA-${bits}: parse the PEM key (loadRsaPrivateKey)`,
			'node:crypto',
			time(() => oauth.loadRsaPrivateKey(PEM[bits]), n),
		);
		add(
			`RSA-${bits}: sign, key parsed once per execution`,
			'node:crypto',
			time(
				() =>
					oauth.signOAuthRequest({
						url: URL_V4,
						body: BODY,
						consumerKey: MERCHANT.login,
						signatureMethod: 'RSA-SHA256',
						privateKey: key,
					}),
				n,
			),
		);
		add(
			`RSA-${bits}: sign, key parsed per item (oauthAuthorization)`,
			'node:crypto',
			time(() => signing.oauthAuthorization(m, 'RSA-SHA256', URL_V4, BODY_TEXT), n),
		);
		const fkey = forge.pki.privateKeyFromPem(PEM[bits]);
		const fn = QUICK ? 2 : bits === 2048 ? 20 : 5;
		add(
			`RSA-${bits}: sign, key parsed once`,
			'node-forge',
			time(() => {
				const md = forge.md.sha256.create();
				md.update(base, 'utf8');
				return forge.util.encode64(fkey.sign(md));
			}, fn),
		);
	}

	// What one RSA-signed request costs in signing, as n8n runs it: the transport's check plus the
	// credential's authenticate. Before: both parsed the PEM for every request. Now: the transport
	// parses it once per execution and hands the key object to authenticate on the request options.
	const cred = new CardGatewayApi();
	const authRows = {};
	for (const bits of [2048, 4096]) {
		const m = { ...merchant, privateKey: PEM[bits] };
		const key = oauth.loadRsaPrivateKey(PEM[bits]);
		const n = bits === 2048 ? q(500) : q(150);
		const options = (withKey) => {
			const o = { method: 'POST', url: URL_V4, body: BODY_TEXT, headers: { [signing.SIGNING_HEADER]: 'RSA-SHA256' } };
			if (withKey) Object.defineProperty(o, signing.PARSED_RSA_KEY, { value: key, enumerable: false });
			return o;
		};
		// authenticate is async but does its work synchronously before the first await
		const before = time(() => {
			oauth.loadRsaPrivateKey(m.privateKey);
			return cred.authenticate(m, options(false));
		}, n);
		const now = time(() => cred.authenticate(m, options(true)), n);
		authRows[bits] = now;
		add(`RSA-${bits}: per request before the fix (check parse + authenticate parse + sign)`, 'node:crypto', before);
		add(`RSA-${bits}: per request now (key parsed once per execution, handed to authenticate)`, 'node:crypto', now);
	}
	const result = {
		quick: QUICK,
		runs: RUNS,
		rows,
		shareOf100ms: { 2048: authRows[2048].median / 100000, 4096: authRows[4096].median / 100000 },
		wallSecs: (Date.now() - started) / 1000,
	};
	writeJson(QUICK ? 'signing.quick' : 'signing', result);
	log(
		`RSA-4096 per request = ${(result.shareOf100ms[4096] * 100).toFixed(1)} % of a 100 ms request; signing done in ${result.wallSecs.toFixed(0)} s`,
	);
}

main();
