// Campaign 1 — faults on money movement. Randomized runs (fixed seed) of the Card Gateway node in
// n8n-core's engine against sandbox gateways that inject faults. Every money-moving scenario is
// checked against the sandbox's own ledger (GET /sandbox/ledger).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { CardGatewayTrigger } from '../nodes/CardGatewayTrigger/CardGatewayTrigger.node';

import { callWebhook, PACKAGE } from '../test/support/n8n';
import { CARD, CUSTOMER, PAN2, Sandbox, cardPayment, runNode, storedCard, type NodeRun } from '../test/support/harness';
import { Random, Tally, nodeOutput, pool, sleep, until, type CampaignResult } from '../test/support/campaign';

const FINAL = new Set(['approved', 'declined', 'filtered', 'error', 'unknown']);
/** The node's per-request timeout in these runs; latency faults go past it. */
const TIMEOUT_S = 0.4;
const PAST_TIMEOUT_MS = 900;

type Kind =
	| 'none'
	| 'latency'
	| 'reset'
	| 'http500'
	| 'timeout'
	| 'apply-then-drop'
	| 'duplicate-callback'
	| 'out-of-order-callbacks'
	| 'stay-processing';
const KINDS: Kind[] = [
	'none',
	'latency',
	'reset',
	'http500',
	'timeout',
	'apply-then-drop',
	'duplicate-callback',
	'out-of-order-callbacks',
	'stay-processing',
];

interface Fault {
	kind: Kind;
	op: string;
	count: number;
	latencyMs?: number;
}

/** One node run of a scenario. `ledger`: the ledger kinds a success of it writes. */
interface Step {
	name: string;
	ledger: string[];
	/** The sandbox command (fault target). */
	command: string;
	parameters(previous: IDataObject[]): INodeParameters;
}

interface Scenario {
	name: string;
	cid: string;
	steps: Step[];
	/** Amount of the initial order in minor units (for the "never more than remains" check). */
	baseMinor: number;
}

const OPTIONS = { timeoutSeconds: TIMEOUT_S, waitForFinalStatus: true, pollIntervalSeconds: 0, maxWaitSeconds: 1 };

function money(minor: number): string {
	return (minor / 100).toFixed(2);
}

const SCENARIOS = [
	'sale',
	'preauthCapture',
	'saleReturn',
	'preauthCaptureReturn',
	'void',
	'rebill',
	'payoutV2',
	'payoutV4',
	'payoutCheckPay',
	'transfer',
] as const;

