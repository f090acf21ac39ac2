'use strict';
// Request rate the sandbox sustains on loopback. The sandbox runs in its own process
// (bench/sandbox-process.js); this process is the undici client. Every request body is signed before the
// clock starts, so the numbers are the sandbox's (verify + state + reply), not the client's signing.
//
//   node bench/sandbox-rate.js            full run, writes bench/SANDBOX.md
//   node bench/sandbox-rate.js --quick    small smoke run, prints only
//   node bench/sandbox-rate.js --lookups  only the look-ups by merchant order ID among 50,000 orders, prints only
require('./cli').checkArgs(
	`Usage: npm run bench:sandbox [-- --quick | --lookups]     (or: node bench/sandbox-rate.js [--quick | --lookups])

Request rate the sandbox gateway sustains on loopback: the sandbox in a process of its own, this
process an undici client, every request signed before the clock starts. Not part of npm run bench.

Flags:
  (none)       full run (3 runs per scenario): writes bench/SANDBOX.md
  --quick      small smoke run (1 run, a few hundred requests): prints only
  --lookups    only the status queries by merchant order ID alone (known and unknown orders)
               among 50,000 stored orders, 3 runs: prints only (to compare two sandboxes)
  -h, --help   this text`,
	{ flags: ['--quick', '--lookups'] },
);
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Pool, request } = require('undici');

const { startSandboxProcess } = require('./sandbox-process');
const { MERCHANT, KEY_FILES, sha1, median, closedLoop } = require('./common');

const QUICK = process.argv.includes('--quick');
const LOOKUPS_ONLY = process.argv.includes('--lookups');
const RUNS = QUICK ? 1 : 3;
const N_PLAIN = QUICK ? 500 : 10000;
const N_RSA2048 = QUICK ? 100 : 2000;
const N_RSA4096 = QUICK ? 50 : 600;
/** Orders stored before the look-ups are timed, and look-ups per run. */
const N_STORED = QUICK ? 2000 : 50000;
const N_LOOKUPS = QUICK ? 500 : 5000;
const LOGIN = MERCHANT.login;
const CONTROL_KEY = MERCHANT.controlKey;
const KEY2048 = crypto.createPrivateKey(fs.readFileSync(KEY_FILES[2048]));
const KEY4096 = crypto.createPrivateKey(fs.readFileSync(KEY_FILES[4096]));

const enc = (s) =>
	encodeURIComponent(String(s)).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());

let seq = 0;
const cid = (p) => `${p}-${process.pid}-${++seq}`;

function saleBody() {
	const p = {
		client_orderid: cid('s'),
		amount: '10.00',
		currency: 'USD',
		email: 'bench@example.com',
		order_desc: 'bench',
		credit_card_number: '4444555566661111',
		expire_month: '12',
		expire_year: '2035',
		cvv2: '123',
		card_printed_name: 'BENCH',
	};
	p.control = sha1(`1001${p.client_orderid}1000${p.email}${CONTROL_KEY}`);
	return { headers: {}, body: new URLSearchParams(p).toString() };
}

function rsaBody(url, key) {
	const p = {
		client_orderid: cid('pc'),
		amount: '5.00',
		currency: 'USD',
		credit_card_number: '4444555566661111',
		expire_month: '12',
		expire_year: '2035',
	};
	const oauth = {
		oauth_consumer_key: LOGIN,
		oauth_nonce: crypto.randomBytes(8).toString('hex'),
		oauth_signature_method: 'RSA-SHA256',
		oauth_timestamp: String(Math.floor(Date.now() / 1000)),
		oauth_version: '1.0',
	};
	const pairs = [...Object.entries(p), ...Object.entries(oauth)]
		.map(([k, v]) => [enc(k), enc(v)])
		.sort((a, b) => (a[0] < b[0] ? -1 : 1));
	const base = `POST&${enc(url)}&${enc(pairs.map(([k, v]) => `${k}=${v}`).join('&'))}`;
	const sig = crypto.sign('sha256', Buffer.from(base), key).toString('base64');
	const header = `OAuth ${Object.entries({ ...oauth, oauth_signature: sig })
		.map(([k, v]) => `${k}="${enc(v)}"`)
		.join(', ')}`;
	return { headers: { authorization: header }, body: new URLSearchParams(p).toString() };
}

async function send(pool, urlPath, req) {
	const r = await pool.request({
		method: 'POST',
		path: urlPath,
		headers: {
			'content-type': 'application/x-www-form-urlencoded',
			accept: 'application/vnd.pay+json',
			...req.headers,
		},
		body: req.body,
	});
	const text = await r.body.text();
	if (r.statusCode !== 200) throw new Error(`HTTP ${r.statusCode}: ${text}`);
	return text;
}

