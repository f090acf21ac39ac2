// Campaign 3 — bad input. Property-based (fast-check, fixed seed) over every operation of the Card
// Gateway node: one parameter gets a bad value (through an expression, one value per input item),
// the others are valid. The node must stop each item with a NodeOperationError naming the field and
// the item, before anything is sent: the sandbox's request log stays empty.
import fc from 'fast-check';
import type { IDataObject, INodeParameters, INodeProperties } from 'n8n-workflow';

import { CardGateway } from '../nodes/CardGateway/CardGateway.node';

import { CARD, CUSTOMER, PAN2, RETURN_URL, Sandbox, runNode } from '../test/support/harness';
import { Tally, nodeOutput, type CampaignResult } from '../test/support/campaign';

interface OperationShape {
	resource: string;
	operation: string;
	/**
	 * Runs once for all items (Get Many, Reconcile, Balance → Get: no Extra Fields): a bad value stops
	 * the run with one error (one error item under Continue On Fail), naming the field.
	 */
	runLevel: boolean;
	required: INodeProperties[];
	main: INodeProperties[];
	additional: INodeProperties[];
}

/** Every operation of the node and its parameters, read from the node's own description. */
export function operationShapes(): OperationShape[] {
	const shapes = new Map<string, OperationShape>();
	for (const property of new CardGateway().description.properties) {
		const show = property.displayOptions?.show as { resource?: string[]; operation?: string[] } | undefined;
		if (!show?.resource || !show.operation || property.name === 'operation' || property.type === 'notice') continue;
		const key = `${show.resource[0]}.${show.operation[0]}`;
		if (!shapes.has(key))
			shapes.set(key, {
				resource: show.resource[0],
				operation: show.operation[0],
				runLevel: true,
				required: [],
				main: [],
				additional: [],
			});
		const shape = shapes.get(key)!;
		if (property.name === 'additionalFields') shape.additional.push(...((property.options ?? []) as INodeProperties[]));
		else if (property.name === 'extraFields') shape.runLevel = false;
		else if (property.name === 'options') continue;
		else (property.required ? shape.required : shape.main).push(property);
	}
	return [...shapes.values()];
}

/** A valid value for every parameter the campaign fills in. */
const VALID: Record<string, string> = {
	gatewayOrderId: '100001',
	cardReferenceId: '7001',
	destinationCardReferenceId: '7002',
	sourceCardReferenceId: '7003',
	recurringPaymentId: '8001',
	sourceRecurringPaymentId: '8002',
	destinationRecurringPaymentId: '8003',
	amount: '10.00',
	currency: 'USD',
	...CARD,
	destinationCardNumber: PAN2,
	cvv: '123',
	...CUSTOMER,
	redirectUrl: RETURN_URL,
	orderDescription: 'Reliability order',
	comment: 'reliability',
	cRes: 'eyJ0cmFuc1N0YXR1cyI6IlkifQ',
	paRes: 'eJzLSM3JyVcozy/KSQEAGgQEXQ',
	threeDSCompInd: 'Y',
	interval: '1',
	period: 'monthly',
	cardRole: 'SRC',
	recurrentScenario: 'REGULAR',
	createdFrom: '2026-11-01 00:00:00',
	createdTo: '2026-11-02 00:00:00',
	expectedStatus: 'approved',
};

type Category =
	| 'amount'
	| 'currency'
	| 'card'
	| 'month'
	| 'year'
	| 'cvv'
	| 'id'
	| 'longId'
	| 'email'
	| 'url'
	| 'country'
	| 'count'
	| 'choice'
	| 'text'
	| 'missing'
	| 'object';

