// Issue 25 item 4: the money operations the public docs add (Recurring Payment → Charge, Payout → Send by
// Reference (V4)) and the PAN eligibility checks for the receiving card and for both cards, run against the
// sandbox. The money movers are declared like every other operation, so every guard must apply to them
// without code of their own: this file checks that it does, with the ledger as witness.
import type { INodeParameters } from 'n8n-workflow';

import { PAN2, WAIT, runNode, single, storedCard, useSandbox, type Sandbox } from '../support/harness';
import { scaled } from '../support/time-scale';

const env = useSandbox();

beforeEach(() => env.sb.reset());

/** Each money-moving operation: how to set up what it charges or pays to, and what its output reports. */
interface MoneyOperation {
	label: string;
	/** The sandbox's name of the command (faults and the request log). */
	op: string;
	/** The node's parameters for one order of `amount` USD under `merchantOrderId`. */
	parameters(sb: Sandbox, merchantOrderId: string, amount: string): Promise<INodeParameters>;
	/** The output key of what it moved, once approved. */
	movedKey: string;
	/** Where the money went, as the output says it. */
	destination?: (parameters: INodeParameters) => string;
}

/** A subscription charging a stored card, as Recurring Payment → Create sets it up. */
async function subscription(sb: Sandbox, id: string): Promise<string> {
	const cardReferenceId = await storedCard(sb, `sub-card-${id}`);
	const created = single(
		await runNode(sb, {
			resource: 'recurringPayment',
			operation: 'create',
			merchantOrderId: `sub-${id}`,
			currency: 'USD',
			additionalFields: { period: 'monthly', interval: 1, amount: '9.99', cardReferenceId },
		}),
	);
	return created.recurringPaymentId;
}

const MONEY_OPERATIONS: MoneyOperation[] = [
	{
		label: 'Recurring Payment → Charge',
		op: 'process-recurring-payment',
		parameters: async (sb, merchantOrderId, amount) => ({
			resource: 'recurringPayment',
			operation: 'charge',
			merchantOrderId,
			recurringPaymentId: await subscription(sb, merchantOrderId || 'gen'),
			amount,
			currency: 'USD',
		}),
		movedKey: 'amountCharged',
	},
	{
		label: 'Payout → Send by Reference (V4)',
		op: 'payout-by-ref',
		parameters: async (sb, merchantOrderId, amount) => ({
			resource: 'payout',
			operation: 'sendByReferenceV4',
			merchantOrderId,
			amount,
			currency: 'USD',
			destinationCardReferenceId: await storedCard(sb, `payee-${merchantOrderId || 'gen'}`, {
				cardNumber: PAN2,
			}),
			additionalFields: { orderDescription: 'Winnings', purpose: 'Prize' },
		}),
		movedKey: 'amountPaidOut',
		destination: (parameters) => `stored card ${String(parameters.destinationCardReferenceId)}`,
	},
];

const FAST = { timeoutSeconds: 1 };

/** The ledger entries of an order: what really moved. */
const moved = async (sb: Sandbox, clientOrderId: string) =>
	(await sb.ledger(clientOrderId)).map((entry) => [entry.amount, entry.currency]);

/** Requests of one command that reached the sandbox. */
const sentOf = async (sb: Sandbox, op: string) => (await sb.requests()).filter((request) => request.op === op);