/** Send all prepared requests with `concurrency` in flight; returns requests/s. */
async function measure(url, urlPath, reqs, concurrency) {
	const pool = new Pool(url, { connections: concurrency, pipelining: 1 });
	const rate = await closedLoop(reqs.length, concurrency, (i) => send(pool, urlPath, reqs[i]));
	await pool.close();
	return rate;
}

async function admin(url, method, p) {
	const r = await request(`${url}/sandbox/${p}`, { method });
	return JSON.parse(await r.body.text());
}

async function scenario(name, verifier, concurrency, n, build, urlPath, setup) {
	const sb = await startSandboxProcess({ verifier });
	const rates = [];
	try {
		for (let run = 0; run < RUNS; run++) {
			await admin(sb.url, 'POST', 'reset');
			const ctx = setup ? await setup(sb.url) : {};
			const reqs = Array.from({ length: n }, () => build(sb.url, ctx));
			// warm-up (not timed): JIT, connections
			await measure(sb.url, urlPath(ctx), reqs.slice(0, Math.min(50, n)), concurrency);
			rates.push(await measure(sb.url, urlPath(ctx), reqs, concurrency));
		}
	} finally {
		await sb.close();
	}
	const row = {
		name,
		verifier,
		concurrency,
		n,
		median: median(rates),
		min: Math.min(...rates),
		max: Math.max(...rates),
	};
	process.stdout.write(
		`${name.padEnd(34)} verifier=${verifier.padEnd(5)} c=${String(concurrency).padEnd(2)} n=${n}  ${row.median.toFixed(0)} req/s (${row.min.toFixed(0)}–${row.max.toFixed(0)})\n`,
	);
	return row;
}

/**
 * A status query by merchant order ID alone (no orderid): what a client asks to learn whether an
 * order is new. The sandbox finds it by that ID among every stored order.
 */
function statusByMerchantOrderId(clientOrderId) {
	const p = { login: LOGIN, client_orderid: clientOrderId, control: sha1(LOGIN + clientOrderId + CONTROL_KEY) };
	return { headers: {}, body: new URLSearchParams(p).toString() };
}

/**
 * Look-ups/s among N_STORED orders, of orders it has (known) and of IDs it has never seen (unknown),
 * in one sandbox process seeded once (3 runs each, interleaved).
 */
async function lookups() {
	const sb = await startSandboxProcess({ verifier: 'forge' });
	const known = [];
	const unknown = [];
	try {
		const pool = new Pool(sb.url, { connections: 16 });
		const sales = Array.from({ length: N_STORED }, () => saleBody());
		await closedLoop(sales.length, 16, (i) => send(pool, '/paynet/api/v2/sale/1001', sales[i]));
		await pool.close();
		const stored = sales.map((sale) => new URLSearchParams(sale.body).get('client_orderid'));
		const scenarios = {
			known: (i) => statusByMerchantOrderId(stored[(i * 7919) % stored.length]),
			unknown: () => statusByMerchantOrderId(cid('never')),
		};
		for (let run = 0; run < RUNS; run++) {
			for (const [name, build] of Object.entries(scenarios)) {
				const reqs = Array.from({ length: N_LOOKUPS }, (_, i) => build(i));
				await measure(sb.url, '/paynet/api/v2/status/1001', reqs.slice(0, 50), 1);
				(name === 'known' ? known : unknown).push(await measure(sb.url, '/paynet/api/v2/status/1001', reqs, 1));
			}
		}
	} finally {
		await sb.close();
	}
	const row = (name, rates) => {
		const r = {
			name: `v2 status by merchant order ID alone, ${name} order, ${N_STORED.toLocaleString('en-US')} stored`,
			verifier: 'forge',
			concurrency: 1,
			n: N_LOOKUPS,
			median: median(rates),
			min: Math.min(...rates),
			max: Math.max(...rates),
		};
		process.stdout.write(`${r.name}: ${r.median.toFixed(0)} req/s (${r.min.toFixed(0)}–${r.max.toFixed(0)})\n`);
		return r;
	};
	return [row('known', known), row('unknown', unknown)];
}

