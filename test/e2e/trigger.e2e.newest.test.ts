// trigger.e2e.test.ts (the trigger in one real n8n: genuine, forged and filtered callbacks) again on
// the newest n8n 2.x, beside the pinned one: test/support/newest-runtime.ts.
import { startE2eEnvironment } from '../support/e2e-environment';
import { newest, PORT_OFFSET, skipUnlocked, useNewestRuntime } from '../support/newest-runtime';
import { TRIGGER_WORKFLOWS, triggerSuite } from '../support/trigger-suite';

if (newest.locked) {
	useNewestRuntime();
	describe(`n8n ${newest.version} (newest)`, () => {
		triggerSuite(() => startE2eEnvironment({ port: 5710 + PORT_OFFSET, ...TRIGGER_WORKFLOWS }));
	});
} else {
	skipUnlocked('trigger');
}