describe.each(MONEY_OPERATIONS)('$label', (operation) => {
	it('approved: the output says what moved, once, and the ledger agrees', async () => {
		const parameters = await operation.parameters(env.sb, 'tm-ok', '4.20');
		const out = single(await runNode(env.sb, { ...parameters, options: WAIT }));
		expect(out).toMatchObject({
			client_orderid: 'tm-ok',
			status: 'approved',
			moneyEffect: 'moved',
			amountRequested: '4.20',
			[operation.movedKey]: '4.20',
		});
		if (operation.destination) expect(out.paidTo).toBe(operation.destination(parameters));
		expect(await moved(env.sb, 'tm-ok')).toEqual([['4.20', 'USD']]);
		// Run again under the same order ID: the gateway has it, so nothing is sent and nothing moves twice.
		const again = single(await runNode(env.sb, { ...parameters, options: WAIT }));
		expect(again).toMatchObject({ alreadyExisted: true, moneyEffect: 'noMoneyMoved' });
		expect(await sentOf(env.sb, operation.op)).toHaveLength(1);
		expect(await moved(env.sb, 'tm-ok')).toHaveLength(1);
	});

	it('declined: "not done", no amount claimed, nothing in the ledger', async () => {
		const parameters = await operation.parameters(env.sb, 'tm-decline', '4.20');
		// The order stays processing until the test declines it, while the node waits for its final status.
		await env.sb.fault({ kind: 'stay-processing', op: operation.op });
		const running = runNode(env.sb, { ...parameters, options: { ...WAIT, pollIntervalSeconds: 0.1 } });
		await declineWhenCreated(env.sb, 'tm-decline');
		const out = single(await running);
		expect(out).toMatchObject({ status: 'declined', moneyEffect: 'noMoneyMoved' });
		expect(out.outcome).toMatch(/ of 4\.20 USD not done: the gateway answered declined/);
		expect(out[operation.movedKey]).toBeUndefined();
		expect(await moved(env.sb, 'tm-decline')).toEqual([]);
	});

	it('a lost reply is resolved by a status query by order ID, never by sending again', async () => {
		const parameters = await operation.parameters(env.sb, '', '3.10');
		await env.sb.fault({ kind: 'apply-then-drop', op: operation.op });
		const out = single(await runNode(env.sb, { ...parameters, options: { ...FAST, ...WAIT } }));
		expect(out).toMatchObject({
			status: 'approved',
			recoveredFromLostReply: true,
			moneyEffect: 'moved',
			[operation.movedKey]: '3.10',
		});
		expect(out.resentAfterLostReply).toBeUndefined();
		expect(await sentOf(env.sb, operation.op)).toHaveLength(1);
		expect(await moved(env.sb, out.client_orderid)).toEqual([['3.10', 'USD']]);
	});

	it('dry run: shows the signed request it would send, asks only whether the order exists, moves nothing', async () => {
		const parameters = await operation.parameters(env.sb, 'tm-dry', '6.00');
		const before = (await env.sb.requests()).length;
		const out = single(await runNode(env.sb, { ...parameters, options: { dryRun: true } }));
		expect(out).toMatchObject({
			dryRun: true,
			operation: operation.label,
			moneyEffect: 'notSent',
			wouldDo: expect.stringContaining('6.00 USD'),
			request: { method: 'POST', url: `${env.sb.url}/paynet/api/v4/${operation.op}/1001` },
		});
		expect(JSON.stringify(out.request)).toContain('RSA-SHA256');
		expect((await env.sb.requests()).slice(before).map((request) => request.op)).toEqual(['status']);
		expect(await moved(env.sb, 'tm-dry')).toEqual([]);
	});

	it('spending limits: an item above Max Amount per Item and a run above Max Total per Run are refused before sending', async () => {
		const parameters = await operation.parameters(env.sb, '', '={{ $json.amount }}');
		const before = await sentOf(env.sb, operation.op);
		const above = await runNode(
			env.sb,
			{ ...parameters, options: { maxAmountPerItem: '5.00' } },
			{
				input: [{ amount: '5.01' }],
			},
		);
		expect(above.error?.message).toBe(
			`${operation.label} of 5.01 USD is above "Max Amount per Item" (5.00 USD); nothing was sent`,
		);
		const run = await runNode(
			env.sb,
			{ ...parameters, options: { maxTotalPerRun: '5.00' } },
			{
				input: [{ amount: '3.00' }, { amount: '3.00' }],
				errorOutput: true,
			},
		);
		expect(run.items.map((item) => item.json.amountRequested)).toEqual(['3.00']);
		expect(run.errorItems.map((item) => String(item.json.error))).toEqual([
			expect.stringContaining('would pass "Max Total per Run" (5.00 USD)'),
		]);
		// One order of the two was sent: the second would have passed the run's total.
		expect(await sentOf(env.sb, operation.op)).toHaveLength(before.length + 1);
		expect((await env.sb.ledger()).filter((entry) => entry.amount === '3.00')).toHaveLength(1);
	});

	it('as an AI agent tool, refused unless "Allow AI Agents to Move Money" is on; never with Retry On Fail', async () => {
		const parameters = await operation.parameters(env.sb, 'tm-ai', '2.00');
		const before = (await env.sb.requests()).length;
		const tool = await runNode(env.sb, parameters, { asTool: true });
		expect(tool.error?.message).toBe(
			`${operation.label} moves money, and AI agents may not run it through this tool: refused; do not retry this call: it will be refused the same way`,
		);
		const retried = await runNode(env.sb, parameters, { retryOnFail: true });
		expect(retried.error?.message).toBe(
			`${operation.label} moves money and must not run with the node setting "Retry On Fail"`,
		);
		expect((await env.sb.requests()).length).toBe(before);
		const allowed = single(
			await runNode(env.sb, { ...parameters, options: { ...WAIT, allowAiMoneyMovement: true } }, { asTool: true }),
		);
		expect(allowed).toMatchObject({ status: 'approved', moneyEffect: 'moved' });
		expect(await moved(env.sb, 'tm-ai')).toEqual([['2.00', 'USD']]);
	});
});

