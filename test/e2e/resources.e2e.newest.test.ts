// resources.e2e.test.ts (every resource of the Card Gateway node in a real n8n against the sandbox,
// and no card data at rest) again on the newest n8n 2.x, beside the pinned one: test/support/newest-runtime.ts.
import { newest, skipUnlocked, useNewestRuntime } from '../support/newest-runtime';

// the same tests, their n8n on ports clear of the pinned run's
jest.mock('../support/e2e-environment', () =>
	require('../support/newest-runtime').onNewestPorts(jest.requireActual('../support/e2e-environment')),
);

if (newest.locked) {
	useNewestRuntime();
	describe(`n8n ${newest.version} (newest)`, () => {
		require('./resources.e2e.test');
	});
} else {
	skipUnlocked('resources');
}
