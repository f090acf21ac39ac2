// Page helpers for driving n8n's editor UI (a Vue app) with playwright-core and Debian's Chromium.
// Selectors lean on n8n's own data-test-id attributes and on ARIA (the Element Plus selects are
// role="combobox" inputs whose aria-controls names their role="listbox").
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import type { Browser, Locator, Page } from 'playwright-core';

import { scaled } from './time-scale';

const { chromium } = require('playwright-core') as typeof import('playwright-core');

// The browser-side globals these helpers touch (the test tsconfig has no DOM lib).
declare const localStorage: { setItem(key: string, value: string): void };
interface ImageElement {
	currentSrc: string;
	src: string;
	naturalWidth: number;
	naturalHeight: number;
	decode(): Promise<void>;
}
interface AnimatedElement {
	getAnimations(options: { subtree: boolean }): Array<{ finished: Promise<unknown> }>;
}

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Without the background-networking flags Chromium's own connections are refused on a closed
// network and slow everything down.
export function launchChromium(): Promise<Browser> {
	return chromium.launch({
		executablePath: CHROMIUM,
		headless: true,
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
		],
	});
}

export type Theme = 'light' | 'dark';

export interface Option {
	name: string;
	description: string;
}

export interface Icon {
	src: string;
	naturalWidth: number;
	naturalHeight: number;
}

export class Screenshots {
	private count = 0;

	/** Creates the folder and removes the screenshots an earlier run left in it. */
	constructor(readonly dir: string) {
		mkdirSync(dir, { recursive: true });
		for (const name of readdirSync(dir)) if (name.endsWith('.png')) rmSync(join(dir, name), { force: true });
	}

	/** Runs a step; on failure saves a screenshot of the moment before rethrowing. */
	async step<T>(page: Page | undefined, name: string, body: () => Promise<T>): Promise<T> {
		try {
			return await body();
		} catch (error) {
			await this.take(page, `failed-${name}`);
			throw error;
		}
	}

	/** Saves a full-window screenshot as NN-name.png; never throws (it also runs after failures). */
	async take(page: Page | undefined, name: string): Promise<string | undefined> {
		if (!page || page.isClosed()) return undefined;
		this.count += 1;
		const file = join(
			this.dir,
			`${String(this.count).padStart(2, '0')}-${name.replace(/[^a-z0-9-]+/gi, '-').toLowerCase()}.png`,
		);
		try {
			await page.screenshot({ path: file, timeout: scaled(10_000) });
			return file;
		} catch {
			return undefined;
		}
	}
}

export class Editor {
	constructor(
		readonly page: Page,
		readonly baseUrl: string,
	) {}

	async signIn(email: string, password: string): Promise<void> {
		await this.page.goto(`${this.baseUrl}/signin`);
		await this.page.locator('[data-test-id="signin-form"] input[name="emailOrLdapLoginId"]').fill(email);
		await this.page.locator('[data-test-id="signin-form"] input[name="password"]').fill(password);
		await this.page.locator('[data-test-id="form-submit-button"]').click();
		await this.page.waitForURL((url) => !url.pathname.startsWith('/signin'));
	}

	/** n8n keeps the theme in localStorage (N8N_THEME) and applies it as body[data-theme] on load. */
	async setTheme(theme: Theme): Promise<void> {
		await this.page.evaluate((value) => localStorage.setItem('N8N_THEME', value), theme);
		await this.page.reload();
		await this.page.locator(`body[data-theme="${theme}"]`).waitFor({ state: 'attached' });
	}

	async openWorkflow(id: string): Promise<void> {
		await this.page.goto(`${this.baseUrl}/workflow/${id}`);
		await this.page.locator('[data-test-id="canvas-node"]').first().waitFor();
	}

	canvasNode(name: string): Locator {
		return this.page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
	}

	ndv(): Locator {
		return this.page.locator('[data-test-id="ndv"]');
	}

	/** Opens the node details view (parameter panel) by double-clicking the node on the canvas. */
	async openNode(name: string): Promise<void> {
		await this.canvasNode(name).dblclick();
		await this.ndv().waitFor();
		await this.parameter('resource').waitFor();
	}

	/** Opens the workflow and the node unless its panel is already open (tests can run alone). */
	async ensureNodeOpen(workflowId: string, name: string): Promise<void> {
		if (await this.ndv().isVisible()) return;
		await this.openWorkflow(workflowId);
		await this.openNode(name);
	}

	async closeNode(): Promise<void> {
		await this.page.locator('[data-test-id="ndv-close-button"]').click();
		await this.ndv().waitFor({ state: 'hidden' });
	}

	parameter(name: string): Locator {
		return this.ndv().locator(`[data-test-id="parameter-input-${name}"]`);
	}