function buildScenario(rng: Random, cid: string, cardRefId: string, notifyUrl: string): Scenario {
	const name = rng.pick(SCENARIOS);
	const baseMinor = rng.int(100, 9999);
	const amount = money(baseMinor);
	const callbacks = { notifyUrl, serverCallbackUrl: notifyUrl };
	const orderOf = (previous: IDataObject[]) => String(previous[0]?.orderid ?? '');
	/** Full (no amount), partial, or more than the base amount (must be refused). */
	const followUpAmount = (): INodeParameters => {
		const choice = rng.int(0, 3);
		if (choice === 0) return {};
		if (choice === 3) return { amount: money(baseMinor + rng.int(1, 500)), currency: 'USD' };
		return { amount: money(rng.int(1, baseMinor)), currency: 'USD' };
	};
	const card = (operation: 'sale' | 'preauth'): Step => ({
		name: operation,
		command: operation,
		ledger: operation === 'sale' ? ['sale'] : [],
		parameters: () =>
			cardPayment({ merchantOrderId: cid, amount, additionalFields: callbacks, options: OPTIONS }, operation),
	});
	const followUp = (operation: 'capture' | 'return' | 'void', ledger: string[]): Step => {
		const extra = operation === 'void' ? { comment: 'reliability void' } : { additionalFields: followUpAmount() };
		return {
			name: operation,
			command: operation,
			ledger,
			parameters: (previous) => ({
				resource: 'payment',
				operation,
				merchantOrderId: cid,
				gatewayOrderId: orderOf(previous),
				...extra,
				options: OPTIONS,
			}),
		};
	};
	const payout = (operation: 'send' | 'sendV4' | 'check'): Step => ({
		name: `payout ${operation}`,
		command: operation === 'send' ? 'payout' : operation === 'sendV4' ? 'v4/payout' : 'payout-check',
		ledger: operation === 'check' ? [] : ['payout'],
		parameters: () => ({
			resource: 'payout',
			operation,
			merchantOrderId: cid,
			amount,
			currency: 'USD',
			additionalFields: {
				cardNumber: PAN2,
				expireMonth: '11',
				expireYear: '2033',
				cardholderName: 'JANE ROE',
				...callbacks,
			},
			options: OPTIONS,
		}),
	});
	let steps: Step[];
	switch (name) {
		case 'sale':
			steps = [card('sale')];
			break;
		case 'preauthCapture':
			steps = [card('preauth'), followUp('capture', ['capture'])];
			break;
		case 'saleReturn':
			steps = [
				card('sale'),
				followUp('return', ['return']),
				...(rng.chance(0.5) ? [followUp('return', ['return'])] : []),
			];
			break;
		case 'preauthCaptureReturn':
			steps = [card('preauth'), followUp('capture', ['capture']), followUp('return', ['return'])];
			break;
		case 'void':
			steps = rng.chance(0.5)
				? [card('sale'), followUp('void', ['void'])]
				: [card('preauth'), followUp('void', ['void'])];
			break;
		case 'rebill':
			steps = [
				{
					name: 'rebill',
					command: 'make-rebill',
					ledger: ['rebill'],
					parameters: () => ({
						resource: 'cardReference',
						operation: 'rebill',
						merchantOrderId: cid,
						cardReferenceId: cardRefId,
						amount,
						currency: 'USD',
						additionalFields: callbacks,
						options: OPTIONS,
					}),
				},
			];
			break;
		case 'payoutV2':
			steps = [payout('send')];
			break;
		case 'payoutV4':
			steps = [payout('sendV4')];
			break;
		case 'payoutCheckPay':
			steps = [
				payout('check'),
				{
					name: 'payout pay',
					command: 'payout-pay',
					ledger: ['payout'],
					parameters: (previous) => ({
						resource: 'payout',
						operation: 'pay',
						merchantOrderId: cid,
						gatewayOrderId: orderOf(previous),
						additionalFields: callbacks,
						options: OPTIONS,
					}),
				},
			];
			break;
		default:
			steps = [
				{
					name: 'transfer',
					command: 'transfer',
					ledger: ['transfer'],
					parameters: () => ({
						resource: 'transfer',
						operation: 'send',
						merchantOrderId: cid,
						amount,
						currency: 'USD',
						additionalFields: {
							...CARD,
							cvv: '123',
							destinationCardNumber: PAN2,
							ipAddress: CUSTOMER.ipAddress,
							...callbacks,
						},
						options: OPTIONS,
					}),
				},
			];
	}
	// A preauth's return releases the hold ("cancel") when nothing was captured.
	if (steps[0].name === 'preauth')
		for (const step of steps) if (step.name === 'return') step.ledger = ['return', 'cancel'];
	return { name, cid, steps, baseMinor };
}

function pickFaults(rng: Random, scenario: Scenario): Fault[] {
	const faults: Fault[] = [];
	const howMany = rng.chance(0.25) ? 2 : 1;
	for (let n = 0; n < howMany; n++) {
		const kind = rng.pick(KINDS);
		if (kind === 'none') continue;
		const commands = scenario.steps.map((step) => step.command);
		const onStatus = ['latency', 'reset', 'http500', 'timeout'].includes(kind) && rng.chance(0.3);
		const op = onStatus ? 'status' : rng.pick(commands);
		const count = onStatus ? rng.int(1, 6) : rng.chance(0.2) ? 2 : 1;
		const fault: Fault = { kind, op, count };
		if (kind === 'latency' || kind === 'timeout') fault.latencyMs = PAST_TIMEOUT_MS;
		if (kind === 'out-of-order-callbacks') fault.latencyMs = 300;
		faults.push(fault);
	}
	return faults;
}

/** Runs the trigger (in n8n-core's WebhookContext) for every callback the sandboxes send. */
class TriggerReceiver {
	private server?: Server;
	readonly answers: Array<{ status?: number; emitted: boolean; orderid: string }> = [];
	private readonly trigger = new CardGatewayTrigger();

	constructor(private readonly credentials: ReturnType<Sandbox['credentials']>) {}

