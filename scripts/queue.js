'use strict';
// `npm run queue -- up` / `npm run queue -- down`: n8n in queue mode on loopback (e2e/queue.js) with
// this package, the gateway sandbox, the sandbox credential and the example workflows.
// `up` returns once everything answers and leaves it running in the background; `down` stops it.
//   QUEUE_WORKERS (default 1)  QUEUE_N8N_PORT (default 5800: main; webhook process on +10)
const { execFile, spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { promisify } = require('node:util');

const { ensureRuntime, packPackage, REPO } = require('../e2e/n8n');
const { QueueTopology } = require('../e2e/queue');
const { seedDemoOrders } = require('../e2e/seed');
const { killAndWait, sleep } = require('../e2e/services');
const {
	sandboxCredential,
	CLAIMS_CREDENTIAL,
	claimsCredentialPlaceholder,
	exampleWorkflows,
	listens,
} = require('./demo-setup');

const RUNTIME_DIR = path.join(REPO, '.runtime');
const STATE_FILE = path.join(RUNTIME_DIR, 'queue/state.json');
const SANDBOX_PORT = Number(process.env.DEMO_SANDBOX_PORT || 8899);

const log = (message) => process.stdout.write(`[queue] ${message}\n`);

/** The sandbox in its own background process (`npm run sandbox`), so it outlives this command. */
async function startSandboxProcess(logFile) {
	const out = fs.openSync(logFile, 'a');
	const child = spawn(
		process.execPath,
		[path.join(REPO, 'scripts/sandbox.js'), '--port', String(SANDBOX_PORT), '--host', '127.0.0.1'],
		{ detached: true, stdio: ['ignore', out, out] },
	);
	child.unref();
	fs.closeSync(out);
	const url = `http://127.0.0.1:${SANDBOX_PORT}`;
	for (let attempt = 0; attempt < 100; attempt++) {
		if (
			await fetch(`${url}/sandbox/orders`).then(
				(r) => r.ok,
				() => false,
			)
		)
			return { url, pid: child.pid };
		await sleep(100);
	}
	throw new Error(`the sandbox did not start on ${url}; see ${logFile}`);
}

async function up() {
	if (fs.existsSync(STATE_FILE)) throw new Error(`already up (${STATE_FILE}); run "npm run queue -- down" first`);
	log('checking the n8n runtime (first run: Node 24 + n8n 2.41.1, a few minutes)');
	const runtime = await ensureRuntime(path.join(RUNTIME_DIR, 'n8n-runtime'));
	log('building the package');
	await promisify(execFile)('npm', ['run', 'build'], { cwd: REPO });
	const stateDir = path.dirname(STATE_FILE);
	fs.mkdirSync(stateDir, { recursive: true });
	const tarball = await packPackage(path.join(RUNTIME_DIR, 'demo-package'));
	const sandbox = await startSandboxProcess(path.join(stateDir, 'sandbox.log'));
	log(`gateway sandbox on ${sandbox.url}/paynet`);

	const userFolder = fs.mkdtempSync(path.join(stateDir, 'user-'));
	const topology = new QueueTopology({
		runtime,
		userFolder,
		port: Number(process.env.QUEUE_N8N_PORT || 5800),
		workers: Number(process.env.QUEUE_WORKERS || 1),
	});
	const save = () =>
		fs.writeFileSync(STATE_FILE, JSON.stringify({ ...topology.state(), sandboxPid: sandbox.pid }, null, 2));
	try {
		log("PostgreSQL and Redis (installs Debian's postgresql and redis-server if missing)");
		await topology.prepare();
		save();
		log('installing the package into n8n (as a community package) and importing the examples');
		await topology.main.installPackage(tarball);
		await topology.main.importCredentials([sandboxCredential(sandbox.url), claimsCredentialPlaceholder()]);
		const examples = exampleWorkflows(sandbox.url);
		await topology.main.importWorkflows(examples);
		for (const workflow of examples.filter(listens)) await topology.main.publish(workflow.id);
		await seedDemoOrders(sandbox.url);
		log('starting main, the webhook process and the worker(s)');
		await topology.start();
		await topology.main.connectClaims(CLAIMS_CREDENTIAL);
		save();
	} catch (error) {
		save();
		await down();
		throw error;
	}
	const { urls } = topology.state();
	log('');
	log(`editor (main):          ${urls.editor}   login ${topology.main.owner.email} / ${topology.main.owner.password}`);
	log(`callbacks (webhook process): ${urls.webhooks}<id>/callback   <- the URL to give the gateway`);
	log(`PostgreSQL 127.0.0.1:${topology.postgres.port} (db n8n, user n8n), Redis 127.0.0.1:${topology.redis.port}`);
	log(`logs: ${userFolder}/n8n-*.log`);
	log('"npm run queue -- down" stops everything.');
}

async function down() {
	if (!fs.existsSync(STATE_FILE)) {
		log('nothing is up');
		return;
	}
	const state = JSON.parse(fs.readFileSync(STATE_FILE, 'utf8'));
	log('stopping workers, the webhook process, main, Redis, PostgreSQL and the sandbox');
	await QueueTopology.stopFromState(state);
	if (state.sandboxPid) await killAndWait(state.sandboxPid, 'SIGTERM', 10_000);
	for (const dir of [state.userFolder, state.servicesDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
	fs.rmSync(STATE_FILE, { force: true });
	log('down');
}

const command = process.argv[2];
const actions = { up, down };
if (!actions[command]) {
	process.stderr.write('usage: npm run queue -- up|down\n');
	process.exit(2);
}
actions[command]().catch((error) => {
	process.stderr.write(`[queue] ${error.stack || error}\n`);
	process.exit(1);
});
