// Campaign 6 — a hostile network and mixed batches (issue #13). Batches of every money-moving
// operation run in n8n-core's engine through a proxy that forwards or drops each request and
// answers with the gateway's reply or with something that is not one (HTML, empty, truncated,
// wrong content type, redirects to another host, 4xx/5xx with odd bodies, a reply about another
// order). Batches also mix bad input, declines and duplicate order IDs, at concurrency 1–16.
// Everything the node says is checked against the sandbox's ledger.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	BANK_DESTINATION,
	CARD,
	CUSTOMER,
	PAN2,
	Sandbox,
	cardPayment,
	runNode,
	storedCard,
	type NodeRun,
} from '../test/support/harness';
import { Random, Tally, nodeOutput, pool, type CampaignResult } from '../test/support/campaign';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the proxy is a CommonJS test helper
const { startHostileGateway, NON_REPLIES } = require('../test/support/hostile-gateway') as {
	startHostileGateway(
		url: string,
		plan: (request: { op: string | null }) => { forward: boolean; answer: string },
	): Promise<HostileGateway>;
	NON_REPLIES: string[];
};

interface HostileGateway {
	url: string;
	elsewhere: { requests: unknown[] };
	log: Array<{ op: string | null; forward: boolean; answer: string }>;
	close(): Promise<void>;
}

const OPTIONS = { timeoutSeconds: 1, waitForFinalStatus: true, pollIntervalSeconds: 0, maxWaitSeconds: 2 };
const OPERATIONS = [
	'sale',
	'preauth',
	'rebill',
	'payoutV2',
	'payoutV4',
	'transfer',
	'transferByRef',
	'return',
	'capture',
	'void',
	'payoutPay',
] as const;
type Operation = (typeof OPERATIONS)[number];
/** What a success of each operation writes to the sandbox ledger (a preauth holds, writes nothing). */
const LEDGER: Record<Operation, string[]> = {
	sale: ['sale'],
	preauth: [],
	rebill: ['rebill'],
	payoutV2: ['payout'],
	payoutV4: ['payout'],
	transfer: ['transfer'],
	transferByRef: ['transfer'],
	return: ['return'],
	capture: ['capture'],
	void: ['void'],
	payoutPay: ['payout'],
};
const FOLLOW_UPS = new Set<Operation>(['return', 'capture', 'void', 'payoutPay']);

/** Per item of a batch: how it is spoiled, if at all. */
type Twist = 'none' | 'badInput' | 'decline' | 'duplicate';

interface Item {
	cid: string;
	amount: string;
	twist: Twist;
	/** The gateway order a follow-up acts on. */
	orderid?: string;
}

const CLAIMS_NOTHING = /nothing was sent|nothing was charged|no money moved/;
const CLAIMS_MAYBE = /money MAY have moved|may have been applied/;

function money(rng: Random): string {
	return `${rng.int(1, 500)}.${String(rng.int(0, 99)).padStart(2, '0')}`;
}

/** The parameters of one operation, with per-item values read from the input item ($json). */
function parametersOf(operation: Operation, refs: { cardRef: string; destinationRef: string }): INodeParameters {
	const base = {
		merchantOrderId: '={{ $json.cid }}',
		amount: '={{ $json.amount }}',
		currency: 'USD',
		options: { ...OPTIONS, concurrency: '={{ $json.concurrency }}' },
	};
	switch (operation) {
		case 'sale':
		case 'preauth':
			return cardPayment({ ...base, cvv: "={{ $json.decline ? '116' : '123' }}" }, operation);
		case 'rebill':
			return { resource: 'cardReference', operation: 'rebill', cardReferenceId: refs.cardRef, ...base };
		case 'payoutV2':
		case 'payoutV4':
			return {
				resource: 'payout',
				operation: operation === 'payoutV2' ? 'send' : 'sendV4',
				...base,
				additionalFields: BANK_DESTINATION,
			};
		case 'transfer':
			return {
				resource: 'transfer',
				operation: 'send',
				...base,
				additionalFields: { ...CARD, cvv: '123', destinationCardNumber: PAN2, ipAddress: CUSTOMER.ipAddress },
			};
		case 'transferByRef':
			return {
				resource: 'transfer',
				operation: 'sendByReference',
				...base,
				destinationCardReferenceId: refs.destinationRef,
				additionalFields: { sourceCardReferenceId: refs.cardRef },
			};
		case 'return':
		case 'capture':
			return {
				resource: 'payment',
				operation,
				merchantOrderId: '={{ $json.cid }}',
				gatewayOrderId: '={{ $json.orderid }}',
				additionalFields: { amount: '={{ $json.amount }}', currency: "={{ $json.amount ? 'USD' : '' }}" },
				options: base.options,
			};
		case 'void':
			return {
				resource: 'payment',
				operation: 'void',
				merchantOrderId: '={{ $json.cid }}',
				gatewayOrderId: '={{ $json.orderid }}',
				comment: 'hostile void',
				options: base.options,
			};
		case 'payoutPay':
			return {
				resource: 'payout',
				operation: 'pay',
				merchantOrderId: '={{ $json.cid }}',
				gatewayOrderId: '={{ $json.orderid }}',
				options: base.options,
			};
	}
}

