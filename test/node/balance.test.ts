// Balance → Get against the sandbox over HTTP: the endpoint's, the merchant's and one named balance,
// pending payouts counted in what is available, the Required Amount check on decimal strings, and a
// balance the gateway's support has not enabled read as such.
import { formatSignedUnits, readBalances, signedUnits } from '../../nodes/shared/protocol/balance';

import { BANK_DESTINATION, Sandbox, jsonOf, runNode, useSandbox, MERCHANT } from '../support/harness';

const env = useSandbox();

beforeEach(() => env.sb.reset());

const balance = (parameters: Record<string, unknown> = {}) => ({
	resource: 'balance',
	operation: 'get',
	...parameters,
});

describe('the balance reply', () => {
	it('reads the form-encoded reply the docs show, one balance after another when names repeat', () => {
		const body = [
			'type=get-balance-response\n',
			'serial-number=abc\n',
			'name=main-USD\n',
			'amount=-10.50\n',
			'online-balance-live-amount=-12.00\n',
			'amount-buffer-hold=1.5\n',
			'currency=USD\n',
			'name=main+EUR\n',
			'amount=7\n',
			'currency=EUR\n',
		].join('&');
		expect(readBalances(body)).toEqual([
			{ name: 'main-USD', amount: '-10.50', onlineLiveAmount: '-12.00', pendingPayouts: '1.5', currency: 'USD' },
			{ name: 'main EUR', amount: '7', currency: 'EUR' },
		]);
		expect(readBalances('type=validation-error\n&error-message=no\n')).toEqual([]);
		expect(readBalances('{"balances":[{"name":"a","amount":"1.00"}]}')).toEqual([{ name: 'a', amount: '1.00' }]);
	});

	it('adds and subtracts signed decimals exactly', () => {
		const available = signedUnits('-12.00', 'x') - signedUnits('1.5', 'x');
		expect(formatSignedUnits(available, 2)).toBe('-13.50');
		expect(formatSignedUnits(signedUnits('0.1', 'x') + signedUnits('0.2', 'x'), 2)).toBe('0.30');
		expect(formatSignedUnits(signedUnits('1000', 'x'), 0)).toBe('1000');
		expect(() => signedUnits('1.2345', 'Required Amount')).toThrow(/Required Amount/);
	});
});

describe('Balance → Get', () => {
	it("reads the endpoint's balance as decimal strings, with what is available for payouts", async () => {
		const run = await runNode(env.sb, balance());
		expect(run.error).toBeUndefined();
		const [usd] = jsonOf(run);
		expect(jsonOf(run)).toHaveLength(1);
		expect(usd).toMatchObject({
			name: `${MERCHANT.login}-USD`,
			currency: 'USD',
			amount: '10000.00',
			onlineLiveAmount: '10000.00',
			shortTermHold: '0.00',
			rollingReserve: '0.00',
			pendingPayouts: '0.00',
			availableForPayouts: '10000.00',
		});
		const [request] = await env.sb.requests();
		expect(request.path).toMatch(/\/paynet\/api\/v2\/get-balance\/1001$/);
	});

	it('lists every balance of the merchant, or the one named', async () => {
		const all = await runNode(env.sb, balance({ balanceOf: 'merchant' }));
		expect(all.error).toBeUndefined();
		expect(jsonOf(all).map((json) => json.currency)).toEqual(expect.arrayContaining(['USD', 'EUR', 'JPY']));
		const one = await runNode(env.sb, balance({ balanceOf: 'merchant', balanceName: `${MERCHANT.login}-EUR` }));
		expect(jsonOf(one)).toEqual([expect.objectContaining({ currency: 'EUR', amount: '10000.00' })]);
	});

	it('counts a payout without a final status as pending, and says whether the rest covers a run', async () => {
		// Orders stay without a final status until polled this often.
		const sandbox = await Sandbox.start({ pollsBeforeFinal: 1000 });
		try {
			await pendingPayout(sandbox, '9500.00');
			const run = await runNode(sandbox, balance({ options: { requiredAmount: '600.10' } }));
			expect(run.error).toBeUndefined();
			expect(jsonOf(run)[0]).toMatchObject({
				pendingPayouts: '9500.00',
				availableForPayouts: '500.00',
				requiredAmount: '600.10',
				sufficient: false,
				shortfall: '100.10',
			});
			const enough = await runNode(sandbox, balance({ options: { requiredAmount: '120.00 + 379.99 + 0.01' } }));
			expect(jsonOf(enough)[0]).toMatchObject({ requiredAmount: '500.00', sufficient: true, shortfall: '0.00' });
		} finally {
			await sandbox.close();
		}
	});

	it('refuses a Required Amount that is not a sum of decimals, naming it, before anything is sent', async () => {
		for (const requiredAmount of ['1e3', '10,50', '-5.00', '1 + ', '0.0001']) {
			const run = await runNode(env.sb, balance({ options: { requiredAmount } }));
			expect(run.error?.message).toMatch(/Required Amount/);
			expect(run.error?.context?.moneyEffect).toBe('notSent');
		}
		expect(await env.sb.requests()).toHaveLength(0);
	});

	it('a balance the support has not enabled reads as "not enabled for this account"', async () => {
		const sandbox = await Sandbox.start({ balanceEnabled: false });
		try {
			const run = await runNode(sandbox, balance());
			expect(run.error?.name).toBe('NodeApiError');
			expect(run.error?.message).toMatch(/not enabled for this account/);
			expect(run.error?.description).toMatch(/support/);
		} finally {
			await sandbox.close();
		}
	});

	it('a wrong control key is the gateway refusing the signature', async () => {
		const run = await runNode(env.sb, balance(), { credentials: { controlKey: 'WRONG-KEY-0000' } });
		expect(run.error?.name).toBe('NodeApiError');
		expect(run.error?.message).not.toMatch(/not enabled/);
	});
});

/** A payout the sandbox leaves without a final status (its amount counts as pending). */
async function pendingPayout(sandbox: Sandbox, amount: string) {
	const run = await runNode(sandbox, {
		resource: 'payout',
		operation: 'send',
		merchantOrderId: '',
		amount,
		currency: 'USD',
		additionalFields: BANK_DESTINATION,
	});
	expect(run.error).toBeUndefined();
}
