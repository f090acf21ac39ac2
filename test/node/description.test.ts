// The node's public contract: type name, resources and operations (values never change), the
// codex file, and the parameters every operation offers.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { CardGateway } from '../../nodes/CardGateway/CardGateway.node';
import { gatewayOrderId, merchantOrderId } from '../../nodes/CardGateway/actions/common/core/fields';
import { defineOperation, defineResource } from '../../nodes/CardGateway/actions/common/define/operation';
import { movesMoney } from '../../nodes/CardGateway/actions/common/core/facts';

const { description } = new CardGateway();
const properties = description.properties;

const CONTRACT: Record<string, string[]> = {
	balance: ['get'],
	cardReference: ['create', 'createV4', 'getInfo', 'rebill', 'rebillPreauth', 'rebillSale'],
	hostedForm: ['payment', 'payout', 'preauth', 'sale', 'transfer', 'verifyAccount'],
	payment: ['capture', 'preauth', 'return', 'sale', 'saleWithToken', 'verifyAccount', 'verifyAccountSync', 'void'],
	payout: ['check', 'pay', 'send', 'sendByReferenceV4', 'sendV4'],
	recurringPayment: ['charge', 'create', 'update'],
	threeDSecure: ['uploadCRes', 'uploadMethodUrlResult', 'uploadPaRes'],
	transaction: ['getMany', 'getStatus', 'getStatusV4', 'reconcile'],
	transfer: [
		'checkPanEligibility',
		'checkPanEligibilityBoth',
		'checkPanEligibilityReceive',
		'send',
		'sendByReference',
		'sendByReferenceV2',
	],
};
// Kept by hand on purpose: a second opinion on the catalogue (the 3-D Secure uploads complete a pending payment).
/** Read-only operations over many records (readMany): parameters of their own, no request fields. */
const READ_MANY = ['balance:get', 'transaction:getMany', 'transaction:reconcile'];

const MONEY_MOVING = [
	'payment:sale',
	'payment:preauth',
	'payment:capture',
	'payment:void',
	'payment:return',
	'cardReference:rebill',
	'cardReference:rebillSale',
	'cardReference:rebillPreauth',
	'payout:send',
	'payout:pay',
	'payout:sendV4',
	'payout:sendByReferenceV4',
	'transfer:send',
	'transfer:sendByReference',
	'transfer:sendByReferenceV2',
	'payment:saleWithToken',
	'hostedForm:payout',
	'recurringPayment:create',
	'recurringPayment:update',
	'recurringPayment:charge',
	'threeDSecure:uploadCRes',
	'threeDSecure:uploadPaRes',
	'threeDSecure:uploadMethodUrlResult',
];

const sortedByName = (options: INodePropertyOptions[]) =>
	options.map((o) => o.name).join('|') ===
	[...options]
		.sort((a, b) => a.name.localeCompare(b.name))
		.map((o) => o.name)
		.join('|');

/** The parameters shown for one resource/operation. */
function shown(resource: string, operation: string): INodeProperties[] {
	return properties.filter((p) => {
		const show = p.displayOptions?.show;
		return show?.resource?.includes(resource) && (p.name === 'operation' || show.operation?.includes(operation));
	});
}

it('identity: type name, display name, icons, subtitle, credential, tool use', () => {
	expect(description).toMatchObject({
		name: 'cardGateway',
		displayName: 'Card Gateway',
		icon: { light: 'file:../../icons/cardGateway.svg', dark: 'file:../../icons/cardGateway.dark.svg' },
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		// The claims credential is optional: only "Act Once per Key" uses it.
		credentials: [
			{ name: 'cardGatewayApi', required: true },
			{ name: 'cardGatewayClaimsApi', required: false },
		],
		usableAsTool: true,
		inputs: ['main'],
		outputs: ['main'],
	});
});

it('resources and operations are exactly the contract, each with an action; resources everyday first, operations sorted', () => {
	const resource = properties.find((p) => p.name === 'resource')!;
	const resources = resource.options as INodePropertyOptions[];
	expect(resources.map((o) => o.value).sort()).toEqual(Object.keys(CONTRACT).sort());
	// The node panel lists actions in this order: the everyday resources come before 3-D Secure.
	expect(resources.map((o) => o.name)).toEqual([
		'Balance',
		'Card Reference',
		'Hosted Form',
		'Payment',
		'Payout',
		'Recurring Payment',
		'Transaction',
		'Transfer',
		'Upload 3-D Secure Result',
	]);
	for (const [name, operations] of Object.entries(CONTRACT)) {
		const selectors = properties.filter(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(name),
		);
		expect(selectors).toHaveLength(1);
		const options = selectors[0].options as INodePropertyOptions[];
		expect(options.map((o) => o.value).sort()).toEqual(operations);
		expect(sortedByName(options)).toBe(true);
		for (const option of options) expect(option.action).toMatch(/^[A-Z][a-z]/);
		expect(selectors[0].noDataExpression).toBe(true);
	}
});

