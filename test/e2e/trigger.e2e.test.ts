// The trigger in one real n8n (SQLite): the shared trigger tests (trigger-suite.ts).
import { startE2eEnvironment } from './environment';
import { TRIGGER_WORKFLOWS, triggerSuite } from './trigger-suite';

triggerSuite(() => startE2eEnvironment({ port: 5710, ...TRIGGER_WORKFLOWS }));