async function main() {
	if (LOOKUPS_ONLY) {
		await lookups();
		return;
	}
	const rows = [];
	// status: one approved order, the same signed status query repeated
	const statusSetup = async (url) => {
		const sale = saleBody();
		const pool = new Pool(url, { connections: 1 });
		const reply = JSON.parse(await send(pool, '/paynet/api/v2/sale/1001', sale));
		await pool.close();
		const cidv = new URLSearchParams(sale.body).get('client_orderid');
		const orderid = reply['paynet-order-id'];
		const p = { login: LOGIN, client_orderid: cidv, orderid, control: sha1(LOGIN + cidv + orderid + CONTROL_KEY) };
		return { status: { headers: {}, body: new URLSearchParams(p).toString() } };
	};
	for (const c of [1, 16])
		rows.push(
			await scenario(
				'v2 status (control SHA-1)',
				'forge',
				c,
				N_PLAIN,
				(u, ctx) => ctx.status,
				() => '/paynet/api/v2/status/1001',
				statusSetup,
			),
		);
	for (const c of [1, 16])
		rows.push(
			await scenario(
				'v2 sale (control SHA-1, new order)',
				'forge',
				c,
				N_PLAIN,
				() => saleBody(),
				() => '/paynet/api/v2/sale/1001',
			),
		);
	const rsa = (key) => (url) => rsaBody(`${url}/paynet/api/v4/payout-check/1001`, key);
	for (const v of ['forge', 'node']) {
		for (const c of [1, 16])
			rows.push(
				await scenario(
					'v4 payout-check (RSA-2048)',
					v,
					c,
					N_RSA2048,
					rsa(KEY2048),
					() => '/paynet/api/v4/payout-check/1001',
				),
			);
	}
	for (const v of ['forge', 'node']) {
		for (const c of [1, 16])
			rows.push(
				await scenario(
					'v4 payout-check (RSA-4096)',
					v,
					c,
					N_RSA4096,
					rsa(KEY4096),
					() => '/paynet/api/v4/payout-check/1001',
				),
			);
	}
	rows.push(...(await lookups()));
	if (QUICK) return;

	const forge = require('node-forge/package.json').version;
	const undici = require('undici/package.json').version;
	const lines = [
		'# Sandbox request rate on loopback',
		'',
		'Measured by `node bench/sandbox-rate.js` (re-run it to refresh this file).',
		'',
		`- Date: ${new Date().toISOString().slice(0, 10)}`,
		`- Machine: ${os.cpus()[0].model}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}`,
		`- Node ${process.version}, OpenSSL ${process.versions.openssl}, node-forge ${forge}, undici ${undici}`,
		`- The sandbox runs in its own process (\`scripts/sandbox.js --quiet\`); the client is an undici \`Pool\` with as many`,
		'  keep-alive connections as requests in flight. Client and server share the cores.',
		'- Every request body and OAuth header is signed before the clock starts: the rate is what the sandbox sustains',
		'  (parse, verify, state machine, reply), not what a client can sign.',
		`- Median of ${RUNS} runs (min–max in brackets), after a 50-request warm-up; sandbox state reset before each run.`,
		`- Load average (1 min) at the end of the run: ${os.loadavg()[0].toFixed(1)} (anything above ~1 is other work sharing the cores).`,
		'',
		'| scenario | verifier | in flight | requests | req/s median (min–max) |',
		'|---|---|---:|---:|---:|',
		...rows.map(
			(r) =>
				`| ${r.name} | ${r.verifier} | ${r.concurrency} | ${r.n.toLocaleString('en-US')} | ${r.median.toFixed(0)} (${r.min.toFixed(0)}–${r.max.toFixed(0)}) |`,
		),
		'',
		'## Reading it',
		'',
		'- `status` and `sale` are bound by HTTP handling, not by the SHA-1 check (forge SHA-1 costs ~12 µs).',
		"- RSA requests with the default **forge** verifier are bound by forge's RSA verify (pure JavaScript, single",
		'  threaded), so concurrency helps little; start the sandbox with `--verifier node` (or',
		"  `verifier: 'node'`) for benchmarks that push RSA-signed traffic.",
		'- Runs vary by ±30 % on this shared 2-core machine (see the min–max); compare ratios, not absolute numbers.',
		'- A real gateway answers in 100 ms–1 s; any of these rates is far above what a client sees against it.',
		'',
		'## Look-ups by merchant order ID',
		'',
		`The last two rows: a status query by \`client_orderid\` alone (no \`orderid\`), what a client sends to learn`,
		`whether an order is new, among ${N_STORED.toLocaleString('en-US')} stored orders, of an order the sandbox has (found`,
		'under its endpoint) and of an ID it has never seen (then looked for under every endpoint of the merchant).',
		'The sandbox finds orders by merchant order ID through an index (`sandbox/store.js`, `byMerchantOrderId`):',
		'both cost the same whatever the number of orders. Before the index (2ab4de6, which scanned every stored',
		'order for an unknown one), measured with `node bench/sandbox-rate.js --lookups` on 2026-11-27, load',
		'average ~8 (other work on the machine), then the same on the index:',
		'',
		'| look-up among 50,000 orders | before the index (2ab4de6) | with the index |',
		'|---|---:|---:|',
		'| known order | 2710 (2327–4698) | 4749 (2739–5227) |',
		'| unknown order | 286 (139–571) | 5028 (2386–5333) |',
		'',
		'In process (no HTTP), the issue measured 885 look-ups/s for an unknown order against ~12,500/s for a',
		'known one at 50,000 orders before the index.',
		'',
	];
	fs.writeFileSync(path.join(__dirname, 'SANDBOX.md'), lines.join('\n'));
	process.stdout.write('wrote bench/SANDBOX.md\n');
}

main().catch((e) => {
	process.stderr.write(`${e.stack || e}\n`);
	process.exit(1);
});
