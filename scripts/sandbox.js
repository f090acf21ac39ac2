#!/usr/bin/env node
'use strict';
// `npm run sandbox` — start the local card-gateway sandbox (TEST ONLY).
// Flags: --port N --host H --config FILE --latency-ms N --verifier forge|node --polls-before-final N
//        --capture-control interface|if-sent --quiet
// `npm run sandbox -- send-callbacks …` asks a running sandbox to send an order's genuine signed
// callbacks to a URL (admin API: POST /sandbox/orders/{id}/send-callbacks, POST /sandbox/samples/{name}).
const path = require('node:path');
const { startSandbox } = require('../sandbox');

const USAGE = `Usage: npm run sandbox -- [--port 8899] [--host 127.0.0.1] [--config FILE]
       [--latency-ms N] [--verifier forge|node] [--polls-before-final N]
       [--capture-control interface|if-sent] [--quiet]
       npm run sandbox -- send-callbacks (--order ID | --sample NAME) --url URL
       [--types sale,reversal,…] [--sandbox http://127.0.0.1:8899]

send-callbacks: a running sandbox sends the order's callbacks (every one it has reported, or those
of --types) to URL, one after the other, signed with the merchant's control key and resent on its
callbackRetry schedule while the answer is not 200, exactly as it sends them to server_callback_url.
  --order ID      the order's orderid or client_orderid
  --sample NAME   create a sample order first (the first merchant, 10.00 on its first endpoint):
                  approved-sale, declined-sale, refunded-sale (approved, then 3.00 refunded:
                  a sale and a reversal callback)
  --url URL       where to send them, e.g. a Card Gateway Trigger's Production URL ending in /callback
  --types LIST    only these transaction types (sale, reversal, capture, void, …)
  --sandbox URL   the running sandbox (default http://127.0.0.1:8899, or --host and --port)
Exit code 0 when every callback was answered 200 on its first attempt, 1 otherwise, 2 for bad usage.`;

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
			case 'send-callbacks':
				if (i !== 0) throw new Error('send-callbacks must come first');
				opts.sendCallbacks = {};
				break;
			case '--order':
			case '--sample':
			case '--url':
			case '--types':
			case '--sandbox':
				if (!opts.sendCallbacks) throw new Error(`${flag} belongs to send-callbacks`);
				opts.sendCallbacks[flag.slice(2)] = value();
				break;
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
	const send = opts.sendCallbacks;
	if (send) {
		if (Object.keys(opts).some((key) => !['port', 'host', 'sendCallbacks'].includes(key)))
			throw new Error('send-callbacks takes only --order or --sample, --url, --types and --sandbox');
		if (Boolean(send.order) === Boolean(send.sample)) throw new Error('send-callbacks needs --order or --sample');
		if (!send.url) throw new Error('send-callbacks needs --url');
		send.sandbox = send.sandbox || `http://${opts.host}:${opts.port}`;
	}
	if (opts.verifier && !['forge', 'node'].includes(opts.verifier)) throw new Error('--verifier must be forge or node');
	if (opts.captureControl && !['interface', 'if-sent'].includes(opts.captureControl))
		throw new Error('--capture-control must be interface or if-sent');
	return opts;
}

/** One admin API call to the running sandbox; its JSON answer, or an Error with its message. */
async function admin(sandbox, route, body) {
	const response = await fetch(`${sandbox}/sandbox/${route}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	const answer = await response.json();
	if (response.status !== 200) throw new Error(`${route}: HTTP ${response.status}: ${answer.error}`);
	return answer;
}

/** send-callbacks: prints one line per callback sent; the exit code says whether all were answered 200. */
async function sendCallbacks({ sandbox, order, sample, url, types }) {
	let id = order;
	if (sample) {
		const created = await admin(sandbox, `samples/${encodeURIComponent(sample)}`, {});
		id = created.orderid;
		process.stdout.write(`sample order ${created.orderid} (client_orderid ${created.client_orderid}): ${sample}\n`);
	}
	const sent = await admin(sandbox, `orders/${encodeURIComponent(id)}/send-callbacks`, {
		url,
		...(types ? { types } : {}),
	});
	let allAnswered = true;
	for (const delivery of sent.deliveries) {
		const [attempt] = delivery.attempts;
		const answer = attempt ? (attempt.error ?? `HTTP ${attempt.httpStatus}`) : 'held back by a fault';
		allAnswered &&= Boolean(attempt) && attempt.httpStatus === 200;
		process.stdout.write(
			`${delivery.type} ${delivery.status} ${delivery.params.amount} ${delivery.params.currency} of order ${delivery.orderid} → ${url}: ${answer}\n`,
		);
	}
	if (!allAnswered)
		process.stdout.write('not all answered 200: the sandbox resends those on its callbackRetry schedule\n');
	return allAnswered ? 0 : 1;
}

async function main() {
	let opts;
	try {
		opts = parseArgs(process.argv.slice(2));
	} catch (e) {
		process.stderr.write(`${e.message}\n${USAGE}\n`);
		process.exit(2);
	}
	if (opts.sendCallbacks) {
		process.exitCode = await sendCallbacks(opts.sendCallbacks).catch((e) => {
			process.stderr.write(
				`send-callbacks failed: ${e.cause ? `${e.message} (${e.cause.code || e.cause.message})` : e.message}\n`,
			);
			return 1;
		});
		return;
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