	private combobox(name: string): Locator {
		return this.parameter(name).locator('input[role="combobox"]');
	}

	/** Opens an options parameter's dropdown and returns its listbox. */
	async openDropdown(name: string): Promise<Locator> {
		const combobox = this.combobox(name);
		await combobox.click();
		const listbox = this.page.locator(`[id="${await combobox.getAttribute('aria-controls')}"]`);
		await listbox.waitFor();
		await settled(listbox);
		return listbox;
	}

	async closeDropdown(name: string, listbox: Locator): Promise<void> {
		if (await listbox.isVisible()) await this.combobox(name).click();
		await listbox.waitFor({ state: 'hidden' });
	}

	/** The options an opened dropdown lists, in display order. */
	async options(listbox: Locator): Promise<Option[]> {
		return listbox.locator('[role="option"]').evaluateAll((items) =>
			items.map((item) => ({
				name: item.querySelector('.option-headline')?.textContent?.trim() ?? item.textContent?.trim() ?? '',
				description: item.querySelector('.option-description')?.textContent?.trim() ?? '',
			})),
		);
	}

	/** The value an options parameter shows while its dropdown is closed. */
	async selected(name: string): Promise<string> {
		return this.combobox(name).inputValue();
	}

	async choose(name: string, label: string): Promise<void> {
		const listbox = await this.openDropdown(name);
		await listbox.locator('[role="option"] .option-headline').getByText(label, { exact: true }).click();
		await listbox.waitFor({ state: 'hidden' });
		await waitUntil(async () => (await this.selected(name)) === label, `${name} to show "${label}"`);
	}

	/** Opens the credential of the node's credential selector (the pencil next to it). */
	async openNodeCredential(): Promise<Locator> {
		await this.ndv().locator('[data-test-id="credential-edit-button"]').click();
		const dialog = this.page.locator('[data-test-id="credential-edit-dialog"]');
		await dialog.waitFor();
		await dialog.locator('[data-test-id="credential-connection-parameter"]').first().waitFor();
		return dialog;
	}

	async closeCredential(dialog: Locator): Promise<void> {
		await this.page.locator('[data-test-id="editCredential-modal"] button[aria-label="Close this dialog"]').click();
		await dialog.waitFor({ state: 'hidden' });
	}

	/** Label text (required marker stripped) and whether it is marked required, per field. */
	async credentialFields(dialog: Locator): Promise<Array<{ name: string; label: string; required: boolean }>> {
		return dialog.locator('[data-test-id="credential-connection-parameter"]').evaluateAll((fields) =>
			fields.map((field) => {
				const container = field.querySelector('[data-test-id]:not([data-test-id="credential-connection-parameter"])');
				// The label's first text holds the name and the required "*"; the rest is the Fixed/Expression toggle.
				const label =
					(field.querySelector('label .n8n-text') ?? field.querySelector('label'))?.textContent
						?.replace(/\s+/g, ' ')
						.trim() ?? '';
				return {
					name: container?.getAttribute('data-test-id') ?? '',
					label: label.replace(/\s*\*$/, ''),
					required: /\*$/.test(label),
				};
			}),
		);
	}

	async openNodeCreator(search: string): Promise<Locator> {
		await this.page.locator('[data-test-id="node-creator-plus-button"]').click();
		const creator = this.page.locator('[data-test-id="node-creator"]');
		await creator.waitFor();
		await creator.locator('[data-test-id="node-creator-search-bar"]').fill(search);
		return creator;
	}

	async closeNodeCreator(): Promise<void> {
		await this.page.keyboard.press('Escape');
		await this.page.locator('[data-test-id="node-creator"]').waitFor({ state: 'hidden' });
	}
}

/** The first <img> inside `scope`, once it has finished loading (or failed to). */
export async function icon(scope: Locator): Promise<Icon> {
	const img = scope.locator('img').first();
	await img.waitFor();
	return img.evaluate(async (node) => {
		const element = node as unknown as ImageElement;
		await element.decode().catch(() => undefined);
		return {
			src: element.currentSrc || element.src,
			naturalWidth: element.naturalWidth,
			naturalHeight: element.naturalHeight,
		};
	});
}

/** Waits for the transitions of the popper around `scope` (the dropdown fades and zooms in). */
async function settled(scope: Locator): Promise<void> {
	await scope.evaluate(async (element) => {
		const popper = (element.closest('.el-popper') ?? element) as unknown as AnimatedElement;
		await Promise.all(
			popper.getAnimations({ subtree: true }).map((animation) => animation.finished.catch(() => undefined)),
		);
	});
}

/** Polls a state the page has no element for (a value shown); the budget only bounds a hang. */
export async function waitUntil(
	check: () => Promise<boolean>,
	what: string,
	timeoutMs = scaled(15_000),
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}
