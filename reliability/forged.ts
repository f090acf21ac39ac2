// Campaign 2 — forged callbacks into the trigger running in a real n8n. Every case must be refused
// (403 for a bad signature, 400 for a malformed request) and put nothing on the trigger's Accepted output:
// each 403 starts exactly one execution with one item on Rejected (the default Rejected Callbacks), a 400
// none; a tampered amount with the original control verifies by design and is run against "Emit Only
// When Confirmed", where the status query refutes it (200, no execution).
import { createHash, randomBytes } from 'node:crypto';

import {
	CONTROL_KEY,
	OTHER_CONTROL_KEY,
	Random,
	TEST_PANS,
	Tally,
	until,
	type CampaignResult,
} from '../test/support/campaign';

import { triggerOutputs } from '../test/support/callback-judge';

import type { ReliabilityN8n, WorkflowKey } from './n8n';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the sandbox test client is CommonJS without types
const { Client } = require('../test/support/sandbox-client');

const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex');
const sign = (status: string, orderid: string, merchantOrder: string, key = CONTROL_KEY) =>
	sha1(`${status}${orderid}${merchantOrder}${key}`);

const MUTATIONS = [
	'wrong control',
	'missing control',
	'empty control',
	'truncated control',
	'control with non-hex characters',
	'control of another field order',
	'tampered status',
	'tampered orderid',
	'tampered merchant_order',
	'tampered client_orderid',
	'added paynet-order-id',
	"another merchant's key",
	'tampered amount (Emit Only When Confirmed)',
	'oversized body',
	'too many parameters',
	'value over 4096 characters',
	'malformed JSON',
	'JSON array body',
	'repeated parameter',
	'nested parameter',
	'odd encoding: UTF-16 body',
	'odd encoding: latin-1 control',
	'odd encoding: bad percent escapes',
	'odd encoding: NUL and unicode in status',
	'card data in a forged body',
] as const;
type Mutation = (typeof MUTATIONS)[number];

interface Request {
	method: 'GET' | 'POST';
	query?: string;
	body?: Buffer | string;
	contentType?: string;
	expected: number[];
	workflow: Forged;
}

/** The two published triggers the forgeries go to. */
const FORGED = ['forgedOff', 'forgedConfirm'] as const satisfies readonly WorkflowKey[];
type Forged = (typeof FORGED)[number];

function encodeForm(fields: Record<string, string>): string {
	return new URLSearchParams(fields).toString();
}