it('every operation has its own parameters, Extra Fields and Options; money movers warn about Retry On Fail', () => {
	for (const [resource, operations] of Object.entries(CONTRACT)) {
		for (const operation of operations) {
			const names = shown(resource, operation).map((p) => p.name);
			if (READ_MANY.includes(`${resource}:${operation}`)) {
				expect(names).toEqual(expect.arrayContaining(['operation', 'options']));
				expect(names).not.toContain('retryNotice');
				continue;
			}
			expect(names).toEqual(expect.arrayContaining(['operation', 'extraFields', 'options']));
			const options = shown(resource, operation).find((p) => p.name === 'options')!.options as INodeProperties[];
			const optionNames = options.map((o) => o.name);
			expect(optionNames).toEqual(
				expect.arrayContaining(['endpointId', 'endpointGroupId', 'includeRawReply', 'timeoutSeconds', 'concurrency']),
			);
			const moves = MONEY_MOVING.includes(`${resource}:${operation}`);
			expect(names.includes('retryNotice')).toBe(moves);
			expect(optionNames.includes('allowAiMoneyMovement')).toBe(moves);
			expect(options.map((o) => o.displayName)).toEqual(
				[...options.map((o) => o.displayName)].sort((a, b) => a.localeCompare(b)),
			);
		}
	}
});

it('Wait for Final Status is offered on money-moving and initial operations; the signature scheme only on two forms', () => {
	const offers = (resource: string, operation: string, option: string) =>
		(shown(resource, operation).find((p) => p.name === 'options')!.options as INodeProperties[]).some(
			(o) => o.name === option,
		);
	for (const key of [
		'payment:sale',
		'payment:preauth',
		'payment:capture',
		'payment:void',
		'payment:return',
		'payment:verifyAccount',
		'cardReference:rebill',
		'payout:send',
		'payout:pay',
		'transfer:send',
		'transfer:sendByReferenceV2',
		'payment:saleWithToken',
	]) {
		expect(offers(key.split(':')[0], key.split(':')[1], 'waitForFinalStatus')).toBe(true);
	}
	expect(offers('transaction', 'getStatus', 'waitForFinalStatus')).toBe(false);
	expect(offers('transaction', 'getStatusV4', 'waitForFinalStatus')).toBe(false);
	expect(offers('hostedForm', 'transfer', 'waitForFinalStatus')).toBe(false);
	expect(offers('hostedForm', 'sale', 'waitForFinalStatus')).toBe(false);
	const scheme = (operation: string) =>
		(shown('hostedForm', operation).find((p) => p.name === 'options')!.options as INodeProperties[]).find(
			(o) => o.name === 'signatureScheme',
		);
	expect(scheme('payment')?.default).toBe('control');
	expect(scheme('payout')?.default).toBe('oauth-hmac-sha1');
	expect(scheme('sale')).toBeUndefined();
});

it('user-facing names hide the wire spelling', () => {
	// A required parameter's label ends in " *" (test/fast/lead.test.ts): the name is what comes before.
	const displayNames = new Set(
		properties.flatMap((p) => [
			p.displayName.replace(/ \*$/, ''),
			...((p.options ?? []) as INodeProperties[]).map((o) => o.displayName),
		]),
	);
	for (const name of [
		'Order ID (Merchant)',
		'Gateway Order ID',
		'Card Reference ID',
		'Recurring Payment ID',
		'Card Number',
		'CVV',
	])
		expect(displayNames.has(name)).toBe(true);
	for (const p of properties) expect(p.displayName).not.toMatch(/client_orderid|client-order-id|cardrefid/);
	const sale = shown('payment', 'sale');
	expect(sale.filter((p) => p.required).map((p) => p.name)).toEqual(
		expect.arrayContaining([
			'amount',
			'currency',
			'cardNumber',
			'expireMonth',
			'expireYear',
			'cvv',
			'cardholderName',
			'email',
			'redirectUrl',
		]),
	);
	expect(sale.find((p) => p.name === 'merchantOrderId')?.required).toBe(false);
	expect(shown('payment', 'capture').find((p) => p.name === 'merchantOrderId')?.required).toBe(true);
});

it('Wait for Final Status and its two settings stand together in the A–Z option list', () => {
	const options = shown('payment', 'sale').find((p) => p.name === 'options')!.options as INodeProperties[];
	const names = options.map((o) => o.name);
	const at = names.indexOf('waitForFinalStatus');
	expect(names.slice(at, at + 3)).toEqual(['waitForFinalStatus', 'maxWaitSeconds', 'pollIntervalSeconds']);
});

