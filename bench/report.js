'use strict';
// Transaction → Get Many over 10,000 and 100,000 report rows and Transaction → Reconcile of 10,000
// records, run by the Card Gateway node (dist/) in n8n-core's engine in process, side by side with a
// plain-JS baseline that reads the same signed report the way an HTTP Request node + Extract From
// File (CSV) does: the whole body first, then every row through csv-parse (the library n8n's
// Extract From File uses, from the pinned runtime). Each measurement runs in a process of its own,
// so that its peak memory (VmHWM) is its own; the sandbox gateway runs in another.
const USAGE = `Usage: node bench/report.js [--quick]
  Seeds synthetic report rows in a sandbox process, then measures, each in a child process:
  Get Many (Return All) over 10,000 and 100,000 rows, Get Many with Limit 100 over 100,000,
  the baseline (whole body + csv-parse) over the same rows, Reconcile of 10,000 records and the
  same comparison in plain JS. Prints a table; writes bench/out/report[.quick].json.
  --quick   1,000 and 10,000 rows, Reconcile of 1,000
  (--child=<case> is how the script runs one measurement in a child; not for use by hand)
  Needs npm run build and the pinned n8n runtime (for csv-parse).`;
require('./cli').checkArgs(USAGE, { flags: ['--quick', '--child='] });

const { fork } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const QUICK = process.argv.includes('--quick');
const SMALL = QUICK ? 1_000 : 10_000;
const LARGE = QUICK ? 10_000 : 100_000;
const RECONCILE = SMALL;
const LIMIT = 100;
/** Two days of synthetic rows of their own: the small report and the large one. */
const SMALL_DAY = '2026-03-01';
const LARGE_DAY = '2026-03-02';
const NODE_TYPE = 'n8n-nodes-card-gateway.cardGateway';
const LOGIN = 'n8n-test-merchant';
const CONTROL_KEY = 'TEST-ONLY-CONTROL-KEY-5f0c9a1e';

const CASES = {
	[`getMany-${SMALL}`]: { day: SMALL_DAY, rows: SMALL, run: 'nodeGetMany' },
	[`getMany-${LARGE}`]: { day: LARGE_DAY, rows: LARGE, run: 'nodeGetMany' },
	[`getMany-${LARGE}-limit${LIMIT}`]: { day: LARGE_DAY, rows: LIMIT, run: 'nodeGetMany', limit: LIMIT },
	[`baseline-${SMALL}`]: { day: SMALL_DAY, rows: SMALL, run: 'baselineRead' },
	[`baseline-${LARGE}`]: { day: LARGE_DAY, rows: LARGE, run: 'baselineRead' },
	[`reconcile-${RECONCILE}`]: { day: SMALL_DAY, rows: RECONCILE, run: 'nodeReconcile' },
	[`baselineReconcile-${RECONCILE}`]: { day: SMALL_DAY, rows: RECONCILE, run: 'baselineReconcile' },
};

// ---------------------------------------------------------------------------------------------
// One measurement (child process)

function credentials(url) {
	return {
		baseUrl: `${url}/paynet`,
		login: LOGIN,
		controlKey: CONTROL_KEY,
		privateKey: '',
		privateKeyPassphrase: '',
		endpointId: '1001',
		endpointGroupId: '',
	};
}

/** Peak resident memory of this process so far (Linux), in MB. */
function peakRssMb() {
	const match = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
	return match ? Number(match[1]) / 1024 : process.memoryUsage().rss / 2 ** 20;
}

const period = (day) => ({ createdFrom: `${day} 00:00:00`, createdTo: `${day} 23:59:59` });

/** Runs the Card Gateway node once in n8n-core's engine; its output items. */
async function runNode(url, parameters, input = [{ json: {} }]) {
	const engine = require('../test/support/engine');
	const { CardGatewayApi } = require(path.join(ROOT, 'dist/credentials/CardGatewayApi.credentials.js'));
	const { CardGateway } = require(path.join(ROOT, 'dist/nodes/CardGateway/CardGateway.node.js'));
	const { run, output } = await engine.runWorkflow({
		credentialType: new CardGatewayApi(),
		nodeTypes: { [NODE_TYPE]: new CardGateway() },
		nodes: [
			{
				name: 'Card Gateway',
				type: NODE_TYPE,
				parameters,
				credentials: { cardGatewayApi: { id: 'c', name: 'bench' } },
			},
		],
		credentials: { cardGatewayApi: credentials(url) },
		input,
	});
	engine.stopEngineTimers();
	if (run.data.resultData.error) throw new Error(run.data.resultData.error.message);
	return output('Card Gateway');
}

/** The report signed as the credential signs it, read whole, then parsed as Extract From File parses CSV. */
async function baselineRows(url, day, runtime) {
	const { CardGatewayApi } = require(path.join(ROOT, 'dist/credentials/CardGatewayApi.credentials.js'));
	const { parse } = require('node:module').createRequire(path.join(runtime, 'n8n/package.json'))('csv-parse/sync');
	const { createdFrom, createdTo } = period(day);
	const query = new URLSearchParams({ createdFromDate: createdFrom, createdToDate: createdTo })
		.toString()
		.replace(/\+/g, '%20');
	const signed = await new CardGatewayApi().authenticate(credentials(url), {
		method: 'GET',
		url: `${url}/paynet-ui/services/transaction-report?${query}`,
		headers: { 'x-card-gateway-signing': 'HMAC-SHA1' },
	});
	const response = await fetch(signed.url, { headers: signed.headers });
	if (response.status !== 200) throw new Error(`baseline: HTTP ${response.status}`);
	const body = Buffer.from(await response.arrayBuffer());
	return parse(body, { columns: true, skip_empty_lines: true });
}

