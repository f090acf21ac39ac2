// Issue 23, item 2: a genuine callback of every transaction type the sandbox can send is confirmed
// by the status query; one with an altered amount or type is not; one replayed after the order
// moved on is not confirmed as the order's new state. The types come from the sandbox itself
// (CALLBACK_TRANSACTION_TYPES): a type it learns to send without a recipe here fails the suite.
import { isFollowUpTransactionType } from '../../nodes/shared/protocol/vocabulary';
import {
	CallbackReceiver,
	credentialsFor,
	getRequest,
	openSandbox,
	parameters,
	trigger,
	type CapturedCallback,
	type Sandbox,
} from '../support/trigger';

const { CALLBACK_TRANSACTION_TYPES } = require('../../sandbox/commands') as { CALLBACK_TRANSACTION_TYPES: string[] };
const { Client, CARD2 } = require('../support/sandbox-client');

interface SandboxReply {
	status: number;
	data: Record<string, string>;
}
interface OrderRef {
	orderid: string;
	cid: string;
}
/** How to make the sandbox send a genuine callback of one type, and what may follow it on the order. */
interface Recipe {
	/** Runs the transaction; its callback goes to `url` (notify_url, which hears every type). */
	make(url: string): Promise<OrderRef>;
	/** A later transaction on the same order, or why nothing can follow this one in the sandbox. */
	later: ((order: OrderRef) => Promise<unknown>) | { none: string };
}

let sandbox: Sandbox;
let client: InstanceType<typeof Client>;
const receiver = new CallbackReceiver();

const ok = (reply: SandboxReply, what: string): SandboxReply => {
	if (reply.status !== 200 || reply.data.type === 'error' || reply.data.type === 'validation-error')
		throw new Error(`${what} refused: ${JSON.stringify(reply.data)}`);
	return reply;
};

/** An order that became final (the sandbox finalises it on the first status query). */
async function finalised(reply: SandboxReply, cid: string, what: string): Promise<OrderRef> {
	const orderid = String(ok(reply, what).data['paynet-order-id']);
	await client.status(orderid, cid);
	return { orderid, cid };
}

async function payment(command: 'sale' | 'preauth', url: string): Promise<OrderRef> {
	const sale = await client.sale({ notify_url: url }, command);
	return finalised(sale, sale.params.client_orderid, command);
}

const followUp = async (command: string, order: OrderRef, extra: Record<string, string> = {}) =>
	ok(await client.followUp(command, order.orderid, order.cid, extra), command);
const refund = (amount: string) => (order: OrderRef) => followUp('return', order, { amount, currency: 'USD' });
const chargeBack = (amount: string) => async (order: OrderRef) =>
	ok(await client.admin('POST', `orders/${order.orderid}/chargeback`, { amount }), 'chargeback');

/** A payment, then a follow-up on it: the follow-up's callback is the one under test. */
const paymentThen =
	(command: 'sale' | 'preauth', step: (order: OrderRef) => Promise<unknown>) =>
	async (url: string): Promise<OrderRef> => {
		const order = await payment(command, url);
		await step(order);
		return order;
	};

const CARD_DESTINATION = { credit_card_number: CARD2, expire_month: '11', expire_year: '2033' };

const RECIPES: Record<string, Recipe> = {
	sale: { make: (url) => payment('sale', url), later: refund('1.00') },
	preauth: { make: (url) => payment('preauth', url), later: (order) => followUp('capture', order) },
	capture: {
		make: paymentThen('preauth', (order) => followUp('capture', order, { amount: '6.00', currency: 'USD' })),
		later: refund('1.00'),
	},
	void: {
		make: paymentThen('sale', (order) => followUp('void', order)),
		later: { none: 'a voided order takes no return, capture or chargeback' },
	},
	cancel: {
		make: paymentThen('preauth', (order) => followUp('return', order)),
		later: { none: 'a released hold has nothing left to capture, return or charge back' },
	},
	reversal: {
		make: paymentThen('sale', refund('3.00')),
		later: chargeBack('2.00'),
	},
	chargeback: {
		make: paymentThen('sale', chargeBack('2.00')),
		later: refund('1.00'),
	},
	payout: {
		make: async (url) => {
			const cid = client.cid('po');
			const params = { client_orderid: cid, amount: '4.20', currency: 'USD', notify_url: url, ...CARD_DESTINATION };
			return finalised(await client.oauth('v4/payout/1001', params), cid, 'payout');
		},
		later: { none: 'no follow-up applies to a payout' },
	},
	transfer: {
		make: async (url) => {
			const cid = client.cid('tr');
			const params = {
				client_orderid: cid,
				amount: '1.30',
				currency: 'USD',
				notify_url: url,
				credit_card_number: '4444555566661111',
				cvv2: '123',
				expire_month: '12',
				expire_year: '2035',
				'destination-card-no': CARD2,
			};
			return finalised(await client.oauth('v4/transfer/1001', params), cid, 'transfer');
		},
		later: { none: 'no follow-up applies to a transfer' },
	},
	'account-verification': {
		make: async (url) => {
			const cid = client.cid('av');
			const params = { client_orderid: cid, email: 'a@example.com', cvv2: '123', notify_url: url, ...CARD_DESTINATION };
			return finalised(await client.control('account-verification', 1001, params), cid, 'account verification');
		},
		later: { none: 'no follow-up applies to a card check' },
	},
	'pan-eligibility': {
		make: async (url) => {
			const sale = await payment('sale', url);
			const reference = await followUp('create-card-ref', sale);
			const cid = client.cid('pe');
			const params = { 'client-order-id': cid, 'sending-card-ref-id': reference.data['card-ref-id'], notify_url: url };
			return finalised(await client.oauth('v2/pan-eligibility/send/1001', params), cid, 'pan eligibility');
		},
		later: { none: 'no follow-up applies to an eligibility check' },
	},
};

