'use strict';
// `npm run demo`: n8n with this package installed as a community package, the gateway sandbox, the
// sandbox credential and the example workflows, all on loopback. Ctrl-C, SIGINT, SIGTERM or SIGHUP
// (to this process or to `npm run`, whose script `exec`s this one so that npm's forwarded signals
// reach it) or the end of the parent process stops everything it started.
// Missing dependencies are installed first (scripts/ensure-deps.js: `npm ci`). The first run
// installs Node 24 and the pinned n8n into .runtime/ (a few minutes); later runs reuse it.
// N8N_RUNTIME points it at a runtime installed elsewhere (scripts/install-runtime.sh).
const { execFile } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { promisify } = require('node:util');

// Before anything is required from node_modules/ (the sandbox needs node-forge; the build, TypeScript).
try {
	require('./ensure-deps').ensureDependencies({ log: (line) => process.stdout.write(`[demo] ${line}\n`) });
} catch (error) {
	process.stderr.write(`[demo] ${error.message}\n`);
	process.exit(1);
}

const { N8nInstance, ensureRuntime, packPackage, productionWebhooks, REPO } = require('../e2e/n8n');
const { seedDemoOrders } = require('../e2e/seed');
const { startSandbox } = require('../sandbox');
const {
	sandboxCredential,
	CLAIMS_CREDENTIAL,
	claimsCredentialPlaceholder,
	exampleWorkflows,
	listens,
} = require('./demo-setup');

const SANDBOX_PORT = Number(process.env.DEMO_SANDBOX_PORT || 8899);
const N8N_PORT = Number(process.env.DEMO_N8N_PORT || 5678);
const RUNTIME_DIR = path.join(REPO, '.runtime');

function log(message) {
	process.stdout.write(`[demo] ${message}\n`);
}

/** Everything started so far, stopped in reverse order by stop(). */
const started = [];
let stopping = false;

async function stop(reason, code = 0) {
	if (stopping) return;
	stopping = true;
	log(`${reason}: stopping what the demo started`);
	for (const stopOne of started.reverse()) await stopOne().catch(() => undefined);
	process.exit(code);
}

// npm forwards SIGINT and SIGTERM to its script; the script `exec`s this process, so they arrive
// here. Run through a shell that stays in between (`sh -c "node scripts/demo.js"`), SIGTERM kills
// the shell and SIGINT stays with it: then only the re-parenting shows, and it stops the demo too.
function stopWhenOrphaned() {
	const parent = process.ppid;
	setInterval(() => {
		if (process.ppid !== parent) void stop('the parent process (npm run) ended');
	}, 500).unref();
}

/** Every live descendant of a process, from /proc (Linux; elsewhere none). */
function descendants(root) {
	const children = new Map();
	let entries = [];
	try {
		entries = fs.readdirSync('/proc');
	} catch {
		return [];
	}
	for (const entry of entries) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			// The command name may hold spaces and parentheses: the parent pid follows the last ")".
			const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
			const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
		} catch {
			// the process ended while we looked
		}
	}
	const found = [];
	for (const queue = [root]; queue.length;) {
		for (const pid of children.get(queue.shift()) ?? []) {
			found.push(pid);
			queue.push(pid);
		}
	}
	return found;
}

/** Stops a process and what it started (the runtime installer runs npm, which runs more). */
function stopTree(pid) {
	// Listed before the first kill: a child whose parent died is re-parented and out of reach.
	for (const each of [...descendants(pid).reverse(), pid]) {
		try {
			process.kill(each, 'SIGTERM');
		} catch {
			// already gone
		}
	}
}

/** Runs a long step, saying every 20 s that it is still running. */
async function step(what, work) {
	log(what);
	const began = Date.now();
	const ticker = setInterval(
		() => log(`… still ${what.replace(/ \(.*\)$/, '')} (${Math.round((Date.now() - began) / 1000)} s)`),
		20_000,
	);
	try {
		return await work();
	} finally {
		clearInterval(ticker);
	}
}