/** Waits until the sandbox holds the order, then declines it (the order was made to stay processing). */
async function declineWhenCreated(sb: Sandbox, clientOrderId: string): Promise<void> {
	for (const deadline = Date.now() + scaled(5_000); Date.now() < deadline;) {
		const { orders } = await sb.admin<{ orders: Array<{ orderid: string }> }>(
			'GET',
			`orders?client_orderid=${clientOrderId}`,
		);
		if (orders.length) {
			await sb.admin('POST', `orders/${orders[0].orderid}/finalize`, { status: 'declined' });
			return;
		}
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	throw new Error(`the sandbox never created order ${clientOrderId}`);
}

describe('Recurring Payment → Charge sends what the docs name', () => {
	it('client-orderid, recurring-payment-id and the amount, RSA-signed, to the endpoint', async () => {
		const recurringPaymentId = await subscription(env.sb, 'wire');
		single(
			await runNode(env.sb, {
				resource: 'recurringPayment',
				operation: 'charge',
				merchantOrderId: 'tm-wire',
				recurringPaymentId,
				amount: '9.99',
				currency: 'USD',
			}),
		);
		const [request] = await sentOf(env.sb, 'process-recurring-payment');
		expect(request.path).toBe('/paynet/api/v4/process-recurring-payment/1001');
		expect(request.params).toMatchObject({
			'client-orderid': 'tm-wire',
			'recurring-payment-id': recurringPaymentId,
			amount: '9.99',
		});
	});

	it('a recurring payment ID the gateway does not know: the gateway refuses, no money moved', async () => {
		const run = await runNode(env.sb, {
			resource: 'recurringPayment',
			operation: 'charge',
			merchantOrderId: 'tm-unknown',
			recurringPaymentId: '999999',
			amount: '1.00',
			currency: 'USD',
		});
		expect(run.error?.name).toBe('NodeApiError');
		expect(run.error?.context?.moneyEffect).toBe('noMoneyMoved');
		expect(await moved(env.sb, 'tm-unknown')).toEqual([]);
	});
});

describe('Transfer → Check PAN Eligibility (Receiving) and (Both Cards)', () => {
	it('receiving: a stored card is checked, nothing moves', async () => {
		const destinationCardReferenceId = await storedCard(env.sb, 'elig-recv-card', { cardNumber: PAN2 });
		const out = single(
			await runNode(env.sb, {
				resource: 'transfer',
				operation: 'checkPanEligibilityReceive',
				merchantOrderId: 'elig-recv',
				destinationCardReferenceId,
				options: WAIT,
			}),
		);
		expect(out.client_orderid).toBe('elig-recv');
		expect(out.moneyEffect).toBeUndefined();
		const [request] = await sentOf(env.sb, 'pan-eligibility/receive');
		expect(request.params).toMatchObject({
			'client-order-id': 'elig-recv',
			'receiving-card-ref-id': destinationCardReferenceId,
		});
		expect(await env.sb.ledger('elig-recv')).toEqual([]);
	});

	it('both cards: a typed sending card and a typed receiving card; card numbers are sent but shown masked', async () => {
		const run = await runNode(env.sb, {
			resource: 'transfer',
			operation: 'checkPanEligibilityBoth',
			merchantOrderId: 'elig-both',
			additionalFields: {
				cardNumber: '4444555566661111',
				cardholderName: 'JOHN SMITH',
				expireMonth: '12',
				expireYear: '2035',
				destinationCardNumber: PAN2,
				serverCallbackUrl: 'https://n8n.example.com/webhook/eligibility',
			},
		});
		const out = single(run);
		expect(out.client_orderid).toBe('elig-both');
		expect(run.serialised).not.toContain(PAN2);
		const [request] = await sentOf(env.sb, 'pan-eligibility/both');
		expect(request.params).toMatchObject({
			'sending-card-number': '444455******1111',
			'receiving-card-number': '555555******4444',
			'card-printed-name': 'JOHN SMITH',
		});
		expect(await env.sb.ledger('elig-both')).toEqual([]);
	});

	it.each([
		['checkPanEligibilityReceive', {}, 'Set "Destination Card Reference ID"'],
		['checkPanEligibilityBoth', { destinationCardReferenceId: '7000456' }, 'Set "Card Reference ID"'],
		['checkPanEligibilityBoth', { cardReferenceId: '7000123' }, 'Set "Destination Card Reference ID"'],
		// A number that fails the card check digit.
		[
			'checkPanEligibilityReceive',
			{ additionalFields: { destinationCardNumber: '5555555555554445' } },
			'Destination Card Number',
		],
	])('%s with %j is refused before sending, naming the field', async (op, fields, message) => {
		const run = await runNode(env.sb, { resource: 'transfer', operation: op, merchantOrderId: 'elig-bad', ...fields });
		expect(run.error?.message).toContain(message);
		expect(await env.sb.requests()).toEqual([]);
	});
});
