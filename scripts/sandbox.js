#!/usr/bin/env node
'use strict';
// `npm run sandbox` — start the local card-gateway sandbox (TEST ONLY).
// Flags: --port N --host H --config FILE --latency-ms N --verifier forge|node --polls-before-final N
//        --capture-control interface|if-sent --quiet
const path = require('node:path');
const { startSandbox } = require('../sandbox');

const USAGE = `Usage: npm run sandbox -- [--port 8899] [--host 127.0.0.1] [--config FILE]
       [--latency-ms N] [--verifier forge|node] [--polls-before-final N]
       [--capture-control interface|if-sent] [--quiet]`;

function parseArgs(argv) {
	const opts = { port: 8899, host: '127.0.0.1' };
	const take = (i, name) => {
		if (i + 1 >= argv.length) throw new Error(`${name} needs a value`);
		return argv[i + 1];
	};
	const int = (v, name) => {
		if (!/^\d+$/.test(v)) throw new Error(`${name} must be a non-negative integer`);
		return Number(v);
	};
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].split(/=(.*)/s);
		const value = () => (inline !== undefined ? inline : take(i++, flag));
		switch (flag) {
			case '--port':
				opts.port = int(value(), flag);
				break;
			case '--host':
				opts.host = value();
				break;
			case '--config':
				opts.config = path.resolve(value());
				break;
			case '--latency-ms':
				opts.latencyMs = int(value(), flag);
				break;
			case '--verifier':
				opts.verifier = value();
				break;
			case '--polls-before-final':
				opts.pollsBeforeFinal = int(value(), flag);
				break;
			case '--capture-control':
				opts.captureControl = value();
				break;
			case '--quiet':
				opts.quiet = true;
				break;
			case '-h':
			case '--help':
				process.stdout.write(`${USAGE}\n`);
				process.exit(0);
				break;
			default:
				throw new Error(`Unknown argument ${argv[i]}`);
		}
	}
	if (opts.verifier && !['forge', 'node'].includes(opts.verifier)) throw new Error('--verifier must be forge or node');
	if (opts.captureControl && !['interface', 'if-sent'].includes(opts.captureControl))
		throw new Error('--capture-control must be interface or if-sent');
	return opts;
}

async function main() {
	let opts;
	try {
		opts = parseArgs(process.argv.slice(2));
	} catch (e) {
		process.stderr.write(`${e.message}\n${USAGE}\n`);
		process.exit(2);
	}
	const sb = await startSandbox(opts);
	process.stdout.write(
		`Card gateway SANDBOX (test only) listening on ${sb.url}\n` +
			`  credential base URL: ${sb.url}${sb.options.basePath}\n` +
			`  verifier: ${sb.options.verifier}, polls before final: ${sb.options.pollsBeforeFinal}, latency: ${sb.options.latencyMs} ms\n` +
			`  admin API: ${sb.url}/sandbox/orders, /sandbox/ledger, /sandbox/callbacks, /sandbox/faults\n`,
	);
	let stopping = false;
	const stop = (signal) => {
		if (stopping) return;
		stopping = true;
		process.stdout.write(`${signal}: stopping sandbox\n`);
		sb.close().then(
			() => process.exit(0),
			(e) => {
				process.stderr.write(`error while closing: ${e.message}\n`);
				process.exit(1);
			},
		);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((e) => {
	process.stderr.write(`sandbox failed to start: ${e.stack || e}\n`);
	process.exit(1);
});
