'use strict';
// The sandbox gateway in a process of its own, as a real gateway is: its event loop never waits
// behind the client being measured (in one process every hop of every request queued behind the
// engine's work: in-process c=16 at 100 ms measured 127 ms round trips instead of ~101).
//
//   const sandbox = await startSandboxProcess({ verifier: 'node' }); await sandbox.setLatency(100); … await sandbox.close();
const { fork } = require('node:child_process');

if (require.main === module) {
	const { startSandbox } = require('../sandbox');
	startSandbox({ port: 0, quiet: true, verifier: process.argv[2], latencyMs: 0 }).then((sandbox) => {
		process.on('message', ({ id, latencyMs }) => {
			sandbox.options.latencyMs = latencyMs;
			process.send({ id });
		});
		process.on('disconnect', () => sandbox.close().then(() => process.exit(0)));
		process.send({ url: sandbox.url });
	});
} else {
	module.exports.startSandboxProcess = function startSandboxProcess({ verifier = 'node' } = {}) {
		const child = fork(__filename, [verifier], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
		const acks = new Map();
		let nextId = 0;
		let latencyMs = 0;
		child.on('message', (message) => acks.get(message.id)?.());
		return new Promise((resolve, reject) => {
			child.once('error', reject);
			child.once('message', ({ url }) =>
				resolve({
					url,
					get latencyMs() {
						return latencyMs;
					},
					/** Added latency of every gateway reply from now on. */
					setLatency(ms) {
						const id = ++nextId;
						latencyMs = ms;
						return new Promise((done) => {
							acks.set(id, () => (acks.delete(id), done()));
							child.send({ id, latencyMs: ms });
						});
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
