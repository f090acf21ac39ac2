// @ts-check
'use strict';
// In-process entry point: const { startSandbox } = require('<repo>/sandbox').
const { loadConfig } = require('./config');
const { createVerifier } = require('./verifier');
const { Store } = require('./store');
const { Faults } = require('./faults');
const { Callbacks } = require('./callbacks');
const { SandboxServer } = require('./server');

/**
 * Start a sandbox gateway.
 * options: { port = 0, host = '127.0.0.1', config (object | path; default sandbox/config/default.json),
 *            configDir, latencyMs, verifier: 'forge' | 'node', pollsBeforeFinal, quiet, strictAccept,
 *            captureControl: 'interface' | 'if-sent', v4StatusReply: 'emulator' | 'documented',
 *            oauthFailureStatus, oauthReplay, callbackRetry: { attempts, delaysMs }, callbackMethod: 'GET' | 'POST',
 *            faults, basePath }
 * → { url, port, host, close(), server, store }
 * @param {Record<string, any>} [options]
 */
async function startSandbox(options = {}) {
	const cfg = loadConfig({ port: 0, ...options }, createVerifier);
	const opts = cfg.options;
	const store = new Store();
	const faults = new Faults();
	for (const f of opts.faults || []) faults.add(f);
	const callbacks = new Callbacks({
		retry: opts.callbackRetry,
		timeoutMs: opts.callbackTimeoutMs,
		faults,
		method: opts.callbackMethod,
	});
	const srv = new SandboxServer(cfg, { store, faults, callbacks });
	const addr = await srv.listen(opts.port, opts.host);
	const family = /** @type {string | number} */ (addr.family); // a number on Node 18.0–18.3
	const hostForUrl = family === 'IPv6' || family === 6 ? `[${addr.address}]` : addr.address;
	let closed = false;
	return {
		url: `http://${hostForUrl}:${addr.port}`,
		port: addr.port,
		host: addr.address,
		options: opts,
		server: srv,
		store,
		async close() {
			if (closed) return;
			closed = true;
			await callbacks.close();
			await srv.close();
		},
	};
}

module.exports = { startSandbox };