function build(
	mutation: Mutation,
	rng: Random,
	genuine: { orderid: string; clientOrderId: string; amount: string },
): Request {
	const orderid = String(rng.int(100000, 999999));
	const merchantOrder = `forged-${rng.int(1, 1e9)}`;
	const status = rng.pick(['approved', 'declined', 'error', 'filtered']);
	const base: Record<string, string> = {
		status,
		merchant_order: merchantOrder,
		client_orderid: merchantOrder,
		orderid,
		type: rng.pick(['sale', 'reversal', 'payout', 'capture']),
		amount: `${rng.int(1, 99999)}.${String(rng.int(0, 99)).padStart(2, '0')}`,
		currency: 'USD',
		control: sign(status, orderid, merchantOrder),
	};
	const fields = { ...base };
	let expected = [403];
	let workflow: Forged = rng.chance(0.5) ? 'forgedOff' : 'forgedConfirm';
	let raw: { body?: Buffer | string; query?: string; contentType?: string; method?: 'GET' | 'POST' } | undefined;
	switch (mutation) {
		case 'wrong control':
			fields.control = randomBytes(20).toString('hex');
			break;
		case 'missing control':
			delete fields.control;
			break;
		case 'empty control':
			fields.control = '';
			break;
		case 'truncated control':
			fields.control = fields.control.slice(0, rng.int(1, 39));
			break;
		case 'control with non-hex characters':
			fields.control = `${fields.control.slice(0, 39)}g`;
			break;
		case 'control of another field order':
			fields.control = sha1(`${orderid}${status}${merchantOrder}${CONTROL_KEY}`);
			break;
		case 'tampered status':
			fields.status = status === 'approved' ? 'declined' : 'approved';
			break;
		case 'tampered orderid':
			fields.orderid = String(Number(orderid) + 1);
			break;
		case 'tampered merchant_order':
			fields.merchant_order = `${merchantOrder}x`;
			fields.client_orderid = `${merchantOrder}x`;
			break;
		case 'tampered client_orderid':
			fields.client_orderid = `${merchantOrder}-other`;
			break;
		case 'added paynet-order-id':
			delete fields.orderid;
			fields.control = sign(status, '', merchantOrder);
			fields['paynet-order-id'] = orderid;
			break;
		case "another merchant's key":
			fields.control = sign(status, orderid, merchantOrder, OTHER_CONTROL_KEY);
			break;
		case 'tampered amount (Emit Only When Confirmed)': {
			// A genuine callback of a real order, amount changed: the signature does not cover it.
			Object.assign(fields, {
				status: 'approved',
				orderid: genuine.orderid,
				merchant_order: genuine.clientOrderId,
				client_orderid: genuine.clientOrderId,
				type: 'sale',
				amount: String(Number(genuine.amount) * rng.int(2, 100)),
				control: sign('approved', genuine.orderid, genuine.clientOrderId),
			});
			workflow = 'forgedConfirm';
			expected = [200];
			break;
		}
		case 'oversized body':
			raw = {
				method: 'POST',
				contentType: 'application/x-www-form-urlencoded',
				body: `${encodeForm(fields)}&pad=${'A'.repeat(rng.int(66, 200) * 1024)}`,
			};
			expected = [400, 413];
			break;
		case 'too many parameters': {
			const extra = Object.fromEntries(Array.from({ length: rng.int(101, 400) }, (_, i) => [`p${i}`, 'x']));
			Object.assign(fields, extra);
			expected = [400];
			break;
		}
		case 'value over 4096 characters':
			fields.descriptor = 'D'.repeat(rng.int(4097, 20000));
			// In a GET over ~16 KiB, Node's HTTP server (under n8n) answers 431 before n8n runs.
			expected = [400, 431];
			break;
		case 'malformed JSON':
			raw = { method: 'POST', contentType: 'application/json', body: `{"status":"approved","orderid":"${orderid}",` };
			// n8n's own body parser answers 422 before the trigger runs.
			expected = [400, 422];
			break;
		case 'JSON array body':
			raw = { method: 'POST', contentType: 'application/json', body: JSON.stringify([fields]) };
			expected = [400];
			break;
		case 'repeated parameter':
			raw = { method: 'GET', query: `${encodeForm(fields)}&status=approved` };
			expected = [400];
			break;
		case 'nested parameter':
			raw = { method: 'GET', query: `${encodeForm(fields)}&card[number]=1` };
			expected = [400];
			break;
		case 'odd encoding: UTF-16 body':
			// n8n decodes the charset; the status is tampered, so the signature must fail.
			fields.status = status === 'approved' ? 'declined' : 'approved';
			raw = {
				method: 'POST',
				contentType: `application/x-www-form-urlencoded; charset=${rng.pick(['utf-16le', 'utf-16'])}`,
				body: Buffer.from(encodeForm(fields), 'utf16le'),
			};
			expected = [400, 403, 422];
			break;
		case 'odd encoding: latin-1 control':
			raw = {
				method: 'POST',
				contentType: 'application/x-www-form-urlencoded; charset=iso-8859-1',
				body: Buffer.concat([
					Buffer.from(`${encodeForm({ ...fields, control: '' })}`),
					Buffer.from([0xe9, 0xff, 0xfe]),
				]),
			};
			expected = [400, 403, 422];
			break;
		case 'odd encoding: bad percent escapes':
			raw = {
				method: rng.chance(0.5) ? 'GET' : 'POST',
				contentType: 'application/x-www-form-urlencoded',
				query: undefined,
				body: `${encodeForm(fields)}&status=%ZZ%E0%A4%A`,
			};
			if (raw.method === 'GET')
				raw = { method: 'GET', query: `status=%ZZ&orderid=${orderid}&merchant_order=%E0%A4%A&control=${base.control}` };
			expected = [400, 403];
			break;
		case 'odd encoding: NUL and unicode in status':
			fields.status = rng.pick(['approved\u0000', 'аpproved', 'APPROVED\u200b', 'approved\n', 'ａｐｐｒｏｖｅｄ']);
			break;
		case 'card data in a forged body':
			Object.assign(fields, {
				credit_card_number: TEST_PANS[rng.int(0, 1)],
				cvv2: '123',
				control: randomBytes(20).toString('hex'),
			});
			break;
	}
	if (raw)
		return {
			method: raw.method ?? 'POST',
			query: raw.query,
			body: raw.body,
			contentType: raw.contentType,
			expected,
			workflow,
		};
	const as = rng.pick(['GET', 'POST form', 'POST JSON'] as const);
	if (as === 'GET') return { method: 'GET', query: encodeForm(fields), expected, workflow };
	if (as === 'POST form')
		return {
			method: 'POST',
			body: encodeForm(fields),
			contentType: 'application/x-www-form-urlencoded',
			expected,
			workflow,
		};
	return { method: 'POST', body: JSON.stringify(fields), contentType: 'application/json', expected, workflow };
}

