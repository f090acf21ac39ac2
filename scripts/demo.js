'use strict';
// `npm run demo`: n8n with this package installed as a community package, the gateway sandbox, the
// sandbox credential and the example workflows, all on loopback. Ctrl-C, SIGINT, SIGTERM or SIGHUP
// (to this process or to `npm run`, whose script `exec`s this one so that npm's forwarded signals
// reach it) or the end of the parent process stops everything it started.
// Missing dependencies are installed first (scripts/ensure-deps.js: `npm ci`). The first run
// installs Node 24 and the pinned n8n into .runtime/ (a few minutes); later runs reuse it.
// N8N_RUNTIME points it at a runtime installed elsewhere (scripts/install-runtime.sh).
// DEMO_N8N_PORT (default 5678; n8n's task brokers take the next two) and DEMO_SANDBOX_PORT (default
// 8899) move it; DEMO_RESET_EXAMPLES=1 imports the shipped examples over the user's copies.
const demoBegan = Date.now();
const { execFile } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
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
const { DEFAULT_OPTIONS } = require('../sandbox/config');
const {
	sandboxCredential,
	CLAIMS_CREDENTIAL,
	claimsCredentialPlaceholder,
	exampleWorkflows,
	listens,
	contentHash,
	importPlan,
} = require('./demo-setup');

const SANDBOX_PORT = Number(process.env.DEMO_SANDBOX_PORT || DEFAULT_OPTIONS.port);
const N8N_PORT = Number(process.env.DEMO_N8N_PORT || 5678);
const RESET = process.env.DEMO_RESET_EXAMPLES === '1';
const RUNTIME_DIR = path.join(REPO, '.runtime');
/** The ports the demo listens on, each with the variable that moves it. */
const PORTS = [
	{ port: SANDBOX_PORT, what: 'the gateway sandbox', variable: 'DEMO_SANDBOX_PORT' },
	{ port: N8N_PORT, what: 'n8n', variable: 'DEMO_N8N_PORT' },
	{ port: N8N_PORT + 1, what: "n8n's task broker (DEMO_N8N_PORT + 1)", variable: 'DEMO_N8N_PORT' },
	{ port: N8N_PORT + 2, what: "the n8n CLI's task broker (DEMO_N8N_PORT + 2)", variable: 'DEMO_N8N_PORT' },
];

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

const portTaken = ({ port, what, variable }) =>
	`port ${port} (${what}) is in use: stop what listens there, or set ${variable} to another port (${variable}=<port> npm run demo)`;

/** Stops the demo before its long steps when a port it needs is taken (another demo, n8n, sandbox …). */
async function checkPorts() {
	for (const entry of PORTS) {
		const free = await new Promise((resolve) => {
			const server = net.createServer();
			server.once('error', () => resolve(false));
			server.listen(entry.port, '127.0.0.1', () => server.close(() => resolve(true)));
		});
		if (!free) throw new Error(portTaken(entry));
	}
}

/**
 * What the user has of the shipped examples and the sandbox credential (n8n's exports), and the
 * record of what the demo imported last: a start imports only what n8n lacks or the user never
 * changed, keeps the rest and says so.
 */
async function planImports(n8n, userFolder, workflows, credential) {
	const recordFile = path.join(userFolder, 'demo-imports.json');
	const imported = fs.existsSync(recordFile) ? JSON.parse(fs.readFileSync(recordFile, 'utf8')) : {};
	const byId = (list) => new Map(list.map((entity) => [entity.id, entity]));
	// A user folder without a database (the first start) has nothing to read.
	const fresh = !fs.existsSync(path.join(userFolder, '.n8n/database.sqlite'));
	// An archived workflow counts as deleted (n8n's editor archives before it deletes).
	const theirWorkflows = byId(
		fresh ? [] : (await n8n.exported('workflow', ['--all'])).filter((workflow) => !workflow.isArchived),
	);
	const theirCredentials = byId(
		fresh ? [] : await n8n.exported('credentials', [`--id=${credential.id}`, '--decrypted']),
	);
	const plans = [
		importPlan(workflows, theirWorkflows, imported, RESET),
		importPlan([credential], theirCredentials, imported, RESET),
	];
	if (RESET) log('DEMO_RESET_EXAMPLES=1: the shipped examples and sandbox credential replace your copies');
	for (const plan of plans) {
		for (const { name } of plan.updates) log(`updating "${name}" to the shipped version (you had not changed it)`);
		for (const { id, name } of plan.kept)
			log(
				`kept your copy of "${name}" (${id}): it differs from what the demo imported; to get the shipped one back, delete it in n8n or start with DEMO_RESET_EXAMPLES=1`,
			);
	}
	const record = () => {
		for (const entity of plans.flatMap((plan) => plan.imports)) imported[entity.id] = contentHash(entity);
		fs.writeFileSync(recordFile, JSON.stringify(imported, null, 2));
	};
	// n8n's import leaves a workflow's archived flag as it was: one the user archived comes back unarchived.
	const workflowsToImport = plans[0].imports.map((workflow) => ({ ...workflow, isArchived: false }));
	return { workflows: workflowsToImport, credentials: plans[1].imports, record };
}

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

