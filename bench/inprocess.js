'use strict';
// The same bulk job in process: n8n-core's WorkflowExecute (test/support/engine.js, shared with the node tests;
// the real credential class signs) runs Start → Card Gateway over the built dist/, against the
// sandbox in this process. No n8n server, no webhook, no database, no task runner: what is left is
// the engine, the request helper and our node. Writes bench/out/inprocess.json.
//
//   node bench/inprocess.js [--quick] [--typed-ids] [--profile-cell=getStatus:20:64] [--sandbox-cpu-prof]
// --profile-cell runs that one cell and profiles our run and the helper's run apart (node:inspector):
// profiles in bench/out/prof/, split by bench/profile-split.js into engine, n8n APIs we call and our code.
require('./cli').checkArgs(
	`Usage: node bench/inprocess.js [--quick] [--typed-ids] [--profile-cell=<op>:<latency>:<c>] [--sandbox-cpu-prof]

The bulk job in process: n8n-core's WorkflowExecute runs Start → Card Gateway over the built dist/
(npm run build first) against the sandbox in a process of its own; no n8n server, webhook,
database or task runner. Every cell (op getStatus or return × added latency 0, 20, 100 ms ×
concurrency 1, 4, 16, 64) beside n8n's request helper alone. Writes bench/out/inprocess.json.

Also (issue 34) Payment → Sale and Payout → Send with typed order IDs (the node asks the gateway
"is this order new?" before each send) × 20, 100 ms × c 1, 16, each round ours then the helper
sending the same signed sales or payouts (one request an item): writes
bench/out/inprocess-typed.json and that table of bench/RESULTS.md.

Flags:
  --quick                       1 run per cell instead of 3, at most 1,000 items: writes
                                bench/out/inprocess.quick.json
  --typed-ids                   only the typed-order-ID cells (5 rounds; with --quick 2 rounds,
                                writes bench/out/inprocess-typed.quick.json, RESULTS.md untouched)
  --profile-cell=<op>:<ms>:<c>  one cell only, e.g. getStatus:20:64: our run and the helper's run
                                profiled apart (node:inspector), profiles in bench/out/prof/, the
                                split printed (bench/profile-split.js); saves no results
  --sandbox-cpu-prof            the sandbox's process under node --cpu-prof: its profile in
                                bench/out/prof/sandbox/ (bench/profile-top.js summarises it)
  -h, --help                    this text`,
	{ flags: ['--quick', '--profile-cell=', '--typed-ids', '--sandbox-cpu-prof'] },
);
const fs = require('node:fs');
const inspector = require('node:inspector');
const os = require('node:os');
const path = require('node:path');
// n8n-core's instance settings would otherwise create ~/.n8n/config
const USER_FOLDER = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-card-gateway-inprocess-'));
process.env.N8N_USER_FOLDER = USER_FOLDER;
const { startSandboxProcess } = require('./sandbox-process');
const { splitProfile, printSplit } = require('./profile-split');
const {
	ROOT,
	MERCHANT,
	summary,
	median,
	seedSales,
	signedRequest,
	closedLoop,
	sandboxAlone,
	writeJson,
	log,
	typedIdsSection,
	replaceSection,
	pct,
} = require('./common');
const { TYPED_OPS, TYPED_CELLS, freshIds } = require('./typed-ops');

const { CardGatewayApi } = require(path.join(ROOT, 'dist/credentials/CardGatewayApi.credentials.js'));
const { CardGateway } = require(path.join(ROOT, 'dist/nodes/CardGateway/CardGateway.node.js'));
const engine = require('../test/support/engine');
const {
	httpRequest,
} = require('n8n-core/dist/execution-engine/node-execution-context/utils/request-helper-functions.js');
const { MAX_CONCURRENCY } = require(path.join(ROOT, 'dist/nodes/CardGateway/actions/common/read/options.js'));

const QUICK = process.argv.includes('--quick');
const TYPED_ONLY = process.argv.includes('--typed-ids');
const PROFILE_CELL = (process.argv.find((a) => a.startsWith('--profile-cell=')) || '').slice(15);
const RUNS = QUICK ? 1 : 3;
const LATENCIES = [0, 20, 100];
const CONCURRENCY = [1, 4, 16, 64];
const MAX_ITEMS = QUICK ? 1000 : 10000;
const MIN_ITEMS = QUICK ? 100 : 300;
const TARGET_SECS = QUICK ? 3 : 6;

