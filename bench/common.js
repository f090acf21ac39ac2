'use strict';
// Shared helpers of the benchmarks under bench/: statistics, machine description, sandbox seeding.
// Benchmarks are not tests: nothing in `npm test` loads this.
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const http = require('node:http');
const path = require('node:path');
const { Pool } = require('undici');

const ROOT = path.join(__dirname, '..');
const MERCHANT = { login: 'n8n-test-merchant', controlKey: 'TEST-ONLY-CONTROL-KEY-5f0c9a1e', endpointId: '1001' };
const KEY_FILES = {
	2048: path.join(ROOT, 'sandbox/keys/test-merchant-2048.key.pem'),
	4096: path.join(ROOT, 'sandbox/keys/test-merchant-4096.key.pem'),
};

const sha1 = (s) => crypto.createHash('sha1').update(s, 'utf8').digest('hex');

function median(xs) {
	const s = [...xs].sort((a, b) => a - b);
	const m = Math.floor(s.length / 2);
	return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function summary(all) {
	const xs = all.filter((x) => Number.isFinite(x));
	if (!xs.length) return { median: NaN, min: NaN, max: NaN, runs: 0, values: all };
	return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs), runs: xs.length, values: all };
}

function percentile(sorted, p) {
	if (!sorted.length) return NaN;
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

function machine() {
	const version = (name) => {
		try {
			return require(`${name}/package.json`).version;
		} catch {
			return 'n/a';
		}
	};
	return {
		date: new Date().toISOString(),
		cpu: os.cpus()[0].model,
		cores: os.cpus().length,
		memGiB: Math.round(os.totalmem() / 2 ** 30),
		os: `${os.type()} ${os.release()}`,
		node: process.version,
		openssl: process.versions.openssl,
		forge: version('node-forge'),
		undici: version('undici'),
		n8nCore: version('n8n-core'),
	};
}

const fmt = (x, digits = 0) =>
	Number.isFinite(x)
		? x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
		: 'n/a';
/** A share (0.25) as a percentage ("25 %"). */
const pct = (share) => (Number.isFinite(share) ? `${(share * 100).toFixed(0)} %` : 'n/a');
const range = (s, digits = 0) => `${fmt(s.median, digits)} (${fmt(s.min, digits)}–${fmt(s.max, digits)})`;

/**
 * Creates `count` approved sales in the sandbox with signed requests (undici, 16 in flight) and
 * returns [{ cid, oid }]. The sandbox's added latency is switched off while seeding.
 */
async function seedSales(sandbox, count, prefix) {
	const saved = sandbox.latencyMs;
	await sandbox.setLatency(0);
	const pool = new Pool(sandbox.url, { connections: 16 });
	const out = new Array(count);
	const nonce = crypto.randomBytes(3).toString('hex');
	try {
		await closedLoop(count, 16, async (i) => {
			const p = {
				client_orderid: `${prefix}-${nonce}-${i}`,
				amount: '10.00',
				currency: 'USD',
				email: 'bench@example.com',
				order_desc: 'bench',
				credit_card_number: '4444555566661111',
				expire_month: '12',
				expire_year: '2035',
				cvv2: '123',
				card_printed_name: 'BENCH',
				ipaddress: '127.0.0.1',
			};
			p.control = sha1(`${MERCHANT.endpointId}${p.client_orderid}1000${p.email}${MERCHANT.controlKey}`);
			const r = await pool.request({
				method: 'POST',
				path: `/paynet/api/v2/sale/${MERCHANT.endpointId}`,
				headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/vnd.pay+json' },
				body: new URLSearchParams(p).toString(),
			});
			const reply = JSON.parse(await r.body.text());
			if (r.statusCode !== 200 || !reply['paynet-order-id'])
				throw new Error(`seeding sale failed: HTTP ${r.statusCode} ${JSON.stringify(reply)}`);
			out[i] = { cid: p.client_orderid, oid: String(reply['paynet-order-id']) };
		});
	} finally {
		await pool.close();
		await sandbox.setLatency(saved);
	}
	return out;
}

/** The signed request of one bulk item, as the node sends it (form body, `control` formula of the operation). */
function signedRequest(sandbox, op, order) {
	const command = op === 'getStatus' ? 'status' : 'return';
	const fields = { login: MERCHANT.login, client_orderid: order.cid, orderid: order.oid };
	if (op === 'return') Object.assign(fields, { amount: '0.01', currency: 'USD', comment: 'bench' });
	const minor = op === 'return' ? '1USD' : '';
	const body = new URLSearchParams({
		...fields,
		control: sha1(MERCHANT.login + order.cid + order.oid + minor + MERCHANT.controlKey),
	}).toString();
	return {
		url: `${sandbox.url}/paynet/api/v2/${command}/${MERCHANT.endpointId}`,
		body,
		headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/vnd.pay+json' },
	};
}

/** Runs work(0) … work(count − 1) with at most `concurrency` in flight (a worker starts the next after a reply); returns items/s. */
async function closedLoop(count, concurrency, work) {
	let next = 0;
	const t0 = process.hrtime.bigint();
	await Promise.all(
		Array.from({ length: Math.min(concurrency, count) }, async () => {
			while (next < count) await work(next++);
		}),
	);
	return count / (Number(process.hrtime.bigint() - t0) / 1e9);
}

/**
 * What the sandbox alone sustains at its current latency and this concurrency: a bare client
 * (requests signed beforehand) that opens a new connection per request, as n8n's request helper does
 * (it creates a new http.Agent for every request), so the bound carries the same connection cost.
 */
async function sandboxAlone(sandbox, op, orders, concurrency) {
	const post = ({ url, body, headers }) =>
		new Promise((resolve, reject) => {
			const target = new URL(url);
			const req = http.request(
				{
					host: target.hostname,
					port: target.port,
					path: target.pathname,
					method: 'POST',
					agent: new http.Agent(),
					headers,
				},
				(res) => {
					res.resume();
					res.on('end', () =>
						res.statusCode === 200 ? resolve() : reject(new Error(`sandbox alone: HTTP ${res.statusCode}`)),
					);
				},
			);
			req.on('error', reject);
			req.end(body);
		});
	const requests = orders.map((order) => signedRequest(sandbox, op, order));
	return closedLoop(requests.length, concurrency, (i) => post(requests[i]));
}

const { OP_NAMES } = require('./typed-ops');

/**
 * The section of RESULTS.md for issue 34's cells (bench/inprocess.js writes them to inprocess-typed.json):
 * money runs with typed order IDs, ours next to n8n's request helper sending the same sales or payouts.
 */
function typedIdsSection(typed) {
	const load = typed.load
		? ` Load average (1 min) ${fmt(typed.load.before[0], 1)} before, ${fmt(typed.load.after[0], 1)} after, on ${typed.load.cores} cores shared with other jobs: the rates move with it, the ratios much less (each round runs both routes back to back, who goes first alternating).`
		: '';
	const L = [
		'## 3b. Money runs with typed order IDs in process: ours vs the request helper (issue 34)',
		'',
		`Written ${typed.writtenAt ? `${typed.writtenAt.slice(0, 16).replace('T', ' ')} UTC` : ''} by \`node bench/inprocess.js --typed-ids\` (also part of \`npm run bench\`). Start → Card Gateway in n8n-core ${typed.n8nCore}'s engine, the Merchant Order ID typed as \`{{ $json.cid }}\` (every other parameter a constant), so the node asks the gateway "is this order new?" (a status query) before each send: 2 gateway requests an item. **Helper** = n8n-core's request helper alone sending the same signed sales or payouts, 1 request an item (what an HTTP Request route sends, with no re-run protection). The status queries are asked ahead of the sends (up to max(16, 2c) items past the last one started, about c of them in flight) while the sends keep Concurrency c. Fresh order IDs every run; median (min–max) of ${typed.rounds} rounds, ratio taken round by round.${load}`,
		'',
		"Before (2ab4de6: each item waited for its status query, then sent; issue 34's own measurement, same cells) ours ÷ helper was 0.47–0.50 in every cell. Where the driver process is short of CPU (Concurrency 16, or other jobs on the machine), ours is held back by its CPU per item (last column), more than twice the helper's: the node sends its 2 requests an item through the same helper, each with a new connection. Where the run waits on the gateway (c 1 at 100 ms), the status queries asked ahead cost next to no time.",
		'',
		"The sandbox (the gateway, a process of its own) is measured too: its CPU over each route's run as a share of one core, and its CPU per gateway request (the send's from the helper's run, 1 request an item; the status query's from ours, less its sends at that cost). A cell that measures the client and not the gateway keeps the sandbox well below one core.",
		'',
		'| operation | latency | c | items | ours items/s | helper items/s | ours ÷ helper | CPU ms/item: ours / helper | sandbox: % of a core, ours / helper | sandbox CPU ms/request: status query / send |',
		'|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
	];
	for (const r of typed.rows)
		L.push(
			`| ${OP_NAMES[r.op] ?? r.op} | ${r.latency} ms | ${r.c} | ${fmt(r.items)} | ${range(r.ours, 1)} | ${range(r.helper, 1)} | ${range(r.vsHelper, 2)} | ${fmt(r.cpuMsPerItem.median, 2)} / ${fmt(r.helperCpuMsPerItem.median, 2)} | ${r.sandbox ? `${pct(r.sandbox.busy.median)} / ${pct(r.sandbox.helperBusy.median)} | ${fmt(r.sandbox.statusMs.median, 2)} / ${fmt(r.sandbox.sendMs.median, 2)}` : '– | –'} |`,
		);
	L.push('');
	return L;
}

/** The section of RESULTS.md for the money cells in a real n8n. */
function moneySection(money, n8nVersion) {
	const { rounds, rows, load } = money;
	const L = [
		'## 3c. Money runs with typed order IDs in a real n8n: ours vs Code + HTTP Request (issue 34)',
		'',
		`Written ${money.writtenAt.slice(0, 16).replace('T', ' ')} UTC by \`node bench/real-n8n.js --only=money\`. Webhook → Split Out → route → Summarize in n8n ${n8nVersion} (SQLite, regular mode), the sandbox in a process of its own with the added latency. **Ours**: Card Gateway with the Merchant Order ID typed as \`{{ $json.cid }}\` and Concurrency c: a status query "is this order new?" before each send (asked ahead), 2 gateway requests an item. **HTTP**: a Code node builds and signs each item's request (a sale's SHA-1 \`control\`, a payout's OAuth 1.0a HMAC-SHA1 header), HTTP Request sends it with Batching c items every *latency* ms (its rate-equivalent of c in flight), 1 request an item, no re-run protection. Fresh order IDs every run; median (min–max) of ${rounds} rounds, the routes back to back each round, who goes first alternating, the ratio taken round by round. Load average (1 min) ${fmt(load.before[0], 1)} before, ${fmt(load.after[0], 1)} after, ${load.cores} cores.`,
		'',
		'| operation | latency | c | items | ours items/s | HTTP items/s | ours ÷ HTTP | peak in flight: ours / HTTP |',
		'|---|---:|---:|---:|---:|---:|---:|---:|',
	];
	for (const r of rows)
		L.push(
			`| ${OP_NAMES[r.op] ?? r.op} | ${r.latency} ms | ${r.c} | ${fmt(r.items)} | ${range(r.ours, 1)} | ${range(r.http, 1)} | ${range(r.ratio, 2)} | ${r.peakInFlight.ours} / ${r.peakInFlight.http} |`,
		);
	const failed = rows.flatMap((r) =>
		(r.failures ?? []).map((f) => `${OP_NAMES[r.op] ?? r.op} ${r.latency} ms c ${r.c}, ${f.route}: \`${f.message}\``),
	);
	if (failed.length) L.push('', `Failed runs (not counted in the medians): ${failed.join('; ')}`);
	L.push('');
	return L;
}

/** Replaces the section of a report (from its "## " heading to the next) or adds it after section 3. */
function replaceSection(file, lines) {
	const text = fs.readFileSync(file, 'utf8');
	const heading = `${lines[0]}\n`;
	const next = (from) => {
		const at = text.indexOf('\n## ', from);
		return at < 0 ? text.length : at + 1;
	};
	let start = text.indexOf(heading);
	let end = start < 0 ? -1 : next(start + heading.length);
	if (start < 0) start = end = next(text.indexOf('## 3. '));
	fs.writeFileSync(file, `${text.slice(0, start)}${lines.join('\n')}\n${text.slice(end)}`);
}

function writeJson(name, data) {
	const dir = path.join(__dirname, 'out');
	fs.mkdirSync(dir, { recursive: true });
	// the report says when each part ran: parts can be re-run on their own
	fs.writeFileSync(
		path.join(dir, `${name}.json`),
		JSON.stringify({ ...data, writtenAt: new Date().toISOString() }, null, 1),
	);
}

function log(...args) {
	process.stdout.write(`${args.join(' ')}\n`);
}

module.exports = {
	ROOT,
	MERCHANT,
	KEY_FILES,
	sha1,
	median,
	summary,
	percentile,
	machine,
	fmt,
	pct,
	range,
	seedSales,
	signedRequest,
	closedLoop,
	sandboxAlone,
	writeJson,
	typedIdsSection,
	moneySection,
	replaceSection,
	log,
};