async function cannotStart(error) {
	process.stderr.write(`[demo] failed: ${error.message}\n`);
	await stop('the demo could not start', 1);
}

async function main() {
	process.on('SIGINT', () => void stop('SIGINT'));
	process.on('SIGTERM', () => void stop('SIGTERM'));
	process.on('SIGHUP', () => void stop('SIGHUP'));
	stopWhenOrphaned();

	try {
		await checkPorts();
	} catch (error) {
		return cannotStart(error);
	}
	log(
		`ports: n8n on :${N8N_PORT} (DEMO_N8N_PORT; its task brokers on :${N8N_PORT + 1} and :${N8N_PORT + 2}), sandbox on :${SANDBOX_PORT} (DEMO_SANDBOX_PORT)`,
	);
	const runtime = await n8nRuntime(process.env.N8N_RUNTIME || path.join(RUNTIME_DIR, 'n8n-runtime'));
	await step('building the package', () => promisify(execFile)('npm', ['run', 'build'], { cwd: REPO }));
	const tarball = await packPackage(path.join(RUNTIME_DIR, 'demo-package'));

	let sandbox;
	try {
		sandbox = await startSandbox({ port: SANDBOX_PORT, host: '127.0.0.1', quiet: true });
	} catch (error) {
		return cannotStart(error.code === 'EADDRINUSE' ? new Error(portTaken(PORTS[0])) : error);
	}
	started.push(() => sandbox.close());
	log(`gateway sandbox on ${sandbox.url}/paynet (DEMO_SANDBOX_PORT; admin API: ${sandbox.url}/sandbox)`);
	const userFolder = path.join(RUNTIME_DIR, 'demo-user');
	fs.mkdirSync(userFolder, { recursive: true });
	const n8n = new N8nInstance({ runtime, userFolder, port: N8N_PORT });
	started.push(() => n8n.stop());

	const examples = exampleWorkflows(sandbox.url);
	const listening = examples.filter(listens);
	let published = [];
	try {
		await step("installing the package into n8n (as n8n's community-package installer does)", () =>
			n8n.installPackage(tarball),
		);
		const plan = await step('reading which examples n8n has already', () =>
			planImports(n8n, userFolder, examples, sandboxCredential(sandbox.url)),
		);
		// The claims credential belongs to this run of n8n (its URL and a new API key): filled in every start.
		await n8n.importCredentials([...plan.credentials, claimsCredentialPlaceholder()]);
		log(`importing ${plan.workflows.length} of ${examples.length} example workflows (pointed at ${sandbox.url})`);
		if (plan.workflows.length) await n8n.importWorkflows(plan.workflows);
		plan.record();
		// A copy the user kept stays published or not as they left it.
		published = plan.workflows.filter(listens);
		for (const workflow of published) await n8n.publish(workflow.id);
		await seedDemoOrders(sandbox.url);
		await step('starting n8n', () => n8n.start());
		await n8n.connectClaims(CLAIMS_CREDENTIAL);
		await step('waiting for the example webhooks', () => n8n.waitForWebhooks(published.flatMap(productionWebhooks)));
	} catch (error) {
		return cannotStart(error);
	}
	log('');
	log(`ready after ${minutes(Date.now() - demoBegan)}`);
	log(`n8n editor: ${n8n.baseUrl}/ (DEMO_N8N_PORT)`);
	log(`login:      ${n8n.owner.email} / ${n8n.owner.password}`);
	log(`sandbox:    ${sandbox.url}/sandbox/orders, /ledger, /callbacks, /sink`);
	log('Open "Bulk refund", "Payout run" or "Reconciliation" and press Execute; see examples/README.md for the others.');
	const alert = listening.find((workflow) => workflow.name === 'Example: callback alert');
	const callbackPath = alert && productionWebhooks(alert).find((webhook) => webhook.path.endsWith('/callback'));
	if (callbackPath) {
		const sandboxFlag = SANDBOX_PORT === DEFAULT_OPTIONS.port ? '' : ` --port ${SANDBOX_PORT}`;
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
