// Campaign 7 — forged callbacks built from genuine ones, in a real n8n (issue #13). Genuine callbacks of
// real orders (a live sale, a refunded sale, a captured preauth, a declined sale) keep their valid
// control while every unsigned field is changed, removed, renamed to each spelling the trigger
// reads, or doubled; signed callbacks also carry card numbers in every spelling. Each is sent to
// four published triggers (Confirm Off, Emit Only When Confirmed, Emit With Confirmed Flag, and
// Emit Only When Confirmed behind status and type filters). The truth is the sandbox's own status
// reply for the order: no execution that reports something else may carry confirmed: true.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { FIELD_SPELLINGS } from '../nodes/CardGatewayTrigger/normalise';

import { Tally, until, type CampaignResult } from '../test/support/campaign';
import { PAN_SPELLINGS } from '../test/support/card-numbers';

import { triggerOutputs } from '../test/support/callback-judge';

import type { ReliabilityN8n, WorkflowKey } from './n8n';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the sandbox test client is CommonJS without types
const { Client } = require('../test/support/sandbox-client');

/** Every unsigned field the trigger reports, with all the spellings it reads (the IDs are signed). */
const SPELLINGS: Record<string, readonly string[]> = Object.fromEntries(
	Object.entries(FIELD_SPELLINGS).filter(([name]) => name !== 'orderid' && name !== 'client_orderid'),
);
const OTHER_VALUE: Record<string, string> = {
	type: 'sale',
	amount: '9999.00',
	currency: 'EUR',
	errorCode: '0',
	errorMessage: 'Approved',
	approvalCode: 'FORGED',
	descriptor: 'FORGED SHOP',
	processorTxId: 'PNTEST-1',
	cardType: 'MASTERCARD',
	bin: '555555',
	lastFourDigits: '0000',
};
/** The status reply's spelling of each item field (the truth to compare with). */
const TRUTH: Record<string, string> = {
	status: 'status',
	type: 'transaction-type',
	amount: 'amount',
	currency: 'currency',
	orderid: 'paynet-order-id',
	client_orderid: 'merchant-order-id',
	errorCode: 'error-code',
	errorMessage: 'error-message',
	approvalCode: 'approval-code',
	descriptor: 'descriptor',
	processorTxId: 'processor-tx-id',
	cardType: 'card-type',
	bin: 'bin',
	lastFourDigits: 'last-four-digits',
};
const FOLLOW_UPS = new Set(['reversal', 'capture', 'cancel', 'chargeback', 'void']);

const WORKFLOWS_UNDER_TEST: WorkflowKey[] = ['forgedOff', 'forgedConfirm', 'confirmFlag', 'confirmFiltered'];

type Fields = Record<string, string>;

function mutations(genuine: Fields): Array<[string, Fields]> {
	const cases: Array<[string, Fields]> = [['genuine', { ...genuine }]];
	const without = (names: readonly string[]) =>
		Object.fromEntries(Object.entries(genuine).filter(([name]) => !names.includes(name)));
	for (const [field, spellings] of Object.entries(SPELLINGS)) {
		const present = spellings.find((name) => genuine[name] !== undefined);
		const value = present ? genuine[present] : undefined;
		cases.push([
			`${field} changed`,
			{
				...without(spellings),
				[present ?? spellings[0]]: OTHER_VALUE[field] === value ? `${OTHER_VALUE[field]}1` : OTHER_VALUE[field],
			},
		]);
		if (present) cases.push([`${field} removed`, without(spellings)]);
		for (const spelling of spellings) {
			if (spelling === present) continue;
			if (value !== undefined)
				cases.push([`${field} renamed to ${spelling}`, { ...without(spellings), [spelling]: value }]);
			cases.push([`${field} doubled as ${spelling}`, { ...genuine, [spelling]: OTHER_VALUE[field] }]);
			cases.push([
				`${field} renamed to ${spelling} and changed`,
				{ ...without(spellings), [spelling]: OTHER_VALUE[field] },
			]);
		}
	}
	cases.push([
		'card data in every spelling',
		{
			...genuine,
			descriptor: `SHOP ${PAN_SPELLINGS.join(' | ')}`,
			comment: PAN_SPELLINGS[2],
			card_cvv: '737',
			'security-code': '737',
		},
	]);
	return cases;
}

