// The re-run judge (issue 30, item 10): a money step run again with the same inputs never moves money
// twice, and every run says the truth about it. Every money-moving operation the node's description
// offers (read as the ledger judge reads it: resources, then each resource's Operation options), and the
// two-step payout (Check, then Pay with the checked order), run in three ways on a sandbox of their own:
// - again: the same parameters in a second execution, after the first;
// - at once: two executions at the same time (Execute clicked twice);
// - retry: an execution that failed, then n8n's Retry of it (n8n-core's engine, as ExecutionService.retry
//   hands it over; the first execution fails under a lost reply whose outcome could not be learned);
// each under a fault of the operation's own first request (none, a reply lost after the gateway applied
// it, a reset, HTTP 500, a timeout), with Wait for Final Status on or off and typed or generated order IDs
// (seeded). The truth is the sandbox's: its ledger, its orders and its request log, read through its
// admin API, never the node's code. What is required, per case:
// - money moved at most once (one intended step per case: the same inputs, the same order ID);
// - each "moved" is a ledger entry of its run, and no entry is claimed twice;
// - each "already done" (alreadyExisted, alreadyDone) is about a step made before that run;
// - each "nothing was sent" sent nothing of the operation's own request, and each "sent" did;
// - an error that says no money moved is true, and "MAY have moved" is said in those words.
import type { IDataObject, INodeParameters, INodeProperties, INodePropertyOptions, IRun } from 'n8n-workflow';

import { CardGateway } from '../../nodes/CardGateway/CardGateway.node';
import { movesMoney } from '../../nodes/CardGateway/actions/common/core/facts';
import type { Operation, OperationSpec } from '../../nodes/CardGateway/actions/common/core/operation';
import { RESOURCES } from '../../nodes/CardGateway/actions/resources';
import { OPERATIONS } from '../../nodes/shared/protocol/catalogue';
import { FIXTURES, type Prepared } from '../support/operation-fixtures';

import { NODE_TYPE, Sandbox, executeOn, type LedgerEntry, type SandboxRequest } from '../support/harness';
import { freshExecutionData, retryExecutionData, workflowOf, type TestNode } from '../support/n8n';
import { scaled } from '../support/time-scale';
import { seeded } from '../support/seeded';

const SEED = Number(process.env.RERUN_JUDGE_SEED ?? 20261130);
const CONCURRENCY = 32;
const TIMEOUT_SECONDS = 1;
/** The timeout fault holds a request this long, past the node's timeout, and then drops it. */
const TIMEOUT_LATENCY_MS = TIMEOUT_SECONDS * 1000 + 600;

// ---------------------------------------------------------------------------------------------
// The money-moving operations, from the node's description.

const MODULES: Record<string, { operations: Record<string, Operation> }> = RESOURCES;
const { properties } = new CardGateway().description;

