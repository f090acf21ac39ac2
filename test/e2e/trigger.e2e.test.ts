// The trigger in one real n8n (SQLite): the shared trigger tests (trigger-suite.ts).
import { startE2eEnvironment } from '../support/e2e-environment';
import { TRIGGER_WORKFLOWS, triggerSuite } from '../support/trigger-suite';

triggerSuite(() => startE2eEnvironment({ port: 5710, ...TRIGGER_WORKFLOWS }));
