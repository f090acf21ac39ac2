// The event key (issue 31, items 1, 7, 8): genuine callbacks from the sandbox, replayed into the
// trigger with `type` respelled, give one `eventKey` and one canonical `type`; another order, status
// or confirmed type gives another key. A follow-up's amount is never reported as confirmed, however
// it was altered. The examples key on `eventKey`; the "After the Workflow Finished" answer warns.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { CardGatewayTrigger } from '../../nodes/CardGatewayTrigger/CardGatewayTrigger.node';
import {
	callbackControl,
	credentialsFor,
	formPost,
	getRequest,
	hostedFormReturn,
	MERCHANT_KEY,
	parameters,
	refund,
	runSale,
	saleWithCallback,
	trigger,
	withApprovedSale,
} from '../support/trigger';

const fixture = withApprovedSale();

const MODES = {
	off: { confirm: 'off' },
	withFlag: { confirm: 'emitWithConfirmedFlag', confirmTimeout: 5 },
	emitOnly: { confirm: 'emitOnlyWhenConfirmed', confirmTimeout: 5 },
} as const;
const ANSWERS = ['whenReceived', 'afterWorkflowFinished'] as const;

/** One delivery into the trigger; its one emitted item (undefined when it started nothing). */
async function emit(query: Record<string, string>, overrides: Record<string, unknown> = {}) {
	const result = await trigger({
		parameters: parameters(overrides as never),
		credentials: credentialsFor(fixture.sandbox.url),
		request: getRequest(query),
	});
	expect(result.items.length).toBeLessThanOrEqual(1);
	// After the Workflow Finished: n8n answers a started execution when it ends, not here.
	const answeredLater = overrides.answerGateway === 'afterWorkflowFinished' && result.items.length > 0;
	expect(result.status).toBe(answeredLater ? undefined : 200);
	return result.items[0];
}

/** The genuine callback with its (unsigned) transaction type given under another spelling and name. */
function respelled(query: Record<string, string>, spelling: string, parameter = 'type'): Record<string, string> {
	const fields = { ...query, [parameter]: spelling };
	if (parameter !== 'type') delete fields.type;
	return fields;
}

const SPELLINGS = ['sale', 'Sale', 's-ale', 'sa_le', ' SALE ', 'S.A.L.E'];

describe('one event, one key', () => {
	it.each(Object.keys(MODES) as Array<keyof typeof MODES>)(
		'every spelling of the type gives one key and the canonical type (confirm %s, both answer modes)',
		async (mode) => {
			const key = `${fixture.approved.orderid}:approved:sale`;
			const items = [];
			for (const answerGateway of ANSWERS)
				for (const spelling of SPELLINGS)
					for (const parameter of ['type', 'transaction-type', 'transaction_type'])
						items.push(
							await emit(respelled(fixture.approved.callback.query, spelling, parameter), {
								...MODES[mode],
								answerGateway,
							}),
						);
			expect(items).toHaveLength(ANSWERS.length * SPELLINGS.length * 3);
			const confirmed = mode !== 'off';
			for (const item of items)
				expect(item).toMatchObject({
					eventKey: key,
					eventKeyConfirmed: confirmed,
					type: 'sale',
					kind: 'payment',
					amountConfirmed: confirmed,
				});
			expect(new Set(items.map((item) => item!.eventKey))).toEqual(new Set([key]));
		},
	);

	it('a type the trigger does not know reads without case or separators: one key, never confirmed', async () => {
		const items = await Promise.all(
			['Foo_Bar', 'foo-bar', ' FOOBAR'].map((spelling) =>
				emit(respelled(fixture.approved.callback.query, spelling), MODES.withFlag),
			),
		);
		for (const item of items)
			expect(item).toMatchObject({
				type: 'foobar',
				kind: 'foobar',
				eventKey: `${fixture.approved.orderid}:approved:foobar`,
				eventKeyConfirmed: false,
				confirmed: false,
			});
		// Under Emit Only When Confirmed such a spelling starts nothing.
		expect(await emit(respelled(fixture.approved.callback.query, 'Foo_Bar'), MODES.emitOnly)).toBeUndefined();
	});

	it('another order or another status is another key', async () => {
		const other = await saleWithCallback(fixture.sandbox, fixture.receiver, { amount: '10.50', cvv: '123' });
		const first = await emit(fixture.approved.callback.query);
		const second = await emit(other.callback.query);
		expect(second!.eventKey).toBe(`${other.orderid}:approved:sale`);
		expect(second!.eventKey).not.toBe(first!.eventKey);
		// The same order with another status, signed as the gateway signs it.
		const { orderid, client_orderid } = fixture.approved.callback.query;
		const declined = {
			...fixture.approved.callback.query,
			status: 'declined',
			control: callbackControl('declined', orderid, client_orderid, MERCHANT_KEY),
		};
		expect((await emit(declined))!.eventKey).toBe(`${orderid}:declined:sale`);
	});

	it('another confirmed type of the same order is another key', async () => {
		const sale = await runSale(fixture.sandbox, { amount: '10.50', notifyUrl: fixture.receiver.url });
		const [saleCallback] = await fixture.receiver.waitFor(sale.orderid, 1);
		const saleItem = await emit(saleCallback.query, MODES.withFlag);
		await refund(fixture.sandbox, sale, '3.00');
		const reversalCallback = (await fixture.receiver.waitFor(sale.orderid, 2))[1];
		const reversalItem = await emit(respelled(reversalCallback.query, 'Re-Versal'), MODES.withFlag);
		expect(saleItem).toMatchObject({ eventKey: `${sale.orderid}:approved:sale`, eventKeyConfirmed: true });
		expect(reversalItem).toMatchObject({
			type: 'reversal',
			kind: 'refund',
			eventKey: `${sale.orderid}:approved:reversal`,
			eventKeyConfirmed: true,
		});
	});

	it('a customer return has a key of its own, from signed facts only', async () => {
		const { fields, sale } = await hostedFormReturn(fixture.sandbox, { cvv: '123' });
		const result = await trigger({
			parameters: parameters({
				customerReturn: true,
				successUrl: 'https://shop.example.com/ok',
				failureUrl: 'https://shop.example.com/failed',
			} as never),
			credentials: credentialsFor(fixture.sandbox.url),
			request: formPost(fields, { webhookName: 'setup' }),
		});
		expect(result.items[0]).toMatchObject({
			event: 'customerReturn',
			eventKey: `${sale.orderid}:approved:customer-return`,
			eventKeyConfirmed: true,
			amountConfirmed: false,
		});
	});
});

