// Each money-moving operation's output says what THIS operation did to the money, checked against
// the sandbox's ledger over real HTTP: nothing is reported as moved unless the gateway approved it.
import type { IDataObject } from 'n8n-workflow';

import { PAN2, WAIT, cardPayment, runNode, single, useSandbox } from '../support/harness';

const env = useSandbox();

beforeEach(() => env.sb.reset());

async function approvedOrder(operation: 'sale' | 'preauth', merchantOrderId: string, amount = '10.00') {
	const out = single(await runNode(env.sb, cardPayment({ merchantOrderId, amount, options: WAIT }, operation)));
	return { out, ids: { merchantOrderId, gatewayOrderId: out.orderid } };
}

const ret = (ids: IDataObject, extra: IDataObject = {}) => ({
	resource: 'payment',
	operation: 'return',
	...ids,
	...extra,
});
const ledgerOf = async (id: string) => (await env.sb.ledger(id)).map((entry) => [entry.kind, entry.amount]);

describe('sale and preauth', () => {
	it('an approved sale says what it charged; a declined one moves nothing and says so', async () => {
		const { out } = await approvedOrder('sale', 'mo-sale', '19.99');
		expect(out).toMatchObject({
			amountRequested: '19.99',
			amountCharged: '19.99',
			currency: 'USD',
			outcome: 'Charged 19.99 USD',
		});
		expect(await ledgerOf('mo-sale')).toEqual([['sale', '19.99']]);

		const declined = single(
			await runNode(env.sb, cardPayment({ merchantOrderId: 'mo-declined', cvv: '116', options: WAIT })),
		);
		expect(declined).toMatchObject({
			status: 'declined',
			amountRequested: '10.00',
			outcome: 'Charge of 10.00 USD not done: the gateway answered declined',
		});
		expect(declined.amountCharged).toBeUndefined();
		expect(await ledgerOf('mo-declined')).toEqual([]);
	});

	it('without Wait for Final Status nothing is claimed: the request is only accepted', async () => {
		const out = single(await runNode(env.sb, cardPayment({ merchantOrderId: 'mo-async' })));
		expect(out).toMatchObject({ status: 'processing', amountRequested: '10.00', currency: 'USD' });
		expect(out.amountCharged).toBeUndefined();
		expect(out.outcome).toMatch(/^Charge of 10\.00 USD sent and accepted; not final yet, so the money may still move/);
	});

	it('a sale waiting for 3-D Secure says so and claims nothing', async () => {
		const out = single(await runNode(env.sb, cardPayment({ merchantOrderId: 'mo-3ds', cvv: '321', options: WAIT })));
		expect(out).toMatchObject({ threeDSecureRequired: true, amountRequested: '10.00' });
		expect(out.amountCharged).toBeUndefined();
		expect(out.outcome).toBe(
			"Charge of 10.00 USD waits for the customer's 3-D Secure check; nothing is final until it is done (send the customer to redirectUrl)",
		);
	});

	it('an approved preauth says what it holds', async () => {
		const { out } = await approvedOrder('preauth', 'mo-preauth');
		expect(out).toMatchObject({ amountHeld: '10.00', outcome: 'Held 10.00 USD' });
	});
});