export async function forgedCampaign(
	n8n: ReliabilityN8n,
	{ seed, runs }: { seed: number; runs: number },
): Promise<CampaignResult> {
	const started = Date.now();
	const tally = new Tally([
		'answered 403 (400 if malformed; 200 for a refuted amount)',
		'nothing on Accepted',
		'each 403 started exactly one execution, with one Rejected item',
		'n8n stays healthy',
		'control: a genuine callback does start one execution',
	]);
	// One real, approved order for the tampered-amount cases.
	const client = new Client(n8n.env.sandbox);
	const sale = await client.sale({ amount: '10.50', cvv2: '123' });
	await client.status(sale.orderid, sale.params.client_orderid);
	const genuine = { orderid: String(sale.orderid), clientOrderId: String(sale.params.client_orderid), amount: '10.50' };
	const ids = async (key: Forged) => new Set((await n8n.executions(key)).map((execution) => execution.id));
	const before = { forgedOff: await ids('forgedOff'), forgedConfirm: await ids('forgedConfirm') };
	const refused = { forgedOff: 0, forgedConfirm: 0 };
	const byMutation: Record<string, number> = {};
	const answers: Record<string, number> = {};
	for (let index = 0; index < runs; index++) {
		const rng = new Random(seed * 7919 + index);
		const mutation = MUTATIONS[index % MUTATIONS.length];
		const request = build(mutation, rng, genuine);
		byMutation[mutation] = (byMutation[mutation] ?? 0) + 1;
		const url = `${n8n.callbackUrl(request.workflow)}${request.query ? `?${request.query}` : ''}`;
		const response = await fetch(url, {
			method: request.method,
			headers: request.contentType ? { 'content-type': request.contentType } : undefined,
			body: request.method === 'POST' ? request.body : undefined,
		}).catch((error: Error) => ({ status: 0, text: async () => error.message }));
		const text = await response.text();
		answers[response.status] = (answers[response.status] ?? 0) + 1;
		if (response.status === 403) refused[request.workflow]++;
		tally.check(
			'answered 403 (400 if malformed; 200 for a refuted amount)',
			request.expected.includes(response.status) && !TEST_PANS.some((pan) => text.includes(pan)),
			() => `#${index} ${mutation} → ${request.workflow}: HTTP ${response.status} ${text.slice(0, 80)}`,
		);
		if (index % 25 === 24 || index === runs - 1)
			tally.check('n8n stays healthy', await n8n.healthy(), () => `unhealthy after case #${index}`);
	}
	// Executions start asynchronously after the answer: wait for one per 403 (the budget bounds a hang),
	// then give any that should not exist time to show up too, then look at each.
	const fresh = async (key: Forged) =>
		(await n8n.executions(key)).filter((execution) => !before[key].has(execution.id));
	for (const key of FORGED)
		await until(
			async () => (await n8n.count(key)).unfinished === 0 && (await fresh(key)).length >= refused[key],
			60_000,
			250,
		);
	await new Promise((resolve) => setTimeout(resolve, 3000));
	const outputs = {
		forgedOff: (await fresh('forgedOff')).map((execution) => triggerOutputs(execution)),
		forgedConfirm: (await fresh('forgedConfirm')).map((execution) => triggerOutputs(execution)),
	};
	const after = {
		forgedOff: (await n8n.count('forgedOff')).total,
		forgedConfirm: (await n8n.count('forgedConfirm')).total,
	};
	const all = [...outputs.forgedOff, ...outputs.forgedConfirm];
	for (const [index, output] of all.entries())
		tally.check(
			'nothing on Accepted',
			output.accepted === 0,
			() => `forged execution #${index}: ${output.accepted} Accepted items`,
		);
	for (const key of FORGED) {
		const rejectedOnly = outputs[key].filter((output) => output.accepted === 0 && output.rejected === 1).length;
		tally.check(
			'each 403 started exactly one execution, with one Rejected item',
			rejectedOnly === refused[key] && outputs[key].length === refused[key],
			() =>
				`${key}: ${refused[key]} answered 403, ${outputs[key].length} executions, ${rejectedOnly} with one Rejected item only`,
		);
	}
	// The counting works: one genuine callback to each workflow (the real order, amount untouched) starts one execution each.
	const genuineFields = {
		status: 'approved',
		merchant_order: genuine.clientOrderId,
		client_orderid: genuine.clientOrderId,
		orderid: genuine.orderid,
		type: 'sale',
		amount: genuine.amount,
		currency: 'USD',
		control: sign('approved', genuine.orderid, genuine.clientOrderId),
	};
	for (const key of FORGED) {
		const response = await fetch(`${n8n.callbackUrl(key)}?${encodeForm(genuineFields)}`);
		await response.arrayBuffer();
		await new Promise((resolve) => setTimeout(resolve, 1500));
		const now = (await n8n.count(key)).total;
		tally.check(
			'control: a genuine callback does start one execution',
			response.status === 200 && now === after[key] + 1,
			() => `${key}: HTTP ${response.status}, executions ${after[key]} → ${now}`,
		);
	}
	const confirmCases = byMutation['tampered amount (Emit Only When Confirmed)'] ?? 0;
	return {
		id: 'forged',
		title: 'Forged callbacks',
		seed,
		cases: runs,
		injected: `${MUTATIONS.length} kinds of forgery, cycled, each with seeded random values, sent as GET, POST form or POST JSON to a published trigger with Confirm With Status Query Off or Emit Only When Confirmed: ${MUTATIONS.join('; ')}`,
		invariants: tally.list(),
		figures: {
			'answers (HTTP status → count)': Object.entries(answers)
				.map(([k, v]) => `${k}: ${v}`)
				.join(', '),
			'tampered-amount cases (valid control, run under Emit Only When Confirmed)': confirmCases,
			'executions with an Accepted item': all.filter((output) => output.accepted > 0).length,
			'answered 403': refused.forgedOff + refused.forgedConfirm,
			'executions with one Rejected item only': all.filter((output) => output.accepted === 0 && output.rejected === 1)
				.length,
		},
		wallMs: Date.now() - started,
		outputs: [],
	};
}
