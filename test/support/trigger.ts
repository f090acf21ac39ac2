// Shared fixtures for the trigger tests (test/trigger/): the sandbox gateway, a loopback receiver
// that captures the callbacks the sandbox sends, sale / hosted-form helpers, and a wrapper around
// callWebhook that also records what n8n's logger was given.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { ICredentialDataDecryptedObject, INode } from 'n8n-workflow';

import { CardGatewayTrigger } from '../../nodes/CardGatewayTrigger/CardGatewayTrigger.node';
import { callWebhook, PACKAGE, type WebhookRequest, type WebhookResult } from './n8n';
import { scaled } from './time-scale';

const { startSandbox } = require('../../sandbox');

export const TYPE_NAME = `${PACKAGE}.cardGatewayTrigger`;
export const MERCHANT = 'n8n-test-merchant';
export const MERCHANT_KEY = 'TEST-ONLY-CONTROL-KEY-5f0c9a1e';
export const OTHER_KEY = 'TEST-ONLY-OTHER-KEY-77ad3c20';
export const ENDPOINT = '1001';
export const PAN = '4444555566661111';
export const JSON_ACCEPT = 'application/vnd.pay+json';

export interface Sandbox {
	url: string;
	close(): Promise<void>;
}

export async function openSandbox(): Promise<Sandbox> {
	return (await startSandbox({
		port: 0,
		quiet: true,
		verifier: 'node',
		callbackRetry: { attempts: 1, delaysMs: [50] },
	})) as Sandbox;
}

export function credentialsFor(
	sandboxUrl: string,
	overrides: Partial<Record<string, string>> = {},
): Record<string, ICredentialDataDecryptedObject> {
	return {
		cardGatewayApi: {
			baseUrl: `${sandboxUrl}/paynet`,
			login: MERCHANT,
			controlKey: MERCHANT_KEY,
			privateKey: '',
			privateKeyPassphrase: '',
			endpointId: ENDPOINT,
			endpointGroupId: '',
			...overrides,
		},
	};
}

export const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

/** control of a callback or customer return, as the gateway computes it. */
export function callbackControl(status: string, orderid: string, merchantOrder: string, key: string): string {
	return sha1(`${status}${orderid}${merchantOrder}${key}`);
}

// ------------------------------------------------------------------ callback receiver

export interface CapturedCallback {
	method: string;
	/** The query string exactly as the sandbox sent it (without "?"). */
	queryString: string;
	/** Parsed the way express does for a simple query: name → string. */
	query: Record<string, string>;
}

export class CallbackReceiver {
	private server?: Server;
	readonly received: CapturedCallback[] = [];