const WITH_FLAG = { confirm: 'emitWithConfirmedFlag', confirmTimeout: 5 };
const EMIT_ONLY = { confirm: 'emitOnlyWhenConfirmed', confirmTimeout: 5 };
const run = (query: Record<string, string>, mode: Record<string, unknown>) =>
	trigger({
		parameters: parameters(mode as never),
		credentials: credentialsFor(sandbox.url),
		request: getRequest(query),
	});

/** The first callback of this type about the order (the receiver keeps them all). */
async function callbackOf(orderid: string, type: string): Promise<CapturedCallback> {
	for (let count = 1; ; count++) {
		const found = (await receiver.waitFor(orderid, count)).find((callback) => callback.query.type === type);
		if (found) return found;
	}
}

/** Each type's genuine callback, and the order it is about. */
const genuine = new Map<string, { order: OrderRef; callback: CapturedCallback }>();

beforeAll(async () => {
	sandbox = await openSandbox();
	client = new Client(sandbox);
	await receiver.start();
	for (const type of CALLBACK_TRANSACTION_TYPES) {
		const recipe = RECIPES[type];
		if (!recipe) continue;
		const order = await recipe.make(receiver.url);
		genuine.set(type, { order, callback: await callbackOf(order.orderid, type) });
	}
});

afterAll(async () => {
	await sandbox?.close();
	await receiver.close();
});

it('the sandbox names the types it can send, and each has a recipe here', () => {
	expect(CALLBACK_TRANSACTION_TYPES).toEqual(expect.arrayContaining(['sale', 'reversal', 'chargeback', 'payout']));
	expect(CALLBACK_TRANSACTION_TYPES.filter((type) => !RECIPES[type])).toEqual([]);
});

describe.each(CALLBACK_TRANSACTION_TYPES)('a %s callback', (type) => {
	const followUpType = isFollowUpTransactionType(type);
	const the = () => genuine.get(type)!;

	it('genuine: confirmed, and emitted under Emit Only When Confirmed', async () => {
		const { callback } = the();
		const flagged = await run(callback.query, WITH_FLAG);
		expect(flagged.items).toHaveLength(1);
		expect(flagged.items[0]).toMatchObject({ type, confirmed: true, confirmation: { mismatches: [] } });
		if (followUpType) {
			// The status reply gives what remains of the order, not the follow-up's own amount.
			expect(flagged.items[0]).not.toHaveProperty('amount');
			expect(flagged.items[0].confirmation).toMatchObject({ amountChecked: false, unchecked: ['amount'] });
		} else {
			expect(flagged.items[0]).toMatchObject({ amount: callback.query.amount, confirmation: { amountChecked: true } });
		}
		const emitted = await run(callback.query, EMIT_ONLY);
		expect(emitted.items).toHaveLength(1);
		expect(emitted.items[0]).toMatchObject({ type, confirmed: true });
	});

	it('amount altered: not confirmed, or (a follow-up) confirmed without any amount', async () => {
		const forged = { ...the().callback.query, amount: '9999.00' };
		const flagged = await run(forged, WITH_FLAG);
		if (followUpType) {
			expect(flagged.items[0]).toMatchObject({ confirmed: true });
			expect(flagged.items[0]).not.toHaveProperty('amount');
		} else {
			expect(flagged.items[0]).toMatchObject({ confirmed: false });
			expect((await run(forged, EMIT_ONLY)).items).toEqual([]);
		}
	});

	it('type altered: not confirmed, and the log line names the order and the reason', async () => {
		const { callback, order } = the();
		const otherType = CALLBACK_TRANSACTION_TYPES.find((candidate) => candidate !== type)!;
		const forged = { ...callback.query, type: otherType };
		expect((await run(forged, WITH_FLAG)).items[0]).toMatchObject({ confirmed: false });
		const emitOnly = await run(forged, EMIT_ONLY);
		expect(emitOnly.items).toEqual([]);
		const warning = emitOnly.logs.find((entry) => entry.level === 'warn')?.message ?? '';
		expect(warning).toContain(`order ${order.orderid} (client_orderid ${order.cid}, ${otherType} approved)`);
		expect(warning).toContain(`type: callback "${otherType}", gateway "${type}"`);
	});

	it('replayed after the order moved on: not confirmed as the new state', async () => {
		const { later } = RECIPES[type];
		if ('none' in later) {
			expect(later.none).not.toBe('');
			return;
		}
		const { callback, order } = the();
		await later(order);
		const replayed = await run(callback.query, WITH_FLAG);
		expect(replayed.items[0]).toMatchObject({ type, confirmed: false });
		expect((replayed.items[0].confirmation as { mismatches: string[] }).mismatches[0]).toMatch(
			new RegExp(`^type: callback "${type}", gateway "[a-z-]+" \\(the order has a later transaction\\)$`),
		);
		expect((await run(callback.query, EMIT_ONLY)).items).toEqual([]);
	});
});
