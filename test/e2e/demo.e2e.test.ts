// `npm run demo` as a user runs it, with the real n8n runtime: once the demo is up, a signal to npm
// alone must stop everything the demo started (its own node process, n8n and the sandbox's port):
// SIGTERM, as a process manager or a terminal multiplexer sends it, and SIGINT, as `kill -INT`
// sends it (Ctrl-C in a terminal signals every process of the group; npm's pid alone is the hard
// case). The runtime is reused, and the demo says so instead of announcing a first-run install; a
// demo stopped while it installs a runtime stops the installer too.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scaled } from '../support/time-scale';

const { ensureRuntime, REPO } = require('../../e2e/n8n');

const N8N_PORT = 5760;
const SANDBOX_PORT = 8961;

/** Every live descendant of a process, from /proc (Linux). */
function descendants(root: number): number[] {
	const parentOf = new Map<number, number>();
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			// The command name may hold spaces and parentheses: the parent pid follows the last ")".
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
		} catch {
			// the process ended while we looked
		}
	}
	const found: number[] = [];
	const queue = [root];
	while (queue.length) {
		const parent = queue.shift()!;
		for (const [pid, ppid] of parentOf) {
			if (ppid === parent) {
				found.push(pid);
				queue.push(pid);
			}
		}
	}
	return found;
}

const alive = (pid: number) => {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
};

const portOpen = (port: number) =>
	new Promise<boolean>((resolve) => {
		const socket = connect(port, '127.0.0.1');
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});

async function until(condition: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
	const deadline = Date.now() + ms;
	while (Date.now() < deadline) {
		if (await condition()) return true;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	return condition();
}

interface Demo {
	npm: ChildProcess;
	output: () => string;
	exited: () => boolean;
}

const demos: Demo[] = [];
const folders: string[] = [];

/** `npm run demo` on the test's ports, with output captured. */
function startDemo(runtime: string): Demo {
	const npm = spawn('npm', ['run', 'demo'], {
		cwd: REPO,
		env: {
			...process.env,
			N8N_RUNTIME: runtime,
			DEMO_N8N_PORT: String(N8N_PORT),
			DEMO_SANDBOX_PORT: String(SANDBOX_PORT),
		},
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	let exited = false;
	npm.stdout!.on('data', (chunk) => (output += chunk));
	npm.stderr!.on('data', (chunk) => (output += chunk));
	npm.once('exit', () => (exited = true));
	const demo = { npm, output: () => output, exited: () => exited };
	demos.push(demo);
	return demo;
}

afterAll(() => {
	// Whatever the outcome, nothing of these tests may outlive them.
	for (const { npm } of demos)
		if (npm.pid) for (const pid of [npm.pid, ...descendants(npm.pid)]) if (alive(pid)) process.kill(pid, 'SIGKILL');
	for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

test.each(['SIGTERM', 'SIGINT'] as const)(
	'kill -%s <npm pid> stops the demo, n8n and the sandbox',
	async (signal) => {
		const runtime: string = await ensureRuntime();
		const demo = startDemo(runtime);
		const ready = await until(() => demo.output().includes('n8n editor:'), scaled(8 * 60_000));
		if (!ready) throw new Error(`the demo did not come up:\n${demo.output()}`);
		// Progress is reported for every long step; an installed runtime is reused, not announced as a first-run install.
		expect(demo.output()).toContain(`[demo] n8n runtime: ${runtime} (installed earlier, reused)`);
		expect(demo.output()).not.toMatch(/installing the n8n runtime|first run/);
		expect(demo.output()).toContain('[demo] starting n8n');
		// The start output says what stops it.
		expect(demo.output()).toMatch(
			/\[demo\] Ctrl-C stops n8n and the sandbox \(or send SIGINT or SIGTERM to this process, \d+, or to npm run\)/,
		);

		const started = descendants(demo.npm.pid!);
		expect(started.length).toBeGreaterThanOrEqual(2); // the demo's node process and n8n, at least
		expect(await portOpen(N8N_PORT)).toBe(true);
		expect(await portOpen(SANDBOX_PORT)).toBe(true);

		process.kill(demo.npm.pid!, signal);
		const allGone = await until(() => started.every((pid) => !alive(pid)), scaled(60_000));
		expect({ allGone, left: started.filter(alive) }).toEqual({ allGone: true, left: [] });
		expect(await until(demo.exited, scaled(10_000))).toBe(true);
		expect(await portOpen(N8N_PORT)).toBe(false);
		expect(await portOpen(SANDBOX_PORT)).toBe(false);
		expect(demo.output()).toContain(`[demo] ${signal}: stopping what the demo started`);
	},
	scaled(12 * 60_000),
);

test(
	'a runtime install is announced only when it happens, and SIGINT to npm stops the installer too',
	async () => {
		// An empty folder: the demo must install into it (and is stopped long before it would finish).
		const folder = mkdtempSync(join(tmpdir(), 'n8n-card-gateway-demo-runtime-'));
		folders.push(folder);
		const demo = startDemo(join(folder, 'runtime'));
		const installing = await until(() => demo.output().includes('[demo] installing the n8n runtime'), scaled(60_000));
		if (!installing) throw new Error(`the demo did not start installing:\n${demo.output()}`);
		expect(demo.output()).toContain(
			`installing the n8n runtime into ${join(folder, 'runtime')} (Node 24 + n8n 2.41.1: once, a few minutes)`,
		);
		// The installer (bash) and what it runs (npm) are under way.
		await until(() => descendants(demo.npm.pid!).length >= 3, scaled(10_000));
		const started = descendants(demo.npm.pid!);
		expect(started.length).toBeGreaterThanOrEqual(2); // the demo's node process and the installer, at least

		process.kill(demo.npm.pid!, 'SIGINT');
		const allGone = await until(() => started.every((pid) => !alive(pid)), scaled(30_000));
		expect({ allGone, left: started.filter(alive) }).toEqual({ allGone: true, left: [] });
		expect(await until(demo.exited, scaled(10_000))).toBe(true);
		expect(demo.output()).toContain('[demo] SIGINT: stopping what the demo started');
		expect(demo.output()).not.toContain('n8n runtime installed in');
	},
	scaled(3 * 60_000),
);
