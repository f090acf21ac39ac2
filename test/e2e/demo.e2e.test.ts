// `npm run demo` as a user runs it, with the real n8n runtime: once the demo is up, a signal to npm
// alone must stop everything the demo started (its own node process, n8n and the sandbox's port):
// SIGTERM, as a process manager or a terminal multiplexer sends it, and SIGINT, as `kill -INT`
// sends it (Ctrl-C in a terminal signals every process of the group; npm's pid alone is the hard
// case). The runtime is reused, and the demo says so instead of announcing a first-run install; a
// demo stopped while it installs a runtime stops the installer too. The demo says which ports it
// uses (and which variable moves each, also when one is taken), points the examples at the sandbox
// it started, and a restart keeps an example the user edited, saying so.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scaled } from '../support/time-scale';

const { ensureRuntime, N8nInstance, REPO } = require('../../e2e/n8n');

const N8N_PORT = 5760;
const SANDBOX_PORT = 8961;
/** The ports of a second demo (the one whose ports are taken). */
const OTHER_N8N_PORT = 5765;
const OTHER_SANDBOX_PORT = 8966;

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

/** `npm run demo` on the test's ports (or others), with output captured. */
function startDemo(runtime: string, ports = { n8n: N8N_PORT, sandbox: SANDBOX_PORT }): Demo {
	const npm = spawn('npm', ['run', 'demo'], {
		cwd: REPO,
		env: {
			...process.env,
			N8N_RUNTIME: runtime,
			DEMO_N8N_PORT: String(ports.n8n),
			DEMO_SANDBOX_PORT: String(ports.sandbox),
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

/** Waits for the demo's ready line; fails with its output if it does not come. */
async function ready(demo: Demo): Promise<void> {
	const up = await until(() => demo.output().includes('n8n editor:'), scaled(10 * 60_000));
	if (!up) throw new Error(`the demo did not come up:\n${demo.output()}`);
}

/** Stops a demo through npm, as a user does, and waits until it and n8n are gone. */
async function stopDemo(demo: Demo): Promise<void> {
	const started = descendants(demo.npm.pid!);
	process.kill(demo.npm.pid!, 'SIGTERM');
	await until(() => demo.exited() && started.every((pid) => !alive(pid)), scaled(60_000));
	expect(await portOpen(N8N_PORT)).toBe(false);
}

type Workflow = { id: string; name: string; nodes: Array<{ name: string; parameters: Record<string, unknown> }> };

test(
	'the demo prints its ports, points the examples at its sandbox, and a restart keeps an edited example',
	async () => {
		const runtime: string = await ensureRuntime();
		const first = startDemo(runtime);
		await ready(first);
		// Each port with the variable that moves it.
		expect(first.output()).toMatch(new RegExp(`n8n on :${N8N_PORT} \\(DEMO_N8N_PORT`));
		expect(first.output()).toMatch(new RegExp(`sandbox on :${SANDBOX_PORT} \\(DEMO_SANDBOX_PORT\\)`));
		expect(first.output()).toMatch(/\[demo\] ready after (\d+ min )?\d+ s/);

		// n8n's REST API as the demo's owner (logged in again for each n8n the demo starts).
		const n8n = new N8nInstance({ runtime, userFolder: join(REPO, '.runtime/demo-user'), port: N8N_PORT });
		let cookie: string = await n8n.ownerCookie();
		const rest = async (path: string, init: RequestInit = {}): Promise<Workflow> => {
			const response = await fetch(`${n8n.baseUrl}/rest${path}`, {
				...init,
				headers: { cookie, 'content-type': 'application/json' },
			});
			if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
			return ((await response.json()) as { data: Workflow }).data;
		};
		// The examples that post to the sandbox post to the one the demo started, not to the default 8899.
		for (const id of ['cgExCallbackAlert', 'cgExApprovalRefund', 'cgExReconciliationNightly']) {
			const text = JSON.stringify(await rest(`/workflows/${id}`));
			expect(text).toContain(`http://127.0.0.1:${SANDBOX_PORT}/sandbox/`);
			expect(text).not.toContain(':8899');
		}

		// The user edits an example in n8n (as the stable-ID fix of issue 33 did).
		const shipped = await rest('/workflows/cgExReconciliation');
		const MARK = '\n// edited by the user';
		const edited = shipped.nodes.map((node) =>
			node.name === 'Your books'
				? { ...node, parameters: { ...node.parameters, jsCode: `${node.parameters.jsCode}${MARK}` } }
				: node,
		);
		expect(edited).not.toEqual(shipped.nodes);
		await rest('/workflows/cgExReconciliation', { method: 'PATCH', body: JSON.stringify({ nodes: edited }) });
		await stopDemo(first);

		const second = startDemo(runtime);
		await ready(second);
		cookie = await n8n.ownerCookie();
		expect(JSON.stringify((await rest('/workflows/cgExReconciliation')).nodes)).toContain('edited by the user');
		// One line says it was kept and how to get the shipped one back; no other example is reported as kept.
		expect(second.output()).toContain(
			'[demo] kept your copy of "Example: reconciliation" (cgExReconciliation): it differs from what the demo imported; to get the shipped one back, delete it in n8n or start with DEMO_RESET_EXAMPLES=1',
		);
		expect(second.output().match(/kept your copy/g)).toHaveLength(1);

		// Leave the shipped example for the next start: the user's edit undone.
		await rest('/workflows/cgExReconciliation', { method: 'PATCH', body: JSON.stringify({ nodes: shipped.nodes }) });
		await stopDemo(second);
	},
	scaled(25 * 60_000),
);

test(
	'a port the demo needs that is taken stops it at once, naming the variable to set',
	async () => {
		const runtime: string = await ensureRuntime();
		for (const [variable, port] of [
			['DEMO_SANDBOX_PORT', OTHER_SANDBOX_PORT],
			['DEMO_N8N_PORT', OTHER_N8N_PORT],
		] as const) {
			const holder = createServer();
			await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
			try {
				const demo = startDemo(runtime, { n8n: OTHER_N8N_PORT, sandbox: OTHER_SANDBOX_PORT });
				expect(await until(demo.exited, scaled(5 * 60_000))).toBe(true);
				expect(demo.npm.exitCode).toBe(1);
				expect(demo.output()).toContain(`[demo] failed: port ${port} (`);
				expect(demo.output()).toContain(`set ${variable} to another port (${variable}=<port> npm run demo)`);
				// Stopped before its long steps.
				expect(demo.output()).not.toContain('building the package');
			} finally {
				await new Promise((resolve) => holder.close(resolve));
			}
		}
	},
	scaled(12 * 60_000),
);
