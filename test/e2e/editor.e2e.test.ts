// The Card Gateway node in n8n's editor, in a real browser (Debian's Chromium driven by
// playwright-core) against a real n8n with our package installed as a community package: the
// owner signs in, opens a workflow holding the node, and sees the resources, operations and
// credential fields the package describes, with its icon in the light and in the dark theme.
// Expectations come from the built package (dist/), not from a copy. Screenshots of every step
// (and of any failure) go to test-artifacts/editor/.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

import type { ICredentialType, INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import type { Browser, Page, Request } from 'playwright-core';

import { CREDENTIAL, startE2eEnvironment, type E2eEnvironment } from '../support/e2e-environment';
import {
	Editor,
	Screenshots,
	icon,
	launchChromium,
	waitUntil,
	type Icon,
	type Option,
	type Theme,
} from '../support/editor-page';
import { scaled } from '../support/time-scale';

const { REPO } = require('../../e2e/n8n');
const { CardGateway } = require(join(REPO, 'dist/nodes/CardGateway/CardGateway.node.js'));
const { CardGatewayApi } = require(join(REPO, 'dist/credentials/CardGatewayApi.credentials.js'));
const { CardGatewayEventTrigger } = require(
	join(REPO, 'dist/nodes/CardGatewayEventTrigger/CardGatewayEventTrigger.node.js'),
);
const { alias: ALIASES } = require(join(REPO, 'dist/nodes/CardGateway/CardGateway.node.json'));
const { RESOURCES: RESOURCE_MODULES } = require(join(REPO, 'dist/nodes/CardGateway/actions/resources.js'));
/** Every operation, counted from the resource modules (not from the description the test reads them from). */
const OPERATION_COUNT = Object.values(RESOURCE_MODULES as Record<string, { operations: object }>).reduce(
	(count, resource) => count + Object.keys(resource.operations).length,
	0,
);
const WORKFLOW: { id: string } & Record<string, unknown> = require('./editor/workflow.json');
// A Return node ("Refund", Amount added), a Payout → Send node ("Payout", nothing filled in) and the
// trigger (the type the node panel offers).
const FINDING: { id: string } & Record<string, unknown> = require('./editor/finding.workflow.json');
// A Sale the test runs from the editor, a Reconcile node and a Return with Act Once per Key set (issue 33 item 6).
const LEAD: { id: string } & Record<string, unknown> = require('./editor/lead.workflow.json');

const PACKAGE = 'n8n-nodes-card-gateway';
const NODE = 'Card Gateway';
const OWNER = { email: 'owner@example.com', password: 'CardGatewayDemo1' };

const node: INodeTypeDescription = new CardGateway().description;
const trigger: INodeTypeDescription = new CardGatewayEventTrigger().description;
const credential: ICredentialType = new CardGatewayApi();

function optionsOf(property: INodeProperties | undefined): INodePropertyOptions[] {
	if (!property) throw new Error('property not found in the node description');
	return property.options as INodePropertyOptions[];
}

const RESOURCES = optionsOf(node.properties.find((p) => p.name === 'resource'));

function operationsOf(resource: string): Option[] {
	const property = node.properties.find(
		(p) => p.name === 'operation' && (p.displayOptions?.show?.resource as string[] | undefined)?.includes(resource),
	);
	return optionsOf(property).map((o) => ({ name: o.name, description: o.description ?? '' }));
}

/** The icon file the description names for a theme (file:../../icons/cardGateway.svg → cardGateway.svg). */
function iconFile(described: unknown, theme: Theme): string {
	const ref = typeof described === 'string' ? described : (described as Record<Theme, string>)[theme];
	return basename(ref.replace(/^file:/, ''));
}

let env: E2eEnvironment;
let browser: Browser;
let page: Page;
let editor: Editor;
const shots = new Screenshots(join(REPO, 'test-artifacts/editor'));
const iconFailures: string[] = [];

/**
 * Every credential test the page asked n8n for: when it started and ended (ms into the file) and
 * n8n's answer. n8n 2.41.1 runs one at a time only: its CredentialsTester registers the test's node
 * under one shared name and deletes it when a test ends, so a test still running then answers
 * "Node not found" (two concurrent POSTs to /rest/credentials/test under load: one did). The dialog
 * tests when it opens; n8n's editor also has a background test (its workflow setup panel). Saved to
 * test-artifacts/editor/credential-tests.json.
 */
interface CredentialTest {
	started: number;
	ended?: number;
	answer?: unknown;
}
const credentialTests: CredentialTest[] = [];
const FILE_START = Date.now();

function recordCredentialTests(on: Page): void {
	const running = new Map<Request, CredentialTest>();
	on.on('request', (request) => {
		if (request.method() !== 'POST' || new URL(request.url()).pathname !== '/rest/credentials/test') return;
		const test: CredentialTest = { started: Date.now() - FILE_START };
		running.set(request, test);
		credentialTests.push(test);
	});
	const end = (request: Request) => {
		const test = running.get(request);
		if (!test) return;
		running.delete(request);
		test.ended = Date.now() - FILE_START;
		void request
			.response()
			.then((response) => response?.json())
			.then((body: { data?: unknown } | undefined) => (test.answer = body?.data ?? body))
			.catch((error: Error) => (test.answer = `unread: ${error.message}`));
	};
	on.on('requestfinished', end);
	on.on('requestfailed', end);
}

beforeAll(
	async () => {
		env = await startE2eEnvironment({ port: 5740, workflows: [WORKFLOW, FINDING, LEAD], publish: [] });
		browser = await launchChromium();
		const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
		// Every wait is for an element or a state; its budget only bounds a hang, and scales with the machine.
		context.setDefaultTimeout(scaled(20_000));
		page = await context.newPage();
		recordCredentialTests(page);
		// A reload with unsaved edits (options switched) may ask "leave site?": leave.
		page.on('dialog', (dialog) => void dialog.accept().catch(() => undefined));
		page.on('response', (response) => {
			if (response.url().includes(`/icons/${PACKAGE}/`) && response.status() >= 400)
				iconFailures.push(`${response.status()} ${response.url()}`);
		});
		editor = new Editor(page, env.n8n.baseUrl);
		await editor.signIn(OWNER.email, OWNER.password);
		await shots.take(page, 'signed-in');
	},
	scaled(15 * 60_000),
);

afterAll(async () => {
	writeFileSync(join(shots.dir, 'credential-tests.json'), `${JSON.stringify(credentialTests, null, 1)}\n`);
	await browser?.close();
	await env?.stop();
	await require('undici').getGlobalDispatcher().close();
}, scaled(60_000));

/** Runs a step; on failure saves a screenshot of the moment before rethrowing. */
const step = <T>(name: string, body: () => Promise<T>): Promise<T> => shots.step(page, name, body);

/** The icon loaded, is the package's file for the theme, and is served as that very SVG. */
async function expectPackageIcon(actual: Icon, theme: Theme, where: string): Promise<void> {
	const file = iconFile(node.icon, theme);
	const url = new URL(actual.src);
	expect({ where, path: url.pathname }).toEqual({
		where,
		path: expect.stringMatching(new RegExp(`^/icons/${PACKAGE}/.*/${file.replace(/\./g, '\\.')}$`)),
	});
	expect({ where, width: actual.naturalWidth > 0, height: actual.naturalHeight > 0 }).toEqual({
		where,
		width: true,
		height: true,
	});
	const served = await page.request.get(actual.src);
	expect(served.status()).toBe(200);
	expect(served.headers()['content-type']).toMatch(/^image\/svg\+xml/);
	expect(await served.text()).toBe(readFileSync(join(REPO, 'dist/icons', file), 'utf8'));
}

async function expectIconsIn(theme: Theme): Promise<void> {
	await step(`${theme}-canvas`, async () => {
		await editor.setTheme(theme);
		await editor.openWorkflow(WORKFLOW.id);
		const canvasNode = editor.canvasNode(NODE);
		await canvasNode.waitFor();
		expect(await canvasNode.getAttribute('data-node-type')).toBe(`${PACKAGE}.${node.name}`);
		await expectPackageIcon(await icon(canvasNode), theme, 'canvas node');
		await shots.take(page, `${theme}-canvas`);
	});
	await step(`${theme}-node-panel`, async () => {
		await editor.openNode(NODE);
		await expectPackageIcon(await icon(editor.ndv().locator('header').first()), theme, 'node panel header');
		await shots.take(page, `${theme}-node-panel`);
	});
	await step(`${theme}-credential`, async () => {
		const dialog = await editor.openNodeCredential();
		await expectPackageIcon(
			await icon(page.locator('[data-test-id="editCredential-modal"] header')),
			theme,
			'credential dialog header',
		);
		await shots.take(page, `${theme}-credential`);
		await editor.closeCredential(dialog);
		await editor.closeNode();
	});
	await step(`${theme}-node-creator`, async () => {
		const creator = await editor.openNodeCreator(NODE);
		const item = creator
			.locator('[data-test-id="item-iterator-item"]')
			.filter({ has: page.locator('[data-test-id="node-creator-item-name"]', { hasText: new RegExp(`^${NODE}$`) }) });
		await item.first().waitFor();
		expect(await item.count()).toBe(1);
		expect(await item.getAttribute('data-keyboard-nav-id')).toContain(`${PACKAGE}.`);
		await expectPackageIcon(await icon(item), theme, 'node creator item');
		await shots.take(page, `${theme}-node-creator`);
		await editor.closeNodeCreator();
	});
}

test(
	'the owner opens the workflow: the node renders on the canvas with the light icon everywhere',
	async () => {
		await expectIconsIn('light');
	},
	scaled(90_000),
);

test(
	'the Resource dropdown lists exactly the resources the node defines',
	async () => {
		await step('resources', async () => {
			await editor.openWorkflow(WORKFLOW.id);
			await editor.openNode(NODE);
			// The panel renders its fields before it fills them in: wait for the value itself.
			await waitUntil(async () => (await editor.selected('resource')) === 'Payment', 'resource to show "Payment"');
			const listbox = await editor.openDropdown('resource');
			await shots.take(page, 'resource-dropdown');
			expect((await editor.options(listbox)).map((o) => o.name)).toEqual(RESOURCES.map((r) => r.name));
			expect(RESOURCES.map((r) => r.name)).toEqual(
				expect.arrayContaining([
					'Upload 3-D Secure Result',
					'Card Reference',
					'Hosted Form',
					'Payment',
					'Payout',
					'Recurring Payment',
					'Transaction',
					'Transfer',
				]),
			);
			await editor.closeDropdown('resource', listbox);
		});
	},
	scaled(60_000),
);

test(
	'the Operation dropdown lists, for every resource, the operations the node defines',
	async () => {
		const seen: Record<string, Option[]> = {};
		const expected: Record<string, Option[]> = {};
		// Payment first (the workflow's), then Payout, then the rest; back to Payment at the end.
		const order = [
			'Payment',
			'Payout',
			...RESOURCES.map((r) => r.name).filter((n) => n !== 'Payment' && n !== 'Payout'),
		];
		await editor.ensureNodeOpen(WORKFLOW.id, NODE);
		for (const name of order) {
			const resource = RESOURCES.find((r) => r.name === name)!;
			await step(`operations-${resource.value}`, async () => {
				if ((await editor.selected('resource')) !== name) await editor.choose('resource', name);
				const listbox = await editor.openDropdown('operation');
				seen[name] = await editor.options(listbox);
				expected[name] = operationsOf(String(resource.value));
				await shots.take(page, `operations-${String(resource.value)}`);
				await editor.closeDropdown('operation', listbox);
			});
		}
		expect(seen).toEqual(expected);
		expect(seen.Payment.map((o) => o.name)).toEqual(expect.arrayContaining(['Sale', 'Preauth', 'Capture', 'Return']));
		expect(seen.Payout.length).toBeGreaterThan(0);
		await editor.choose('resource', 'Payment');
	},
	scaled(90_000),
);

test(
	'the credential opened from the node shows the Card Gateway API fields',
	async () => {
		await step('credential-fields', async () => {
			await editor.ensureNodeOpen(WORKFLOW.id, NODE);
			// n8n tests a credential when its dialog opens; against the sandbox that test passes. n8n
			// runs one test at a time (credentialTests): the dialog's starts once the page's have ended.
			await waitUntil(
				async () => credentialTests.every((test) => test.ended !== undefined),
				'the credential tests in flight to end',
			);
			const tested = page.waitForResponse(
				(r) => new URL(r.url()).pathname === '/rest/credentials/test' && r.request().method() === 'POST',
			);
			const dialog = await editor.openNodeCredential();
			// The whole answer and every test the page ran, so that a failure shows n8n's message and what overlapped.
			const answer = ((await (await tested).json()) as { data: object }).data;
			expect({ answer, credentialTests }).toEqual({
				answer: expect.objectContaining({ status: 'OK' }),
				credentialTests,
			});
			await expect(page.locator('[data-test-id="credential-name"]').textContent()).resolves.toContain(CREDENTIAL.name);
			await expect(page.locator('[data-test-id="editCredential-modal"] header').textContent()).resolves.toContain(
				credential.displayName,
			);
			const fields = await editor.credentialFields(dialog);
			// The hidden Control Key Probe field is not shown: it only lets n8n run preAuthentication.
			const expected = credential.properties
				.filter((p) => p.type !== 'hidden')
				.map((p) => ({
					name: p.name,
					label: p.displayName,
					required: p.required === true,
				}));
			// Ours first, in order; n8n 2.x appends its own (Allowed HTTP Request Domains).
			expect(fields.slice(0, expected.length)).toEqual(expected);
			expect(expected.map((f) => f.label)).toEqual([
				'Base URL',
				'Merchant Login',
				'Merchant Control Key',
				'RSA Private Key',
				'Private Key Passphrase',
				'Endpoint ID',
				'Endpoint Group ID',
			]);
			await shots.take(page, 'credential-fields-top');
			await dialog.locator('[data-test-id="parameter-input-endpointGroupId"]').scrollIntoViewIfNeeded();
			await shots.take(page, 'credential-fields-bottom');
			await editor.closeCredential(dialog);
		});
	},
	scaled(60_000),
);

test(
	'in the dark theme the node shows the dark icon everywhere',
	async () => {
		await expectIconsIn('dark');
	},
	scaled(90_000),
);

/** The node panel's entries for a search: name and description of each. */
async function creatorEntries(
	search: string,
	awaited: string[],
): Promise<Array<{ name: string; description: string }>> {
	const creator = await editor.openNodeCreator(search);
	// n8n renders long result lists in batches: wait for the entries the test looks for.
	for (const name of awaited) {
		await creator
			.locator('[data-test-id="node-creator-item-name"]', { hasText: new RegExp(`^${name}$`) })
			.first()
			.waitFor({ state: 'attached' });
	}
	const entries = await creator.locator('[data-test-id="item-iterator-item"]').evaluateAll((items) =>
		items.map((item) => ({
			name: item.querySelector('[data-test-id="node-creator-item-name"]')?.textContent?.trim() ?? '',
			description: item.querySelector('[data-test-id="node-creator-item-description"]')?.textContent?.trim() ?? '',
		})),
	);
	await shots.take(page, `node-creator-search-${search.replace(/\W+/g, '-')}`);
	await editor.closeNodeCreator();
	return entries;
}

test(
	'the node panel finds the node by what an ops person types, and describes the actions, not the trigger',
	async () => {
		await editor.openWorkflow(WORKFLOW.id);
		const searches = ['refund', 'payout', 'payment', 'paynet', 'PaynetEasy'];
		expect(ALIASES).toEqual(expect.arrayContaining(['refund', 'payout', 'payment', 'PaynetEasy']));
		for (const search of searches) {
			const entries = await step(`search-${search}`, () => creatorEntries(search, [NODE]));
			expect({ search, entry: entries.find((entry) => entry.name === NODE) }).toEqual({
				search,
				entry: { name: NODE, description: node.description },
			});
		}
		const both = await step('search-card-gateway', () => creatorEntries('Card Gateway', [NODE, trigger.displayName]));
		// Two entries, in whatever order the search ranks them.
		expect(both.filter((entry) => entry.name.startsWith(NODE)).sort((a, b) => a.name.localeCompare(b.name))).toEqual([
			{ name: NODE, description: node.description },
			{ name: trigger.displayName, description: trigger.description },
		]);
		expect(node.description).not.toEqual(trigger.description);
	},
	scaled(120_000),
);

/** The actions the node panel lists for the node, once a search found it and it was opened. */
async function nodeActions(search: string, count: number): Promise<string[]> {
	const creator = await editor.openNodeCreator(search);
	await creator
		.locator('[data-test-id="node-creator-item-name"]', { hasText: new RegExp(`^${NODE}$`) })
		.first()
		.click();
	const names = creator.locator(
		'[data-test-id="item-iterator-item"][data-keyboard-nav-type="action"] [data-test-id="node-creator-item-name"]',
	);
	await names.nth(count - 1).waitFor({ state: 'attached' });
	const actions = (await names.allTextContents()).map((name) => name.trim());
	await shots.take(page, `node-creator-actions-${search}`);
	// Escape leaves the node's view first (its actions go), then the panel.
	await page.keyboard.press('Escape');
	await names.first().waitFor({ state: 'detached' });
	await editor.closeNodeCreator();
	return actions;
}

test(
	'found by "refund" or "payout", the node lists its actions in ops words: "Refund a payment", "Send a payout"',
	async () => {
		await editor.openWorkflow(WORKFLOW.id);
		// n8n lists them by resource (A–Z, as the resource list), each resource's in the Operation menu's order.
		const expected = RESOURCES.flatMap((resource) => {
			const selector = node.properties.find(
				(p) =>
					p.name === 'operation' &&
					(p.displayOptions?.show?.resource as string[] | undefined)?.includes(String(resource.value)),
			);
			return optionsOf(selector).map((option) => option.action ?? option.name);
		});
		expect(expected).toHaveLength(OPERATION_COUNT);
		for (const search of ['refund', 'payout']) {
			const actions = await step(`actions-${search}`, () => nodeActions(search, expected.length));
			expect(actions).toEqual(expected);
			expect(actions).toEqual(
				expect.arrayContaining(['Refund a payment', 'Send a payout', 'Charge a card', 'Capture a held payment']),
			);
		}
	},
	scaled(120_000),
);

test(
	'Return: without adding Amount, a notice says no Amount refunds everything; the Amount field says it too',
	async () => {
		await step('return-amount-hint', async () => {
			await editor.openWorkflow(FINDING.id);
			await editor.openNode('Refund');
			expect(await editor.selected('operation')).toBe('Return');
			// A top-level notice, above the order fields: no field has to be added to read it.
			const notice = editor
				.ndv()
				.getByText('with no Amount, the return refunds everything left on the order', { exact: false });
			await notice.first().waitFor();
			expect(await notice.count()).toBe(1);
			expect(await editor.parameter('additionalFields').getByText('with no Amount', { exact: false }).count()).toBe(0);
			// The hint renders next to the input (not inside its parameter-item): find it by its text.
			await editor.parameter('amount').waitFor();
			const hint = editor.ndv().getByText('to return everything that is left on the order');
			await hint.first().waitFor();
			expect(await hint.count()).toBe(1);
			await shots.take(page, 'return-amount-hint');
			await editor.closeNode();
		});
	},
	scaled(60_000),
);

test(
	'Payout: with nothing filled in, a notice above Amount names the required destination and where to add it',
	async () => {
		await step('payout-destination', async () => {
			await editor.openWorkflow(FINDING.id);
			await editor.openNode('Payout');
			expect(await editor.selected('operation')).toBe('Send');
			const notice = editor
				.ndv()
				.getByText('Amount, Currency and a destination are required', { exact: false })
				.first();
			await notice.waitFor();
			await expect(notice.textContent()).resolves.toMatch(
				/Additional Fields below: a card \("Card Number", "Expiry Month", "Expiry Year"\) or a bank account \("Bank Account Number", "Bank Name"\)/,
			);
			await shots.take(page, 'payout-destination');
			await editor.closeNode();
		});
	},
	scaled(60_000),
);

test(
	'Trigger: the panel names the URL to give the gateway and lists only the URLs that apply',
	async () => {
		await step('trigger-urls', async () => {
			await editor.openWorkflow(FINDING.id);
			await editor.canvasNode('Card Gateway Trigger').dblclick();
			await editor.parameter('verifySignature').waitFor();
			// Without opening anything, the notice says which URL the gateway needs.
			const notice = editor.ndv().getByText('URL to give the gateway', { exact: false }).first();
			await expect(notice.textContent()).resolves.toMatch(
				/Production URL ending in \/callback \(https:\/\/<your n8n address>\/webhook\/<this trigger's ID>\/callback\)/,
			);
			await editor.ndv().getByText('Webhook URLs', { exact: true }).click();
			const urls = () =>
				editor
					.ndv()
					.locator('.webhook-url')
					.allTextContents()
					.then((texts) => texts.map((text) => text.trim()));
			await editor.ndv().locator('.webhook-url').first().waitFor({ state: 'attached' });
			await shots.take(page, 'trigger-urls-return-off');
			expect(await urls()).toEqual([expect.stringMatching(/\/6b0d2c3e-0007-4000-8000-0000000000aa\/callback$/)]);
			await editor.parameter('customerReturn').locator('.el-switch').click();
			await editor.ndv().locator('.webhook-url').nth(1).waitFor({ state: 'attached' });
			expect(await urls()).toEqual([expect.stringMatching(/\/callback$/), expect.stringMatching(/\/return$/)]);
			await shots.take(page, 'trigger-urls-return-on');
			await editor.closeNode();
		});
	},
	scaled(60_000),
);

/** The credential fields the open node panel shows: each one's label, as n8n renders it. */
async function credentialLabels(count: number): Promise<string[]> {
	const slots = editor.ndv().locator('[data-test-id="node-credentials-slot"]');
	await slots.nth(count - 1).waitFor();
	return slots.evaluateAll((found) =>
		found.map((slot) => (slot.querySelector('label')?.textContent ?? '').replace(/\s+/g, ' ').trim()),
	);
}

/** A parameter's label in the open node panel (n8n names the label after the parameter): its title, without the Fixed/Expression toggle. */
async function parameterLabel(name: string): Promise<string> {
	const label = editor.ndv().locator(`label[for="${name}"] .n8n-text`).first();
	await label.waitFor();
	return ((await label.textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

const CLAIMS_LABEL = node.credentials?.find((entry) => entry.name === 'cardGatewayClaimsApi')?.displayName;

test(
	'Reconcile shows one credential field; the claims store shows, under its own label, only once Act Once per Key is set',
	async () => {
		await step('credentials-reconcile', async () => {
			await editor.openWorkflow(LEAD.id);
			await editor.openNode('Reconcile');
			expect(await editor.selected('operation')).toBe('Reconcile');
			const labels = await credentialLabels(1);
			await shots.take(page, 'credentials-reconcile');
			expect(labels).toHaveLength(1);
			expect(labels[0]).toMatch(/^Credential/);
			await editor.closeNode();
		});
		await step('credentials-act-once', async () => {
			await editor.openNode('Refund once');
			const labels = await credentialLabels(2);
			await shots.take(page, 'credentials-act-once');
			expect(CLAIMS_LABEL).toBe('Claims Store Credential');
			expect(labels).toEqual([expect.stringMatching(/^Credential/), CLAIMS_LABEL]);
			await editor.closeNode();
		});
	},
	scaled(90_000),
);

test(
	'required fields show the asterisk: Gateway Order ID of a return, Merchant Order ID of Reconcile',
	async () => {
		await step('required-asterisk', async () => {
			await editor.openWorkflow(LEAD.id);
			await editor.openNode('Refund once');
			expect(await parameterLabel('gatewayOrderId')).toBe('Gateway Order ID *');
			expect(await parameterLabel('merchantOrderId')).toBe('Order ID (Merchant) *');
			await shots.take(page, 'required-return');
			await editor.closeNode();
			await editor.openNode('Reconcile');
			expect(await parameterLabel('merchantOrderId')).toBe('Merchant Order ID *');
			expect(await parameterLabel('expectedStatus')).toBe('Expected Status');
			await shots.take(page, 'required-reconcile');
			await editor.closeNode();
		});
	},
	scaled(60_000),
);

test(
	'a sale run from the editor: the output panel shows moneyEffect and outcome first',
	async () => {
		await step('output-lead', async () => {
			await editor.openWorkflow(LEAD.id);
			await page.locator('[data-test-id="execute-workflow-button"]').click();
			await editor.openNode('Sale');
			const output = page.locator('[data-test-id="output-panel"]');
			// The display modes appear once the run's data is there; the budget only bounds a hang.
			const modes = output.locator('[data-test-id="ndv-run-data-display-mode"]');
			await modes.waitFor({ timeout: scaled(120_000) });
			await modes.getByText('JSON', { exact: true }).click();
			// The JSON view's keys (the values' spans carry ph-no-capture), in the order shown; an array index is no key of an item.
			const keys = output.locator('.json-data [data-target="mappable"][data-depth]:not(.ph-no-capture)');
			await keys.first().waitFor();
			const shown = (
				await keys.evaluateAll((spans) => spans.map((span) => span.getAttribute('data-name') ?? ''))
			).filter((key) => !/^\d+$/.test(key));
			await shots.take(page, 'output-lead');
			expect(shown.slice(0, 2)).toEqual(['moneyEffect', 'outcome']);
			await editor.closeNode();
		});
	},
	scaled(180_000),
);

test('no request for the package icons failed', () => {
	expect(iconFailures).toEqual([]);
});
