// Balance → Get against the sandbox over HTTP: the endpoint's, the merchant's and one named balance,
// what is available only from what the reply shows as free (live amount less pending payouts, or the
// balance less every hold it lists), the Required Amount check on decimal strings in one currency,
// replies that are not a balance refused, one read for the run, and a balance the gateway's support
// has not enabled read as such. The generated cases are in test/judges/balance-judge.test.ts.
import { formatSignedUnits, readBalances, signedUnits } from '../../nodes/shared/protocol/balance';

import { BANK_DESTINATION, Sandbox, jsonOf, runNode, useSandbox, MERCHANT } from '../support/harness';

const { startHostileGateway } = require('../support/hostile-gateway') as {
	startHostileGateway(
		url: string,
		plan: () => { reply: { status: number; type: string; body: string } },
	): Promise<{ url: string; close(): Promise<void> }>;
};

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
			availableFrom: 'online-balance-live-amount − amount-buffer-hold',
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
			const run = await runNode(sandbox, balance({ options: { requiredAmount: '600.10 USD' } }));
			expect(run.error).toBeUndefined();
			expect(jsonOf(run)[0]).toMatchObject({
				pendingPayouts: '9500.00',
				availableForPayouts: '500.00',
				requiredAmount: '600.10',
				requiredCurrency: 'USD',
				sufficient: false,
				shortfall: '100.10',
			});
			const enough = await runNode(
				sandbox,
				balance({ options: { requiredAmount: '120.00 USD + 379.99 usd + 0.01 USD' } }),
			);
			expect(jsonOf(enough)[0]).toMatchObject({ requiredAmount: '500.00', sufficient: true, shortfall: '0.00' });
		} finally {
			await sandbox.close();
		}
	});

	it('refuses a Required Amount that is not a sum of decimals, naming it, before anything is sent', async () => {
		for (const requiredAmount of ['1e3 USD', '10,50 USD', '-5.00 USD', '1 USD + ', '0.001 USD', '1000.5 JPY']) {
			const run = await runNode(env.sb, balance({ options: { requiredAmount } }));
			expect(run.error?.message).toMatch(/Required Amount/);
			expect(run.error?.context?.moneyEffect).toBe('notSent');
		}
		expect(await env.sb.requests()).toHaveLength(0);
	});

	it('refuses a Required Amount without its currency, or adding two currencies, before anything is sent', async () => {
		for (const [requiredAmount, says] of [
			['500.00', /currency after each amount.*"500.00"/],
			['120.00 USD + 75.50', /currency after each amount.*"75.50"/],
			['120.00 USD + 75.50 EUR', /adds USD and EUR/],
			['500.00 US', /currency after each amount/],
		] as const) {
			const run = await runNode(env.sb, balance({ options: { requiredAmount } }));
			expect(run.error?.name).toBe('NodeOperationError');
			expect(run.error?.message).toMatch(/^"Required Amount"/);
			expect(run.error?.message).toMatch(says);
		}
		expect(await env.sb.requests()).toHaveLength(0);
	});

	it('compares per currency: a EUR balance never covers a USD run, however large', async () => {
		const run = await runNode(env.sb, balance({ balanceOf: 'merchant', options: { requiredAmount: '1.00 USD' } }));
		expect(run.error).toBeUndefined();
		const byCurrency = Object.fromEntries(jsonOf(run).map((json) => [json.currency, json]));
		expect(byCurrency.USD).toMatchObject({ sufficient: true, requiredCurrency: 'USD' });
		for (const other of ['EUR', 'JPY']) {
			expect(byCurrency[other]).toMatchObject({ sufficient: false, shortfall: null, requiredCurrency: 'USD' });
			expect(byCurrency[other].sufficientReason).toMatch(new RegExp(`in ${other}; the run needs 1.00 USD`));
		}
	});

	it('runs once for the run, not once per input item', async () => {
		const run = await runNode(env.sb, balance(), { input: [{ n: 1 }, { n: 2 }, { n: 3 }] });
		expect(run.error).toBeUndefined();
		expect(jsonOf(run)).toHaveLength(1);
		expect(await env.sb.requests()).toHaveLength(1);
	});

	it('a parameter whose expression differs between items stops the run, naming it, before anything is sent', async () => {
		const before = (await env.sb.requests()).length;
		const run = await runNode(env.sb, balance({ options: { requiredAmount: '={{ $json.need }} USD' } }), {
			input: [{ need: '10.00' }, { need: '10.00' }, { need: '900.00' }],
		});
		expect(run.error?.message).toMatch(/"Options" differs between input items .*item 3/);
		expect(run.error?.context?.moneyEffect).toBe('notSent');
		expect(await env.sb.requests()).toHaveLength(before);
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

describe('Balance → Get: only what is truly available is sufficient', () => {
	const terms = (body: Record<string, unknown>) =>
		env.sb.admin('POST', 'balance-terms', { merchant: MERCHANT.login, currency: 'USD', ...body });

	it('without a live amount, holds and reserve the reply lists are taken off: 10000.00 held is 0.00 available', async () => {
		await terms({ shortTermHold: '6000.00', rollingReserve: '4000.00', omit: ['online-balance-live-amount'] });
		const run = await runNode(env.sb, balance({ options: { requiredAmount: '500.00 USD' } }));
		expect(run.error).toBeUndefined();
		const [usd] = jsonOf(run);
		expect(usd.onlineLiveAmount).toBeUndefined();
		expect(usd).toMatchObject({
			amount: '10000.00',
			availableForPayouts: '0.00',
			availableFrom: 'amount − total-short-term-hold-amount − total-rolling-reserve-amount − amount-buffer-hold',
			sufficient: false,
			shortfall: '500.00',
		});
		expect(usd.availableReason).toMatch(/no online-balance-live-amount/);
	});

	it('with a live amount, it is what counts (the hold is already out of it)', async () => {
		await terms({ shortTermHold: '9600.00' });
		const run = await runNode(env.sb, balance({ options: { requiredAmount: '500.00 USD' } }));
		expect(jsonOf(run)[0]).toMatchObject({
			amount: '10000.00',
			onlineLiveAmount: '400.00',
			availableForPayouts: '400.00',
			availableFrom: 'online-balance-live-amount − amount-buffer-hold',
			sufficient: false,
			shortfall: '100.00',
		});
	});

	it('without a live amount and without every hold, "sufficient" is unknown (null, with the reason), never true', async () => {
		for (const omit of [
			['online-balance-live-amount', 'total-rolling-reserve-amount'],
			['online-balance-live-amount', 'amount-buffer-hold'],
			['amount-buffer-hold'],
		]) {
			await terms({ omit });
			const run = await runNode(env.sb, balance({ options: { requiredAmount: '0.01 USD' } }));
			expect(run.error).toBeUndefined();
			const [usd] = jsonOf(run);
			expect(usd).toMatchObject({
				amount: '10000.00',
				availableForPayouts: null,
				availableFrom: null,
				sufficient: null,
			});
			expect(usd.sufficientReason).toMatch(new RegExp(`cannot be told.*${omit.at(-1)}`));
		}
	});
});

describe('Balance → Get: a reply that is not a balance is refused', () => {
	const through = async (reply: { status: number; type: string; body: string }) => {
		const proxy = await startHostileGateway(env.sb.url, () => ({ reply }));
		try {
			return await runNode(env.sb, balance({ options: { requiredAmount: '500.00 USD' } }), {
				credentials: { baseUrl: `${proxy.url}/paynet` },
			});
		} finally {
			await proxy.close();
		}
	};

	it("an HTTP 400 validation error that carries amount and currency: the gateway's message and code", async () => {
		const run = await through({
			status: 400,
			type: 'text/html;charset=utf-8',
			body: 'type=validation-error\n&error-message=Invalid+login\n&error-code=2\n&amount=999999.00\n&currency=USD\n',
		});
		expect(run.items).toHaveLength(0);
		expect(run.error?.name).toBe('NodeApiError');
		expect(run.error?.message).toBe('Invalid login (code 2)');
		expect(run.error?.httpCode).toBe('400');
	});

	it("an order's status reply with amount and currency is not a balance", async () => {
		for (const body of [
			'type=status-response\n&status=approved\n&amount=999999.00\n&currency=USD\n&paynet-order-id=1\n',
			JSON.stringify({ status: 'approved', amount: '999999.00', currency: 'USD', 'paynet-order-id': '1' }),
		]) {
			const run = await through({ status: 200, type: 'text/html;charset=utf-8', body });
			expect(run.items).toHaveLength(0);
			expect(run.error?.name).toBe('NodeApiError');
			expect(run.error?.message).toMatch(/not a balance/);
		}
	});

	it('an HTTP 500 with a balance in its body is the server failing', async () => {
		const run = await through({
			status: 500,
			type: 'text/html',
			body: 'type=get-balance-response\n&amount=999999.00\n&currency=USD\n',
		});
		expect(run.items).toHaveLength(0);
		expect(run.error?.name).toBe('NodeApiError');
		expect(run.error?.httpCode).toBe('500');
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
