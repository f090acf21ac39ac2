'use strict';
// n8n's queue mode on loopback, from the pinned runtime: PostgreSQL + Redis (e2e/services.js), a
// main process (editor, API, activation; production webhooks off), a webhook process that receives
// the gateway's callbacks, and workers that run the executions. Every process shares the user
// folder (our package installed once in its nodes/), the encryption key, the database and Redis.
// Used by `npm run queue`, the queue-mode e2e test, the reliability campaign and the benchmark.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { N8nInstance } = require('./n8n');
const { Postgres, Redis, ensureQueueServices, freePort, killAndWait, alive, sleep, tempDir } = require('./services');

/**
 * The settings every process of the topology gets, and why (README, "Running at scale").
 * Exported so the README and tests can show exactly what runs.
 */
const QUEUE_SETTINGS = {
	EXECUTIONS_MODE: 'queue',
	// n8n's default pool of 2 lets the readiness ping queue behind queries: under 50 callbacks in
	// flight the webhook process answered 503 "Database is not ready!" to about a quarter of them.
	DB_POSTGRESDB_POOL_SIZE: '10',
	// Main serves the editor and API only; callbacks go to the webhook processes. Main then answers
	// a GET to its /webhook/… with the editor page (200 text/html) and starts nothing.
	N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
	// No setting brings back a job whose worker died: n8n 2.41 creates its Bull queue with
	// maxStalledCount 0, so such a job fails "job stalled more than maxStalledCount" once its lock
	// (QUEUE_WORKER_LOCK_DURATION, 60 s) lapses. README "Running at scale" has the window and the fix.
	// Redis away for longer than this makes every n8n process exit (default 10 s).
	QUEUE_BULL_REDIS_TIMEOUT_THRESHOLD: '30000',
	// Manual runs from the editor also go to the workers, so main stays light: n8n 3.0's only
	// behaviour, which 2.x gives with this switch (without it n8n 2.41 runs them on main, warns at
	// startup, and its 3.0 migration report flags the instance). 3.0 removes the variable: drop this
	// line once the oldest n8n this package supports is 3.x (docs/n8n-v3.md).
	OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
	QUEUE_HEALTH_CHECK_ACTIVE: 'true',
};

/** One n8n process of the topology: main ("start"), "webhook" or "worker". */
class QueueProcess extends N8nInstance {
	constructor({ role, name = role, topologyEnv, args = [], ...options }) {
		super(options);
		this.role = role;
		this.name = name;
		this.args = args;
		this.topologyEnv = topologyEnv;
		this.logFile = path.join(this.userFolder, `n8n-${name}.log`);
		this.pidValue = undefined;
	}

	env(extra) {
		return super.env({ ...this.topologyEnv, ...extra });
	}

	/** The port that answers /healthz/readiness (a worker's health-check server). */
	healthPort() {
		return this.port;
	}

	/** Starts the process detached (its own process group: a kill takes its task runner too). */
	async start() {
		const bcrypt = require(path.join(this.runtime, 'n8n/node_modules/bcryptjs'));
		const owner =
			this.role === 'start'
				? {
						N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
						N8N_INSTANCE_OWNER_EMAIL: this.owner.email,
						N8N_INSTANCE_OWNER_PASSWORD_HASH: bcrypt.hashSync(this.owner.password, 10),
					}
				: {};
		const worker =
			this.role === 'worker'
				? { QUEUE_HEALTH_CHECK_PORT: String(this.port), N8N_WORKER_SERVER_ADDRESS: '127.0.0.1' }
				: {};
		const log = fs.openSync(this.logFile, 'a');
		const child = spawn(path.join(this.runtime, 'n8n/node_modules/.bin/n8n'), [this.role, ...this.args], {
			env: this.env({ ...owner, ...worker }),
			stdio: ['ignore', log, log],
			detached: true,
		});
		child.unref();
		fs.closeSync(log);
		this.pidValue = child.pid;
		await this.ready();
		return this;
	}

	async ready(timeoutMs = this.readyWithinMs) {
		const deadline = Date.now() + timeoutMs;
		while (Date.now() < deadline) {
			const ok = await fetch(`http://127.0.0.1:${this.healthPort()}/healthz/readiness`).then(
				(r) => r.ok,
				() => false,
			);
			if (ok) return;
			if (!alive(this.pidValue)) throw new Error(`n8n ${this.name} exited during start; see ${this.logFile}`);
			await sleep(500);
		}
		throw new Error(`n8n ${this.name} was not ready within ${timeoutMs / 1000} s; see ${this.logFile}`);
	}

	pid() {
		return this.pidValue;
	}

	running() {
		return this.pidValue !== undefined && alive(this.pidValue);
	}

	/** SIGTERM (n8n finishes running executions first) or SIGKILL (a crash). */
	async stop(signal = 'SIGTERM') {
		if (!this.pidValue) return;
		await killAndWait(this.pidValue, signal, 30_000);
		this.pidValue = undefined;
	}
}

/**
 * The whole topology. Ports: main `port`, webhook process `port + 10` (more webhook processes: `port + 15 + 10 k`), worker i `port + 20 + 10 i`
 * (each also uses the next two for its task broker and CLI); PostgreSQL and Redis on free ports.
 */
