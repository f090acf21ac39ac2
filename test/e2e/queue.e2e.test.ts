// The trigger in n8n's queue mode (e2e/queue.js: PostgreSQL, Redis, main with production webhooks
// off, a webhook process, a worker): the shared trigger tests with callbacks into the webhook
// process, plus what a user meets when the callback URL points at main instead.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';

import { MERCHANT, startE2eEnvironment } from '../support/e2e-environment';
import { TRIGGER_WORKFLOWS, triggerSuite } from '../support/trigger-suite';
import { scaled } from '../support/time-scale';

const { env } = triggerSuite(() => startE2eEnvironment({ port: 5830, ...TRIGGER_WORKFLOWS, queue: { workers: 1 } }));

const WORKFLOW = 'e2eCallbackTrigger1';
const WEBHOOK = '2f1b7c1e-0001-4000-8000-0000000000aa/callback';

test(
	'the callback URL n8n shows is the webhook process; main answers its /webhook/ URL with the editor page and starts nothing',
	async () => {
		const { n8n, callbackBase, topology } = env();
		expect(callbackBase).not.toBe(n8n.baseUrl);
		// The trigger logs the URL to give the gateway when main activates the workflow (N8N_WEBHOOK_URL).
		expect(readFileSync(n8n.logFile, 'utf8')).toContain(
			`give the gateway ${callbackBase}/webhook/${WEBHOOK} as server_callback_url`,
		);

		const before = (await n8n.executions(WORKFLOW)).length;
		const control = createHash('sha1').update(`approved994e2e-misrouted${MERCHANT.controlKey}`).digest('hex');
		const misrouted = await fetch(
			`${n8n.baseUrl}/webhook/${WEBHOOK}?status=approved&orderid=994&merchant_order=e2e-misrouted&amount=1.00&control=${control}`,
		);
		// n8n's behaviour, not ours: a gateway would count this 200 as delivered.
		expect(misrouted.status).toBe(200);
		expect(misrouted.headers.get('content-type')).toMatch(/^text\/html/);
		expect(await misrouted.text()).not.toBe('OK');
		await new Promise((resolve) => setTimeout(resolve, 3000));
		expect((await n8n.executions(WORKFLOW)).length).toBe(before);
		expect(topology!.workers.every((worker: { running(): boolean }) => worker.running())).toBe(true);
	},
	scaled(2 * 60_000),
);