it('Sale reads in sections; the parameter names stay what saved workflows hold', () => {
	const sale = shown('payment', 'sale');
	const headings = sale.filter((p) => p.type === 'notice' && p.name.endsWith('Section'));
	expect(headings.map((p) => p.name)).toEqual([
		'amountSection',
		'cardNumberSection',
		'emailSection',
		'addressSection',
		'redirectUrlSection',
	]);
	for (const heading of headings) {
		expect(sale.indexOf(heading) + 1).toBe(sale.findIndex((p) => `${p.name}Section` === heading.name));
	}
	const required = sale.filter((p) => p.required).map((p) => p.name);
	expect(required.sort()).toEqual(
		[
			'orderDescription',
			'amount',
			'currency',
			'cardNumber',
			'expireMonth',
			'expireYear',
			'cvv',
			'cardholderName',
			'email',
			'phone',
			'ipAddress',
			'address',
			'city',
			'zipCode',
			'country',
			'redirectUrl',
		].sort(),
	);
	// Every text field shows an example.
	for (const p of sale.filter((p) => p.type === 'string'))
		expect({ name: p.name, placeholder: typeof p.placeholder }).toEqual({ name: p.name, placeholder: 'string' });
});

it("Return's Amount says that leaving it empty returns everything that is left", () => {
	const amount = (
		shown('payment', 'return').find((p) => p.name === 'additionalFields')!.options as INodeProperties[]
	).find((o) => o.name === 'amount')!;
	expect(amount.hint).toBe('Leave empty (and Currency too) to return everything that is left on the order');
	expect(amount.description).toContain(
		'Leave Amount and Currency empty to return everything that is left on the order',
	);
	const capture = (
		shown('payment', 'capture').find((p) => p.name === 'additionalFields')!.options as INodeProperties[]
	).find((o) => o.name === 'amount')!;
	expect(capture.hint).toContain('capture everything still held');
});

it('required things are in sight: the payout destination is named above Amount, Amount and Currency are said to be required', () => {
	for (const operation of ['send', 'sendV4', 'check']) {
		const payout = shown('payout', operation);
		const names = payout.map((p) => p.name);
		const heading = payout.find((p) => p.name === 'amountSection')!;
		// Top level, right above Amount: readable without opening Additional Fields.
		expect(names.indexOf('amountSection') + 1).toBe(names.indexOf('amount'));
		expect(heading.type).toBe('notice');
		expect(heading.displayName).toMatch(/Amount, Currency and a destination are required/);
		for (const field of [
			'Card Number',
			'Expiry Month',
			'Expiry Year',
			'Bank Account Number',
			'Bank Name',
			'Additional Fields',
		])
			expect(heading.displayName).toContain(field);
		expect(payout.filter((p) => p.required).map((p) => p.name)).toEqual(['amount', 'currency']);
		// The destination stays where saved workflows hold it; its first field says what goes with it.
		const additional = payout.find((p) => p.name === 'additionalFields')!.options as INodeProperties[];
		expect(additional.map((o) => o.name)).toEqual(
			expect.arrayContaining(['cardNumber', 'expireMonth', 'expireYear', 'accountNumber', 'bankName']),
		);
		expect(additional.find((o) => o.name === 'cardNumber')!.hint).toMatch(
			/^Payout to a card: Expiry Month and Expiry Year/,
		);
		expect(additional.find((o) => o.name === 'accountNumber')!.hint).toMatch(/^Payout to a bank account: Bank Name/);
	}
	// Wherever Amount is a top-level parameter, the heading above it says Amount and Currency are required.
	for (const [resource, operations] of Object.entries(CONTRACT)) {
		for (const operation of operations) {
			const parameters = shown(resource, operation);
			const at = parameters.findIndex((p) => p.name === 'amount');
			// Reconcile's Amount names where a record's amount is, not an amount to send.
			if (at < 0 || READ_MANY.includes(`${resource}:${operation}`)) continue;
			expect({ resource, operation, required: parameters[at].required, heading: parameters[at - 1].name }).toEqual({
				resource,
				operation,
				required: true,
				heading: 'amountSection',
			});
			expect(parameters[at - 1].displayName).toMatch(
				/Amount and Currency are required|Amount, Currency and a destination are required/,
			);
		}
	}
});

it('Return and Capture say, above the order fields, that no Amount means everything (no field to add first)', () => {
	for (const [operation, says] of [
		['return', /^<b>Full or partial refund<\/b>: with no Amount, the return refunds everything left on the order/],
		['capture', /^<b>Full or partial capture<\/b>: with no Amount, the capture takes everything still held/],
	] as const) {
		const parameters = shown('payment', operation);
		const heading = parameters.find((p) => p.name === 'merchantOrderIdSection')!;
		expect(heading.type).toBe('notice');
		expect(heading.displayName).toMatch(says);
		expect(heading.displayName).toContain('add Amount and Currency under <b>Additional Fields</b>');
		expect(parameters.indexOf(heading) + 1).toBe(parameters.findIndex((p) => p.name === 'merchantOrderId'));
		// Amount and Currency stay optional, under Additional Fields, where saved workflows hold them.
		expect(
			(parameters.find((p) => p.name === 'additionalFields')!.options as INodeProperties[]).map((o) => o.name),
		).toEqual(['amount', 'comment', 'currency']);
	}
});

