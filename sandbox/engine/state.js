// @ts-check
'use strict';
// The gateway's state, in one place: the configuration and its options, the crypto backend, the
// store (orders, card references, recurring payments, payment tickets, the ledger), the callback
// queue, the fault registry and the OAuth replay guard. A process may run several sandboxes, so
// the state is one object per sandbox, made here and passed explicitly as the first argument
// (`state`) of every engine function that reads or changes it. Its shape: GatewayState (types.js).
const { createReplayGuard } = require('../oauth');

/** @typedef {import('./types').GatewayState} GatewayState */

/**
 * @param {import('./types').Config} config   ../config.js loadConfig
 * @param {{ store: GatewayState['store'], callbacks: GatewayState['callbacks'], faults: GatewayState['faults'] }} parts
 * @returns {GatewayState}
 */
function createGatewayState(config, { store, callbacks, faults }) {
	const options = config.options;
	return {
		config,
		options,
		verifier: config.verifier,
		store,
		callbacks,
		faults,
		replayGuard: options.oauthReplay.enabled ? createReplayGuard(Number(options.oauthReplay.windowSec) || 300) : null,
	};
}

/**
 * The admin API's reset: every order, reference, ticket and ledger entry forgotten (the counters
 * go on, so no id is reused), and every OAuth nonce seen.
 * @param {GatewayState} state
 */
function resetGatewayState(state) {
	state.store.reset();
	if (state.replayGuard) state.replayGuard.reset();
}

module.exports = { createGatewayState, resetGatewayState };
