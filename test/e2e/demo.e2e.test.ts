// `npm run demo` as a user runs it, with the real n8n runtime: once the demo is up, `kill <npm pid>`
// (SIGTERM to npm only, as a process manager or a terminal multiplexer sends it) must stop
// everything the demo started: its own node process, n8n and the sandbox's port.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';

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

let npm: ChildProcess | undefined;
let output = '';

afterAll(() => {
	// Whatever the outcome, nothing of this test may outlive it.
	if (npm?.pid) for (const pid of [npm.pid, ...descendants(npm.pid)]) if (alive(pid)) process.kill(pid, 'SIGKILL');
});

test('kill <npm pid> stops the demo, n8n and the sandbox', async () => {
	const runtime: string = await ensureRuntime();
	npm = spawn('npm', ['run', 'demo'], {
		cwd: REPO,
		env: { ...process.env, N8N_RUNTIME: runtime, DEMO_N8N_PORT: String(N8N_PORT), DEMO_SANDBOX_PORT: String(SANDBOX_PORT) },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	npm.stdout!.on('data', (chunk) => (output += chunk));
	npm.stderr!.on('data', (chunk) => (output += chunk));
	const ready = await until(() => output.includes('n8n editor:'), 8 * 60_000);
	if (!ready) throw new Error(`the demo did not come up:\n${output}`);
	// Progress is reported for every long step.
	expect(output).toContain('[demo] checking the n8n runtime');
	expect(output).toContain('[demo] starting n8n');

	const started = descendants(npm.pid!);
	expect(started.length).toBeGreaterThanOrEqual(2); // the demo's node process and n8n, at least
	expect(await portOpen(N8N_PORT)).toBe(true);
	expect(await portOpen(SANDBOX_PORT)).toBe(true);

	process.kill(npm.pid!, 'SIGTERM');
	const allGone = await until(() => started.every((pid) => !alive(pid)), 60_000);
	expect({ allGone, left: started.filter(alive) }).toEqual({ allGone: true, left: [] });
	expect(await portOpen(N8N_PORT)).toBe(false);
	expect(await portOpen(SANDBOX_PORT)).toBe(false);
	expect(output).toContain('stopping what the demo started');
}, 12 * 60_000);