class QueueTopology {
	constructor({
		runtime,
		userFolder,
		servicesDir = tempDir('n8n-card-gateway-queue-'),
		port = 5800,
		workers = 1,
		workerConcurrency = 10,
		webhookProcesses = 1,
		settings = {},
		readyWithinMs = 180_000,
	}) {
		this.runtime = runtime;
		this.readyWithinMs = readyWithinMs;
		this.userFolder = userFolder;
		this.servicesDir = servicesDir;
		this.port = port;
		this.workerCount = workers;
		this.workerConcurrency = workerConcurrency;
		this.settings = settings;
		this.postgres = undefined;
		this.redis = undefined;
		this.main = undefined;
		this.webhookProcess = undefined;
		this.webhookProcessCount = webhookProcesses;
		/** Webhook processes after the first (their ports: webhookBaseUrls()). */
		this.moreWebhookProcesses = [];
		this.workers = [];
	}

	/** PostgreSQL and Redis up, and the main process configured (not started): import with main.cli(). */
	async prepare() {
		ensureQueueServices();
		// The postgres user must reach its cluster folder inside it.
		fs.chmodSync(this.servicesDir, 0o755);
		this.postgres = await new Postgres({
			dir: path.join(this.servicesDir, 'postgres'),
			port: await freePort(),
		}).start();
		this.redis = await new Redis({ dir: path.join(this.servicesDir, 'redis'), port: await freePort() }).start();
		this.main = this.process('start', 'main', this.port);
		return this;
	}

	env() {
		return {
			...this.postgres.env(),
			...this.redis.env(),
			...QUEUE_SETTINGS,
			N8N_WEBHOOK_URL: `${this.webhookBaseUrl()}/`,
			N8N_EDITOR_BASE_URL: `http://127.0.0.1:${this.port}/`,
			...this.settings,
		};
	}

	process(role, name, port, args = []) {
		return new QueueProcess({
			runtime: this.runtime,
			userFolder: this.userFolder,
			readyWithinMs: this.readyWithinMs,
			port,
			role,
			name,
			args,
			topologyEnv: this.env(),
		});
	}

	webhookBaseUrl() {
		return `http://127.0.0.1:${this.port + 10}`;
	}

	/**
	 * Every webhook process's base URL: the first one (webhookBaseUrl), then the others at `port + 15`,
	 * `+ 25`…, between the workers' ports (each process also takes the next two). Not 100 up: 6000 is
	 * one of the ports fetch refuses (the "bad ports" of the Fetch standard).
	 */
	webhookBaseUrls() {
		return [this.port + 10, ...this.moreWebhookPorts()].map((port) => `http://127.0.0.1:${port}`);
	}

	moreWebhookPorts() {
		return Array.from({ length: this.webhookProcessCount - 1 }, (_, index) => this.port + 15 + 10 * index);
	}

	/** Main first (it runs the migrations and activates the published workflows), then the rest. */
	async start() {
		await this.main.start();
		this.webhookProcess = await this.process('webhook', 'webhook', this.port + 10).start();
		for (const [index, port] of this.moreWebhookPorts().entries()) {
			this.moreWebhookProcesses.push(await this.process('webhook', `webhook-${index + 2}`, port).start());
		}
		for (let index = 0; index < this.workerCount; index++) await this.startWorker(index);
		return this;
	}

	/** Starts worker `index` (again, after it was stopped or killed: the same name, port and concurrency). */
	async startWorker(index) {
		const worker = this.process('worker', `worker-${index + 1}`, this.port + 20 + 10 * index, [
			`--concurrency=${this.workerConcurrency}`,
		]);
		this.workers[index] = worker;
		return worker.start();
	}

	/** Every process by role name, for CPU accounting: main, webhook, worker-1…, postgres, redis. */
	pids() {
		const pids = {
			main: this.main?.pid(),
			webhook: this.webhookProcess?.pid(),
			...Object.fromEntries(this.moreWebhookProcesses.map((process) => [process.name, process.pid()])),
			postgres: this.postgres?.pid(),
			redis: this.redis?.pid(),
		};
		this.workers.forEach((worker) => (pids[worker.name] = worker.pid()));
		return pids;
	}

	/** Calls a production webhook on the webhook process, retrying 404s while webhooks register. */
	async webhook(urlPath, init = {}) {
		for (let attempt = 0; ; attempt++) {
			const response = await fetch(`${this.webhookBaseUrl()}/webhook/${urlPath}`, init);
			if (response.status !== 404 || attempt >= 60) return response;
			await response.arrayBuffer();
			await sleep(500);
		}
	}

	async stop() {
		for (const worker of this.workers) await worker?.stop();
		for (const webhookProcess of this.moreWebhookProcesses) await webhookProcess.stop();
		await this.webhookProcess?.stop();
		await this.main?.stop();
		await this.redis?.stop();
		await this.postgres?.stop();
	}

	/** What `npm run queue -- down` needs to stop it from another process. */
	state() {
		return {
			userFolder: this.userFolder,
			servicesDir: this.servicesDir,
			pids: this.pids(),
			postgres: { dir: this.postgres.dir, port: this.postgres.port },
			redis: { port: this.redis.port },
			urls: { editor: `http://127.0.0.1:${this.port}/`, webhooks: `${this.webhookBaseUrl()}/webhook/` },
		};
	}

	/** Stops a topology started by another process, from its state(). */
	static async stopFromState(state) {
		const { pids } = state;
		for (const name of Object.keys(pids).filter((n) => n.startsWith('worker')))
			if (pids[name]) await killAndWait(pids[name], 'SIGTERM', 30_000);
		for (const name of Object.keys(pids).filter((n) => n.startsWith('webhook-')))
			if (pids[name]) await killAndWait(pids[name], 'SIGTERM', 30_000);
		for (const name of ['webhook', 'main', 'redis']) if (pids[name]) await killAndWait(pids[name], 'SIGTERM', 30_000);
		await new Postgres({ dir: state.postgres.dir, port: state.postgres.port }).stop();
	}
}

module.exports = { QueueTopology, QueueProcess, QUEUE_SETTINGS };