describe('return', () => {
	it('a partial return says what was returned and what is left, as the ledger shows', async () => {
		const { ids } = await approvedOrder('sale', 'mo-ret-part');
		const out = single(
			await runNode(env.sb, ret(ids, { additionalFields: { amount: '4.00', currency: 'USD' }, options: WAIT })),
		);
		expect(out).toMatchObject({
			status: 'approved',
			transactionType: 'reversal',
			amountRequested: '4.00',
			amountReturned: '4.00',
			amountRemaining: '6.00',
			outcome: 'Returned 4.00 USD; 6.00 USD left on the order',
		});
		expect(await ledgerOf('mo-ret-part')).toEqual([
			['sale', '10.00'],
			['return', '4.00'],
		]);
	});

	it('a full return says how much it returned, and what is left now', async () => {
		const { ids } = await approvedOrder('sale', 'mo-ret-full');
		single(await runNode(env.sb, ret(ids, { additionalFields: { amount: '3.00', currency: 'USD' }, options: WAIT })));
		const out = single(await runNode(env.sb, ret(ids, { options: WAIT })));
		// The gateway's status of this very return (by its serial number) names what it returned.
		expect(out).toMatchObject({
			returnedInFull: true,
			amountReturned: '7.00',
			amountRemaining: '0.00',
			moneyEffect: 'moved',
			outcome: 'Returned 7.00 USD; 0.00 USD left on the order',
		});
		expect(out.amountRequested).toBeUndefined();
		expect(await ledgerOf('mo-ret-full')).toEqual([
			['sale', '10.00'],
			['return', '3.00'],
			['return', '7.00'],
		]);
	});

	it('a return without waiting claims nothing', async () => {
		const { ids } = await approvedOrder('sale', 'mo-ret-async');
		const out = single(await runNode(env.sb, ret(ids, { additionalFields: { amount: '1.00', currency: 'USD' } })));
		expect(out).toMatchObject({ status: 'processing', amountRequested: '1.00' });
		expect(out.amountReturned).toBeUndefined();
		expect(out.outcome).toMatch(/^Return of 1\.00 USD sent and accepted; not final yet/);
	});

	it('a return on an uncaptured preauth releases the hold and says so, without claiming a refund', async () => {
		const { ids } = await approvedOrder('preauth', 'mo-cancel');
		const out = single(await runNode(env.sb, ret(ids, { options: WAIT })));
		expect(out).toMatchObject({ transactionType: 'cancel', holdReleased: true });
		expect(out.amountReturned).toBeUndefined();
		expect(out.returnedInFull).toBeUndefined();
	});
});

describe('capture and void', () => {
	it('a partial capture says what it captured; a full one the held amount it learned and sent', async () => {
		const { ids } = await approvedOrder('preauth', 'mo-capture');
		const part = single(
			await runNode(env.sb, {
				resource: 'payment',
				operation: 'capture',
				...ids,
				additionalFields: { amount: '6.00', currency: 'USD' },
				options: WAIT,
			}),
		);
		expect(part).toMatchObject({ transactionType: 'capture', amountCaptured: '6.00', outcome: 'Captured 6.00 USD' });
		const whole = await approvedOrder('preauth', 'mo-capture-all');
		const all = single(
			await runNode(env.sb, { resource: 'payment', operation: 'capture', ...whole.ids, options: WAIT }),
		);
		expect(all).toMatchObject({ transactionType: 'capture', amountCaptured: '10.00' });
		expect(await ledgerOf('mo-capture')).toEqual([['capture', '6.00']]);
		expect(await ledgerOf('mo-capture-all')).toEqual([['capture', '10.00']]);
	});

	it('an approved void says the payment was voided', async () => {
		const { ids } = await approvedOrder('sale', 'mo-void');
		const out = single(
			await runNode(env.sb, {
				resource: 'payment',
				operation: 'void',
				...ids,
				comment: 'customer cancelled',
				options: WAIT,
			}),
		);
		expect(out).toMatchObject({
			transactionType: 'void',
			voided: true,
			outcome: 'Voided: the gateway approved the void of the whole payment',
		});
	});
});

describe('payouts', () => {
	it('a payout says what was paid and to which card, masked', async () => {
		const out = single(
			await runNode(env.sb, {
				resource: 'payout',
				operation: 'send',
				merchantOrderId: 'mo-payout',
				amount: '25.00',
				currency: 'USD',
				additionalFields: { cardNumber: PAN2, expireMonth: '11', expireYear: '2033', cardholderName: 'JANE ROE' },
				options: WAIT,
			}),
		);
		expect(out).toMatchObject({
			amountPaidOut: '25.00',
			paidTo: 'card 555555******4444',
			outcome: 'Paid out 25.00 USD to card 555555******4444',
		});
		expect(JSON.stringify(out)).not.toContain(PAN2);
	});
});
