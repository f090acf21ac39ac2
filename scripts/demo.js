'use strict';
// `npm run demo`: n8n with this package installed as a community package, the gateway sandbox, the
// sandbox credential and the example workflows, all on loopback. Ctrl-C stops everything it started.
// The first run installs Node 24 and the pinned n8n into .runtime/ (a few minutes); later runs reuse it.
const { execFile } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { promisify } = require('node:util');

const { N8nInstance, ensureRuntime, packPackage, REPO } = require('../e2e/n8n');
const { seedDemoOrders } = require('../e2e/seed');
const { startSandbox } = require('../sandbox');
const { sandboxCredential, exampleWorkflows, listens } = require('./demo-setup');

const SANDBOX_PORT = Number(process.env.DEMO_SANDBOX_PORT || 8899);
const N8N_PORT = Number(process.env.DEMO_N8N_PORT || 5678);
const RUNTIME_DIR = path.join(REPO, '.runtime');

function log(message) {
	process.stdout.write(`[demo] ${message}\n`);
}

async function main() {
	log('checking the n8n runtime (first run: installs Node 24 + n8n 2.41.1 into .runtime/, a few minutes)');
	const runtime = await ensureRuntime(path.join(RUNTIME_DIR, 'n8n-runtime'));
	log('building the package');
	await promisify(execFile)('npm', ['run', 'build'], { cwd: REPO });
	const tarball = await packPackage(path.join(RUNTIME_DIR, 'demo-package'));

	const sandbox = await startSandbox({ port: SANDBOX_PORT, host: '127.0.0.1', quiet: true });
	log(`gateway sandbox on ${sandbox.url}/paynet (admin API: ${sandbox.url}/sandbox)`);
	const userFolder = path.join(RUNTIME_DIR, 'demo-user');
	fs.mkdirSync(userFolder, { recursive: true });
	const n8n = new N8nInstance({ runtime, userFolder, port: N8N_PORT });
	let stopping = false;
	const stop = async () => {
		if (stopping) return;
		stopping = true;
		log('stopping n8n and the sandbox');
		await n8n.stop();
		await sandbox.close();
		process.exit(0);
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);

	try {
		log('installing the package into n8n (as a community package)');
		await n8n.installPackage(tarball);
		await n8n.importCredentials([sandboxCredential(sandbox.url)]);
		const examples = exampleWorkflows();
		log(`importing ${examples.length} example workflows`);
		await n8n.importWorkflows(examples);
		for (const workflow of examples.filter(listens)) await n8n.publish(workflow.id);
		await seedDemoOrders(sandbox.url);
		log('starting n8n');
		await n8n.start();
	} catch (error) {
		process.stderr.write(`[demo] failed: ${error.message}\n`);
		await stop();
		return;
	}
	log('');
	log(`n8n editor: ${n8n.baseUrl}/`);
	log(`login:      ${n8n.owner.email} / ${n8n.owner.password}`);
	log(`sandbox:    ${sandbox.url}/sandbox/orders, /ledger, /callbacks, /sink`);
	log('Open "Bulk refund", "Payout run" or "Reconciliation" and press Execute; see examples/README.md for the others.');
	log('Ctrl-C stops n8n and the sandbox.');
}

main().catch((error) => {
	process.stderr.write(`[demo] ${error.stack || error}\n`);
	process.exit(1);
});