const CATEGORY_OF: Record<string, Category> = {
	amount: 'amount',
	currency: 'currency',
	cardNumber: 'card',
	destinationCardNumber: 'card',
	expireMonth: 'month',
	expireYear: 'year',
	cvv: 'cvv',
	merchantOrderId: 'longId',
	gatewayOrderId: 'longId',
	cardReferenceId: 'longId',
	destinationCardReferenceId: 'id',
	sourceCardReferenceId: 'id',
	recurringPaymentId: 'id',
	sourceRecurringPaymentId: 'id',
	destinationRecurringPaymentId: 'id',
	email: 'email',
	redirectUrl: 'url',
	serverCallbackUrl: 'url',
	notifyUrl: 'url',
	siteUrl: 'url',
	country: 'country',
	interval: 'count',
	period: 'choice',
	cardRole: 'choice',
	recurrentScenario: 'choice',
	threeDSCompInd: 'choice',
	orderDescription: 'text',
	comment: 'text',
	cardholderName: 'text',
	address: 'text',
	city: 'text',
	phone: 'text',
};

const CONTROL = fc.constantFrom('\u0000', '\u0001', '\u0008', '\u000b', '\u001b', '\u007f');
// Inside the value: leading/trailing whitespace (\u000b included) is trimmed by design, not refused.
const textWithControl = fc
	.tuple(fc.string({ maxLength: 8 }), CONTROL, fc.string({ maxLength: 8 }))
	.map(([a, c, b]) => `${a}x${c}y${b}`);
const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
const objectValue = fc.oneof(
	fc.constant({}),
	fc.constant([]),
	fc.constant({ amount: '10.00' }),
	fc.constant(['10.00', 'USD']),
	fc.constant(null).map(() => ({ nested: { deep: 1 } })),
);

/** Luhn check digit (to build numbers that are valid except for one digit). */
function luhnFails(number: string): string {
	let sum = 0;
	for (let i = 0; i < number.length; i++) {
		let d = Number(number[number.length - 1 - i]);
		if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
		sum += d;
	}
	if (sum % 10 !== 0) return number;
	const last = Number(number[number.length - 1]);
	return number.slice(0, -1) + String((last + 1) % 10);
}

const BAD: Record<Exclude<Category, 'missing' | 'object'>, fc.Arbitrary<unknown>> = {
	amount: fc.oneof(
		fc.integer({ min: 1, max: 99999 }).map((n) => `-${n / 100}`),
		fc.constantFrom(
			'NaN',
			'Infinity',
			'-Infinity',
			'1e3',
			'2.5E2',
			'1e-2',
			'0',
			'0.00',
			'000',
			'1,000.00',
			'10 50',
			'+5',
			'.5',
			'5.',
			'١٠',
			'１０',
			'0x10',
			'10.5.1',
			'$10',
		),
		fc
			.tuple(
				fc.integer({ min: 0, max: 999 }),
				digits(3, 8).filter((d) => /[1-9]/.test(d)),
			)
			.map(([i, d]) => `${i}.${d}`),
		digits(11, 40).map((d) => `9${d}`),
		fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -5, -0.01, 0, 1e21, 0.1 + 0.2, 10.005),
	),
	currency: fc.oneof(
		fc.constantFrom('US', 'USDD', 'U$D', '12A', '$', 'U S', '€UR', 'ÜSD', 'usd1', 'EURO', 'US-D'),
		fc.stringMatching(/^[A-Z]{1,2}$|^[A-Z]{4,6}$/),
	),
	card: fc.oneof(
		digits(12, 19).map(luhnFails),
		digits(1, 11),
		digits(20, 30),
		fc.constantFrom('4444 5555 6666 111x', '4444|5555|6666|1111', '٤٤٤٤٥٥٥٥٦٦٦٦١١١١', '4444555566661111\u0000', 'card'),
	),
	month: fc.oneof(
		fc.constantFrom('0', '00', '13', '1.5', '-1', 'ab', '٠١', '1 2', '123'),
		fc.integer({ min: 13, max: 999 }).map(String),
	),
	year: fc.oneof(fc.constantFrom('203', '20355', 'abcd', '20 35', '٢٠٣٥', '2020', '19', '2000'), digits(5, 8)),
	cvv: fc.oneof(fc.constantFrom('12', '12345', 'abc', '1 2 3', '١٢٣', '-12'), digits(5, 9)),
	id: textWithControl,
	longId: fc.oneof(
		textWithControl,
		fc.string({ minLength: 129, maxLength: 300 }).filter((s) => s.trim().length > 128),
	),
	email: fc.constantFrom('no-at-sign', 'a@b', 'a b@c.de', '@x.yz', 'x@', 'x@@y.z', 'x@y .z'),
	url: fc.constantFrom(
		'ftp://example.com/x',
		'notaurl',
		'javascript:alert(1)',
		'//example.com',
		'http://',
		'mailto:a@b.c',
		'example.com/return',
	),
	country: fc.constantFrom('USA', 'U1', 'Ü', '12', 'U S', 'X'),
	count: fc.constantFrom('0', '-1', '10000', '1.5', 'x', '1e3'),
	choice: fc.constantFrom('BOGUS', 'monthly; DROP', 'approved', 'Y\u0000'),
	text: textWithControl,
};

