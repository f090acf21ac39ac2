// Status queries asked ahead (issue 34): with typed order IDs, the "is this order new?" queries (and a
// follow-up's "is it done?") of the items after those being sent run while they are sent, so a run
// costs about its sends' round trips, and the protection holds: every send follows its own order's
// query, the sends keep the Concurrency, a run repeated sends nothing, two executions at once move each
// order once. Read from the sandbox's request log and ledger, not from wall time: the sandbox holds
// every request 100 ms, so a query asked ahead is seen in flight while a send is. Without asking ahead
// (pipeline/ahead.ts) the overlap checks fail: at Concurrency 1 every query then waits for the send before it,
// and none is in flight beside a send. Without the check that no other step queued on the order since
// it was asked (oneAtATime.ts, quietMark), "run twice at once" sends most orders twice.
import type { INodeParameters } from 'n8n-workflow';

import { BANK_DESTINATION, WAIT, cardPayment, runNode, useSandbox, type SandboxRequest } from '../support/harness';

const env = useSandbox({ latencyMs: 100, requestLogSize: 10_000 });
beforeEach(() => env.sb.reset());

const ITEMS = 24;

const SALE = cardPayment({ merchantOrderId: '={{ $json.id }}', options: { concurrency: 1 } });
const PAYOUT: INodeParameters = {
	resource: 'payout',
	operation: 'send',
	merchantOrderId: '={{ $json.id }}',
	amount: '3.00',
	currency: 'USD',
	additionalFields: BANK_DESTINATION,
	options: { concurrency: 1 },
};

const idsOf = (prefix: string, count = ITEMS) => Array.from({ length: count }, (_, i) => ({ id: `${prefix}-${i}` }));

/** When a request was in the sandbox, in ms of its clock (start as logged, plus its duration). */
function span(request: SandboxRequest): [number, number] {
	const { at, ms } = request as SandboxRequest & { at: string; ms: number };
	const start = Date.parse(at);
	return [start, start + ms];
}

const overlap = (a: SandboxRequest, b: SandboxRequest) => {
	const [a0, a1] = span(a);
	const [b0, b1] = span(b);
	return a0 < b1 && b0 < a1;
};

/** The request log by kind: the status queries and the sends (sale or payout). */
async function logOf(command: string) {
	const requests = (await env.sb.requests()).sort(
		(a, b) => (a as { seq: number } & SandboxRequest).seq - (b as { seq: number } & SandboxRequest).seq,
	);
	return {
		requests,
		queries: requests.filter((request) => request.op === 'status'),
		sends: requests.filter((request) => request.path.includes(`/${command}/`)),
	};
}

describe.each([
	['Payment → Sale', SALE, 'sale', 'sa'],
	['Payout → Send', PAYOUT, 'payout', 'po'],
])('%s with typed order IDs at Concurrency 1', (_name, parameters, command, prefix) => {
	it('asks about later orders while an item is sent, each send after its own query, one send at a time', async () => {
		const input = idsOf(`${prefix}-ahead`);
		const run = await runNode(env.sb, parameters, { input });
		expect(run.error).toBeUndefined();
		expect(run.items).toHaveLength(ITEMS);
		const { requests, queries, sends } = await logOf(command);
		expect(sends).toHaveLength(ITEMS);
		expect(queries).toHaveLength(ITEMS);
		// The sends keep the Concurrency: never two in flight at once.
		for (let i = 1; i < sends.length; i++) expect(overlap(sends[i - 1], sends[i])).toBe(false);
		// Each send comes after its own order's query was answered (the log is written as a request is answered).
		for (const send of sends) {
			const query = queries.find((candidate) => candidate.client_orderid === send.client_orderid);
			expect(query && requests.indexOf(query)).toBeLessThan(requests.indexOf(send));
		}
		// Queries were in flight while sends were: the run is not query, send, query, send.
		const beside = queries.filter((query) => sends.some((send) => overlap(query, send)));
		expect(beside.length).toBeGreaterThanOrEqual(ITEMS / 4);
	});

	it('run again, sends nothing and says each order already existed', async () => {
		const input = idsOf(`${prefix}-again`, 8);
		expect((await runNode(env.sb, parameters, { input })).error).toBeUndefined();
		const again = await runNode(env.sb, parameters, { input });
		expect(again.error).toBeUndefined();
		expect(again.items.map((item) => item.json.alreadyExisted)).toEqual(input.map(() => true));
		expect((await logOf(command)).sends).toHaveLength(input.length);
		for (const { id } of input) expect(await env.sb.ledger(id)).toHaveLength(1);
	});

	it('run twice at once (Execute clicked twice, the items in opposite order): each order is sent once', async () => {
		const input = idsOf(`${prefix}-twice`, 12);
		const runs = await Promise.all([
			runNode(env.sb, parameters, { input }),
			runNode(env.sb, parameters, { input: [...input].reverse() }),
		]);
		for (const run of runs) expect(run.error).toBeUndefined();
		const sent = runs.flatMap((run) => run.items.filter((item) => item.json.alreadyExisted !== true));
		expect(sent).toHaveLength(input.length);
		expect((await logOf(command)).sends).toHaveLength(input.length);
		for (const { id } of input) expect(await env.sb.ledger(id)).toHaveLength(1);
	});

	it('a duplicate order ID in one run sends nothing at all', async () => {
		const input = [...idsOf(`${prefix}-dup`, 6), { id: `${prefix}-dup-2` }];
		const run = await runNode(env.sb, parameters, { input });
		expect(run.error?.message).toMatch(/Items 3 and 7 have the same/);
		expect((await logOf(command)).requests).toHaveLength(0);
	});
});

describe('a follow-up (Payment → Void) over many orders at Concurrency 1', () => {
	const VOID: INodeParameters = {
		resource: 'payment',
		operation: 'void',
		merchantOrderId: '={{ $json.id }}',
		gatewayOrderId: '={{ $json.oid }}',
		comment: 'duplicate order',
		options: { concurrency: 1 },
	};

	it('asks "is it voided?" ahead, each void after its own query, and run again sends nothing', async () => {
		const sales = await runNode(env.sb, cardPayment({ merchantOrderId: '={{ $json.id }}', options: WAIT }), {
			input: idsOf('void'),
		});
		expect(sales.error).toBeUndefined();
		const input = sales.items.map((item) => ({ id: item.json.client_orderid, oid: item.json.orderid }));
		const since = (await env.sb.requests()).length;
		const voids = await runNode(env.sb, VOID, { input });
		expect(voids.error).toBeUndefined();
		const logged = await logOf('void');
		const queries = logged.queries.filter((query) => logged.requests.indexOf(query) >= since);
		expect(logged.sends).toHaveLength(ITEMS);
		for (let i = 1; i < logged.sends.length; i++) expect(overlap(logged.sends[i - 1], logged.sends[i])).toBe(false);
		for (const send of logged.sends) {
			const query = queries.find((candidate) => candidate.client_orderid === send.client_orderid);
			expect(query && logged.requests.indexOf(query)).toBeLessThan(logged.requests.indexOf(send));
		}
		expect(queries.filter((query) => logged.sends.some((send) => overlap(query, send))).length).toBeGreaterThanOrEqual(
			ITEMS / 4,
		);
		const again = await runNode(env.sb, VOID, { input });
		expect(again.error).toBeUndefined();
		expect(again.items.map((item) => item.json.alreadyDone)).toEqual(input.map(() => true));
		expect((await logOf('void')).sends).toHaveLength(ITEMS);
	});
});