	async start(): Promise<string> {
		this.server = createServer((req, res) => {
			const url = new URL(req.url ?? '/', 'http://receiver.invalid');
			const query = Object.fromEntries(url.searchParams);
			callWebhook({
				nodeType: this.trigger,
				typeName: `${PACKAGE}.cardGatewayTrigger`,
				parameters: { verifySignature: true, confirm: 'off', statuses: [], transactionTypes: [] },
				credentials: this.credentials,
				request: { method: 'GET', query },
			}).then(
				(result) => {
					this.answers.push({
						status: result.status,
						emitted: (result.response.workflowData?.[0]?.length ?? 0) > 0,
						orderid: query.orderid ?? '',
					});
					res.writeHead(result.status ?? 500, { 'Content-Type': 'text/plain' });
					res.end(String(result.sent ?? ''));
				},
				(error: Error) => {
					this.answers.push({ status: 599, emitted: false, orderid: `${query.orderid}: ${error.message}` });
					res.writeHead(500);
					res.end();
				},
			);
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/callback`;
	}

	async close(): Promise<void> {
		if (this.server) await new Promise<void>((resolve) => this.server!.close(() => resolve()));
	}
}

interface LedgerRow {
	orderid: string;
	client_orderid: string;
	kind: string;
	amountMinor: number;
}

const ERROR_SAYS =
	/money MAY have moved|may have been applied|nothing was charged|nothing was sent|no money moved|moves no money/;

export async function faultCampaign({
	seed,
	runs,
	lanes = 8,
}: {
	seed: number;
	runs: number;
	lanes?: number;
}): Promise<CampaignResult> {
	const started = Date.now();
	const tally = new Tally([
		'moved money at most once',
		'final outcome or explicit error',
		'reported outcome agrees with the ledger',
		'no capture/return beyond what remains',
		'callbacks acknowledged 200 by the trigger',
	]);
	const sandboxes = await Promise.all(
		Array.from({ length: lanes }, () =>
			Sandbox.start({ callbackRetry: { attempts: 3, delaysMs: [50, 100] }, callbackTimeoutMs: 3000 }),
		),
	);
	const receiver = new TriggerReceiver(sandboxes[0].credentials());
	const notifyUrl = await receiver.start();
	const outputs: string[] = [];
	const byScenario: Record<string, number> = {};
	const byFault: Record<string, number> = {};
	const outcomes: Record<string, number> = {};
	try {
		// One stored card per lane for the rebills, made without faults.
		const cardRefs = await Promise.all(
			sandboxes.map((sb, lane) => storedCard(sb, `rel1-${seed}-ref-${lane}`, OPTIONS)),
		);

		await pool(lanes, runs, async (index, lane) => {
			const sb = sandboxes[lane];
			const rng = new Random(seed * 1_000_003 + index);
			const cid = `rel1-${seed}-${index}`;
			const scenario = buildScenario(rng, cid, cardRefs[lane], notifyUrl);
			const faults = pickFaults(rng, scenario);
			byScenario[scenario.name] = (byScenario[scenario.name] ?? 0) + 1;
			for (const fault of faults.length ? faults : [{ kind: 'none' } as Fault])
				byFault[fault.kind] = (byFault[fault.kind] ?? 0) + 1;
			const label = `${cid} ${scenario.name} [${faults.map((f) => `${f.kind}@${f.op}x${f.count}`).join(', ') || 'no fault'}]`;

			for (const fault of faults) await sb.fault(fault);
			const results: Array<{ step: Step; run: NodeRun; ok?: IDataObject }> = [];
			const previous: IDataObject[] = [];
			for (const step of scenario.steps) {
				const run = await runNode(sb, step.parameters(previous));
				outputs.push(nodeOutput(run));
				const ok = run.error ? undefined : (run.items[0]?.json as IDataObject | undefined);
				results.push({ step, run, ok });
				if (!ok || ok.status !== 'approved') break;
				previous.push(ok);
			}
			await sb.admin('DELETE', 'faults');
			// Requests held past the node's timeout may still be applied: let them land first.
			if (faults.some((f) => f.latencyMs && f.kind !== 'out-of-order-callbacks')) await sleep(PAST_TIMEOUT_MS + 150);

			const ledger = (
				await sb.admin<{ entries: LedgerRow[] }>('GET', `ledger?client_orderid=${encodeURIComponent(cid)}`)
			).entries;
			const kinds = (names: string[]) => ledger.filter((entry) => names.includes(entry.kind));

			// 1. At most once: per ledger kind, no more entries than steps that may write it.
			const allowed: Record<string, number> = {};
			for (const { step } of results) for (const kind of step.ledger) allowed[kind] = (allowed[kind] ?? 0) + 1;
			const over = Object.entries(
				ledger.reduce<Record<string, number>>((acc, e) => ({ ...acc, [e.kind]: (acc[e.kind] ?? 0) + 1 }), {}),
			).filter(([kind, count]) => count > (allowed[kind] ?? 0));
			tally.check(
				'moved money at most once',
				over.length === 0,
				() => `${label}: ledger ${JSON.stringify(ledger.map((e) => e.kind))}`,
			);

			// 2. Every step ends with the gateway's outcome or an explicit error naming the order.
			const stayProcessing = faults.some((f) => f.kind === 'stay-processing');
			const explicit = results.every(({ run, ok }) => {
				if (ok) {
					const status = String(ok.status);
					const outcome = FINAL.has(status)
						? status
						: status === 'processing' && ok.waitTimedOut === true && stayProcessing
							? 'processing (wait timed out)'
							: undefined;
					outcomes[outcome ?? `non-final ${status}`] = (outcomes[outcome ?? `non-final ${status}`] ?? 0) + 1;
					return !!outcome && ok.client_orderid === cid;
				}
				const text = `${run.error?.message ?? ''} ${run.error?.description ?? ''}`;
				const kind = /money MAY have moved/.test(text)
					? 'error: money may have moved'
					: /may have been applied/.test(text)
						? 'error: may have been applied'
						: /nothing was|no money moved|moves no money/.test(text)
							? 'error: no money moved'
							: 'error: other';
				outcomes[kind] = (outcomes[kind] ?? 0) + 1;
				return text.includes(`"${cid}"`) && ERROR_SAYS.test(text);
			});
			tally.check('final outcome or explicit error', explicit, () => {
				const last = results[results.length - 1];
				return `${label}: ${last.step.name} → ${last.ok ? JSON.stringify({ status: last.ok.status, final: last.ok.final, notes: [last.ok.waitTimedOut, last.ok.statusCheckError] }) : `${last.run.error?.message} | ${last.run.error?.description}`}`;
			});

			// 3. What the output says agrees with the ledger: an approved money step wrote its entry;
			//    "nothing was charged / sent / no money moved" wrote none.
			const agrees = results.every(({ step, run, ok }) => {
				if (!step.ledger.length) return true;
				const written = kinds(step.ledger).length > 0;
				if (ok && ok.status === 'approved' && ok.final === true) return written;
				if (ok && (ok.status === 'declined' || ok.status === 'error' || ok.status === 'filtered'))
					return !written || step.name !== scenario.steps[0].name;
				const text = `${run.error?.message ?? ''} ${run.error?.description ?? ''}`;
				if (run.error && /nothing was charged|nothing was sent|no money moved/.test(text) && step === scenario.steps[0])
					return !written;
				return true;
			});
			tally.check(
				'reported outcome agrees with the ledger',
				agrees,
				() =>
					`${label}: ledger ${JSON.stringify(ledger.map((e) => e.kind))}, outputs ${JSON.stringify(results.map((r) => r.ok?.status ?? r.run.error?.message))}`,
			);

			// 4. Captures never exceed the hold; returns never exceed what was charged.
			const sum = (names: string[]) => kinds(names).reduce((total, entry) => total + Number(entry.amountMinor), 0);
			const charged = sum(['sale', 'capture']);
			const withinRemains =
				sum(['capture']) <= scenario.baseMinor && sum(['return']) <= charged && sum(['sale']) <= scenario.baseMinor;
			tally.check(
				'no capture/return beyond what remains',
				withinRemains,
				() => `${label}: ledger ${JSON.stringify(ledger.map((e) => [e.kind, e.amountMinor]))}`,
			);
		});

		// Callbacks: every delivery (duplicated and reordered ones too) reaches the trigger and is acknowledged.
		await until(
			async () => {
				const states = await Promise.all(
					sandboxes.map((sb) => sb.admin<{ deliveries: Array<{ state: string }> }>('GET', 'callbacks')),
				);
				return states.every(({ deliveries }) =>
					deliveries.every((d) => d.state === 'delivered' || d.state === 'failed'),
				);
			},
			30_000,
			200,
		);
		let deliveries = 0;
		for (const sb of sandboxes) {
			const list = (
				await sb.admin<{
					deliveries: Array<{ state: string; orderid: string; attempts: Array<{ httpStatus?: number }> }>;
				}>('GET', 'callbacks')
			).deliveries;
			for (const delivery of list) {
				deliveries++;
				const ok =
					delivery.state === 'delivered' && delivery.attempts.length === 1 && delivery.attempts[0].httpStatus === 200;
				tally.check(
					'callbacks acknowledged 200 by the trigger',
					ok,
					() => `order ${delivery.orderid}: ${delivery.state} ${JSON.stringify(delivery.attempts)}`,
				);
			}
		}
		const emitted = receiver.answers.filter((answer) => answer.emitted).length;
		return {
			id: 'faults',
			title: 'Faults on money movement',
			seed,
			cases: runs,
			injected:
				'per run 0–2 sandbox faults on a random command of the scenario or on `status`: latency past the node timeout (900 ms vs 0.4 s), connection reset, HTTP 500, timeout-then-drop, apply-then-drop, duplicate callback, out-of-order callbacks, stay-processing',
			invariants: tally.list(),
			figures: {
				scenarios: Object.entries(byScenario)
					.map(([k, v]) => `${k} ${v}`)
					.join(', '),
				faults: Object.entries(byFault)
					.map(([k, v]) => `${k} ${v}`)
					.join(', '),
				'step outcomes': Object.entries(outcomes)
					.map(([k, v]) => `${k} ${v}`)
					.join(', '),
				'callback deliveries': deliveries,
				'trigger executions started (confirm off)': emitted,
			},
			wallMs: Date.now() - started,
			outputs,
		};
	} finally {
		await receiver.close();
		await Promise.all(sandboxes.map((sb) => sb.close()));
	}
}