const DESCRIBED = ((properties.find((p) => p.name === 'resource')?.options ?? []) as INodePropertyOptions[]).flatMap(
	(option) =>
		properties
			.filter((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(String(option.value)))
			.flatMap((selector) =>
				(selector.options as INodePropertyOptions[]).map((choice) => `${String(option.value)}.${String(choice.value)}`),
			),
);

const optionsOf = (key: string): INodeProperties[] => {
	const [resource, operation] = key.split('.');
	const collection = properties.find(
		(p) =>
			p.name === 'options' &&
			p.displayOptions?.show?.resource?.includes(resource) &&
			p.displayOptions.show.operation?.includes(operation),
	);
	return (collection?.options ?? []) as INodeProperties[];
};

interface Step {
	key: string;
	spec: OperationSpec;
	/** Its request's path under /api/, e.g. "v2/return" (the sandbox's fault scope). */
	command: string;
	waitable: boolean;
	/** Creates a new order under a merchant order ID that may be left empty. */
	newOrder: boolean;
}

const stepOf = (key: string): Step => {
	const [resource, operation] = key.split('.');
	const spec = MODULES[resource].operations[operation].spec;
	return {
		key,
		spec,
		command: OPERATIONS[spec.gateway].path.replace(/^\/api\//, ''),
		waitable: optionsOf(key).some((option) => option.name === 'waitForFinalStatus'),
		newOrder: [...(spec.required ?? []), ...(spec.main ?? [])].some((field) => field.merchantOrderId === 'new'),
	};
};

/** What a case runs: one operation, or the two-step payout (its steps in order; the fault is on the last). */
interface Subject {
	name: string;
	steps: Step[];
	variants: ReadonlyArray<string | undefined>;
}

const SUBJECTS: Subject[] = [
	...DESCRIBED.filter((key) => {
		const [resource, operation] = key.split('.');
		const spec = MODULES[resource]?.operations[operation]?.spec;
		return !!spec && !spec.readMany && movesMoney(spec);
	}).map((key) => ({ name: key, steps: [stepOf(key)], variants: [undefined, ...(FIXTURES[key]?.variants ?? [])] })),
	{ name: 'payout.check → payout.pay', steps: [stepOf('payout.check'), stepOf('payout.pay')], variants: [undefined] },
];

// ---------------------------------------------------------------------------------------------
// Cases, seeded.

const MODES = ['again', 'atOnce', 'retry'] as const;
type Mode = (typeof MODES)[number];
const FAULTS = ['none', 'apply-then-drop', 'reset', 'http500', 'timeout'] as const;
type Fault = (typeof FAULTS)[number];

interface Case {
	index: number;
	subject: Subject;
	variant?: string;
	mode: Mode;
	fault: Fault;
	wait: boolean;
	generated: boolean;
	name: string;
}

/** The same cases for the same seed. */
const random = seeded;

function buildCases(): Case[] {
	const next = random(SEED);
	const pick = <T>(choices: readonly T[]) => choices[Math.floor(next() * choices.length)];
	const cases: Case[] = [];
	for (const subject of SUBJECTS) {
		const last = subject.steps[subject.steps.length - 1];
		for (const variant of subject.variants) {
			for (const mode of MODES) {
				// Every fault for the operation as it is; two of them for each variant.
				const faults = variant === undefined ? FAULTS : [pick(FAULTS), pick(FAULTS.slice(1))];
				for (const fault of new Set(faults)) {
					const wait = last.waitable && next() < 0.5;
					// A new execution is a new payment under a generated ID: only n8n's Retry repeats it.
					const generated = mode === 'retry' && subject.steps[0].newOrder && next() < 0.5;
					const name = [
						subject.name,
						variant,
						mode,
						fault,
						wait ? 'wait' : 'no wait',
						generated ? 'generated ID' : 'typed ID',
					]
						.filter(Boolean)
						.join(' | ');
					cases.push({ index: cases.length, subject, variant, mode, fault, wait, generated, name });
				}
			}
		}
	}
	return cases;
}

const CASES = buildCases();

// ---------------------------------------------------------------------------------------------
// Running a case: executions in n8n-core's engine, the Card Gateway nodes chained.

const nodeName = (index: number) => `Step ${index + 1}`;

/** The follow-up of a two-step subject takes the order from the step before it. */
const FROM_PREVIOUS = { merchantOrderId: '={{ $json.client_orderid }}', gatewayOrderId: '={{ $json.orderid }}' };

function workflowFor(c: Case, prepared: Prepared) {
	const options: INodeParameters = {
		timeoutSeconds: TIMEOUT_SECONDS,
		...(c.wait ? { waitForFinalStatus: true, pollIntervalSeconds: 0.1, maxWaitSeconds: 2 } : {}),
	};
	const nodes: TestNode[] = c.subject.steps.map((step, index) => {
		const [resource, operation] = step.key.split('.');
		const parameters: INodeParameters =
			index === 0
				? { ...prepared.parameters, ...(c.generated ? { merchantOrderId: '' } : {}) }
				: { resource, operation, ...FROM_PREVIOUS };
		return {
			name: nodeName(index),
			type: NODE_TYPE,
			parameters: { ...parameters, options: { ...((parameters.options as INodeParameters) ?? {}), ...options } },
			credentials: { cardGatewayApi: { id: 'cred-1', name: 'Card Gateway account' } },
		};
	});
	return workflowOf({ nodeTypes: { [NODE_TYPE]: new CardGateway() }, nodes });
}

/** What one node run said: each output item, or the error that stopped it. */
interface Said {
	step: number;
	error: boolean;
	effect?: string;
	json: IDataObject;
	text: string;
}

/** What the nodes said in `run`; `carried`: how many runs of each node a Retry took over from the execution it retries. */
function saidIn(run: IRun, steps: number, carried: Record<string, number> = {}): Said[] {
	const said: Said[] = [];
	for (let step = 0; step < steps; step++) {
		const runs = run.data.resultData.runData[nodeName(step)] ?? [];
		const last = runs.length > (carried[nodeName(step)] ?? 0) ? runs[runs.length - 1] : undefined;
		if (!last) continue;
		if (last.error) {
			const error = last.error as unknown as { message: string; description?: string; context?: IDataObject };
			said.push({
				step,
				error: true,
				effect: error.context?.moneyEffect as string | undefined,
				json: {},
				text: `${error.message} ${error.description ?? ''}`,
			});
			continue;
		}
		for (const item of last.data?.main?.[0] ?? [])
			said.push({
				step,
				error: false,
				effect: item.json.moneyEffect as string | undefined,
				json: item.json,
				text: String(item.json.outcome ?? ''),
			});
	}
	return said;
}

interface OrderView {
	orderid: string;
	client_orderid: string;
	kind: string;
	status: string;
	transactions: unknown[];
}

interface Snapshot {
	ledger: LedgerEntry[];
	requests: Array<SandboxRequest & { at: string }>;
	orders: OrderView[];
}

async function snapshot(sb: Sandbox): Promise<Snapshot> {
	const [ledger, requests, { orders }] = await Promise.all([
		sb.ledger(),
		sb.requests(),
		sb.admin<{ orders: OrderView[] }>('GET', 'orders'),
	]);
	return { ledger, requests: requests as Snapshot['requests'], orders };
}

/** One execution (a run) and what the sandbox saw while it ran (for runs at once: while both ran). */
interface Run {
	said: Said[];
	before: Snapshot;
	after: Snapshot;
	/** When it started and ended (ms): a request belongs to the run it arrived in (a delayed one is logged late). */
	from: number;
	to: number;
	/** Ran at the same time as another run of the case. */
	together: boolean;
}

async function arm(sb: Sandbox, c: Case) {
	if (c.fault === 'none') return;
	const command = c.subject.steps[c.subject.steps.length - 1].command;
	await sb.fault({
		kind: c.fault,
		op: command,
		count: 1,
		...(c.fault === 'timeout' ? { latencyMs: TIMEOUT_LATENCY_MS } : {}),
	});
	// Retry: the first execution must fail. A follow-up's lost reply fails it; after a new order's lost reply
	// the status query finds the order, so that query gets no reply either (all four tries of it).
	if (c.mode === 'retry' && c.subject.steps[0].newOrder) {
		for (const op of ['v2/status', 'v4/status']) await sb.fault({ kind: 'http500', op, count: 4 });
	}
}

async function runCase(c: Case): Promise<Verdict> {
	const started = Date.now();
	const sb = await Sandbox.start();
	try {
		const fixture = FIXTURES[c.subject.steps[0].key];
		const prepared = await fixture.prepare(sb, `rr-${c.index}`, c.variant);
		const workflow = workflowFor(c, prepared);
		const execute = (mode: 'manual' | 'retry', data = freshExecutionData(workflow, [{ json: {} }])) =>
			executeOn(sb, mode, workflow, data);
		const steps = c.subject.steps.length;
		const runs: Run[] = [];
		const start = await snapshot(sb);
		await arm(sb, c);
		const from = Date.now();
		if (c.mode === 'atOnce') {
			const both = await Promise.all([execute('manual'), execute('manual')]);
			const after = await snapshot(sb);
			for (const run of both)
				runs.push({ said: saidIn(run, steps), before: start, after, from, to: Date.now(), together: true });
		} else {
			const first = await execute('manual');
			const to = Date.now();
			const middle = await snapshot(sb);
			runs.push({ said: saidIn(first, steps), before: start, after: middle, from, to, together: false });
			await sb.admin('DELETE', 'faults');
			const retried = c.mode === 'retry' && first.status === 'error' ? retryExecutionData(first) : undefined;
			// The engine adds to the data it is given: count what the retry takes over before it runs.
			const carried = Object.fromEntries(
				Object.entries(retried?.resultData.runData ?? {}).map(([name, taken]) => [name, taken.length]),
			);
			const again = Date.now();
			const second = c.mode === 'again' ? await execute('manual') : retried && (await execute('retry', retried));
			if (second)
				runs.push({
					said: saidIn(second, steps, carried),
					before: middle,
					after: await snapshot(sb),
					from: again,
					to: Date.now(),
					together: false,
				});
		}
		// A request the timeout fault holds is logged once its latency is over: the log is read after that.
		if (c.fault === 'timeout') await new Promise((resolve) => setTimeout(resolve, TIMEOUT_LATENCY_MS));
		const end = await snapshot(sb);
		return { case: c, runs, violations: judge(c, prepared, start, end, runs), ms: Date.now() - started };
	} catch (error) {
		return {
			case: c,
			runs: [],
			violations: [`the case could not run: ${(error as Error).message}`],
			ms: Date.now() - started,
		};
	} finally {
		await sb.close();
	}
}

// ---------------------------------------------------------------------------------------------
// The judge: what the runs said, against the sandbox.

const NOTHING_MOVED = /no money moved|nothing was sent|nothing was charged|moved nothing/i;
const SAYS_ALREADY = (item: Said) =>
	item.json.alreadyExisted === true || item.json.alreadyDone === true || item.json.alreadyClaimed === true;
/** Says that its own request was not sent. */
const SAYS_NOT_SENT = (item: Said) => item.effect === 'notSent' || SAYS_ALREADY(item);
/** Says that its own request went to the gateway. */
const SAYS_SENT = (item: Said) =>
	!SAYS_ALREADY(item) && (item.effect === 'moved' || item.effect === 'pending' || item.effect === 'mayHaveMoved');

interface Verdict {
	case: Case;
	runs: Run[];
	violations: string[];
	ms: number;
}

function judge(c: Case, prepared: Prepared, start: Snapshot, end: Snapshot, runs: Run[]): string[] {
	const violations: string[] = [];
	const money = end.ledger.slice(start.ledger.length);
	const describe = (entries: LedgerEntry[]) =>
		entries.map((entry) => `${entry.kind} ${entry.amount} on ${entry.client_orderid}`).join(', ') || 'nothing';
	const known = new Set(start.orders.map((order) => order.orderid));
	const created = end.orders.filter((order) => !known.has(order.orderid));
	// The order the case acts on: the fixture's (a follow-up), else the one the case created.
	const caseOrder = (orders: OrderView[]) =>
		prepared.orderId
			? orders.find((order) => order.client_orderid === prepared.orderId)
			: orders.find((order) => !known.has(order.orderid));

	// Money moved at most once: one intended step per case.
	if (money.length > 1) violations.push(`money moved ${money.length} times: ${describe(money)}`);
	if (created.length > 1)
		violations.push(`${created.length} orders made: ${created.map((order) => order.client_orderid).join(', ')}`);

	const commandOf = (step: number) => `/api/${c.subject.steps[step].command}/`;
	const sentIn = (run: Pick<Run, 'from' | 'to'>, step: number) =>
		end.requests.filter((request) => {
			const at = Date.parse(request.at);
			return at >= run.from && at <= run.to && request.path.includes(commandOf(step));
		}).length;
	const movedIn = (run: Run) => run.after.ledger.slice(run.before.ledger.length);
	const holdsMade = created.filter((order) => order.kind === 'preauth' && order.status === 'approved').length;

	// Each "moved" is money of its run, and none is claimed twice.
	const moved = runs.flatMap((run) => run.said.filter((item) => item.effect === 'moved'));
	if (moved.length > Math.max(money.length, holdsMade))
		violations.push(`${moved.length} outputs say money moved; the ledger shows ${describe(money)}`);
	for (const [index, run] of runs.entries()) {
		const where = `run ${index + 1}`;
		const items = run.said;
		if (!items.length) violations.push(`${where} said nothing`);
		const own = movedIn(run);
		for (const item of items) {
			const what = `${where}, step ${item.step + 1}: ${item.error ? 'error' : 'output'} "${item.text.slice(0, 140)}"`;
			// The ledger speaks of the steps that move money (a payout check registers, its pay pays).
			const movesHere = movesMoney(c.subject.steps[item.step].spec);
			if (!item.error && !item.effect && movesHere) violations.push(`${what} has no moneyEffect`);
			if (item.effect === 'mayHaveMoved' && !/MAY have moved/.test(item.text))
				violations.push(`${what} says mayHaveMoved without the words "MAY have moved"`);
			if (movesHere && item.effect === 'moved' && !run.together && !own.length && !holdsMade)
				violations.push(`${what} says moved; the ledger shows nothing of this run`);
			if (movesHere && (item.effect === 'noMoneyMoved' || item.effect === 'notSent') && !run.together && own.length)
				violations.push(`${what} says ${item.effect}; this run moved ${describe(own)}`);
			if (movesHere && item.error && NOTHING_MOVED.test(item.text) && !run.together && own.length)
				violations.push(`${what} says "${item.text.match(NOTHING_MOVED)![0]}"; this run moved ${describe(own)}`);
			// Not sent / sent: the operation's own request in the request log.
			if (!run.together) {
				const sent = sentIn(run, item.step);
				if (SAYS_NOT_SENT(item) && sent) violations.push(`${what} says nothing was sent; ${sent} request(s) were`);
				if (SAYS_SENT(item) && !sent) violations.push(`${what} says it was sent; no request reached the gateway`);
			}
			// Already done: made before this run (by an earlier run; at once, by the other run).
			if (SAYS_ALREADY(item)) {
				const earlier = run.together ? end : run.before;
				const order = caseOrder(earlier.orders);
				// A new order: it is there. A follow-up: money moved on the case before, or its order changed.
				const fixtureOrder = caseOrder(start.orders);
				const madeBefore =
					item.json.alreadyExisted === true
						? !!order
						: earlier.ledger.length > start.ledger.length ||
							(!!order &&
								!!fixtureOrder &&
								(order.transactions.length !== fixtureOrder.transactions.length ||
									order.status !== fixtureOrder.status));
				if (!madeBefore) violations.push(`${what} says it was done already; nothing of it was made before`);
			}
		}
	}
	// At once: the two runs cannot both be "already done", nor say nothing was sent while something was.
	if (runs.some((run) => run.together)) {
		const steps = c.subject.steps.length;
		for (let step = 0; step < steps; step++) {
			const items = runs.flatMap((run) => run.said.filter((item) => item.step === step));
			if (items.length > 1 && items.every(SAYS_ALREADY))
				violations.push(`step ${step + 1}: both runs say it was done already`);
			const sent = sentIn(runs[0], step);
			// Without a fault nothing is resent: a step the gateway can be asked about goes out once for both runs.
			// (The 3-D Secure method result leaves no trace in the order's status: the order waits for the challenge
			// either way, so a second upload of it is sent, and the gateway records it again; no money moves by it.)
			const traceless = c.subject.steps[step].key === 'threeDSecure.uploadMethodUrlResult';
			if (c.fault === 'none' && OPERATIONS[c.subject.steps[step].spec.gateway].statusQuery && !traceless && sent > 1)
				violations.push(`step ${step + 1}: sent ${sent} times by two runs at once`);
			if (items.length && items.every(SAYS_NOT_SENT) && sent)
				violations.push(`step ${step + 1}: both runs say nothing was sent; ${sent} request(s) were`);
			const denied = items.every((item) => NOTHING_MOVED.test(item.text) || item.effect === 'noMoneyMoved');
			if (movesMoney(c.subject.steps[step].spec) && denied && money.length)
				violations.push(`step ${step + 1}: both runs say nothing moved; the ledger shows ${describe(money)}`);
		}
	}
	return violations;
}

// ---------------------------------------------------------------------------------------------

async function pool<T, R>(items: readonly T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
	const results: R[] = new Array(items.length);
	let next = 0;
	await Promise.all(
		Array.from({ length: Math.min(size, items.length) }, async () => {
			while (next < items.length) {
				const index = next++;
				results[index] = await work(items[index]);
			}
		}),
	);
	return results;
}

const line = (said: Said[]) =>
	said
		.map((item) =>
			[
				`step ${item.step + 1}`,
				item.error ? 'error' : 'output',
				item.effect ?? '-',
				SAYS_ALREADY(item) ? 'already' : '',
				item.text.slice(0, 100),
			]
				.filter(Boolean)
				.join(' '),
		)
		.join(' / ') || 'nothing';

function table(verdicts: Verdict[]): string {
	return verdicts
		.map((verdict) =>
			[
				`✗ ${verdict.case.name}`,
				...verdict.runs.map(
					(run, index) => `    run ${index + 1}${run.together ? ' (at once)' : ''}: ${line(run.said)}`,
				),
				...verdict.violations.map((violation) => `    → ${violation}`),
			].join('\n'),
		)
		.join('\n');
}

let verdicts: Verdict[] = [];
let elapsed = 0;

beforeAll(async () => {
	const started = Date.now();
	verdicts = await pool(CASES, CONCURRENCY, runCase);
	elapsed = Date.now() - started;
	const failed = verdicts.filter((verdict) => verdict.violations.length);
	const count = (key: (c: Case) => string) => {
		const counts = new Map<string, number>();
		for (const c of CASES) counts.set(key(c), (counts.get(key(c)) ?? 0) + 1);
		return [...counts].map(([name, n]) => `${name} ${n}`).join(', ');
	};
	console.log(
		[
			`rerun judge (seed ${SEED}): ${CASES.length} cases on ${SUBJECTS.length} subjects in ${(elapsed / 1000).toFixed(1)} s; ${failed.length} with violations`,
			`by mode: ${count((c) => c.mode)}; by fault: ${count((c) => c.fault)}`,
			table(failed),
		].join('\n'),
	);
}, scaled(300_000));
it("covers every money-moving operation of the node's description, and the two-step payout", () => {
	expect(SUBJECTS.length).toBeGreaterThan(15);
	for (const subject of SUBJECTS) expect(FIXTURES[subject.steps[0].key]).toBeDefined();
	expect(new Set(CASES.map((c) => c.mode))).toEqual(new Set(MODES));
});

it('n8n Retry ran where an execution failed: the retry cases are not empty', () => {
	const retried = verdicts.filter((verdict) => verdict.case.mode === 'retry' && verdict.runs.length === 2);
	expect(retried.length).toBeGreaterThan(20);
});

describe.each(SUBJECTS.map((subject) => [subject.name, subject] as const))('%s', (_name, subject) => {
	it('run again, twice at once and retried, under faults: money moves at most once, and every run says the truth', () => {
		const mine = verdicts.filter((verdict) => verdict.case.subject === subject);
		expect(mine.length).toBe(CASES.filter((c) => c.subject === subject).length);
		const failed = mine.filter((verdict) => verdict.violations.length);
		if (failed.length) throw new Error(`${failed.length} of ${mine.length} cases:\n${table(failed)}`);
	});
});
