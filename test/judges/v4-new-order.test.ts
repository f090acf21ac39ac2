// Judge (issue 30, finding 8): a V4 operation asks "is this order ID new?" through the V4 status, by
// the merchant order ID alone, and never through /api/v2/* (which a V4-only gateway does not serve). For
// every operation of the node that starts a new order with a V4 call and moves money, under both reply
// shapes of the V4 status (the vendor emulator's and the documented one), with a typed order ID: the
// first run asks, is told "Unknown order" and sends once; the same run again asks, finds the order and
// sends nothing. The truth is the sandbox's request log and ledger, read through its admin API.
import { movesMoney, moneyFactsOf } from '../../nodes/CardGateway/actions/common/core/facts';
import type { OperationSpec } from '../../nodes/CardGateway/actions/common/core/operation';
import { RESOURCES } from '../../nodes/CardGateway/actions/resources';
import { OPERATIONS } from '../../nodes/shared/protocol/catalogue';
import { FIXTURES } from '../support/operation-fixtures';
import { MERCHANT, Sandbox, runNode, type SandboxRequest } from '../support/harness';
import { scaled } from '../support/time-scale';

const MODULES: Record<string, { operations: Record<string, { spec: OperationSpec }> }> = RESOURCES;

const V4_NEW_ORDERS = Object.entries(MODULES).flatMap(([resource, { operations }]) =>
	Object.entries(operations)
		.filter(([, { spec }]) => {
			const fields = [...(spec.required ?? []), ...(spec.main ?? [])];
			return (
				OPERATIONS[spec.gateway].path.startsWith('/api/v4/') &&
				movesMoney(spec) &&
				!moneyFactsOf(spec).followUp &&
				!moneyFactsOf(spec).movesLater &&
				fields.some((field) => field.merchantOrderId === 'new')
			);
		})
		.map(([operation, { spec }]) => ({ key: `${resource}.${operation}`, path: OPERATIONS[spec.gateway].path })),
);
const SHAPES = ['emulator', 'documented'] as const;
const CASES = V4_NEW_ORDERS.flatMap((operation) => SHAPES.map((shape) => ({ ...operation, shape })));

/** The requests that name the order ID (under any spelling of the field). */
const naming = (requests: SandboxRequest[], id: string) =>
	requests.filter((request) => Object.values(request.params ?? {}).includes(id));
const isCheck = (request: SandboxRequest) => /^\/paynet\/api\/v4\/status\/\d+$/.test(request.path);

/** Runs one case in a sandbox of its own; returns what it violated. */
async function judge({ key, path, shape }: (typeof CASES)[number]): Promise<string[]> {
	const violations: string[] = [];
	const fail = (what: string) => violations.push(`${key} (${shape}): ${what}`);
	const sb = await Sandbox.start({ v4StatusReply: shape });
	try {
		const id = `v4new-${key.replace('.', '-')}`;
		const { parameters } = await FIXTURES[key].prepare(sb, id);
		const ownPath = (request: SandboxRequest) => request.path.startsWith(`/paynet${path}/`);

		const first = await runNode(sb, parameters);
		if (first.error) fail(`the first run failed: ${first.error.message}`);
		const sent = naming(await sb.requests(), id);
		const [check] = sent;
		if (!check || !isCheck(check)) fail(`the first request is ${check?.path ?? 'missing'}, not the V4 status`);
		else {
			if (JSON.stringify(check.params) !== JSON.stringify({ login: MERCHANT.login, client_orderid: id }))
				fail(`the V4 status asked with ${JSON.stringify(check.params)}, not by the merchant order ID alone`);
			if (!/Unknown order/.test(check.result)) fail(`the V4 status answered ${check.result}, not "Unknown order"`);
		}
		if (sent.some((request) => request.path.includes('/api/v2/'))) fail('a request went to /api/v2/');
		if (sent.filter(ownPath).length !== 1) fail(`${sent.filter(ownPath).length} requests of the operation`);
		const booked = await sb.ledger();
		const ofCase = (entries: typeof booked) => entries.filter((entry) => entry.client_orderid === id);
		if (ofCase(booked).length === 0) fail('the first run moved no money');

		const again = await runNode(sb, parameters);
		const resent = naming(await sb.requests(), id).slice(sent.length);
		if (again.error) fail(`the run again failed: ${again.error.message}`);
		else if (again.items[0]?.json.alreadyExisted !== true) fail('the run again does not say the order already existed');
		if (!resent[0] || !isCheck(resent[0]) || resent[0].params?.orderid !== undefined)
			fail(`the run again first asked ${resent[0]?.path ?? 'nothing'}, not the V4 status by the merchant order ID`);
		else if (/Unknown order|error/.test(resent[0].result))
			fail(`the V4 status did not find the order: ${resent[0].result}`);
		if (resent.some(ownPath)) fail('the run again sent the operation again');
		if (JSON.stringify(ofCase(await sb.ledger())) !== JSON.stringify(ofCase(booked))) fail('the run again moved money');
	} finally {
		await sb.close();
	}
	return violations;
}

it(
	'every V4 operation that starts an order asks the V4 status whether its order ID is new',
	async () => {
		expect(V4_NEW_ORDERS.map(({ key }) => key).sort()).toEqual(
			expect.arrayContaining(['payment.saleWithToken', 'payout.sendV4', 'transfer.send']),
		);
		const violations = (await Promise.all(CASES.map(judge))).flat();
		console.log(
			`V4 "is this order new?" judge: ${CASES.length} cases (${V4_NEW_ORDERS.map(({ key }) => key).join(', ')} × 2 reply shapes), 2 runs each`,
		);
		expect(violations).toEqual([]);
	},
	scaled(120_000),
);