/** The orders a follow-up batch acts on, made directly (no hostile network): sales, preauths or payout checks. */
async function prepareOrders(sb: Sandbox, operation: Operation, items: Item[]): Promise<void> {
	for (const item of items) {
		if (!FOLLOW_UPS.has(operation) || item.twist === 'duplicate') continue;
		const amount = operation === 'return' || operation === 'capture' ? '600.00' : item.amount;
		const parameters =
			operation === 'payoutPay'
				? {
						resource: 'payout',
						operation: 'check',
						merchantOrderId: item.cid,
						amount,
						currency: 'USD',
						additionalFields: BANK_DESTINATION,
						options: OPTIONS,
					}
				: cardPayment(
						{ merchantOrderId: item.cid, amount, options: OPTIONS },
						operation === 'capture' ? 'preauth' : 'sale',
					);
		const run = await runNode(sb, parameters as INodeParameters);
		item.orderid = String(run.items[0]?.json.orderid ?? '');
	}
}

export async function hostileCampaign({
	seed,
	runs,
	lanes = 6,
}: {
	seed: number;
	runs: number;
	lanes?: number;
}): Promise<CampaignResult> {
	const started = Date.now();
	const tally = new Tally([
		'money moved at most once per order ID',
		'every output and error tells the truth (ledger)',
		'a stopped run names every order that moved money',
		'no request reaches another host',
	]);
	const sandboxes = await Promise.all(Array.from({ length: lanes }, () => Sandbox.start()));
	const outputs: string[] = [];
	const byOperation: Record<string, number> = {};
	const answers: Record<string, number> = {};
	const outcomes: Record<string, number> = {};
	const count = (map: Record<string, number>, key: string) => (map[key] = (map[key] ?? 0) + 1);
	try {
		// Stored cards per lane (rebills, transfers by reference), made without faults.
		const refs = await Promise.all(
			sandboxes.map(async (sb, lane) => ({
				cardRef: await storedCard(sb, `rel6-${seed}-ref-${lane}`, OPTIONS),
				destinationRef: await storedCard(sb, `rel6-${seed}-dst-${lane}`, OPTIONS),
			})),
		);

		await pool(lanes, runs, async (index, lane) => {
			const sb = sandboxes[lane];
			const rng = new Random(seed * 104_729 + index);
			const operation = rng.pick(OPERATIONS);
			count(byOperation, operation);
			const size = rng.int(1, 4);
			const concurrency = rng.pick([1, 2, 4, 16]);
			const items: Item[] = Array.from({ length: size }, (_, n) => ({
				cid: `rel6-${seed}-${index}-${n}`,
				amount: money(rng),
				twist: 'none' as Twist,
			}));
			for (const item of items)
				item.twist = rng.chance(0.75) ? 'none' : rng.pick(['badInput', 'decline', 'duplicate'] as const);
			if (items.length > 1 && items[1].twist === 'duplicate') items[1].cid = items[0].cid;
			else for (const item of items) if (item.twist === 'duplicate') item.twist = 'none';
			await prepareOrders(sb, operation, items);
			const continueOnFail = rng.chance(0.5);
			const label = `#${index} ${operation} ×${size} c=${concurrency}${continueOnFail ? ' continueOnFail' : ''} [${items.map((item) => item.twist).join(',')}]`;

			const proxy = await startHostileGateway(sb.url, () => {
				if (rng.chance(0.55)) return { forward: true, answer: 'pass' };
				const answer = rng.pick(NON_REPLIES);
				count(answers, answer);
				return { forward: rng.chance(0.6), answer };
			});
			let run: NodeRun;
			try {
				run = await runNode(sb, parametersOf(operation, refs[lane]), {
					input: items.map((item) => ({
						cid: item.cid,
						orderid: item.orderid ?? '',
						amount:
							item.twist === 'badInput'
								? `${item.amount}x`
								: FOLLOW_UPS.has(operation) && rng.chance(0.5)
									? ''
									: item.amount,
						decline: item.twist === 'decline',
						concurrency,
					})),
					continueOnFail,
					credentials: { baseUrl: `${proxy.url}/paynet` },
				});
			} finally {
				await proxy.close();
			}
			outputs.push(nodeOutput(run));
			tally.check(
				'no request reaches another host',
				proxy.elsewhere.requests.length === 0,
				() => `${label}: ${proxy.elsewhere.requests.length} requests elsewhere`,
			);

			const ledgerOf = async (cid: string) =>
				(
					await sb.admin<{ entries: Array<{ kind: string; amount: string }> }>(
						'GET',
						`ledger?client_orderid=${encodeURIComponent(cid)}`,
					)
				).entries.filter((entry) => LEDGER[operation].includes(entry.kind));
			const ledgers = new Map<string, Array<{ kind: string; amount: string }>>();
			for (const item of items) if (!ledgers.has(item.cid)) ledgers.set(item.cid, await ledgerOf(item.cid));

			for (const [cid, entries] of ledgers)
				tally.check(
					'money moved at most once per order ID',
					entries.length <= 1,
					() => `${label}: ${cid} ledger ${JSON.stringify(entries)}`,
				);

			// Per item (Continue On Fail keeps every item's own output or error).
			const truthful = continueOnFail
				? run.items.every((result, n) => {
						const item = items[n];
						const moved = (ledgers.get(item.cid) ?? []).length > 0;
						const json = result.json as IDataObject;
						const text = String(json.error ?? '') + String(json.description ?? '');
						let verdict: boolean;
						if (json.error) {
							// Only "money may have moved" leaves the money open; every other error implies nothing moved.
							verdict = CLAIMS_MAYBE.test(text) || !moved;
							count(
								outcomes,
								CLAIMS_MAYBE.test(text)
									? 'error: may have moved'
									: CLAIMS_NOTHING.test(text)
										? 'error: nothing moved'
										: 'error: other',
							);
						} else if (json.status === 'approved' && json.final === true) {
							verdict =
								LEDGER[operation].length === 0 ||
								(moved && (FOLLOW_UPS.has(operation) || ledgers.get(item.cid)![0].amount === item.amount));
							count(outcomes, 'approved');
						} else {
							verdict = !moved || FOLLOW_UPS.has(operation);
							count(outcomes, `status ${String(json.status)}`);
						}
						return verdict;
					})
				: true;
			tally.check(
				'every output and error tells the truth (ledger)',
				truthful && run.items.length === (continueOnFail ? items.length : run.items.length),
				() => `${label}: ${JSON.stringify(run.items.map((item) => item.json))} ledger ${JSON.stringify([...ledgers])}`,
			);

			// A stopped run: every order that moved money is named in its error.
			if (run.error) {
				count(outcomes, 'run stopped');
				const text = `${run.error.message} ${run.error.description ?? ''}`;
				const unnamed = [...ledgers]
					.filter(([cid, entries]) => entries.length > 0 && !text.includes(`"${cid}"`))
					.map(([cid]) => cid);
				tally.check(
					'a stopped run names every order that moved money',
					unnamed.length === 0,
					() => `${label}: ${unnamed.join(', ')} not named in: ${text.slice(0, 400)}`,
				);
			}
		});
		return {
			id: 'hostile',
			title: 'Hostile network and mixed batches',
			seed,
			cases: runs,
			injected: `every money-moving operation (${OPERATIONS.join(', ')}) in batches of 1–4 items at concurrency 1, 2, 4 or 16, with or without Continue On Fail, items spoiled with bad input, a declining card or a duplicate order ID; every request through a proxy that forwards (60 %) or drops it and, for 45 % of requests, answers with: ${NON_REPLIES.join(', ')}`,
			invariants: tally.list(),
			figures: {
				operations: Object.entries(byOperation)
					.map(([k, v]) => `${k} ${v}`)
					.join(', '),
				'non-replies injected': Object.entries(answers)
					.map(([k, v]) => `${k} ${v}`)
					.join(', '),
				outcomes: Object.entries(outcomes)
					.map(([k, v]) => `${k} ${v}`)
					.join(', '),
			},
			wallMs: Date.now() - started,
			outputs,
		};
	} finally {
		await Promise.all(sandboxes.map((sb) => sb.close()));
	}
}
