// Campaign 10 — money truth by construction (issue 22). What the node says about money, checked
// against the sandbox's ledger, where the node used to be least sure of it:
// - a hostile network (the proxy of campaign 6, plus sandbox faults) over the 3-D Secure uploads,
//   which complete a pending 3-D Secure sale (cvv 321) and so move money, and over the v4
//   operations (Sale with Hosted Fields Token, Payout → Send (V4), Payout → Pay, Transfer → Send,
//   Transfer → Send by Reference, Transaction → Get Status (V4));
// - re-runs of the same item under the same typed order ID: the node asks the gateway first and,
//   when the gateway already has the order, sends nothing (`alreadyExisted: true`, `noMoneyMoved`);
// - n8n's Retry of a failed execution, in n8n-core's engine the way n8n 2.41's ExecutionService.retry
//   replays it (test/support/engine.js, as test/node/order-ids.test.ts): generated order IDs must come out the same, so an item
//   charged before the failure is found at the gateway, not charged again.
// Scenarios are cycled (every slice covers each); everything else is drawn from the seed.
import type {
	IDataObject,
	INodeParameters,
	IRun,
	IRunExecutionData,
	Workflow,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import { MONEY_EFFECTS, MONEY_EFFECT_WORDS, type MoneyEffect } from '../nodes/shared/moneyEffect';

import { Random, Tally, nodeOutput, pool, type CampaignResult } from '../test/support/campaign';
import {
	BANK_DESTINATION,
	CARD,
	CUSTOMER,
	NODE_NAME,
	PAN2,
	RETURN_URL,
	Sandbox,
	cardGatewayWorkflow,
	cardPayment,
	executeOn,
	runNode,
	storedCard,
	type NodeRun,
} from '../test/support/harness';
import { freshExecutionData, retryExecutionData } from '../test/support/n8n';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the proxy is a CommonJS test helper
const { startHostileGateway, NON_REPLIES } = require('../test/support/hostile-gateway') as {
	startHostileGateway(
		url: string,
		plan: (request: { op: string | null; body: string }) => Decision,
	): Promise<{ url: string; close(): Promise<void> }>;
	NON_REPLIES: string[];
};

interface Decision {
	forward: boolean;
	answer: string;
}

const OPTIONS = { timeoutSeconds: 1, waitForFinalStatus: true, pollIntervalSeconds: 0, maxWaitSeconds: 2 };

const UPLOADS = ['uploadCRes', 'uploadPaRes', 'uploadMethodUrlResult'] as const;
const NEW_ORDERS = ['saleWithToken', 'payoutV4', 'transfer', 'transferByRef'] as const;
const OPERATIONS = [...UPLOADS, ...NEW_ORDERS, 'payoutPay', 'statusV4'] as const;
type Operation = (typeof OPERATIONS)[number];
type NewOrder = (typeof NEW_ORDERS)[number];
/** Cycled by case index: every operation under a hostile network with re-runs, and an execution retry of each new-order operation. */
const SCENARIOS = [
	...OPERATIONS.map((op) => ({ family: 'hostile' as const, op })),
	...NEW_ORDERS.map((op) => ({ family: 'retry' as const, op })),
];

/** The ledger kind a movement of each operation writes (an upload completes a sale: the sale's entry). */
const KIND: Record<Operation, string> = {
	uploadCRes: 'sale',
	uploadPaRes: 'sale',
	uploadMethodUrlResult: 'sale',
	saleWithToken: 'sale',
	payoutV4: 'payout',
	payoutPay: 'payout',
	transfer: 'transfer',
	transferByRef: 'transfer',
	statusV4: 'sale',
};
/** The sandbox command of each operation (fault target). */
const COMMAND: Record<Operation, string> = {
	uploadCRes: 'upload-cres-result',
	uploadPaRes: 'upload-pares-result',
	uploadMethodUrlResult: 'upload-method-url-result',
	saleWithToken: 'v4/sale',
	payoutV4: 'v4/payout',
	payoutPay: 'payout-pay',
	transfer: 'v4/transfer',
	transferByRef: 'v4/transfer-by-ref',
	statusV4: 'v4/status',
};
/** Output keys that claim an amount moved. */
const AMOUNT_KEYS = [
	'amountCharged',
	'amountPaidOut',
	'amountTransferred',
	'amountHeld',
	'amountCaptured',
	'amountReturned',
];
const NOTHING_MOVED = new Set<string>(['notSent', 'noMoneyMoved']);
const SAYS_NOTHING_MOVED = /moves no money|no money moved|nothing was (?:sent|charged)/;
/** Hostile answers: campaign 6's non-replies, a dropped request, a gateway that accepts without booking, a status without its transaction type. */
const ANSWERS = [...NON_REPLIES, 'drop', 'acceptedUnbooked', 'untypedStatus'];
const SANDBOX_FAULTS = ['apply-then-drop', 'reset', 'http500', 'timeout'] as const;

interface LedgerRow {
	seq: number;
	client_orderid: string;
	kind: string;
	amount: string;
}

/** One request the node made, as the proxy saw it and what the plan did with it. */
interface Seen {
	op: string | null;
	cid: string;
	amount: string;
	answer: string;
	/** The node got no gateway reply to it (a non-reply, or dropped). */
	lost: boolean;
}

/** What the node said about one item of a run. */
interface Said {
	item: number;
	source: 'output' | 'error' | 'listed' | 'notStarted';
	/** The order the output names. */
	cid?: string;
	effect?: string;
	claims: Array<{ key: string; amount: string }>;
	alreadyExisted: boolean;
	text: string;
	json?: IDataObject;
}

const money = (minor: number) => (minor / 100).toFixed(2);
const same = (a: string, b: string) => Math.round(Number(a) * 100) === Math.round(Number(b) * 100);
const count = (map: Record<string, number>, key: string) => (map[key] = (map[key] ?? 0) + 1);
const breakdown = (map: Record<string, number>) =>
	Object.entries(map)
		.sort(([a], [b]) => a.localeCompare(b))
		.map(([k, v]) => `${k} ${v}`)
		.join(', ');

/**
 * How the network between the node and the sandbox behaves for one run: `clean`; `hostile` (a share
 * of requests dropped or answered with something else); `acknowledging`: a gateway that answers
 * every request that acts with an acknowledgement of its own (async-response, its own serial number)
 * and reports the outcome only in the status, as PaynetEasy does: the request is forwarded and the
 * gateway's own answer (an approval or a refusal) is replaced by the acknowledgement.
 */
type Network = 'clean' | 'hostile' | 'acknowledging';
const HOSTILE_RATE = 0.45;
const RERUN_NETWORKS: Network[] = ['acknowledging', 'hostile', 'clean'];

/** Decides per request: forward or drop, the gateway's reply or a hostile answer; records what it did. */
function hostilePlan(rng: Random, network: Network | number, seen: Seen[], answers: Record<string, number>) {
	const rate = network === 'hostile' ? HOSTILE_RATE : network === 'clean' || network === 'acknowledging' ? 0 : network;
	return (request: { op: string | null; body: string }): Decision => {
		const fields = new URLSearchParams(request.body);
		const cid = fields.get('client_orderid') ?? fields.get('client-order-id') ?? fields.get('client-orderid') ?? '';
		let decision: Decision = { forward: true, answer: 'pass' };
		if (network === 'acknowledging' && request.op !== 'status') {
			decision = { forward: true, answer: 'acceptedUnbooked' };
			count(answers, 'acknowledgement of a forwarded request');
		} else if (rng.chance(rate)) {
			const status = request.op === 'status';
			// A gateway that accepts without booking answers requests, never status queries; a stripped transaction type is a status reply's.
			const answer = rng.pick(
				ANSWERS.filter((name) => (status ? name !== 'acceptedUnbooked' : name !== 'untypedStatus')),
			);
			decision =
				answer === 'drop'
					? { forward: false, answer: 'pass' }
					: answer === 'untypedStatus'
						? { forward: true, answer }
						: { forward: answer === 'acceptedUnbooked' ? rng.chance(0.5) : rng.chance(0.6), answer };
			count(answers, answer);
		}
		const lost = decision.answer === 'pass' ? !decision.forward : NON_REPLIES.includes(decision.answer);
		seen.push({
			op: request.op,
			cid,
			amount: fields.get('amount') ?? '',
			answer: decision.forward ? decision.answer : `${decision.answer} (dropped)`,
			lost,
		});
		return decision;
	};
}

// ---------------------------------------------------------------------------------------------
// What the node said, per item.

const WORDS = Object.entries(MONEY_EFFECT_WORDS) as Array<[MoneyEffect, string]>;
const EFFECT_OF_WORDS = new Map(WORDS.map(([effect, words]) => [words, effect]));
const WORDS_RE = WORDS.map(([, words]) => words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
const LISTED_OUTPUT = new RegExp(`^• item (\\d+) \\(order "([^"]*)"[^)]*\\): (.*) \\((${WORDS_RE})\\)$`);
const LISTED_FAILURE = new RegExp(`^• item (\\d+): failed \\((${WORDS_RE})\\): (.*)$`);

const contextOf = (error: unknown) => ((error as { context?: IDataObject } | undefined)?.context ?? {}) as IDataObject;

function fromOutput(item: number, json: IDataObject, error?: unknown): Said {
	if (json.error !== undefined) {
		// Continue On Fail: the item's own error travels with it.
		return {
			item,
			source: 'error',
			effect: contextOf(error).moneyEffect as string | undefined,
			claims: [],
			alreadyExisted: false,
			text: `${String(json.error)} ${String(json.description ?? '')}`,
		};
	}
	return {
		item,
		source: 'output',
		cid: String(json.client_orderid ?? ''),
		effect: json.moneyEffect as string | undefined,
		claims: AMOUNT_KEYS.filter((key) => json[key] !== undefined).map((key) => ({ key, amount: String(json[key]) })),
		alreadyExisted: json.alreadyExisted === true,
		text: String(json.outcome ?? ''),
		json,
	};
}

function fromError(
	item: number,
	error: { message?: string; description?: string | null; context?: IDataObject },
): Said {
	return {
		item,
		source: 'error',
		effect: error.context?.moneyEffect as string | undefined,
		claims: [],
		alreadyExisted: false,
		text: `${error.message ?? ''} ${error.description ?? ''}`,
	};
}

/** Every item of a single-node run: its outputs, or the stopped run's error and the items it lists. */
function saidOf(
	items: Array<{ json: IDataObject; error?: unknown }>,
	error: { message?: string; description?: string | null; context?: IDataObject } | undefined,
	count: number,
): Said[] {
	if (!error) return items.map((item, index) => fromOutput(index, item.json, item.error));
	const worst = Number(error.context?.itemIndex ?? 0);
	const said: Said[] = [fromError(worst, error)];
	for (const line of String(error.description ?? '').split(/<br>\n|\n/)) {
		const output = LISTED_OUTPUT.exec(line);
		const failure = LISTED_FAILURE.exec(line);
		if (output) {
			said.push({
				item: Number(output[1]) - 1,
				source: 'listed',
				cid: output[2],
				effect: EFFECT_OF_WORDS.get(output[4]),
				claims: [],
				alreadyExisted: /already existed at the gateway/.test(output[3]),
				text: output[3],
			});
		} else if (failure) {
			said.push({
				item: Number(failure[1]) - 1,
				source: 'listed',
				effect: EFFECT_OF_WORDS.get(failure[2]),
				claims: [],
				alreadyExisted: false,
				text: failure[3],
			});
		}
		const notStarted = /^• (\d+) item\(s\) were not started: nothing was sent for them$/.exec(line);
		if (notStarted)
			for (let index = count - Number(notStarted[1]); index < count; index++)
				said.push({
					item: index,
					source: 'notStarted',
					effect: 'notSent',
					claims: [],
					alreadyExisted: false,
					text: line,
				});
	}
	return said;
}

const describe = (said: Said) =>
	`item ${said.item + 1} ${said.source}${said.cid ? ` "${said.cid}"` : ''}: ${said.effect ?? 'no moneyEffect'}${said.alreadyExisted ? ' alreadyExisted' : ''}${said.claims.length ? ` ${JSON.stringify(said.claims)}` : ''} | ${said.text.slice(0, 300)}`;

// ---------------------------------------------------------------------------------------------

export async function moneyTruthCampaign({
	seed,
	runs,
	lanes = 8,
}: {
	seed: number;
	runs: number;
	lanes?: number;
}): Promise<CampaignResult> {
	const started = Date.now();
	const names = {
		once: 'money moved at most once per order ID (re-runs and retries)',
		claim: 'an amount or "moved" is claimed only when the ledger holds that movement, made by that run',
		nothing: '"notSent" / "noMoneyMoved" has no ledger movement',
		upload: 'a lost 3-D Secure upload reply never says it moves no money',
		rerun: 'a re-run of an order ID the gateway has sends nothing and says alreadyExisted',
		retryIds: 'a retried execution sends under the order IDs its first attempt generated',
		stated: 'every output and error states its money effect',
	};
	const check = new Tally(Object.values(names));
	const sandboxes = await Promise.all(Array.from({ length: lanes }, () => Sandbox.start()));
	const outputs: string[] = [];
	const byScenario: Record<string, number> = {};
	const answers: Record<string, number> = {};
	const sandboxFaults: Record<string, number> = {};
	const outcomes: Record<string, number> = {};
	const retries: Record<string, number> = {};
	const networks: Record<string, number> = {};
	let reruns = 0;
	let lostUploads = 0;
	let nodeRuns = 0;

	const ledger = async (sb: Sandbox) => (await sb.admin<{ entries: LedgerRow[] }>('GET', 'ledger')).entries;
	const lastSeq = (rows: LedgerRow[]) => rows.reduce((max, row) => Math.max(max, row.seq), 0);
	const hasOrder = async (sb: Sandbox, cid: string) =>
		!!cid &&
		(await sb.admin<{ orders: unknown[] }>('GET', `orders?client_orderid=${encodeURIComponent(cid)}`)).orders.length >
			0;
	const outcomeOf = (said: Said) =>
		count(
			outcomes,
			`${said.source === 'output' ? (said.alreadyExisted ? 'alreadyExisted' : 'output') : said.source} ${said.effect ?? 'none'}`,
		);

	/**
	 * The claims of one item against what the ledger wrote for it during the run (`during`) and
	 * holds for it in all (`all`): amounts and "moved" need the movement; "nothing moved" needs none.
	 */
	const judge = (label: string, op: Operation, said: Said, during: LedgerRow[], all: LedgerRow[]) => {
		outcomeOf(said);
		const kind = KIND[op];
		const mine = during.filter((row) => row.kind === kind);
		if (op === 'statusV4') {
			// A read: it moves nothing, and what it reports of the order is what the ledger holds.
			if (said.source === 'output' && said.json) {
				const status = String(said.json.status ?? '');
				const held = all.filter((row) => row.kind === kind || row.kind === 'payout');
				if (status === 'approved')
					check.check(
						names.claim,
						held.some((row) => same(row.amount, String(said.json!.amount))),
						() => `${label}: status approved ${String(said.json!.amount)}, ledger ${JSON.stringify(held)}`,
					);
				else if (['declined', 'error', 'filtered'].includes(status))
					check.check(
						names.claim,
						held.length === 0,
						() => `${label}: status ${status}, ledger ${JSON.stringify(held)}`,
					);
			} else {
				check.check(names.stated, NOTHING_MOVED.has(String(said.effect)), () => `${label}: ${describe(said)}`);
				check.check(
					names.nothing,
					during.length === 0,
					() => `${label}: ${describe(said)}; ledger during the run ${JSON.stringify(during)}`,
				);
			}
			return;
		}
		check.check(
			names.stated,
			(MONEY_EFFECTS as readonly string[]).includes(String(said.effect)),
			() => `${label}: ${describe(said)}`,
		);
		if (said.claims.length || said.effect === 'moved') {
			const held = said.claims.length
				? said.claims.every((claim) => mine.some((row) => same(row.amount, claim.amount)))
				: mine.length > 0;
			check.check(
				names.claim,
				held,
				() => `${label}: ${describe(said)}; ledger during the run ${JSON.stringify(mine)}`,
			);
		}
		if (NOTHING_MOVED.has(String(said.effect)))
			check.check(
				names.nothing,
				mine.length === 0,
				() => `${label}: ${describe(said)}; ledger during the run ${JSON.stringify(mine)}`,
			);
	};

	try {
		// Stored cards per lane (transfers by reference), made without faults.
		const refs = await Promise.all(
			sandboxes.map(async (sb, lane) => ({
				cardRef: await storedCard(sb, `rel10-${seed}-ref-${lane}`, OPTIONS),
				destinationRef: await storedCard(sb, `rel10-${seed}-dst-${lane}`, OPTIONS),
			})),
		);
		const mint = async (sb: Sandbox, cvv2: string) =>
			(
				await sb.admin<{ token: string }>('POST', 'hosted-fields/tokens', {
					credit_card_number: PAN2,
					expire_month: '10',
					expire_year: '2034',
					cvv2,
				})
			).token;

		/** A new order's parameters; values may be expressions (retries read them from the items). */
		const newOrder = (
			op: NewOrder,
			lane: number,
			values: { cid: string; amount: string; token: string; cvv: string },
		): INodeParameters => {
			const base = { merchantOrderId: values.cid, amount: values.amount, currency: 'USD', options: OPTIONS };
			switch (op) {
				case 'saleWithToken':
					return {
						resource: 'payment',
						operation: 'saleWithToken',
						...base,
						orderDescription: 'Money truth',
						hostedFieldsToken: values.token,
						...CUSTOMER,
						redirectUrl: RETURN_URL,
					};
				case 'payoutV4':
					return { resource: 'payout', operation: 'sendV4', ...base, additionalFields: BANK_DESTINATION };
				case 'transfer':
					return {
						resource: 'transfer',
						operation: 'send',
						...base,
						additionalFields: { ...CARD, cvv: values.cvv, destinationCardNumber: PAN2, ipAddress: CUSTOMER.ipAddress },
					};
				case 'transferByRef':
					return {
						resource: 'transfer',
						operation: 'sendByReference',
						...base,
						destinationCardReferenceId: refs[lane].destinationRef,
						additionalFields: { sourceCardReferenceId: refs[lane].cardRef },
					};
			}
		};

		/** The order an operation acts on (made directly, no faults) and its parameters. */
		const prepare = async (
			sb: Sandbox,
			lane: number,
			rng: Random,
			op: Operation,
			cid: string,
			amount: string,
		): Promise<INodeParameters> => {
			if ((UPLOADS as readonly string[]).includes(op)) {
				const sale = await runNode(sb, cardPayment({ merchantOrderId: cid, amount, cvv: '321', options: OPTIONS }));
				const pending = sale.items[0]?.json;
				if (pending?.threeDSecureRequired !== true)
					throw new Error(`${cid}: no pending 3-D Secure sale (${sale.error?.message ?? JSON.stringify(pending)})`);
				const ids = {
					resource: 'threeDSecure',
					operation: op,
					merchantOrderId: cid,
					gatewayOrderId: String(pending.orderid),
					options: OPTIONS,
				};
				const fail = rng.chance(0.15);
				if (op === 'uploadCRes') return { ...ids, cRes: fail ? 'fail' : 'eyJ0cmFuc1N0YXR1cyI6IlkifQ' };
				if (op === 'uploadPaRes')
					return { ...ids, paRes: fail ? 'fail' : 'eJzLSM3JyVcozy_KSQEAGgQEXQ', additionalFields: { md: 'md-1' } };
				return { ...ids, threeDSCompInd: rng.pick(['Y', 'N', 'U']) };
			}
			if (op === 'payoutPay') {
				const checked = await runNode(sb, {
					resource: 'payout',
					operation: 'check',
					merchantOrderId: cid,
					amount,
					currency: 'USD',
					additionalFields: BANK_DESTINATION,
					options: OPTIONS,
				});
				return {
					resource: 'payout',
					operation: 'pay',
					merchantOrderId: cid,
					gatewayOrderId: String(checked.items[0]?.json.orderid ?? ''),
					options: OPTIONS,
				};
			}
			if (op === 'statusV4') {
				const target = rng.pick(['sale', 'declinedSale', 'payoutV4'] as const);
				const made =
					target === 'payoutV4'
						? await runNode(sb, newOrder('payoutV4', lane, { cid, amount, token: '', cvv: '' }))
						: await runNode(
								sb,
								cardPayment({ merchantOrderId: cid, amount, cvv: target === 'sale' ? '123' : '116', options: OPTIONS }),
							);
				return {
					resource: 'transaction',
					operation: 'getStatusV4',
					merchantOrderId: cid,
					gatewayOrderId: String(made.items[0]?.json.orderid ?? ''),
					options: { timeoutSeconds: 1 },
				};
			}
			const decline = rng.chance(0.15);
			return newOrder(op as NewOrder, lane, {
				cid,
				amount,
				token: op === 'saleWithToken' ? await mint(sb, decline ? '116' : '123') : '',
				cvv: decline ? '116' : '123',
			});
		};

		/** Sandbox faults for one run, on the operation's command or on status queries. */
		const injectFaults = async (sb: Sandbox, rng: Random, op: Operation): Promise<string[]> => {
			if (!rng.chance(0.3)) return [];
			const kind = rng.pick(SANDBOX_FAULTS);
			const onStatus = kind !== 'apply-then-drop' && kind !== 'timeout' && rng.chance(0.4);
			const spec = {
				kind,
				op: onStatus ? 'status' : COMMAND[op],
				count: onStatus ? rng.int(1, 4) : 1,
				...(kind === 'timeout' ? { latencyMs: 1200 } : {}),
			};
			await sb.fault(spec);
			count(sandboxFaults, `${kind}@${onStatus ? 'status' : 'operation'}`);
			return [`${kind}@${spec.op}x${spec.count}`];
		};

		/** Faults the run met on the operation's own command (the upload's reply lost at the sandbox). */
		const usedOnCommand = async (sb: Sandbox, op: Operation) =>
			(await sb.admin<{ faults: Array<{ op: string; used: number }> }>('GET', 'faults')).faults.some(
				(fault) => fault.op === COMMAND[op] && fault.used > 0,
			);

		// -----------------------------------------------------------------------------------------
		// A hostile network over one operation, run 1–3 times with the same parameters (the same order ID).
		const hostileCase = async (sb: Sandbox, lane: number, index: number, rng: Random, op: Operation) => {
			const cid = `rel10-${seed}-${index}`;
			const amount = money(rng.int(100, 99_999));
			const parameters = await prepare(sb, lane, rng, op, cid, amount);
			const times = 1 + (rng.chance(0.7) ? rng.int(1, 2) : 0);
			const planRng = new Random(seed * 7_368_787 + index);
			for (let attempt = 1; attempt <= times; attempt++) {
				if (attempt > 1) reruns++;
				// Re-runs cycle through the networks (per scenario round, counted from the last re-run), so that every slice re-runs each operation under each.
				const network =
					attempt === 1
						? rng.pick<Network>(['hostile', 'hostile', 'hostile', 'acknowledging', 'clean'])
						: RERUN_NETWORKS[(Math.floor(index / SCENARIOS.length) + times - attempt) % RERUN_NETWORKS.length];
				count(networks, `${attempt === 1 ? 'first run' : 're-run'} ${network}`);
				const continueOnFail = rng.chance(0.3);
				const existed = await hasOrder(sb, cid);
				const before = lastSeq(await ledger(sb));
				const faults = await injectFaults(sb, rng, op);
				const seen: Seen[] = [];
				const proxy = await startHostileGateway(sb.url, hostilePlan(planRng, network, seen, answers));
				let run: NodeRun;
				try {
					run = await runNode(sb, parameters, { continueOnFail, credentials: { baseUrl: `${proxy.url}/paynet` } });
				} finally {
					await proxy.close();
				}
				nodeRuns++;
				const faultOnCommand = faults.length ? await usedOnCommand(sb, op) : false;
				await sb.admin('DELETE', 'faults');
				outputs.push(nodeOutput(run));
				const all = (await ledger(sb)).filter((row) => row.client_orderid === cid);
				const during = all.filter((row) => row.seq > before);
				const label = `#${index} ${op} run ${attempt}/${times} ${network}${continueOnFail ? ' continueOnFail' : ''} [${[...faults, ...seen.filter((s) => s.answer !== 'pass').map((s) => `${s.answer}@${s.op}`)].join(', ') || 'no fault'}]`;
				const said = saidOf(run.items as Array<{ json: IDataObject; error?: unknown }>, run.error, 1);
				for (const item of said) judge(label, op, item, during, all);

				if ((UPLOADS as readonly string[]).includes(op)) {
					const lost = faultOnCommand || seen.some((request) => request.op === COMMAND[op] && request.lost);
					if (lost) {
						lostUploads++;
						for (const item of said) {
							const quiet = !NOTHING_MOVED.has(String(item.effect)) && !SAYS_NOTHING_MOVED.test(item.text);
							check.check(
								names.upload,
								quiet,
								() => `${label}: ${describe(item)}; ledger during the run ${JSON.stringify(during)}`,
							);
						}
					}
				}
				if ((NEW_ORDERS as readonly string[]).includes(op)) {
					const sent = seen.filter((request) => request.op !== 'status' && request.cid === cid);
					for (const item of said) {
						if (existed) {
							const says =
								(item.alreadyExisted && item.effect === 'noMoneyMoved' && !item.claims.length) ||
								(item.source === 'error' && item.effect === 'notSent');
							check.check(
								names.rerun,
								says && sent.length === 0,
								() => `${label}: the gateway had "${cid}"; ${sent.length} request(s) sent; ${describe(item)}`,
							);
						} else if (item.alreadyExisted) {
							check.check(
								names.rerun,
								false,
								() =>
									`${label}: says alreadyExisted, but the gateway had no order "${cid}" before the run; ${describe(item)}`,
							);
						}
					}
				}
			}
			const moved = (await ledger(sb)).filter((row) => row.client_orderid === cid && row.kind === KIND[op]);
			check.check(names.once, moved.length <= 1, () => `#${index} ${op} ×${times}: ledger ${JSON.stringify(moved)}`);
		};

		// -----------------------------------------------------------------------------------------
		// A batch with generated order IDs that fails, then n8n's Retry of the failed execution (1–2 times).
		const retryCase = async (sb: Sandbox, lane: number, index: number, rng: Random, op: NewOrder) => {
			const size = rng.int(2, 4);
			const concurrency = rng.pick([1, 1, 2, 4]);
			const units = rng.int(1, 400);
			const cents = String(rng.int(1, 99)).padStart(2, '0');
			const bad = rng.chance(0.75) ? rng.int(0, size - 1) : -1;
			const items = await Promise.all(
				Array.from({ length: size }, async (_, n) => {
					const decline = rng.chance(0.12);
					return {
						amount: `${units + n}.${cents}`,
						bad: n === bad,
						decline,
						token: op === 'saleWithToken' ? await mint(sb, decline ? '116' : '123') : '',
						concurrency,
					};
				}),
			);
			const values = {
				cid: '',
				amount: "={{ $json.bad ? $json.amount + 'x' : $json.amount }}",
				token: '={{ $json.token }}',
				cvv: "={{ $json.decline ? '116' : '123' }}",
			};
			const original = cardGatewayWorkflow(withConcurrency(newOrder(op, lane, values)));
			const fixed = cardGatewayWorkflow(
				withConcurrency(newOrder(op, lane, { ...values, amount: '={{ $json.amount }}' })),
			);
			const planRng = new Random(seed * 7_368_787 + index);
			const seen: Seen[][] = [];
			const start = lastSeq(await ledger(sb));
			const label = (attempt: string) =>
				`#${index} retry ${op} ×${size} c=${concurrency} bad=${bad >= 0 ? bad + 1 : '-'} ${attempt}`;
			/** One execution through the hostile network; its items judged against the ledger. */
			const attempt = async (
				name: string,
				mode: WorkflowExecuteMode,
				workflow: Workflow,
				data: IRunExecutionData,
				rate: number,
			) => {
				const before = lastSeq(await ledger(sb));
				const log: Seen[] = [];
				const proxy = await startHostileGateway(sb.url, hostilePlan(planRng, rate, log, answers));
				let run: IRun;
				try {
					run = await executeOn(sb, mode, workflow, data, { baseUrl: `${proxy.url}/paynet` });
				} finally {
					await proxy.close();
				}
				nodeRuns++;
				seen.push(log);
				outputs.push(nodeOutput({ serialised: JSON.stringify(run) }));
				const during = (await ledger(sb)).filter((row) => row.seq > before);
				const nodeRun = run.data.resultData.runData[NODE_NAME]?.[0];
				const out = (nodeRun?.data?.main?.[0] ?? []) as Array<{ json: IDataObject; error?: unknown }>;
				const error = run.data.resultData.error as unknown as
					{ message?: string; description?: string | null; context?: IDataObject } | undefined;
				const said = saidOf(out, error, size);
				const tag = `${label(name)} [${
					log
						.filter((s) => s.answer !== 'pass')
						.map((s) => `${s.answer}@${s.op}`)
						.join(', ') || 'no fault'
				}]`;
				check.check(
					names.stated,
					new Set(said.map((item) => item.item)).size === size,
					() =>
						`${tag}: items accounted for ${JSON.stringify(said.map((item) => item.item + 1))} of ${size}: ${error?.description ?? ''}`,
				);
				for (const item of said)
					judge(
						tag,
						op,
						item,
						during.filter((row) => same(row.amount, items[item.item].amount)),
						[],
					);
				return { run, said, log, tag, failed: run.status === 'error' || !!error };
			};

			const first = await attempt(
				'first attempt',
				'webhook',
				original,
				freshExecutionData(
					original,
					(items as unknown as IDataObject[]).map((json) => ({ json })),
				),
				rng.pick([0, 0.3, 0.5]),
			);
			let failed = first.failed ? first.run : undefined;
			const retryCount = first.failed ? (rng.chance(0.6) ? 1 : 2) : 0;
			for (let n = 1; n <= retryCount && failed; n++) {
				count(retries, n === 1 ? 'retries' : 'second retries');
				const current = rng.chance(0.5);
				// The items' order IDs, as sent so far (by their amounts), and whether the gateway has them now.
				const known = items.map(
					(item) => seen.flat().find((request) => request.op !== 'status' && request.amount === item.amount)?.cid ?? '',
				);
				const existed = await Promise.all(known.map((cid) => hasOrder(sb, cid)));
				const retried = await attempt(
					`retry ${n}${current ? ' (current workflow)' : ''}`,
					'retry',
					current ? fixed : original,
					retryExecutionData(failed, current ? fixed : undefined),
					rng.chance(0.5) ? 0 : 0.2,
				);
				for (const item of retried.said) {
					const sent = retried.log.filter(
						(request) => request.op !== 'status' && request.amount === items[item.item].amount,
					);
					if (existed[item.item]) {
						count(retries, 'items found at the gateway');
						const says =
							(item.alreadyExisted && item.effect === 'noMoneyMoved' && !item.claims.length) ||
							((item.source === 'error' || item.source === 'notStarted') && item.effect === 'notSent') ||
							(item.source === 'listed' &&
								(item.effect === 'notSent' || (item.effect === 'noMoneyMoved' && item.alreadyExisted)));
						check.check(
							names.rerun,
							says && sent.length === 0,
							() =>
								`${retried.tag}: the gateway had "${known[item.item]}"; ${sent.length} request(s) sent; ${describe(item)}`,
						);
					} else if (item.alreadyExisted) {
						check.check(
							names.rerun,
							false,
							() =>
								`${retried.tag}: says alreadyExisted, but the gateway had no order "${known[item.item] || '(never sent)'}" before the retry; ${describe(item)}`,
						);
					}
				}
				// Retry the retry when it failed too, or the same failed execution again (n8n allows both).
				failed = retried.failed && rng.chance(0.5) ? retried.run : failed;
			}

			// Across the first attempt and every retry: one order ID per item, and money moved at most once.
			const moved = (await ledger(sb)).filter((row) => row.seq > start && row.kind === KIND[op]);
			items.forEach((item, n) => {
				const ids = new Set(
					seen
						.flat()
						.filter((request) => request.op !== 'status' && request.amount === item.amount)
						.map((request) => request.cid),
				);
				if (retryCount > 0)
					check.check(
						names.retryIds,
						ids.size <= 1,
						() => `${label('')}: item ${n + 1} (${item.amount}) sent under ${JSON.stringify([...ids])}`,
					);
				const rows = moved.filter((row) => same(row.amount, item.amount));
				check.check(
					names.once,
					rows.length <= 1,
					() => `${label('')}: item ${n + 1} (${item.amount}) ledger ${JSON.stringify(rows)}`,
				);
			});
		};

		await pool(lanes, runs, async (index, lane) => {
			const sb = sandboxes[lane];
			const rng = new Random(seed * 15_485_863 + index);
			const scenario = SCENARIOS[index % SCENARIOS.length];
			count(byScenario, `${scenario.family === 'retry' ? 'retry ' : ''}${scenario.op}`);
			if (scenario.family === 'hostile') await hostileCase(sb, lane, index, rng, scenario.op);
			else await retryCase(sb, lane, index, rng, scenario.op as NewOrder);
		});

		return {
			id: 'moneyTruth',
			title: 'Money truth: 3-D Secure and v4 under a hostile network, re-runs, execution retries',
			seed,
			cases: runs,
			injected: `scenarios cycled: ${OPERATIONS.join(', ')} (one item, run 1–3 times with the same order ID) and n8n's Retry of a failed execution of ${NEW_ORDERS.join(', ')} (2–4 items with generated order IDs, concurrency 1–4, a bad amount in one item in 3 of 4 batches, 1–2 retries with the original or the current workflow); every request through a proxy: single-item runs are hostile (first runs 3 in 5, re-runs 1 in 3, cycled: ${HOSTILE_RATE * 100} % of requests dropped or answered with one of ${ANSWERS.join(', ')}), acknowledging (first runs 1 in 5, re-runs 1 in 3: every request that acts is forwarded and answered with an acknowledgement of its own, async-response with its own serial number, the outcome left to the status) or clean; retries: the first attempt 0, 30 or 50 % hostile, each retry clean or 20 % hostile; in 30 % of single-item runs also a sandbox fault (${SANDBOX_FAULTS.join(', ')}) on the operation or on status queries`,
			invariants: check.list(),
			figures: {
				scenarios: breakdown(byScenario),
				'node runs (executions)': nodeRuns,
				're-runs with the same order ID': reruns,
				'network per single-item run': breakdown(networks),
				'3-D Secure uploads whose reply was lost': lostUploads,
				'execution retries': breakdown(retries),
				'hostile answers injected': breakdown(answers),
				'sandbox faults injected': breakdown(sandboxFaults),
				'what the node said (per item)': breakdown(outcomes),
			},
			wallMs: Date.now() - started,
			outputs,
		};
	} finally {
		await Promise.all(sandboxes.map((sb) => sb.close()));
	}
}

/** The batch's concurrency comes from the items (the same for all of them). */
function withConcurrency(parameters: INodeParameters): INodeParameters {
	return {
		...parameters,
		options: { ...(parameters.options as IDataObject), concurrency: '={{ $json.concurrency }}' },
	};
}