interface Case {
	shape: number;
	target: number;
	category: Category;
	values: unknown[];
	continueOnFail: boolean;
}

function targetsOf(
	shape: OperationShape,
): Array<{ property: INodeProperties; place: 'top' | 'additional'; required: boolean }> {
	return [
		...shape.required.map((property) => ({ property, place: 'top' as const, required: true })),
		...shape.main.map((property) => ({ property, place: 'top' as const, required: false })),
		...shape.additional.map((property) => ({ property, place: 'additional' as const, required: false })),
	];
}

function caseArbitrary(shapes: OperationShape[]): fc.Arbitrary<Case> {
	// Reconcile's Merchant Order ID is a record's, compared and never sent: one no gateway could hold is
	// reported missing at the gateway, not refused.
	const targetsAt = (shape: number) =>
		targetsOf(shapes[shape])
			.map((target, index) => ({ ...target, index }))
			.filter((t) => CATEGORY_OF[t.property.name] || t.required)
			.filter((t) => !(shapes[shape].runLevel && t.property.name === 'merchantOrderId'));
	// An operation with nothing to get wrong (every parameter optional and free, e.g. Balance → Get) has no case.
	const withTargets = shapes.map((_, shape) => shape).filter((shape) => targetsAt(shape).length);
	return fc.constantFrom(...withTargets).chain((shape) => {
		const targets = targetsAt(shape);
		return fc.constantFrom(...targets).chain((target) => {
			const categories: Category[] = ['object'];
			if (CATEGORY_OF[target.property.name])
				categories.push(CATEGORY_OF[target.property.name], CATEGORY_OF[target.property.name]);
			if (target.required) categories.push('missing');
			return fc.constantFrom(...categories).chain((category) => {
				const value: fc.Arbitrary<unknown> =
					category === 'missing'
						? fc.constantFrom('', '   ', null)
						: category === 'object'
							? objectValue
							: BAD[category];
				return fc.record({
					shape: fc.constant(shape),
					target: fc.constant(target.index),
					category: fc.constant(category),
					values: fc.array(value, { minLength: 1, maxLength: 3 }),
					continueOnFail: fc.boolean(),
				});
			});
		});
	});
}

