'use strict';
// The two services n8n's queue mode needs, run as throwaway local instances on loopback: a
// PostgreSQL cluster in a temp folder and a redis-server without persistence, each on a free port.
// Debian's packages are installed when missing (as .ci/run installs chromium).
const { execFile, spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { promisify } = require('node:util');

const run = promisify(execFile);

function asRoot(args) {
	const command = process.getuid() === 0 ? args : ['sudo', ...args];
	const result = spawnSync(command[0], command.slice(1), {
		stdio: ['ignore', 'inherit', 'inherit'],
		env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
	});
	if (result.status !== 0) throw new Error(`${command.join(' ')} failed (exit ${result.status})`);
}

function postgresBin() {
	const root = '/usr/lib/postgresql';
	const versions = fs.existsSync(root)
		? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin/initdb')))
		: [];
	if (!versions.length) return undefined;
	return path.join(root, versions.sort((a, b) => Number(b) - Number(a))[0], 'bin');
}

/** Installs Debian's postgresql and redis-server if either is missing. */
function ensureQueueServices() {
	const missing = [];
	if (!postgresBin()) missing.push('postgresql');
	if (spawnSync('redis-server', ['--version']).status !== 0) missing.push('redis-server');
	if (!missing.length) return;
	process.stderr.write(`[queue] installing ${missing.join(' ')} (apt-get)\n`);
	asRoot(['apt-get', 'update', '-qq']);
	asRoot(['apt-get', 'install', '-y', '-qq', ...missing]);
}

function freePort() {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A PostgreSQL cluster in `dir` (created if new). initdb and the server refuse to run as root, so
 * as root they run as the `postgres` user Debian's package creates. Trust auth on loopback only.
 */
class Postgres {
	constructor({ dir, port, user = 'n8n', database = 'n8n' }) {
		this.dir = dir;
		this.port = port;
		this.user = user;
		this.database = database;
		this.data = path.join(dir, 'data');
		this.logFile = path.join(dir, 'postgres.log');
		this.bin = postgresBin();
	}

	async command(tool, args) {
		const binary = path.join(this.bin, tool);
		const asRootUser = process.getuid() === 0;
		const [file, argv] = asRootUser ? ['runuser', ['-u', 'postgres', '--', binary, ...args]] : [binary, args];
		return run(file, argv, { cwd: this.dir, maxBuffer: 16 * 1024 * 1024 });
	}

	async start() {
		fs.mkdirSync(this.dir, { recursive: true });
		if (process.getuid() === 0) fs.chownSync(this.dir, ...postgresIds());
		if (!fs.existsSync(path.join(this.data, 'PG_VERSION'))) {
			await this.command('initdb', ['-D', this.data, '-U', this.user, '--auth=trust', '-E', 'UTF8', '--no-sync']);
		}
		// The socket goes to the cluster folder: Debian's /var/run/postgresql may not exist or be ours.
		const options = `-p ${this.port} -c listen_addresses=127.0.0.1 -k ${this.dir} -c max_connections=200`;
		await this.command('pg_ctl', ['-D', this.data, '-l', this.logFile, '-o', options, '-w', '-t', '60', 'start']);
		const exists = await run(path.join(this.bin, 'psql'), [
			'-h',
			'127.0.0.1',
			'-p',
			String(this.port),
			'-U',
			this.user,
			'-d',
			'postgres',
			'-tAc',
			`SELECT 1 FROM pg_database WHERE datname='${this.database}'`,
		]);
		if (exists.stdout.trim() !== '1')
			await run(path.join(this.bin, 'createdb'), [
				'-h',
				'127.0.0.1',
				'-p',
				String(this.port),
				'-U',
				this.user,
				this.database,
			]);
		return this;
	}

	/** The postmaster's pid (its backends are its children). */
	pid() {
		const file = path.join(this.data, 'postmaster.pid');
		return fs.existsSync(file) ? Number(fs.readFileSync(file, 'utf8').split('\n')[0]) : undefined;
	}

	async stop(mode = 'fast') {
		if (!this.pid()) return;
		await this.command('pg_ctl', ['-D', this.data, '-m', mode, '-w', '-t', '60', 'stop']).catch(() => undefined);
	}

	async restart() {
		await this.stop();
		await this.start();
	}

	env() {
		return {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(this.port),
			DB_POSTGRESDB_DATABASE: this.database,
			DB_POSTGRESDB_USER: this.user,
			DB_POSTGRESDB_PASSWORD: '',
		};
	}
}

function postgresIds() {
	const { stdout } = spawnSync('id', ['postgres'], { encoding: 'utf8' });
	const uid = Number(/uid=(\d+)/.exec(stdout)?.[1]);
	const gid = Number(/gid=(\d+)/.exec(stdout)?.[1]);
	if (!Number.isInteger(uid))
		throw new Error('no "postgres" user to run PostgreSQL as (install Debian\'s postgresql package)');
	return [uid, gid];
}

/** redis-server on loopback, nothing saved to disk (the queue is rebuilt from n8n's database). */
class Redis {
	constructor({ dir, port }) {
		this.dir = dir;
		this.port = port;
		this.logFile = path.join(dir, 'redis.log');
		this.pidValue = undefined;
	}

	async start() {
		fs.mkdirSync(this.dir, { recursive: true });
		const log = fs.openSync(this.logFile, 'a');
		const child = spawn(
			'redis-server',
			['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', this.dir],
			{
				detached: true,
				stdio: ['ignore', log, log],
			},
		);
		child.unref();
		fs.closeSync(log);
		this.pidValue = child.pid;
		for (let attempt = 0; attempt < 100; attempt++) {
			if (await this.ping()) return this;
			await sleep(100);
		}
		throw new Error(`redis-server did not answer on port ${this.port}; see ${this.logFile}`);
	}

	ping() {
		return new Promise((resolve) => {
			const socket = net.connect(this.port, '127.0.0.1');
			socket.setTimeout(1000);
			socket.once('connect', () => socket.write('PING\r\n'));
			socket.once('data', (data) => {
				socket.destroy();
				resolve(data.toString().startsWith('+PONG'));
			});
			socket.once('error', () => resolve(false));
			socket.once('timeout', () => {
				socket.destroy();
				resolve(false);
			});
		});
	}

	pid() {
		return this.pidValue;
	}

	async stop() {
		if (!this.pidValue) return;
		await killAndWait(this.pidValue, 'SIGTERM', 10_000);
		this.pidValue = undefined;
	}

	env() {
		return { QUEUE_BULL_REDIS_HOST: '127.0.0.1', QUEUE_BULL_REDIS_PORT: String(this.port) };
	}
}

function alive(pid) {
	try {
		process.kill(pid, 0);
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		return !/^\d+ \(.*\) Z/.test(stat);
	} catch {
		return false;
	}
}

/** Sends `signal` to a process (its whole group when it leads one) and waits until it is gone. */
async function killAndWait(pid, signal, timeoutMs) {
	try {
		process.kill(-pid, signal);
	} catch {
		try {
			process.kill(pid, signal);
		} catch {
			return;
		}
	}
	const deadline = Date.now() + timeoutMs;
	while (alive(pid) && Date.now() < deadline) await sleep(100);
	if (alive(pid)) await killAndWait(pid, 'SIGKILL', 5000);
}

function tempDir(prefix) {
	// World-traversable (/tmp) so the postgres user can reach the cluster folder.
	return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

module.exports = { ensureQueueServices, Postgres, Redis, freePort, killAndWait, alive, tempDir, sleep };