const credentialType = new CardGatewayApi();
const NODE_TYPE = 'n8n-nodes-card-gateway.cardGateway';

/**
 * `constant`: the order IDs typed in as constants (every item asks about the first order) instead of
 * `{{ $json.cid }}` expressions: the same node work without n8n's expression evaluation per item.
 */
async function runBulk(credentials, op, orders, concurrency, constant = false) {
	const [resource, operation] = op === 'getStatus' ? ['transaction', 'getStatus'] : ['payment', 'return'];
	const ids = constant
		? { merchantOrderId: orders[0].cid, gatewayOrderId: orders[0].oid }
		: { merchantOrderId: '={{ $json.cid }}', gatewayOrderId: '={{ $json.oid }}' };
	return await runNode(
		credentials,
		op,
		orders,
		{ resource, operation, ...ids, options: { concurrency } },
		(out) => out.length,
	);
}

/**
 * One run of Start → Card Gateway with `parameters` over `orders` in n8n-core's engine: items/s and
 * the CPU of this process (engine + node + request helper) per item. `done` counts the items that
 * did the work; a run where any did not is an error, not a result.
 */
async function runNode(credentials, op, orders, parameters, done) {
	const cpu0 = process.cpuUsage();
	const t0 = process.hrtime.bigint();
	const { run } = await engine.runWorkflow({
		credentialType,
		nodeTypes: { [NODE_TYPE]: new CardGateway() },
		nodes: [
			{
				name: 'Card Gateway',
				type: NODE_TYPE,
				parameters,
				credentials: { cardGatewayApi: { id: 'c', name: 'bench' } },
			},
		],
		credentials: { cardGatewayApi: credentials },
		input: orders.map((o) => ({ json: o })),
	});
	const secs = Number(process.hrtime.bigint() - t0) / 1e9;
	const cpu = process.cpuUsage(cpu0);
	const error = run.data.resultData.error;
	if (error) throw new Error(`in-process ${op}: ${error.message}`);
	const count = done(run.data.resultData.runData['Card Gateway'][0].data.main[0]);
	if (count !== orders.length) throw new Error(`in-process ${op}: ${count} of ${orders.length} items`);
	return { rate: orders.length / secs, cpuMsPerItem: (cpu.user + cpu.system) / 1000 / orders.length };
}

/** n8n-core's request helper alone (no engine, node or credential): what any node that sends through it can reach. */
async function helperAlone(sandbox, op, orders, concurrency) {
	const requests = orders.map((order) => signedRequest(sandbox, op, order));
	const cpu0 = process.cpuUsage();
	const rate = await closedLoop(requests.length, concurrency, (i) =>
		httpRequest({ method: 'POST', ...requests[i], json: false }),
	);
	const cpu = process.cpuUsage(cpu0);
	return { rate, cpuMsPerItem: (cpu.user + cpu.system) / 1000 / orders.length };
}

