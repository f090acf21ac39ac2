'use strict';
// Sizing n8n's queue mode (issue #17): CPU milliseconds per callback and per bulk item in each role
// (webhook process, worker, main, PostgreSQL, Redis), read from /proc (utime + stime of each process
// tree) before and after a batch, and callbacks/s of queue mode vs one n8n on SQLite, side by side
// in one run on this machine. Writes bench/out/queue.json; bench/run.js turns it into RESULTS.md.
//
//   node bench/queue.js [--quick]
require('./cli').checkArgs(
	`Usage: node bench/queue.js [--quick]

Sizing n8n's queue mode: CPU per callback and per bulk item in each role (webhook process,
worker, main, PostgreSQL, Redis) and callbacks/s of queue mode vs one n8n on SQLite, one after
the other in one run. Needs the built package (npm run build), the pinned n8n runtime
(installed on first use), PostgreSQL and Redis (apt-get when missing). Writes bench/out/queue.json.

Flags:
  --quick      300 callbacks and 300 bulk items instead of 1,000 and 2,000: writes
               bench/out/queue.quick.json
  -h, --help   this text`,
	{ flags: ['--quick'] },
);
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Pool, request } = require('undici');

const { N8nInstance, ensureRuntime, packPackage } = require('../e2e/n8n');
const { QueueTopology } = require('../e2e/queue');
const { startSandboxProcess } = require('./sandbox-process');
const { MERCHANT, KEY_FILES, sha1, percentile, seedSales, closedLoop, writeJson, log } = require('./common');
const { CREDENTIAL, oursWorkflow } = require('./workflows');

const QUICK = process.argv.includes('--quick');
const CALLBACKS = QUICK ? 300 : 1000;
const IN_FLIGHT = 50;
const BULK_ITEMS = QUICK ? 300 : 2000;
const BULK_CONCURRENCY = 4;
const WEBHOOK_ID = 'b0b0b0b0-0017-4000-8000-0000000000aa';
const TICKS_PER_S = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

/** The trigger alone, n8n's defaults (every execution saved): the floor of a callback workflow. */
const TRIGGER_WORKFLOW = {
	id: 'benchQueueTrigger1',
	name: 'bench: callbacks',
	active: false,
	settings: { executionOrder: 'v1' },
	nodes: [
		{
			id: 'b0b0b0b0-0017-4000-8000-000000000001',
			name: 'Card Gateway Trigger',
			type: 'n8n-nodes-card-gateway.cardGatewayTrigger',
			typeVersion: 2,
			position: [0, 0],
			webhookId: WEBHOOK_ID,
			parameters: {},
			credentials: { cardGatewayApi: CREDENTIAL },
		},
	],
	connections: {},
};
const BULK_WORKFLOW = oursWorkflow('getStatus', BULK_CONCURRENCY);

/** CPU seconds of a process and all its descendants (children that ended count in cutime/cstime). */
function treeCpuS(root) {
	const stats = new Map();
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const text = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
			const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
			// fields[1] = ppid; [11..14] = utime, stime, cutime, cstime (stat fields 14–17)
			stats.set(Number(entry), {
				ppid: Number(fields[1]),
				ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]),
			});
		} catch {
			// ended meanwhile
		}
	}
	let ticks = 0;
	const pending = [root];
	while (pending.length) {
		const pid = pending.pop();
		ticks += stats.get(pid)?.ticks ?? 0;
		for (const [child, stat] of stats) if (stat.ppid === pid) pending.push(child);
	}
	return ticks / TICKS_PER_S;
}

const snapshot = (pids) => Object.fromEntries(Object.entries(pids).map(([role, pid]) => [role, treeCpuS(pid)]));
const cpuMsPer = (before, after, count) =>
	Object.fromEntries(Object.keys(before).map((role) => [role, ((after[role] - before[role]) * 1000) / count]));

function callbackQuery(tag, index) {
	const f = {
		status: 'approved',
		orderid: String(700000 + index),
		merchant_order: `q-${tag}-${index}`,
		client_orderid: `q-${tag}-${index}`,
		type: 'sale',
		amount: '10.00',
		currency: 'USD',
	};
	f.control = sha1(`${f.status}${f.orderid}${f.merchant_order}${MERCHANT.controlKey}`);
	return new URLSearchParams(f).toString();
}

async function finishedExecutions(n8n, workflowId) {
	let done = 0;
	let cursor;
	do {
		const page = await n8n.api(`/executions?workflowId=${workflowId}&limit=250${cursor ? `&cursor=${cursor}` : ''}`);
		done += page.data.filter((e) => e.status === 'success').length;
		cursor = page.nextCursor ?? undefined;
	} while (cursor);
	return done;
}