/** The node parameters of a case: every required field valid, the target an expression over $json.v. */
function parametersOf(
	shape: OperationShape,
	target: INodeProperties,
	place: 'top' | 'additional',
	baseOrderId: string,
	category: Category,
): INodeParameters {
	const parameters: INodeParameters = { resource: shape.resource, operation: shape.operation };
	// One order ID per item: a money-moving batch with a repeated ID is refused as a whole.
	const orderId = `=${baseOrderId}-{{ $itemIndex }}`;
	for (const property of shape.required)
		parameters[property.name] = property.name === 'merchantOrderId' ? orderId : (VALID[property.name] ?? 'x');
	for (const property of shape.main) {
		if (property.name === 'merchantOrderId') parameters.merchantOrderId = orderId;
		// Reconcile's record fields default to expressions over the item, which here holds only the case's value.
		else if (String(property.default).startsWith('=') && VALID[property.name])
			parameters[property.name] = VALID[property.name];
	}
	const additional: IDataObject = {};
	const expression = '={{ $json.v }}';
	if (place === 'top') parameters[target.name] = expression;
	else additional[target.name] = expression;
	// A past year is only refused with its month: give the month too.
	if (target.name === 'expireYear' && category === 'year' && place === 'additional') additional.expireMonth = '12';
	if (Object.keys(additional).length) parameters.additionalFields = additional as INodeParameters;
	parameters.options = { timeoutSeconds: 2 };
	return parameters;
}

const TYPE_ERROR =
	/TypeError|Cannot read propert|is not a function|is not iterable|undefined is not|of undefined|of null/;