/** Runs `work` under the inspector's CPU profiler; saves the profile and prints where the CPU went. */
async function profiled(name, items, work) {
	const session = new inspector.Session();
	session.connect();
	const post = (method) =>
		new Promise((resolve, reject) =>
			session.post(method, (error, result) => (error ? reject(error) : resolve(result))),
		);
	await post('Profiler.enable');
	await post('Profiler.start');
	try {
		return await work();
	} finally {
		const { profile } = await post('Profiler.stop');
		session.disconnect();
		const dir = path.join(__dirname, 'out', 'prof');
		fs.mkdirSync(dir, { recursive: true });
		fs.writeFileSync(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
		printSplit(name, splitProfile(profile), items);
	}
}

const control = require(path.join(ROOT, 'dist/nodes/shared/protocol/control.js'));
const { OPERATIONS } = require(path.join(ROOT, 'dist/nodes/shared/protocol/catalogue.js'));
const { SIGNING_HEADER } = require(path.join(ROOT, 'dist/nodes/shared/protocol/signing.js'));

/**
 * Issue 34: money runs with typed order IDs. The node asks "is this order new?" (a status query) before
 * each send; n8n's request helper alone sends only the sales or payouts, as an HTTP Request route would.
 * Each cell: rounds of ours then the helper (each with fresh order IDs), the ratio taken round by round.
 */
const TYPED_ROUNDS = QUICK ? 2 : 5;
async function runTyped(credentials, op, orders, concurrency) {
	const parameters = { ...TYPED_OPS[op].parameters, merchantOrderId: '={{ $json.cid }}', options: { concurrency } };
	// Every item sent: none found to exist already (the order IDs are fresh).
	return await runNode(
		credentials,
		op,
		orders,
		parameters,
		(out) => out.filter((item) => item.json.alreadyExisted !== true).length,
	);
}

/** The helper alone sending the same requests: `control` computed beforehand, OAuth signed per request as the credential signs. */
async function typedHelper(credentials, sandbox, op, orders, concurrency) {
	const { gateway, fields } = TYPED_OPS[op];
	const operation = OPERATIONS[gateway];
	const url = `${sandbox.url}/paynet${operation.path}/${MERCHANT.endpointId}`;
	const requests = orders.map(({ cid }) => {
		const body = fields(cid);
		if (operation.auth === 'control')
			body.control = control.controlSignature(
				operation.control,
				{ endpointId: MERCHANT.endpointId, login: MERCHANT.login, fields: body },
				MERCHANT.controlKey,
			);
		const headers = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/vnd.pay+json' };
		if (operation.auth === 'oauth-hmac-sha1') headers[SIGNING_HEADER] = 'HMAC-SHA1';
		return { method: 'POST', url, body: new URLSearchParams(body).toString(), headers, json: false };
	});
	const cpu0 = process.cpuUsage();
	const rate = await closedLoop(requests.length, concurrency, async (i) => {
		const options =
			operation.auth === 'control' ? requests[i] : await credentialType.authenticate(credentials, requests[i]);
		const raw = await httpRequest(options);
		const reply = typeof raw === 'string' ? JSON.parse(raw) : raw;
		if (!reply['paynet-order-id'] && !reply.orderid) throw new Error(`helper ${op}: ${JSON.stringify(reply)}`);
	});
	const cpu = process.cpuUsage(cpu0);
	return { rate, cpuMsPerItem: (cpu.user + cpu.system) / 1000 / orders.length };
}

/**
 * `work`'s result with what the sandbox's process spent meanwhile: its CPU, the share of one core that
 * is (busy) and CPU ms per gateway request it answered.
 */
async function withSandboxUsage(sandbox, work) {
	await sandbox.takeUsage();
	const result = await work();
	const { cpuMs, wallMs, requests } = await sandbox.takeUsage();
	const count = Object.values(requests).reduce((a, b) => a + b, 0);
	return { ...result, sandbox: { cpuMs, requests, count, busy: cpuMs / wallMs, msPerRequest: cpuMs / count } };
}

async function typedCells(sandbox, credentials) {
	const rows = [];
	for (const { op, latency, c } of TYPED_CELLS) {
		// about 2 s per run at c ÷ latency, at least 60 items (a shared machine runs slower)
		const n = Math.min(MAX_ITEMS, Math.max(60, Math.round(((c * 1000) / latency) * 2)));
		await sandbox.setLatency(latency);
		const ours = [];
		const helper = [];
		const vsHelper = [];
		for (let round = 0; round < TYPED_ROUNDS; round++) {
			// Who goes first alternates, so that a drift in the machine's load favours neither.
			const runOurs = async () =>
				ours.push(await withSandboxUsage(sandbox, () => runTyped(credentials, op, freshIds(op, n), c)));
			const runHelper = async () =>
				helper.push(await withSandboxUsage(sandbox, () => typedHelper(credentials, sandbox, op, freshIds(op, n), c)));
			if (round % 2) await runHelper().then(runOurs);
			else await runOurs().then(runHelper);
			vsHelper.push(ours[round].rate / helper[round].rate);
			const [o, h] = [ours[round].sandbox, helper[round].sandbox];
			log(
				`typed ${op} ${latency} ms c=${c} n=${n} round ${round + 1}: ours ${ours[round].rate.toFixed(1)}/s, helper ${helper[round].rate.toFixed(1)}/s, ÷ ${vsHelper[round].toFixed(2)}; sandbox CPU ms/request ${o.msPerRequest.toFixed(3)} / ${h.msPerRequest.toFixed(3)}, busy ${pct(o.busy)} / ${pct(h.busy)} of a core, ${JSON.stringify(o.requests)}; driver CPU ms/item ${ours[round].cpuMsPerItem.toFixed(2)} / ${helper[round].cpuMsPerItem.toFixed(2)}; load ${os.loadavg()[0].toFixed(1)}`,
			);
		}
		const gateway = TYPED_OPS[op].gateway;
		// The status query's own CPU: ours' round less its sends, each costing what a send cost in the helper's round.
		const statusMs = ours.map(({ sandbox: s }, round) => {
			const sends = s.requests[gateway] ?? 0;
			const queries = s.requests.status ?? 0;
			return queries ? (s.cpuMs - sends * helper[round].sandbox.msPerRequest) / queries : 0;
		});
		rows.push({
			op,
			latency,
			c,
			items: n,
			ours: summary(ours.map((r) => r.rate)),
			helper: summary(helper.map((r) => r.rate)),
			vsHelper: summary(vsHelper),
			cpuMsPerItem: summary(ours.map((r) => r.cpuMsPerItem)),
			helperCpuMsPerItem: summary(helper.map((r) => r.cpuMsPerItem)),
			sandbox: {
				busy: summary(ours.map((r) => r.sandbox.busy)),
				helperBusy: summary(helper.map((r) => r.sandbox.busy)),
				msPerRequest: summary(ours.map((r) => r.sandbox.msPerRequest)),
				sendMs: summary(helper.map((r) => r.sandbox.msPerRequest)),
				statusMs: summary(statusMs),
				requestsPerItem: summary(ours.map((r) => r.sandbox.count / n)),
			},
		});
	}
	await sandbox.setLatency(0);
	return rows;
}

async function writeTyped(sandbox, credentials, loadBefore) {
	const t0 = Date.now();
	const typed = { quick: QUICK, rounds: TYPED_ROUNDS, n8nCore: require('n8n-core/package.json').version };
	typed.rows = await typedCells(sandbox, credentials);
	typed.load = { before: loadBefore, after: os.loadavg(), cores: os.cpus().length };
	typed.wallSecs = (Date.now() - t0) / 1000;
	typed.writtenAt = new Date().toISOString();
	writeJson(QUICK ? 'inprocess-typed.quick' : 'inprocess-typed', typed);
	log(`typed-ID cells done in ${typed.wallSecs.toFixed(0)} s`);
	return typed;
}

async function main() {
	const started = Date.now();
	const sandbox = await startSandboxProcess({
		cpuProfDir: process.argv.includes('--sandbox-cpu-prof')
			? path.join(__dirname, 'out', 'prof', 'sandbox')
			: undefined,
	});
	const credentials = {
		baseUrl: `${sandbox.url}/paynet`,
		...MERCHANT,
		privateKey: '',
		privateKeyPassphrase: '',
		endpointGroupId: '',
	};
	const rows = [];
	const loadBefore = os.loadavg();
	try {
		if (TYPED_ONLY) {
			// Run alone, the cells refresh their own section of RESULTS.md (npm run bench writes the whole file).
			const typed = await writeTyped(sandbox, credentials, loadBefore);
			if (!QUICK) replaceSection(path.join(__dirname, 'RESULTS.md'), typedIdsSection(typed));
			return;
		}
		const statusPool = await seedSales(sandbox, MAX_ITEMS, 'ip');
		await runBulk(credentials, 'getStatus', statusPool.slice(0, 300), 4); // warm-up
		for (const op of ['getStatus', 'return']) {
			for (const latency of LATENCIES) {
				for (const c of CONCURRENCY) {
					const cell = `${op}:${latency}:${c}`;
					if (PROFILE_CELL && PROFILE_CELL !== cell) continue;
					const measure = (route, count, work) =>
						PROFILE_CELL ? profiled(`inprocess-${cell.replaceAll(':', '-')}-${route}`, count, work) : work();
					const nominal = latency ? (c * 1000) / latency : Infinity;
					// no added latency: ~3,000 items run 6 s or more here
					const n = Math.min(
						MAX_ITEMS,
						Math.max(MIN_ITEMS, Math.round((Number.isFinite(nominal) ? nominal : 500) * TARGET_SECS)),
					);
					let bound = nominal;
					if (latency) {
						// ~3 s of the bare client against the sandbox at this latency and c
						const count = Math.min(n, Math.max(4 * c, Math.round(nominal * 3)));
						await sandbox.setLatency(latency);
						bound = Math.min(
							nominal,
							await sandboxAlone(
								sandbox,
								op,
								op === 'getStatus' ? statusPool.slice(0, count) : await seedSales(sandbox, count, 'ipa'),
								c,
							),
						);
					}
					const rates = [];
					const cpuPerItem = [];
					const helperRates = [];
					const helperCpuPerItem = [];
					const vsHelper = [];
					const constantVsHelper = [];
					for (let run = 0; run < RUNS; run++) {
						const orders = op === 'getStatus' ? statusPool.slice(0, n) : await seedSales(sandbox, n, `ipr${run}`);
						const helperOrders = op === 'getStatus' ? orders : latency && (await seedSales(sandbox, n, `iph${run}`));
						await sandbox.setLatency(latency);
						const measured = await measure('ours', n, () => runBulk(credentials, op, orders, c));
						rates.push(measured.rate);
						cpuPerItem.push(measured.cpuMsPerItem);
						if (latency) {
							// side by side with the run above: the share of the gap that is n8n-core's helper
							const helper = await measure('helper', n, () =>
								helperAlone(sandbox, op, helperOrders, Math.min(c, MAX_CONCURRENCY)),
							);
							helperRates.push(helper.rate);
							helperCpuPerItem.push(helper.cpuMsPerItem);
							vsHelper.push(measured.rate / helper.rate);
							// a status query may repeat an order: the same run without expressions (a refund may not)
							if (op === 'getStatus')
								constantVsHelper.push((await runBulk(credentials, op, orders, c, true)).rate / helper.rate);
						}
						await sandbox.setLatency(0);
					}
					const ofBound = Number.isFinite(bound) ? median(rates) / bound : null;
					const row = {
						op,
						latency,
						c,
						effectiveC: Math.min(c, MAX_CONCURRENCY),
						items: n,
						nominal,
						bound,
						rate: summary(rates),
						cpuMsPerItem: summary(cpuPerItem),
						helper: latency ? summary(helperRates) : null,
						helperCpuMsPerItem: latency ? summary(helperCpuPerItem) : null,
						vsHelper: latency ? summary(vsHelper) : null,
						constantVsHelper: constantVsHelper.length ? summary(constantVsHelper) : null,
						ofNominal: Number.isFinite(nominal) ? median(rates) / nominal : null,
						ofBound,
					};
					log(
						`in-process ${op.padEnd(9)} ${String(latency).padStart(3)} ms c=${String(c).padEnd(2)} n=${String(n).padEnd(5)} ${row.rate.median.toFixed(1)}/s cpu ${row.cpuMsPerItem.median.toFixed(2)} ms/item${ofBound ? ` (${(ofBound * 100).toFixed(0)} % of bound ${bound.toFixed(0)}/s; helper alone ${row.helper.median.toFixed(1)}/s, ours ÷ helper ${row.vsHelper.median.toFixed(2)}, helper cpu ${row.helperCpuMsPerItem.median.toFixed(2)} ms/item${row.constantVsHelper ? `; without expressions ÷ helper ${row.constantVsHelper.median.toFixed(2)}` : ''})` : ''}`,
					);
					rows.push(row);
				}
			}
		}
		if (!PROFILE_CELL) await writeTyped(sandbox, credentials, loadBefore);
	} finally {
		await sandbox.close();
		engine.stopEngineTimers();
		fs.rmSync(USER_FOLDER, { recursive: true, force: true });
	}
	const result = {
		quick: QUICK,
		runs: RUNS,
		n8nCore: require('n8n-core/package.json').version,
		rows,
		wallSecs: (Date.now() - started) / 1000,
	};
	if (!PROFILE_CELL) writeJson(QUICK ? 'inprocess.quick' : 'inprocess', result);
	log(`in-process done in ${result.wallSecs.toFixed(0)} s`);
}

main().catch((e) => {
	process.stderr.write(`${e.stack || e}\n`);
	process.exit(1);
});