/** `count` genuine callbacks at IN_FLIGHT; CPU per role counted until every execution succeeded. */
async function callbacks({ tag, count, base, n8n, pids }) {
	const already = await finishedExecutions(n8n, TRIGGER_WORKFLOW.id);
	const pool = new Pool(base, { connections: IN_FLIGHT });
	const latencies = [];
	const load = os.loadavg()[0];
	const before = snapshot(pids);
	const t0 = process.hrtime.bigint();
	await closedLoop(count, IN_FLIGHT, async (i) => {
		const s = process.hrtime.bigint();
		const r = await pool.request({ method: 'GET', path: `/webhook/${WEBHOOK_ID}/callback?${callbackQuery(tag, i)}` });
		const body = await r.body.text();
		if (r.statusCode !== 200 || body !== 'OK')
			throw new Error(`${tag} callback ${i}: HTTP ${r.statusCode} ${body.slice(0, 100)}`);
		latencies.push(Number(process.hrtime.bigint() - s) / 1e6);
	});
	const ackS = Number(process.hrtime.bigint() - t0) / 1e9;
	await pool.close();
	while ((await finishedExecutions(n8n, TRIGGER_WORKFLOW.id)) < already + count)
		await new Promise((resolve) => setTimeout(resolve, 250));
	const doneS = Number(process.hrtime.bigint() - t0) / 1e9;
	const after = snapshot(pids);
	latencies.sort((a, b) => a - b);
	const result = {
		count,
		inFlight: IN_FLIGHT,
		ackRate: count / ackS,
		doneRate: count / doneS,
		p50: percentile(latencies, 50),
		p99: percentile(latencies, 99),
		cpuMs: cpuMsPer(before, after, count),
		loadavg1: load,
	};
	log(
		`${tag}: ${count} callbacks, acknowledged ${result.ackRate.toFixed(1)}/s, all executed ${result.doneRate.toFixed(1)}/s, p50 ${result.p50.toFixed(0)} ms; CPU ms/callback ${JSON.stringify(result.cpuMs, (k, v) => (typeof v === 'number' ? Number(v.toFixed(2)) : v))}`,
	);
	return result;
}

/** One bulk job of BULK_ITEMS status queries through our node; CPU per item in each role. */
async function bulk({ tag, base, pids, orders }) {
	const before = snapshot(pids);
	const t0 = process.hrtime.bigint();
	const r = await request(`${base}/webhook/bench-ours-getStatus-${BULK_CONCURRENCY}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ orders }),
		headersTimeout: 0,
		bodyTimeout: 0,
	});
	const text = await r.body.text();
	if (r.statusCode !== 200 || !text.includes(`"count_type":${orders.length}`))
		throw new Error(`${tag} bulk: HTTP ${r.statusCode} ${text.slice(0, 300)}`);
	const secs = Number(process.hrtime.bigint() - t0) / 1e9;
	const result = {
		items: orders.length,
		concurrency: BULK_CONCURRENCY,
		rate: orders.length / secs,
		cpuMs: cpuMsPer(before, snapshot(pids), orders.length),
	};
	log(
		`${tag} bulk: ${orders.length} items ${result.rate.toFixed(0)}/s; CPU ms/item ${JSON.stringify(result.cpuMs, (k, v) => (typeof v === 'number' ? Number(v.toFixed(3)) : v))}`,
	);
	return result;
}

async function prepare(n8n, tarball, sandbox) {
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
	]);
	await n8n.importWorkflows([TRIGGER_WORKFLOW, BULK_WORKFLOW]);
	for (const workflow of [TRIGGER_WORKFLOW, BULK_WORKFLOW]) await n8n.publish(workflow.id);
}

/** Warm-up (JIT, connections, task runner), then the measured batches. */
async function measure(tag, { base, n8n, pids, orders }) {
	await callbacks({ tag: `${tag}-warm`, count: 100, base, n8n, pids });
	const callbackResult = await callbacks({ tag, count: CALLBACKS, base, n8n, pids });
	await bulk({ tag: `${tag}-warm`, base, pids, orders: orders.slice(0, 100) });
	const bulkResult = await bulk({ tag, base, pids, orders });
	return { callbacks: callbackResult, bulk: bulkResult };
}

async function single(runtime, tarball, sandbox, orders) {
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-card-gateway-bench-single-'));
	const n8n = new N8nInstance({ runtime, userFolder, port: 5790 });
	try {
		await prepare(n8n, tarball, sandbox);
		await n8n.start();
		await n8n.createApiKey();
		await (await n8n.webhook(`${WEBHOOK_ID}/callback`)).arrayBuffer();
		return await measure('single', { base: n8n.baseUrl, n8n, pids: { n8n: n8n.child.pid }, orders });
	} finally {
		await n8n.stop();
		fs.rmSync(userFolder, { recursive: true, force: true });
	}
}

async function queue(runtime, tarball, sandbox, orders) {
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-card-gateway-bench-queue-'));
	const topology = new QueueTopology({ runtime, userFolder, port: 5870, workers: 1, workerConcurrency: 10 });
	try {
		await topology.prepare();
		await prepare(topology.main, tarball, sandbox);
		await topology.start();
		await topology.main.createApiKey();
		await (await topology.webhook(`${WEBHOOK_ID}/callback`)).arrayBuffer();
		const { main, webhook, postgres, redis } = topology.pids();
		const pids = { webhook, worker: topology.workers[0].pid(), main, postgres, redis };
		return await measure('queue', { base: topology.webhookBaseUrl(), n8n: topology.main, pids, orders });
	} finally {
		await topology.stop();
		fs.rmSync(userFolder, { recursive: true, force: true });
		fs.rmSync(topology.servicesDir, { recursive: true, force: true });
	}
}

async function main() {
	const started = Date.now();
	const runtime = await ensureRuntime();
	const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-card-gateway-bench-pack-'));
	const tarball = await packPackage(scratch);
	const sandbox = await startSandboxProcess();
	try {
		const orders = await seedSales(sandbox, BULK_ITEMS, 'q');
		// one after the other on the same machine, same load generator, same orders
		const result = {
			quick: QUICK,
			machineLoadAtStart: os.loadavg(),
			single: await single(runtime, tarball, sandbox, orders),
			queue: await queue(runtime, tarball, sandbox, orders),
		};
		writeJson(`queue${QUICK ? '.quick' : ''}`, result);
	} finally {
		await sandbox.close();
		fs.rmSync(scratch, { recursive: true, force: true });
	}
	log(`queue bench done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

main().catch((error) => {
	process.stderr.write(`${error.stack || error}\n`);
	process.exit(1);
});
