'use strict';
// The sandbox gateway in a process of its own, as a real gateway is: its event loop never waits
// behind the client being measured (in one process every hop of every request queued behind the
// engine's work: in-process c=16 at 100 ms measured 127 ms round trips instead of ~101).
//
//   const sandbox = await startSandboxProcess({ verifier: 'node' }); await sandbox.setLatency(100); … await sandbox.close();
// It also counts the gateway requests in flight at once (received, not yet answered): the peak since
// the last takePeakInFlight() is what a client really had in flight, whatever its settings say.
// takeUsage() says what the sandbox itself spent since the last call: its process's CPU and the
// gateway requests it answered, by command (is the sandbox, not the client, the bottleneck?).
const { fork } = require('node:child_process');

if (require.main === module) {
	require('./cli').checkArgs(
		`Usage: not run by hand. The benchmarks fork it (startSandboxProcess in this file) to run the
sandbox gateway in a process of its own, as a real gateway is; its one argument is the
verifier (node or forge), and it talks to its parent over IPC.
To run the sandbox yourself: npm run sandbox.`,
		{ positionals: [0, 1] },
	);
	const { startSandbox } = require('../sandbox');
	startSandbox({ port: 0, quiet: true, verifier: process.argv[2], latencyMs: 0 }).then((sandbox) => {
		let inFlight = 0;
		let peak = 0;
		let usageFrom = { cpu: process.cpuUsage(), at: performance.now() };
		/** Gateway requests since the last takeUsage, by command (the path's part before the endpoint ID). */
		let requests = {};
		sandbox.server.server.on('request', (req, res) => {
			if (!req.url.startsWith('/paynet/')) return;
			const command = /\/api\/(?:v2|v4|3ds\/v1)\/(.+?)\/(?:group\/)?[^/]+\/?$/.exec(req.url)?.[1] ?? 'other';
			requests[command] = (requests[command] ?? 0) + 1;
			peak = Math.max(peak, ++inFlight);
			res.once('close', () => inFlight--);
		});
		process.on('message', ({ id, latencyMs, takePeak, takeUsage }) => {
			if (takePeak) {
				process.send({ id, peak });
				peak = inFlight;
				return;
			}
			if (takeUsage) {
				const cpu = process.cpuUsage(usageFrom.cpu);
				const at = performance.now();
				process.send({ id, cpuMs: (cpu.user + cpu.system) / 1000, wallMs: at - usageFrom.at, requests });
				usageFrom = { cpu: process.cpuUsage(), at };
				requests = {};
				return;
			}
			sandbox.options.latencyMs = latencyMs;
			process.send({ id });
		});
		process.on('disconnect', () => sandbox.close().then(() => process.exit(0)));
		process.send({ url: sandbox.url });
	});
} else {
	/** `cpuProfDir`: the sandbox's process runs under `node --cpu-prof` and writes its profile there when closed. */
	module.exports.startSandboxProcess = function startSandboxProcess({ verifier = 'node', cpuProfDir } = {}) {
		const child = fork(__filename, [verifier], {
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
			execArgv: cpuProfDir ? [...process.execArgv, '--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] : process.execArgv,
		});
		const acks = new Map();
		let nextId = 0;
		let latencyMs = 0;
		child.on('message', (message) => acks.get(message.id)?.(message));
		const ask = (message) =>
			new Promise((done) => {
				const id = ++nextId;
				acks.set(id, (reply) => (acks.delete(id), done(reply)));
				child.send({ id, ...message });
			});
		return new Promise((resolve, reject) => {
			child.once('error', reject);
			child.once('message', ({ url }) =>
				resolve({
					url,
					get latencyMs() {
						return latencyMs;
					},
					/** Added latency of every gateway reply from now on. */
					async setLatency(ms) {
						latencyMs = ms;
						await ask({ latencyMs: ms });
					},
					/**
					 * The sandbox's CPU ms and wall ms since the last call, and the gateway requests it
					 * received by command: { cpuMs, wallMs, requests: { sale: 100, status: 100 } }.
					 */
					async takeUsage() {
						const { cpuMs, wallMs, requests } = await ask({ takeUsage: true });
						return { cpuMs, wallMs, requests };
					},
					/** The most gateway requests in flight at once since the last call. */
					async takePeakInFlight() {
						return (await ask({ takePeak: true })).peak;
					},
					close() {
						return new Promise((done) => {
							child.once('exit', done);
							child.disconnect();
						});
					},
				}),
			);
		});
	};
}