function sameAmount(a: string, b: string): boolean {
	return (
		Number.isFinite(Number(a)) &&
		Number.isFinite(Number(b)) &&
		Math.round(Number(a) * 1000) === Math.round(Number(b) * 1000)
	);
}

/** What in a confirmed item disagrees with the gateway's own status reply (empty: nothing). */
function disagreements(item: Record<string, unknown>, truth: Fields): string[] {
	const wrong: string[] = [];
	for (const [name, spelling] of Object.entries(TRUTH)) {
		const reported = item[name];
		if (reported === undefined || reported === '') continue;
		const actual = truth[spelling];
		if (name === 'amount') {
			if (
				FOLLOW_UPS.has(String(truth['transaction-type'])) ||
				actual === undefined ||
				!sameAmount(String(reported), actual)
			)
				wrong.push(`amount ${String(reported)} vs ${actual}`);
		} else if (actual === undefined || String(reported).toLowerCase() !== actual.toLowerCase()) {
			wrong.push(`${name} ${String(reported)} vs ${actual}`);
		}
	}
	return wrong;
}

/** `callbacks`: how many of the genuine callbacks to forge (all by default; the npm test slice takes fewer). */
export async function forgedGenuineCampaign(
	n8n: ReliabilityN8n,
	{ callbacks = Infinity }: { callbacks?: number } = {},
): Promise<CampaignResult> {
	const started = Date.now();
	const tally = new Tally([
		'no confirmed: true on an item that disagrees with the gateway',
		'every request answered (200, 400 or 403; never 5xx)',
		'the genuine callback of a live order is confirmed',
		'each 403 left exactly one execution, with one Rejected item and nothing on Accepted',
	]);
	const sink = createServer((_req, res) => res.end('OK'));
	await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
	const callbackUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/`;
	const client = new Client(n8n.env.sandbox);
	const genuineCallback = async (orderid: string, index: number): Promise<Fields> => {
		await until(
			async () => (await client.admin('GET', `callbacks?orderid=${orderid}`)).data.deliveries.length > index,
			10_000,
		);
		return (await client.admin('GET', `callbacks?orderid=${orderid}`)).data.deliveries[index].params;
	};
	// JSON replies carry numbers too (paynet-order-id, error-code): compare as text.
	const truthOf = async (orderid: string, cid: string): Promise<Fields> =>
		Object.fromEntries(
			Object.entries((await client.status(orderid, cid)).data as Record<string, unknown>).map(([name, value]) => [
				name,
				String(value),
			]),
		);
	try {
		// The orders: live sale, refunded sale, captured preauth, declined sale.
		const live = await client.sale({ amount: '10.50', notify_url: callbackUrl });
		await client.status(live.orderid, live.params.client_orderid);
		const refunded = await client.sale({ amount: '20.00', notify_url: callbackUrl });
		await client.status(refunded.orderid, refunded.params.client_orderid);
		await client.followUp('return', refunded.orderid, refunded.params.client_orderid, { comment: 'campaign 7' });
		const held = await client.sale({ amount: '30.00', notify_url: callbackUrl }, 'preauth');
		await client.status(held.orderid, held.params.client_orderid);
		await client.followUp('capture', held.orderid, held.params.client_orderid);
		const declined = await client.sale({ amount: '2.00', cvv2: '116', notify_url: callbackUrl });
		await client.status(declined.orderid, declined.params.client_orderid);
		const orders = [
			{ name: 'live sale', order: live, callbacks: 1 },
			{ name: 'refunded sale', order: refunded, callbacks: 2 },
			{ name: 'captured preauth', order: held, callbacks: 2 },
			{ name: 'declined sale', order: declined, callbacks: 1 },
		];
		const truths = new Map<string, Fields>();
		const genuineCallbacks: Array<{ name: string; fields: Fields }> = [];
		for (const { name, order, callbacks } of orders) {
			truths.set(String(order.orderid), await truthOf(order.orderid, order.params.client_orderid));
			for (let index = 0; index < callbacks; index++)
				genuineCallbacks.push({
					name: `${name} callback ${index + 1}`,
					fields: await genuineCallback(order.orderid, index),
				});
		}

		const before = Object.fromEntries(
			await Promise.all(
				WORKFLOWS_UNDER_TEST.map(async (key) => [key, new Set((await n8n.executions(key)).map((e) => e.id))] as const),
			),
		);
		let requests = 0;
		const answers: Record<string, number> = {};
		const refused: Record<string, number> = Object.fromEntries(WORKFLOWS_UNDER_TEST.map((key) => [key, 0]));
		for (const { name, fields } of genuineCallbacks.slice(0, callbacks)) {
			for (const [mutation, forged] of mutations(fields)) {
				for (const key of WORKFLOWS_UNDER_TEST) {
					requests++;
					const response = await fetch(`${n8n.callbackUrl(key)}?${new URLSearchParams(forged).toString()}`);
					await response.arrayBuffer();
					answers[response.status] = (answers[response.status] ?? 0) + 1;
					if (response.status === 403) refused[key]++;
					tally.check(
						'every request answered (200, 400 or 403; never 5xx)',
						[200, 400, 403].includes(response.status),
						() => `${name} / ${mutation} → ${key}: HTTP ${response.status}`,
					);
				}
			}
		}
		// Check every execution the campaign started.
		let executions = 0;
		let rejections = 0;
		let confirmedCount = 0;
		let liveConfirmed = false;
		for (const key of WORKFLOWS_UNDER_TEST) {
			const fresh = async () => (await n8n.executions(key)).filter((execution) => !before[key].has(execution.id));
			const rejectedOnly = (list: Array<{ data?: unknown }>) =>
				list.map((execution) => triggerOutputs(execution)).filter((o) => o.accepted === 0 && o.rejected === 1).length;
			// Each 403 starts its Rejected execution after the answer: wait for them (the budget bounds a hang).
			await until(
				async () => (await n8n.count(key)).unfinished === 0 && rejectedOnly(await fresh()) >= refused[key],
				30_000,
				250,
			);
			const ran = await fresh();
			rejections += rejectedOnly(ran);
			tally.check(
				'each 403 left exactly one execution, with one Rejected item and nothing on Accepted',
				rejectedOnly(ran) === refused[key],
				() => `${key}: ${refused[key]} answered 403, ${rejectedOnly(ran)} Rejected-only executions`,
			);
			for (const execution of ran) {
				executions++;
				const item = (
					execution.data as {
						resultData: {
							runData: Record<string, Array<{ data: { main: Array<Array<{ json: Record<string, unknown> }>> } }>>;
						};
					}
				).resultData.runData['Card Gateway Trigger'][0].data.main[0]?.[0]?.json;
				// A refused forgery (403) has nothing on Accepted: its one item is on Rejected.
				if (item?.confirmed !== true) continue;
				confirmedCount++;
				const truth = truths.get(String(item.orderid)) ?? {};
				const wrong = disagreements(item, truth);
				tally.check(
					'no confirmed: true on an item that disagrees with the gateway',
					wrong.length === 0,
					() => `${key} execution ${execution.id}: ${wrong.join('; ')}`,
				);
				if (String(item.orderid) === String(live.orderid) && item.type === 'sale' && item.amount === '10.50')
					liveConfirmed = true;
			}
		}
		tally.check(
			'the genuine callback of a live order is confirmed',
			liveConfirmed,
			() => "the live sale's genuine callback was not confirmed",
		);
		return {
			id: 'forgedGenuine',
			title: 'Forged callbacks built from genuine ones',
			seed: 0,
			cases: requests,
			injected: `${Math.min(callbacks, genuineCallbacks.length)} genuine callbacks (${orders.map((o) => o.name).join(', ')}), each with its valid control and every unsigned field (${Object.keys(SPELLINGS).join(', ')}) changed, removed, renamed to each spelling the trigger reads, renamed and changed, or doubled under another spelling, plus card numbers in ${PAN_SPELLINGS.length} spellings and CVVs under other names; each sent to 4 published triggers (Confirm Off, Emit Only When Confirmed, Emit With Confirmed Flag, Emit Only When Confirmed with status and type filters)`,
			invariants: tally.list(),
			figures: {
				'answers (HTTP status → count)': Object.entries(answers)
					.map(([k, v]) => `${k}: ${v}`)
					.join(', '),
				'executions started': executions,
				'of them refusals (one Rejected item, nothing on Accepted)': rejections,
				'executions with confirmed: true': confirmedCount,
			},
			wallMs: Date.now() - started,
			outputs: [],
		};
	} finally {
		await new Promise<void>((resolve) => sink.close(() => resolve()));
	}
}