describe('a follow-up amount is never confirmed (item 7)', () => {
	let reversal: Record<string, string>;

	beforeAll(async () => {
		const sale = await runSale(fixture.sandbox, { amount: '12.99', notifyUrl: fixture.receiver.url });
		await refund(fixture.sandbox, sale, '12.99');
		reversal = (await fixture.receiver.waitFor(sale.orderid, 2))[1].query;
		expect(reversal).toMatchObject({ type: 'reversal', amount: '12.99' });
	});

	it.each(Object.keys(MODES) as Array<keyof typeof MODES>)(
		'a refund callback altered 12.99 → 1.00 is nowhere a confirmed 1.00 (confirm %s)',
		async (mode) => {
			const item = await emit({ ...reversal, amount: '1.00' }, MODES[mode]);
			expect(item).toMatchObject({ amountConfirmed: false, eventKeyConfirmed: mode !== 'off' });
			// Confirmed, the item reports no amount of its own: the forged one stays in `raw`, as received.
			if (mode !== 'off') {
				expect(item).not.toHaveProperty('amount');
				expect(item).toMatchObject({ confirmation: { amount: '0.00', amountChecked: false } });
			}
			expect((item!.raw as Record<string, string>).amount).toBe('1.00');
		},
	);

	it('an altered sale amount is refuted, so not confirmed either', async () => {
		const item = await emit({ ...fixture.approved.callback.query, amount: '1.00' }, MODES.withFlag);
		expect(item).toMatchObject({ confirmed: false, amount: '1.00', amountConfirmed: false });
	});
});

describe('the examples and the option text', () => {
	const examples = join(__dirname, '..', '..', 'examples');
	const read = (name: string) => readFileSync(join(examples, name), 'utf8');

	it('the examples key on eventKey, never on orderid:status:type typed out', () => {
		const once = JSON.parse(read('refund-once-per-callback.json')) as {
			nodes: Array<{ name: string; parameters: { options?: { actOncePerKey?: string } } }>;
		};
		expect(once.nodes.find((node) => node.name === 'Refund 3.00')!.parameters.options!.actOncePerKey).toBe(
			'={{ $json.eventKey }}',
		);
		const exactlyOnce = read('callback-exactly-once.json');
		expect(exactlyOnce).toContain('"dedupeValue": "={{ $json.eventKey }}"');
		for (const name of readdirSync(examples).filter((file) => file.endsWith('.json')))
			expect([name, read(name).includes('$json.status }}:{{ $json.type')]).toEqual([name, false]);
	});

	it('the refund alert shows the callback’s amount as unconfirmed', () => {
		expect(read('refund-alert.json')).toContain(
			"$json.amountConfirmed ? $json.amount + ' ' + $json.currency + ' refunded, amount confirmed by the gateway' : $json.raw.amount + ' ' + $json.currency + ' refunded as the callback reports (unconfirmed)'",
		);
	});

	it('"After the Workflow Finished" warns that a resend repeats the money step without Act Once per Key', () => {
		const answer = new CardGatewayTrigger().description.properties.find((p) => p.name === 'answerGateway')!;
		const after = answer.options!.find((option) => 'value' in option && option.value === 'afterWorkflowFinished');
		expect((after as { description: string }).description).toContain(
			'Without Act Once per Key (keyed on the item’s eventKey) on the node that moves money, a later node failing makes the gateway resend and the refund, capture or payout run again.',
		);
	});
});
