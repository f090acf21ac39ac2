// Issue 33, item 1, in a real browser (Debian's Chromium driven by playwright-core) against a real
// n8n: a new user's workflow whose Card Gateway Trigger holds a credential with the wrong control key
// (n8n pre-selected it; the right one is there too). In the trigger's panel they click "Listen for
// test event" and the gateway's callback arrives, signed with its real key: it is answered 403, the
// listening ends, and the panel's output shows the Rejected output with reason signatureMismatch and
// an explanation naming the wrong credential; the Accepted output is empty. With the workflow
// published, the refused callback's execution is in its Executions list. Screenshots of every step
// (and of any failure) go to test-artifacts/editor-rejected/.
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';

import {
	WRONG_KEY_CREDENTIAL,
	callbackControl,
	wrongKeyCredential,
	eventually,
	startE2eEnvironment,
	type E2eEnvironment,
} from '../support/e2e-environment';
import { Editor, Screenshots, launchChromium, waitUntil } from '../support/editor-page';
import { scaled } from '../support/time-scale';

const { REPO } = require('../../e2e/n8n');
const WORKFLOW: { id: string; nodes: Array<{ name: string; webhookId?: string }> } & Record<
	string,
	unknown
> = require('./editor/rejected.workflow.json');

const TRIGGER = 'Card Gateway Trigger';
const WEBHOOK_ID = WORKFLOW.nodes.find((node) => node.name === TRIGGER)!.webhookId!;
const OWNER = { email: 'owner@example.com', password: 'CardGatewayDemo1' };

let env: E2eEnvironment;
let browser: Browser;
let page: Page;
let editor: Editor;
const shots = new Screenshots(join(REPO, 'test-artifacts/editor-rejected'));

beforeAll(
	async () => {
		env = await startE2eEnvironment({
			port: 5985,
			workflows: [WORKFLOW],
			publish: [WORKFLOW.id],
			credentials: [wrongKeyCredential()],
		});
		browser = await launchChromium();
		const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
		// Every wait is for an element or a state; its budget only bounds a hang, and scales with the machine.
		context.setDefaultTimeout(scaled(20_000));
		page = await context.newPage();
		editor = new Editor(page, env.n8n.baseUrl);
		await editor.signIn(OWNER.email, OWNER.password);
	},
	scaled(15 * 60_000),
);

afterAll(async () => {
	await browser?.close();
	await env?.stop();
	await require('undici').getGlobalDispatcher().close();
}, scaled(60_000));

/** Runs a step; on failure saves a screenshot of the moment before rethrowing. */
const step = <T>(name: string, body: () => Promise<T>): Promise<T> => shots.step(page, name, body);

/** A server callback as the gateway signs it, with its real control key (the sandbox merchant's). */
function signedCallback(orderid: string, merchantOrder: string): URLSearchParams {
	const fields = { status: 'approved', orderid, merchant_order: merchantOrder, client_orderid: merchantOrder };
	const control = callbackControl(fields.status, orderid, merchantOrder);
	return new URLSearchParams({ ...fields, type: 'sale', amount: '10.00', currency: 'USD', control });
}

test(
	'"Listen for test event" with the wrong credential: the refused callback ends the listening and the panel shows the Rejected item',
	async () => {
		const output = editor.ndv().locator('[data-test-id="output-panel"]');
		await step('listen', async () => {
			await editor.openWorkflow(WORKFLOW.id);
			await editor.canvasNode(TRIGGER).dblclick();
			await editor.ndv().waitFor();
			// What the user sees: the wrong credential selected (n8n pre-selects the newest).
			const selector = editor.ndv().locator('[data-test-id="node-credentials-select"]').first();
			await waitUntil(
				async () =>
					(
						await selector.evaluate((element) =>
							[
								element.textContent ?? '',
								...Array.from(
									element.querySelectorAll('input'),
									(input) => (input as unknown as { value: string }).value,
								),
							].join(' '),
						)
					).includes(WRONG_KEY_CREDENTIAL.name),
				`the credential selector to show "${WRONG_KEY_CREDENTIAL.name}"`,
			);
			const listening = page.waitForResponse(
				(r) => new URL(r.url()).pathname === `/rest/workflows/${WORKFLOW.id}/run` && r.request().method() === 'POST',
			);
			await editor.ndv().locator('[data-test-id="node-execute-button"]').first().click();
			expect(await (await listening).json()).toEqual({ data: { waitingForWebhook: true } });
			await editor.ndv().locator('[data-test-id="trigger-listening"]').waitFor();
			await shots.take(page, 'listening');
		});
		await step('callback', async () => {
			const answer = await fetch(
				`${env.n8n.baseUrl}/webhook-test/${WEBHOOK_ID}/callback?${signedCallback('770101', 'editor-rejected')}`,
			);
			expect([answer.status, await answer.text()]).toEqual([403, 'Forbidden']);
			// The old trigger stayed here: listening, with no execution and nothing in the panel.
			await editor.ndv().locator('[data-test-id="trigger-listening"]').waitFor({ state: 'hidden' });
			await output.locator('[data-test-id="branches"]').waitFor();
			await shots.take(page, 'after-callback');
		});
		await step('rejected-output', async () => {
			await output.locator('[data-test-id="branches"]').getByText('Rejected Branch (1 item)', { exact: true }).click();
			await output.getByText('signatureMismatch', { exact: true }).first().waitFor();
			await output
				.getByText(`this trigger's credential (${WRONG_KEY_CREDENTIAL.name}) is not the one the gateway signs with`, {
					exact: false,
				})
				.first()
				.waitFor();
			await shots.take(page, 'rejected-output');
		});
		await step('accepted-output', async () => {
			// No item count on its tab: nothing was accepted.
			await output.locator('[data-test-id="branches"]').getByText('Accepted Branch', { exact: true }).click();
			await output.getByText('No output data in this branch', { exact: false }).first().waitFor();
			expect(await output.getByText('signatureMismatch', { exact: true }).count()).toBe(0);
			await shots.take(page, 'accepted-output');
			await editor.closeNode();
		});
	},
	scaled(5 * 60_000),
);

test(
	'published: the refused callback is answered 403 and its execution is in the Executions list',
	async () => {
		const answer = await fetch(
			`${env.callbackBase}/webhook/${WEBHOOK_ID}/callback?${signedCallback('770102', 'editor-rejected-published')}`,
		);
		expect([answer.status, await answer.text()]).toEqual([403, 'Forbidden']);
		const execution = await eventually('the refused callback’s execution', async () => {
			const executions: Array<{ id: string; mode: string; status: string }> = await env.n8n.executions(WORKFLOW.id);
			return executions.find((e) => e.mode === 'webhook' && e.status === 'success');
		});
		await step('executions-list', async () => {
			await page.goto(`${env.n8n.baseUrl}/workflow/${WORKFLOW.id}/executions`);
			await page.locator(`[data-test-id="execution-details-${execution.id}"]`).first().waitFor();
			await shots.take(page, 'executions-list');
		});
	},
	scaled(5 * 60_000),
);