	async start(): Promise<void> {
		this.server = createServer((req, res) => {
			const url = new URL(req.url ?? '/', 'http://receiver.invalid');
			this.received.push({
				method: req.method ?? '',
				queryString: url.search.slice(1),
				query: Object.fromEntries(url.searchParams),
			});
			res.writeHead(200, { 'Content-Type': 'text/plain' });
			res.end('OK');
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
	}

	get url(): string {
		return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/callback`;
	}

	async waitFor(orderid: string, count = 1, timeoutMs = scaled(5000)): Promise<CapturedCallback[]> {
		const started = Date.now();
		for (;;) {
			const matching = this.received.filter((entry) => entry.query.orderid === orderid);
			if (matching.length >= count) return matching;
			if (Date.now() - started > timeoutMs) throw new Error(`no callback for order ${orderid} within ${timeoutMs} ms`);
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
	}

	async close(): Promise<void> {
		if (this.server) await new Promise<void>((resolve) => this.server!.close(() => resolve()));
	}
}

// ------------------------------------------------------------------ gateway calls

let sequence = 0;
export function uniqueOrderId(prefix: string): string {
	sequence += 1;
	return `${prefix}-${Date.now().toString(36)}-${sequence}`;
}

/** A form POST to the sandbox's API, asking for JSON. */
export async function postForm(
	url: string,
	fields: Record<string, string>,
): Promise<{ status: number; json: Record<string, string> }> {
	const response = await fetch(url, {
		method: 'POST',
		headers: { Accept: JSON_ACCEPT, 'Content-Type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams(fields),
	});
	return { status: response.status, json: (await response.json()) as Record<string, string> };
}

export async function addFault(sandbox: Sandbox, fault: Record<string, unknown>): Promise<void> {
	const response = await fetch(`${sandbox.url}/sandbox/faults`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify(fault),
	});
	if (response.status !== 200) throw new Error(`fault not accepted: ${await response.text()}`);
}

export async function clearFaults(sandbox: Sandbox): Promise<void> {
	await fetch(`${sandbox.url}/sandbox/faults`, { method: 'DELETE' });
}

export async function statusOf(
	sandbox: Sandbox,
	clientOrderId: string,
	orderid: string,
): Promise<Record<string, string>> {
	const fields = { login: MERCHANT, client_orderid: clientOrderId, orderid };
	const control = sha1(`${MERCHANT}${clientOrderId}${orderid}${MERCHANT_KEY}`);
	return (await postForm(`${sandbox.url}/paynet/api/v2/status/${ENDPOINT}`, { ...fields, control })).json;
}

export interface Sale {
	clientOrderId: string;
	orderid: string;
}

/** A direct sale or preauth (card data in the request); polls status once so the sandbox finalises it. */
export async function runSale(
	sandbox: Sandbox,
	options: {
		amount?: string;
		cvv?: string;
		serverCallbackUrl?: string;
		notifyUrl?: string;
		poll?: boolean;
		command?: 'sale' | 'preauth';
	} = {},
): Promise<Sale> {
	const clientOrderId = uniqueOrderId('trg');
	const amount = options.amount ?? '10.50';
	const email = 'buyer@example.com';
	const minor = String(Math.round(Number(amount) * 100));
	const fields: Record<string, string> = {
		client_orderid: clientOrderId,
		order_desc: 'trigger test',
		amount,
		currency: 'USD',
		email,
		credit_card_number: PAN,
		card_printed_name: 'TEST BUYER',
		expire_month: '12',
		expire_year: '2030',
		cvv2: options.cvv ?? '123',
		ipaddress: '192.0.2.10',
		first_name: 'Test',
		last_name: 'Buyer',
		address1: '1 Test Street',
		city: 'Testville',
		zip_code: '12345',
		country: 'US',
		phone: '+12065550100',
		control: sha1(`${ENDPOINT}${clientOrderId}${minor}${email}${MERCHANT_KEY}`),
	};
	if (options.serverCallbackUrl) fields.server_callback_url = options.serverCallbackUrl;
	if (options.notifyUrl) fields.notify_url = options.notifyUrl;
	const { status, json } = await postForm(
		`${sandbox.url}/paynet/api/v2/${options.command ?? 'sale'}/${ENDPOINT}`,
		fields,
	);
	if (status !== 200 || !json['paynet-order-id']) throw new Error(`sale refused: ${JSON.stringify(json)}`);
	const sale = { clientOrderId, orderid: String(json['paynet-order-id']) };
	if (options.poll !== false) await statusOf(sandbox, clientOrderId, sale.orderid);
	return sale;
}

/** A (partial) return of an approved sale: a reversal, reported to the sale's notify_url. */
export async function refund(sandbox: Sandbox, sale: Sale, amount: string): Promise<Record<string, string>> {
	const minor = String(Math.round(Number(amount) * 100));
	const fields = {
		login: MERCHANT,
		client_orderid: sale.clientOrderId,
		orderid: sale.orderid,
		amount,
		currency: 'USD',
		comment: 'trigger test refund',
	};
	const control = sha1(`${MERCHANT}${sale.clientOrderId}${sale.orderid}${minor}USD${MERCHANT_KEY}`);
	const { status, json } = await postForm(`${sandbox.url}/paynet/api/v2/return/${ENDPOINT}`, { ...fields, control });
	if (status !== 200) throw new Error(`return refused: ${JSON.stringify(json)}`);
	await statusOf(sandbox, sale.clientOrderId, sale.orderid);
	return json;
}

/** A sale whose callback the receiver captured: returns the sale and that (first) callback. */
export async function saleWithCallback(
	sandbox: Sandbox,
	receiver: CallbackReceiver,
	options: { amount?: string; cvv?: string } = {},
): Promise<Sale & { callback: CapturedCallback }> {
	const sale = await runSale(sandbox, { ...options, serverCallbackUrl: receiver.url });
	const [callback] = await receiver.waitFor(sale.orderid);
	return { ...sale, callback };
}

/** What a trigger test file shares: the sandbox, a callback receiver and one approved sale whose callback it caught. */
export interface ApprovedSaleFixture {
	sandbox: Sandbox;
	receiver: CallbackReceiver;
	approved: Sale & { callback: CapturedCallback };
}

/** Opens the fixture before the file's tests (a 10.50 sale, CVV 123) and closes it after them. */
export function withApprovedSale(): ApprovedSaleFixture {
	const fixture = { receiver: new CallbackReceiver() } as ApprovedSaleFixture;
	beforeAll(async () => {
		fixture.sandbox = await openSandbox();
		await fixture.receiver.start();
		fixture.approved = await saleWithCallback(fixture.sandbox, fixture.receiver, { amount: '10.50', cvv: '123' });
	});
	afterAll(async () => {
		await fixture.sandbox?.close();
		await fixture.receiver.close();
	});
	return fixture;
}

/**
 * A hosted-form sale completed with the given CVV; returns the fields the sandbox's auto-submitting
 * page would make the customer's browser POST to redirect_url.
 */
export async function hostedFormReturn(
	sandbox: Sandbox,
	options: { cvv: string; redirectUrl?: string; acsPassword?: string },
): Promise<{ sale: Sale; action: string; method: string; fields: Record<string, string> }> {
	const clientOrderId = uniqueOrderId('ret');
	const email = 'buyer@example.com';
	const fields = {
		client_orderid: clientOrderId,
		order_desc: 'customer return test',
		amount: '25.00',
		currency: 'USD',
		email,
		redirect_url: options.redirectUrl ?? 'https://n8n.example.com/webhook/id/return',
		control: sha1(`${ENDPOINT}${clientOrderId}2500${email}${MERCHANT_KEY}`),
	};
	const { status, json } = await postForm(`${sandbox.url}/paynet/api/v2/sale-form/${ENDPOINT}`, fields);
	if (status !== 200 || !json['paynet-order-id']) throw new Error(`sale-form refused: ${JSON.stringify(json)}`);
	const orderid = String(json['paynet-order-id']);
	let html = await (
		await fetch(`${sandbox.url}/sandbox/form/${orderid}`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({
				credit_card_number: PAN,
				expire_month: '12',
				expire_year: '2030',
				cvv2: options.cvv,
				card_printed_name: 'TEST BUYER',
			}),
		})
	).text();
	let form = parseAutoSubmit(html);
	if (form.action.includes('/sandbox/acs/')) {
		// 3-D Secure: the ACS page, then its password form.
		html = await (
			await fetch(`${sandbox.url}/sandbox/acs/${orderid}`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
				body: new URLSearchParams({ password: options.acsPassword ?? 'hint' }),
			})
		).text();
		form = parseAutoSubmit(html);
	}
	return { sale: { clientOrderId, orderid }, ...form };
}

function unescapeHtml(text: string): string {
	return text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&');
}

export function parseAutoSubmit(html: string): { action: string; method: string; fields: Record<string, string> } {
	const formTag = /<form[^>]*method="([^"]*)"[^>]*action="([^"]*)"/i.exec(html);
	if (!formTag) throw new Error(`no auto-submitting form in: ${html.slice(0, 300)}`);
	const fields: Record<string, string> = {};
	for (const match of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
		fields[unescapeHtml(match[1])] = unescapeHtml(match[2]);
	}
	return { method: formTag[1].toUpperCase(), action: unescapeHtml(formTag[2]), fields };
}

// ------------------------------------------------------------------ requests into the trigger

export function getRequest(query: Record<string, string>): WebhookRequest {
	return { method: 'GET', query };
}

export function formPost(
	fields: Record<string, string>,
	options: { parsed?: boolean; webhookName?: string } = {},
): WebhookRequest {
	const raw = new URLSearchParams(fields).toString();
	return {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: options.parsed === false ? {} : { ...fields },
		rawBody: raw,
		webhookName: options.webhookName,
	};
}

export function jsonPost(fields: Record<string, unknown>): WebhookRequest {
	return {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: { ...fields },
		rawBody: JSON.stringify(fields),
	};
}

export interface LogEntry {
	level: string;
	message: string;
	metadata?: unknown;
}

export interface TriggerResult extends WebhookResult {
	logs: LogEntry[];
	/** The items the trigger asked n8n to run the workflow with (empty when it started nothing). */
	items: Array<Record<string, unknown>>;
}

/** Captures everything given to n8n's logger (the one `this.logger` resolves to) while `run` runs. */
export async function captureLogs<T>(run: () => Promise<T>): Promise<{ value: T; logs: LogEntry[] }> {
	const logger = Container.get(Logger);
	const logs: LogEntry[] = [];
	// Levels below the configured one are frozen no-ops on the instance; those cannot be spied on.
	const levels = (['error', 'warn', 'info', 'debug'] as const).filter(
		(level) => Object.getOwnPropertyDescriptor(logger, level)?.writable !== false,
	);
	const spies = levels.map((level) =>
		jest.spyOn(logger, level).mockImplementation((message: string, metadata?: unknown) => {
			logs.push({ level, message, metadata });
		}),
	);
	try {
		return { value: await run(), logs };
	} finally {
		for (const spy of spies) spy.mockRestore();
	}
}

export async function trigger(options: {
	parameters: INode['parameters'];
	credentials: Record<string, ICredentialDataDecryptedObject>;
	request: WebhookRequest;
}): Promise<TriggerResult> {
	const { value, logs } = await captureLogs(() =>
		callWebhook({
			nodeType: new CardGatewayTrigger(),
			typeName: TYPE_NAME,
			parameters: options.parameters,
			credentials: options.credentials,
			request: options.request,
		}),
	);
	const items = (value.response.workflowData?.[0] ?? []).map((item) => item.json as Record<string, unknown>);
	return { ...value, logs, items };
}

/** Default node parameters (as n8n stores them for a fresh node), with overrides. */
export function parameters(overrides: INode['parameters'] = {}): INode['parameters'] {
	return {
		verifySignature: true,
		statuses: [],
		transactionTypes: [],
		confirm: 'off',
		confirmTimeout: 10,
		customerReturn: false,
		...overrides,
	};
}