/** The books of the reconciliation: the report's first records, one in a hundred booked 1.00 higher. */
function booksOf(rows) {
	return rows.map((row, index) => ({
		merchantOrderId: row.merchantOrderId,
		amount:
			index % 100 === 0 ? (Number(row.amount.replace('.', '')) + 100).toString().replace(/(\d\d)$/, '.$1') : row.amount,
		currency: row.currency,
		status: row.status,
	}));
}

const MEASURE = {
	async nodeGetMany(url, spec) {
		const items = await runNode(url, {
			resource: 'transaction',
			operation: 'getMany',
			...period(spec.day),
			returnAll: !spec.limit,
			limit: spec.limit ?? 50,
		});
		return items.length;
	},
	async baselineRead(url, spec, runtime) {
		return (await baselineRows(url, spec.day, runtime)).length;
	},
	async nodeReconcile(url, spec, _runtime, books) {
		const items = await runNode(
			url,
			{ resource: 'transaction', operation: 'reconcile', gatewaySide: 'report', ...period(spec.day) },
			books.map((json) => ({ json })),
		);
		return items.at(-1).json.yourRecords;
	},
	// The same comparison as a Code node after HTTP Request + Extract From File would make it.
	async baselineReconcile(url, spec, runtime, books) {
		const byOrder = new Map();
		for (const row of await baselineRows(url, spec.day, runtime)) byOrder.set(row['merchant-order-id'], row);
		const differences = [];
		for (const record of books) {
			const row = byOrder.get(record.merchantOrderId);
			if (!row || row.amount !== record.amount || row.currency !== record.currency || row.status !== record.status)
				differences.push({ record, row });
		}
		if (differences.length < books.length / 100) throw new Error(`baseline: ${differences.length} differences`);
		return books.length;
	},
};

async function child(name) {
	const { url, runtime, booksFile } = JSON.parse(process.env.BENCH_REPORT_CHILD);
	const spec = CASES[name];
	const books = booksFile ? JSON.parse(fs.readFileSync(booksFile, 'utf8')) : undefined;
	// Everything loaded before the clock starts: the baseline memory is the loaded process's.
	require('../test/support/engine');
	require(path.join(ROOT, 'dist/nodes/CardGateway/CardGateway.node.js'));
	global.gc?.();
	const before = process.memoryUsage().rss / 2 ** 20;
	const started = process.hrtime.bigint();
	const count = await MEASURE[spec.run](url, spec, runtime, books);
	const secs = Number(process.hrtime.bigint() - started) / 1e9;
	if (count !== spec.rows) throw new Error(`${name}: ${count} rows, expected ${spec.rows}`);
	process.send({ name, rows: count, secs, rowsPerSec: count / secs, rssBeforeMb: before, peakRssMb: peakRssMb() });
}

// ---------------------------------------------------------------------------------------------
// The run (parent)

function measure(name, env) {
	return new Promise((resolve, reject) => {
		const proc = fork(__filename, [`--child=${name}`, ...(QUICK ? ['--quick'] : [])], {
			env: { ...process.env, BENCH_REPORT_CHILD: JSON.stringify(env) },
			execArgv: ['--expose-gc'],
		});
		let result;
		proc.on('message', (message) => (result = message));
		proc.on('exit', (code) => (result ? resolve(result) : reject(new Error(`${name}: child exited ${code}`))));
	});
}

async function main() {
	const { startSandboxProcess } = require('./sandbox-process');
	const { ensureRuntime } = require('../e2e/n8n');
	const runtime = await ensureRuntime();
	const sandbox = await startSandboxProcess({ verifier: 'node' });
	const admin = async (route, body) => {
		const response = await fetch(`${sandbox.url}/sandbox/${route}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		if (!response.ok) throw new Error(`sandbox ${route}: HTTP ${response.status}`);
	};
	const booksFile = path.join(ROOT, 'bench/out', `report-books${QUICK ? '.quick' : ''}.json`);
	try {
		await admin('report-rows', { endpoint: '1001', count: SMALL, from: `${SMALL_DAY} 00:00:00`, stepMs: 5000 });
		await admin('report-rows', { endpoint: '1001', count: LARGE, from: `${LARGE_DAY} 00:00:00`, stepMs: 500 });
		const rows = (
			await runNode(sandbox.url, {
				resource: 'transaction',
				operation: 'getMany',
				...period(SMALL_DAY),
				returnAll: true,
			})
		).map((item) => item.json);
		fs.mkdirSync(path.dirname(booksFile), { recursive: true });
		fs.writeFileSync(booksFile, JSON.stringify(booksOf(rows.slice(0, RECONCILE))));
		const results = [];
		for (const name of Object.keys(CASES)) {
			const result = await measure(name, { url: sandbox.url, runtime, booksFile });
			results.push(result);
			console.log(
				`${name.padEnd(28)} ${String(result.rows).padStart(7)} rows  ${result.secs.toFixed(2).padStart(6)} s  ${Math.round(result.rowsPerSec).toString().padStart(7)} rows/s  RSS ${result.rssBeforeMb.toFixed(0)} → peak ${result.peakRssMb.toFixed(0)} MB`,
			);
		}
		const out = path.join(ROOT, 'bench/out', `report${QUICK ? '.quick' : ''}.json`);
		fs.writeFileSync(
			out,
			JSON.stringify({ at: new Date().toISOString(), node: process.version, quick: QUICK, results }, null, 2),
		);
		console.log(`wrote ${path.relative(ROOT, out)}`);
	} finally {
		fs.rmSync(booksFile, { force: true });
		await sandbox.close();
	}
}

const childArg = process.argv.find((arg) => arg.startsWith('--child='));
(childArg ? child(childArg.slice('--child='.length)) : main()).catch((error) => {
	console.error(error);
	process.exit(1);
});