it('the node panel lists the actions in ops words: "Refund a payment", "Send a payout", each action once', () => {
	const actions = properties.filter((p) => p.name === 'operation').flatMap((p) => p.options as INodePropertyOptions[]);
	expect(actions).toHaveLength(Object.values(CONTRACT).flat().length);
	const action = (resource: string, operation: string) =>
		(
			properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource))!
				.options as INodePropertyOptions[]
		).find((o) => o.value === operation)!.action;
	expect(action('payment', 'return')).toBe('Refund a payment');
	expect(action('payout', 'send')).toBe('Send a payout');
	expect(action('payment', 'sale')).toBe('Charge a card');
	expect(action('payment', 'capture')).toBe('Capture a held payment');
	expect(action('payment', 'void')).toBe('Cancel a payment before it settles');
	expect(new Set(actions.map((o) => o.action)).size).toBe(actions.length);
	// Operation names (the Operation dropdown, the gateway's words) and values are unchanged.
	expect(actions.find((o) => o.action === 'Refund a payment')).toMatchObject({ name: 'Return', value: 'return' });
});

it('Max Total per Run says it is per workflow execution, not per day', () => {
	const option = (shown('payment', 'return').find((p) => p.name === 'options')!.options as INodeProperties[]).find(
		(o) => o.name === 'maxTotalPerRun',
	)!;
	expect(option.displayName).toBe('Max Total per Run');
	expect(option.hint).toMatch(/^Per workflow execution, not per day/);
	expect(option.description).toContain('not a daily or account-wide cap');
});

it('codex file, with the words an ops person searches for', () => {
	const codex = JSON.parse(readFileSync(path.join(__dirname, '../../nodes/CardGateway/CardGateway.node.json'), 'utf8'));
	expect(codex).toMatchObject({
		node: 'n8n-nodes-card-gateway.cardGateway',
		nodeVersion: '1.0',
		codexVersion: '1.0',
		categories: ['Finance & Accounting'],
	});
	expect(codex.alias).toEqual(
		expect.arrayContaining(['refund', 'payout', 'payment', 'Paynet', 'PaynetEasy', 'capture', '3DS']),
	);
	for (const kind of ['primaryDocumentation', 'credentialDocumentation']) {
		expect(codex.resources[kind][0].url).toMatch(/^https:\/\/github\.com\/card-gateway\/n8n-nodes-card-gateway#/);
	}
});

it('an operation is its own file plus one entry in its resource: menu, parameters, money options and guards follow from it', () => {
	// A throwaway operation on an existing catalogue line (a capture): nothing else is declared anywhere.
	const settle = defineOperation({
		gateway: 'capture',
		menu: { name: 'Settle', description: 'Settle a hold', action: 'Settle a hold' },
		required: [merchantOrderId, gatewayOrderId],
	});
	const look = defineOperation({
		gateway: 'status',
		menu: { name: 'Look', description: 'Look at an order', action: 'Look at an order' },
		required: [merchantOrderId, gatewayOrderId],
	});
	const scratch = defineResource('scratch', 'Scratch', 'look', { settle, look });
	const [menu, ...parameters] = scratch.description;
	expect(menu.options).toEqual([
		{ name: 'Look', value: 'look', description: 'Look at an order', action: 'Look at an order' },
		{ name: 'Settle', value: 'settle', description: 'Settle a hold', action: 'Settle a hold' },
	]);
	expect(scratch.operations.settle.spec).toMatchObject({
		resource: 'scratch',
		operation: 'settle',
		label: 'Scratch → Settle',
	});
	expect([movesMoney(scratch.operations.settle.spec), movesMoney(scratch.operations.look.spec)]).toEqual([true, false]);
	const shownFor = (operation: string) =>
		parameters.filter((p) => p.displayOptions?.show?.operation?.includes(operation));
	const optionNames = (operation: string) =>
		((shownFor(operation).find((p) => p.name === 'options')?.options ?? []) as INodeProperties[]).map((o) => o.name);
	expect(shownFor('settle').map((p) => p.name)).toContain('retryNotice');
	expect(optionNames('settle')).toEqual(
		expect.arrayContaining(['allowAiMoneyMovement', 'dryRun', 'maxAmountPerItem', 'maxTotalPerRun']),
	);
	expect(optionNames('look')).not.toContain('allowAiMoneyMovement');
});