export async function badInputCampaign({ seed, runs }: { seed: number; runs: number }): Promise<CampaignResult> {
	const started = Date.now();
	const shapes = operationShapes();
	const tally = new Tally([
		'NodeOperationError naming the field and the item',
		'no request reached the sandbox',
		'never an uncaught TypeError',
		'accepted odd IDs arrive intact and correctly signed',
	]);
	const cases = fc.sample(caseArbitrary(shapes), { seed, numRuns: runs });
	const sb = await Sandbox.start();
	const outputs: string[] = [];
	const byCategory: Record<string, number> = {};
	const covered = new Set<string>();
	try {
		for (const [n, testCase] of cases.entries()) {
			const shape = shapes[testCase.shape];
			const target = targetsOf(shape)[testCase.target];
			// The panel's label; errors name the field without the required fields' " *" (define/operation.ts).
			const fieldName = target.property.displayName.replace(/ \*$/, '');
			const label = `${shape.resource}.${shape.operation} "${fieldName}" (${testCase.category}) = ${JSON.stringify(testCase.values).slice(0, 120)}`;
			byCategory[testCase.category] = (byCategory[testCase.category] ?? 0) + 1;
			covered.add(`${shape.resource}.${shape.operation}`);
			await sb.reset();
			const parameters = parametersOf(shape, target.property, target.place, `rel3-${seed}-${n}`, testCase.category);
			const run = await runNode(sb, parameters, {
				input: testCase.values.map((v) => ({ v }) as IDataObject),
				continueOnFail: testCase.continueOnFail,
			});
			outputs.push(nodeOutput(run));
			const name = `"${fieldName}"`;
			let named: boolean;
			if (shape.runLevel) {
				named = testCase.continueOnFail
					? run.items.length === 1 &&
						String(run.items[0].json.error ?? '').includes(name) &&
						(run.items[0].error as { name?: string } | undefined)?.name === 'NodeOperationError'
					: run.error?.name === 'NodeOperationError' && run.error.message.includes(name) && run.items.length === 0;
			} else if (testCase.continueOnFail) {
				named =
					run.items.length === testCase.values.length &&
					run.items.every((item, i) => {
						const error = item.error as { name?: string; context?: { itemIndex?: number } } | undefined;
						return (
							typeof item.json.error === 'string' &&
							item.json.error.includes(name) &&
							(item.pairedItem as { item: number }).item === i &&
							error?.name === 'NodeOperationError' &&
							error.context?.itemIndex === i
						);
					});
			} else {
				named =
					run.error?.name === 'NodeOperationError' &&
					run.error.message.includes(name) &&
					run.error.context?.itemIndex === 0 &&
					run.items.length === 0;
			}
			tally.check(
				'NodeOperationError naming the field and the item',
				named,
				() =>
					`${label}: ${run.error ? `${run.error.name}: ${run.error.message} (item ${run.error.context?.itemIndex})` : JSON.stringify(run.items.map((i) => i.json)).slice(0, 300)}`,
			);
			const requests = await sb.requests();
			tally.check(
				'no request reached the sandbox',
				requests.length === 0,
				() => `${label}: ${requests.map((r) => `${r.op} ${r.result}`).join(', ')}`,
			);
			const texts = [
				run.error?.name ?? '',
				run.error?.message ?? '',
				...run.items.map((item) => String(item.json.error ?? '')),
			].join(' ');
			tally.check('never an uncaught TypeError', !TYPE_ERROR.test(texts), () => `${label}: ${texts.slice(0, 300)}`);
		}

		// IDs with separators and unicode are legitimate: they must be sent as typed and signed right
		// (the gateway verifies the control over the exact value), or refused with a named error.
		const odd = fc.sample(
			fc
				.oneof(
					fc
						.tuple(
							fc.string({ minLength: 1, maxLength: 10 }),
							fc.constantFrom('&', '=', '+', '%', '%20', ';', '/', '?', '#', ' ', '|', ',', '"', "'", '<', '\\'),
							fc.string({ minLength: 1, maxLength: 10 }),
						)
						.map(([a, s, b]) => `${a}${s}${b}`),
					fc
						.tuple(
							fc.constantFrom('заказ', '注文', 'طلب', 'é', 'e\u0301', '🙂', 'Ω', '\u200b', '\u202e'),
							fc.string({ minLength: 1, maxLength: 10 }),
						)
						.map(([u, b]) => `${u}-${b}`),
				)
				// eslint-disable-next-line no-control-regex
				.filter((id) => id.trim().length > 0 && !/[\u0000-\u001f\u007f]/.test(id)),
			{ seed: seed + 1, numRuns: Math.max(10, Math.floor(runs / 10)) },
		);
		for (const id of odd) {
			await sb.reset();
			const run = await runNode(
				sb,
				{
					resource: 'transaction',
					operation: 'getStatus',
					merchantOrderId: `={{ $json.v }}`,
					options: { timeoutSeconds: 2 },
				},
				{ input: [{ v: id }] },
			);
			outputs.push(nodeOutput(run));
			const requests = await sb.requests();
			const intact = run.error
				? run.error.name === 'NodeOperationError' &&
					run.error.message.includes('"Order ID (Merchant)"') &&
					requests.length === 0
				: requests.length === 1 &&
					requests[0].client_orderid === id.trim() &&
					run.items[0]?.json.errorMessage === 'Order not found';
			tally.check(
				'accepted odd IDs arrive intact and correctly signed',
				intact,
				() =>
					`${JSON.stringify(id)}: ${run.error?.message ?? JSON.stringify(run.items[0]?.json)} / sandbox saw ${JSON.stringify(requests.map((r) => [r.client_orderid, r.result]))}`,
			);
		}
		return {
			id: 'badInput',
			title: 'Bad input',
			seed,
			cases: cases.length + odd.length,
			injected: `fast-check 3.23.2, seed ${seed}: ${cases.length} cases, each one parameter of one of the ${shapes.length} operations set through an expression to 1–3 bad values (one per input item): amounts (negative, NaN, exponent, too many decimals, huge, zero, separators, non-ASCII digits, non-finite numbers), currencies, card numbers (Luhn, length, separators, unicode digits), expiry month/year (range, shape, past), CVV, IDs (control characters, over 128 characters), emails, URLs, countries, counts, option values, free text with control characters, missing required fields, expressions that resolve to objects/lists/null; with and without Continue On Fail. Plus ${odd.length} IDs with separators and unicode sent through Transaction → Get Status`,
			invariants: tally.list(),
			figures: {
				'operations covered': `${covered.size} of ${shapes.length}`,
				categories: Object.entries(byCategory)
					.map(([k, v]) => `${k} ${v}`)
					.join(', '),
			},
			wallMs: Date.now() - started,
			outputs,
		};
	} finally {
		await sb.close();
	}
}