const minutes = (ms) =>
	ms < 60_000 ? `${Math.round(ms / 1000)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;

/** The pinned n8n runtime: reused when an earlier install finished, else installed (and timed). */
async function n8nRuntime(folder) {
	// install-runtime.sh marks a finished install with .complete and reuses it as it is.
	if (fs.existsSync(path.join(folder, '.complete'))) {
		log(`n8n runtime: ${folder} (installed earlier, reused)`);
		return await ensureRuntime(folder);
	}
	const began = Date.now();
	const runtime = await step(
		`installing the n8n runtime into ${folder} (Node 24 + n8n 2.41.1: once, a few minutes)`,
		() =>
			ensureRuntime(folder, (installer) => {
				// The installer reports its stages ("[runtime] …") on stderr.
				installer.stderr.on('data', (chunk) => process.stderr.write(chunk));
				started.push(async () => stopTree(installer.pid));
			}),
	);
	log(`n8n runtime installed in ${minutes(Date.now() - began)}; later runs reuse it`);
	return runtime;
}

async function main() {
	process.on('SIGINT', () => void stop('SIGINT'));
	process.on('SIGTERM', () => void stop('SIGTERM'));
	process.on('SIGHUP', () => void stop('SIGHUP'));
	stopWhenOrphaned();

	const runtime = await n8nRuntime(process.env.N8N_RUNTIME || path.join(RUNTIME_DIR, 'n8n-runtime'));
	await step('building the package', () => promisify(execFile)('npm', ['run', 'build'], { cwd: REPO }));
	const tarball = await packPackage(path.join(RUNTIME_DIR, 'demo-package'));

	const sandbox = await startSandbox({ port: SANDBOX_PORT, host: '127.0.0.1', quiet: true });
	started.push(() => sandbox.close());
	log(`gateway sandbox on ${sandbox.url}/paynet (admin API: ${sandbox.url}/sandbox)`);
	const userFolder = path.join(RUNTIME_DIR, 'demo-user');
	fs.mkdirSync(userFolder, { recursive: true });
	const n8n = new N8nInstance({ runtime, userFolder, port: N8N_PORT });
	started.push(() => n8n.stop());

	const examples = exampleWorkflows();
	const listening = examples.filter(listens);
	try {
		await step("installing the package into n8n (as n8n's community-package installer does)", () =>
			n8n.installPackage(tarball),
		);
		await n8n.importCredentials([sandboxCredential(sandbox.url), claimsCredentialPlaceholder()]);
		log(`importing ${examples.length} example workflows`);
		await n8n.importWorkflows(examples);
		for (const workflow of listening) await n8n.publish(workflow.id);
		await seedDemoOrders(sandbox.url);
		await step('starting n8n', () => n8n.start());
		await n8n.connectClaims(CLAIMS_CREDENTIAL);
		await step('waiting for the example webhooks', () => n8n.waitForWebhooks(listening.flatMap(productionWebhooks)));
	} catch (error) {
		process.stderr.write(`[demo] failed: ${error.message}\n`);
		await stop('the demo could not start', 1);
		return;
	}
	log('');
	log(`n8n editor: ${n8n.baseUrl}/`);
	log(`login:      ${n8n.owner.email} / ${n8n.owner.password}`);
	log(`sandbox:    ${sandbox.url}/sandbox/orders, /ledger, /callbacks, /sink`);
	log('Open "Bulk refund", "Payout run" or "Reconciliation" and press Execute; see examples/README.md for the others.');
	const alert = listening.find((workflow) => workflow.name === 'Example: callback alert');
	const callbackPath = alert && productionWebhooks(alert).find((webhook) => webhook.path.endsWith('/callback'));
	if (callbackPath) {
		const sandboxFlag = SANDBOX_PORT === 8899 ? '' : ` --port ${SANDBOX_PORT}`;
		log(
			`Try the trigger ("Callback alert" posts to /sandbox/sink): npm run sandbox -- send-callbacks --sample declined-sale --url ${n8n.baseUrl}/webhook/${callbackPath.path}${sandboxFlag}`,
		);
	}
	log(`Ctrl-C stops n8n and the sandbox (or send SIGINT or SIGTERM to this process, ${process.pid}, or to npm run).`);
}

main().catch((error) => {
	process.stderr.write(`[demo] ${error.stack || error}\n`);
	void stop('the demo failed', 1);
});
