// Stage read/ alone: options read strictly (one that cannot be read with certainty stops the item),
// parameters read once per run, and request building (Extra Fields' refused names, generated order IDs).
import { NodeOperationError, type IDataObject } from 'n8n-workflow';

import { operations } from '../../nodes/CardGateway/actions/payment';
import { itemOptions, runOptions } from '../../nodes/CardGateway/actions/common/read/options';
import { nodeParameter } from '../../nodes/CardGateway/actions/common/read/parameters';
import { buildRequest } from '../../nodes/CardGateway/actions/common/read/request';
import { GatewayInputError } from '../../nodes/shared/protocol/errors';
import { fakeContext, saleParameters } from '../support/fake-context';

const sale = operations.sale.spec;

describe('options', () => {
	test('unset options mean their defaults, and nothing is unreadable', () => {
		const options = runOptions({});
		expect(options).toMatchObject({ dryRun: false, concurrency: 1, maxWaitSeconds: 120, timeoutSeconds: 30 });
		expect(options.unreadable).toEqual([]);
	});

	test('switches accept their spellings; the AI switch only an explicit true', () => {
		expect(runOptions({ dryRun: ' YES ' }).dryRun).toBe(true);
		expect(runOptions({ dryRun: 0 }).dryRun).toBe(false);
		expect(runOptions({ allowAiMoneyMovement: 'true' }).allowAiMoneyMovement).toBe(true);
		const ai = runOptions({ allowAiMoneyMovement: 'yes' });
		expect(ai.allowAiMoneyMovement).toBe(false);
		expect(ai.unreadable.map((error) => error.field)).toEqual(['Allow AI Agents to Move Money']);
	});

	test('a Dry Run that cannot be read is listed and read cautiously as on', () => {
		const options = runOptions({ dryRun: 'maybe' });
		expect(options.dryRun).toBe(true);
		expect(options.unreadable).toHaveLength(1);
		expect(options.unreadable[0]).toBeInstanceOf(GatewayInputError);
		expect(options.unreadable[0].message).toMatch(/"Dry Run" cannot be read: it is the text "maybe"/);
	});

	test('an option saved with an expression that gave nothing counts as set', () => {
		expect(runOptions({}, { maxTotalPerRun: '={{ $json.limit }}' }).unreadable).toHaveLength(1);
		expect(runOptions({}, {}).unreadable).toHaveLength(0);
	});

	test('an option that cannot be read stops the item, naming it, before anything is sent', () => {
		const { ctx, sent } = fakeContext({ parameters: { options: { timeoutSeconds: 'soon', dryRun: 'perhaps' } } });
		let error: unknown;
		try {
			itemOptions(ctx, 0);
		} catch (thrown) {
			error = thrown;
		}
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toMatch(/cannot be read.*; nothing was sent$/);
		expect((error as NodeOperationError).description).toMatch(/Also unreadable: "/);
		expect(sent).toEqual([]);
	});

	describe('Act Once per Key, once added, must name something', () => {
		const label = 'Act Once per Key';
		test.each<[string, IDataObject[string]]>([
			['empty', ''],
			['spaces only', '   '],
			['undefined (an expression reading a field the item lacks)', undefined],
			['null', null],
			['a separator only', ':'],
			['separators only, as a template of missing fields gives them', '::'],
			['a dash', '-'],
			['separators and spaces', ': :'],
			['punctuation only', '._/#|'],
			['not a number', NaN],
			['an object', { orderid: 'x' }],
		])('%s: unreadable, naming the option', (_label, value) => {
			const options = runOptions({ actOncePerKey: value }, { actOncePerKey: '={{ $json.orderId }}' });
			expect(options.actOncePerKey).toBe('');
			expect(options.unreadable.map((error) => error.field)).toEqual([label]);
			expect(options.unreadable[0].message).toMatch(
				/^"Act Once per Key" cannot be read: .*a key needs a letter or digit/,
			);
		});

		test.each<[IDataObject[string], string]>([
			['ord-1:approved:sale', 'ord-1:approved:sale'],
			['  ord-1  ', 'ord-1'],
			[':approved:', ':approved:'],
			['Заказ', 'Заказ'],
			[0, '0'],
			[42, '42'],
		])('%j is read as the key %j', (value, key) => {
			const options = runOptions({ actOncePerKey: value });
			expect(options.unreadable).toEqual([]);
			expect(options.actOncePerKey).toBe(key);
		});

		test('not added: no key, nothing unreadable', () => {
			expect(runOptions({}, {})).toMatchObject({ actOncePerKey: '', unreadable: [] });
		});

		test('a key that reads as nothing stops the item before anything is sent', () => {
			const { ctx, sent } = fakeContext({
				parameters: { options: { actOncePerKey: '={{ $json.orderId }}' } },
				resolve: () => ({ actOncePerKey: '' }),
				items: [{ json: { orderid: 'ord-1' } }],
			});
			expect(() => itemOptions(ctx, 0)).toThrow(NodeOperationError);
			expect(() => itemOptions(ctx, 0)).toThrow(
				/^"Act Once per Key" cannot be read: it is an empty text; .*nothing was sent$/,
			);
			expect(sent).toEqual([]);
		});
	});

	test('card numbers in an unreadable value are masked in the message', () => {
		const [error] = runOptions({ maxWaitSeconds: '4444555566661111' }).unreadable;
		expect(error).toBeUndefined(); // a number of seconds, however large, is readable
		const [masked] = runOptions({ endpointId: { pan: '4444555566661111' }, dryRun: '4444555566661111' }).unreadable;
		expect(masked.message).not.toContain('4444555566661111');
	});
});

describe('parameters', () => {
	test('a parameter without an expression is read once per run; one with an expression for every item', () => {
		const reads: string[] = [];
		const { ctx } = fakeContext({
			parameters: { plain: 'a', varying: '={{ $json.x }}' },
			resolve: (name, itemIndex) => {
				reads.push(`${name}:${itemIndex}`);
				return name === 'plain' ? 'a' : `x${itemIndex}`;
			},
		});
		for (const itemIndex of [0, 1, 2]) {
			expect(nodeParameter(ctx, 'plain', itemIndex, '')).toBe('a');
			expect(nodeParameter(ctx, 'varying', itemIndex, '')).toBe(`x${itemIndex}`);
		}
		expect(reads).toEqual(['plain:0', 'varying:0', 'varying:1', 'varying:2']);
	});
});

describe('request building', () => {
	const build = (overrides = {}) => {
		const { ctx } = fakeContext({ parameters: saleParameters(overrides) });
		return buildRequest(ctx, sale, 0, 'control', 'merchant-login');
	};

	test('a sale is spelled on the wire with the amount as typed', () => {
		const built = build({ merchantOrderId: 'inv-1' });
		expect(Object.fromEntries(built.fields)).toMatchObject({
			client_orderid: 'inv-1',
			amount: '10.00',
			currency: 'USD',
		});
		expect(built.clientOrderId).toBe('inv-1');
		expect(built.generatedOrderId).toBeUndefined();
	});

	test('an empty merchant order ID gets a generated one: letters only, the same for the same item of a run', () => {
		const { ctx } = fakeContext({ parameters: saleParameters(), items: [{ json: {} }, { json: {} }] });
		const first = buildRequest(ctx, sale, 0, 'control', 'l');
		const again = buildRequest(ctx, sale, 0, 'control', 'l');
		const second = buildRequest(ctx, sale, 1, 'control', 'l');
		expect(first.generatedOrderId).toBe(true);
		expect(first.clientOrderId).toMatch(/^n8n-[a-z]{14}$/);
		expect(again.clientOrderId).toBe(first.clientOrderId);
		expect(second.clientOrderId).not.toBe(first.clientOrderId);
		const otherRun = buildRequest(fakeContext({ parameters: saleParameters() }).ctx, sale, 0, 'control', 'l');
		expect(otherRun.clientOrderId).not.toBe(first.clientOrderId);
	});

	test('a merchant order ID that reads as a card number is refused', () => {
		expect(() => build({ merchantOrderId: '4444555566661111' })).toThrow(/reads as a card number/);
	});

	test('a required field left empty is refused, naming it', () => {
		expect(() => build({ orderDescription: '' })).toThrow(GatewayInputError);
		expect(() => build({ orderDescription: '' })).toThrow(/Order Description/);
	});

	test.each([
		['control', /the node signs requests itself/],
		['OAUTH_signature', /the node signs requests itself/],
		['AMOUNT', /use the parameter "Amount"/],
		['merchant_order', /use the parameter "Order ID \(Merchant\)"/],
		['login', /login of the credential/],
		['orderid', /takes no gateway order ID/],
		['bad name!', /names must be 1–64/],
	])('Extra Fields may not set "%s"', (name, reason) => {
		expect(() => build({ extraFields: { field: [{ name, value: 'x' }] } })).toThrow(reason);
	});

	test('Extra Fields add a name the operation has no parameter for, once', () => {
		const built = build({ extraFields: { field: [{ name: 'custom_note', value: 'hello' }] } });
		expect(built.fields).toContainEqual(['custom_note', 'hello']);
		expect(() =>
			build({
				extraFields: {
					field: [
						{ name: 'custom_note', value: 'a' },
						{ name: 'CUSTOM_NOTE', value: 'b' },
					],
				},
			}),
		).toThrow(/twice/);
	});
});
