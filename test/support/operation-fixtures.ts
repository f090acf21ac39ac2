// Preconditions and parameters for every operation of the Card Gateway node, run against a sandbox
// of its own (test/node/ledger-judge.test.ts). Keyed by "resource.operation"; which operations exist
// is read from the node's description by the test, never from here: an operation without a fixture
// fails there.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import {
	BANK_DESTINATION,
	CARD,
	CUSTOMER,
	PAN2,
	RETURN_URL,
	WAIT,
	cardPayment,
	runNode,
	type NodeRun,
	type Sandbox,
} from './harness';

/** What a case runs: the operation's parameters, and what its order had before. */
export interface Prepared {
	parameters: INodeParameters;
	/** Follow-ups: the merchant order ID of the order they act on. */
	orderId?: string;
	/** Follow-ups: the most money the operation may still move on that order. */
	left?: string;
}

export interface Fixture {
	/**
	 * Builds the preconditions in the sandbox. `id`: the merchant order ID of the case (typed), or ''
	 * for a new order whose ID the node generates. `variant`: one of `variants`, or undefined.
	 */
	prepare(sb: Sandbox, id: string, variant?: string): Promise<Prepared>;
	/** Inputs that change what happens to the money (a declined card, a partial amount, a hold instead of a sale). */
	variants?: readonly string[];
}

/** The output of a fixture's run that must have succeeded. */
async function ok(run: Promise<NodeRun>, what: string): Promise<Record<string, string>> {
	const done = await run;
	if (done.error) throw new Error(`fixture "${what}" failed: ${done.error.message} (${done.error.description ?? ''})`);
	if (done.items.length !== 1) throw new Error(`fixture "${what}": ${done.items.length} items`);
	return done.items[0].json as Record<string, string>;
}

/** Fixture orders get IDs of their own, so they never collide with the case's order. */
const fixtureId = (id: string, role: string) => `fx-${role}-${id || 'gen'}`;

/** An approved card payment (10.00 USD); returns the merchant and gateway order IDs. */
async function approved(
	sb: Sandbox,
	merchantOrderId: string,
	operation: 'sale' | 'preauth' = 'sale',
	overrides: IDataObject = {},
) {
	const out = await ok(
		runNode(sb, cardPayment({ merchantOrderId, options: WAIT, ...overrides }, operation)),
		`approved ${operation}`,
	);
	if (out.status !== 'approved') throw new Error(`fixture ${operation} ${merchantOrderId}: status ${out.status}`);
	return { merchantOrderId, gatewayOrderId: out.orderid };
}

/** A card reference, from a synchronous account verification (one request). */
async function cardReference(sb: Sandbox, id: string, cardNumber = CARD.cardNumber): Promise<string> {
	const out = await ok(
		runNode(sb, {
			resource: 'payment',
			operation: 'verifyAccountSync',
			merchantOrderId: fixtureId(id, `ref${cardNumber.slice(-4)}`),
			orderDescription: 'Card check',
			...CARD,
			cardNumber,
			cvv: '123',
			...CUSTOMER,
		}),
		'card reference',
	);
	if (!out.cardRefId) throw new Error(`fixture card reference: none in ${JSON.stringify(out)}`);
	return out.cardRefId;
}

/** A recurring payment charging a stored card. */
async function recurringPayment(sb: Sandbox, id: string): Promise<string> {
	const cardReferenceId = await cardReference(sb, id);
	const created = await ok(
		runNode(sb, {
			resource: 'recurringPayment',
			operation: 'create',
			merchantOrderId: fixtureId(id, 'rp'),
			currency: 'USD',
			additionalFields: { period: 'monthly', interval: 1, amount: '9.99', cardReferenceId },
		}),
		'recurring payment',
	);
	return created.recurringPaymentId;
}

const CVV_OF: Record<string, string> = { declined: '116', unknown: '217', threeDSecure: '321' };
const cvvOf = (variant?: string) => CVV_OF[variant ?? ''] ?? '123';

/** A sale waiting for the customer's 3-D Secure check (CVV 321). */
async function pendingThreeDSecure(sb: Sandbox, id: string) {
	const out = await ok(
		runNode(sb, cardPayment({ merchantOrderId: id, cvv: '321', options: WAIT })),
		'3-D Secure pending sale',
	);
	if (String(out.threeDSecureRequired) !== 'true')
		throw new Error(`fixture 3-D Secure sale ${id}: not pending (${out.status})`);
	return { merchantOrderId: id, gatewayOrderId: out.orderid };
}

/** A payout checked with the v4 payout check (7.00 USD). */
async function checkedPayout(sb: Sandbox, id: string) {
	const out = await ok(
		runNode(sb, {
			resource: 'payout',
			operation: 'check',
			merchantOrderId: id,
			amount: '7.00',
			currency: 'USD',
			additionalFields: PAYOUT_CARD,
			options: WAIT,
		}),
		'payout check',
	);
	if (out.status !== 'approved') throw new Error(`fixture payout check ${id}: status ${out.status}`);
	return { merchantOrderId: id, gatewayOrderId: out.orderid };
}

/** A hosted-fields payment ticket for a card whose CVV picks the outcome. */
async function ticket(sb: Sandbox, cvv2: string): Promise<string> {
	return (
		await sb.admin<{ token: string }>('POST', 'hosted-fields/tokens', {
			credit_card_number: PAN2,
			expire_month: '10',
			expire_year: '2034',
			cvv2,
		})
	).token;
}

const PAYOUT_CARD = {
	cardNumber: PAN2,
	expireMonth: '11',
	expireYear: '2033',
	cardholderName: 'JANE ROE',
	orderDescription: 'Winnings',
};
const PARTIAL = { amount: '3.00', currency: 'USD' };

const form = (operation: string, id: string, money = true): INodeParameters => ({
	resource: 'hostedForm',
	operation,
	merchantOrderId: id,
	orderDescription: 'Hosted order',
	...(money ? { amount: '15.00', currency: 'USD' } : {}),
	...CUSTOMER,
	redirectUrl: RETURN_URL,
});

const threeDSecureUpload = (operation: string, field: string, value: string, failed?: string): Fixture => ({
	variants: failed ? ['failed'] : [],
	async prepare(sb, id, variant) {
		const ids = await pendingThreeDSecure(sb, id);
		return {
			parameters: { resource: 'threeDSecure', operation, ...ids, [field]: variant === 'failed' ? failed! : value },
			orderId: id,
			left: '10.00',
		};
	},
});

const rebill = (operation: string): Fixture => ({
	async prepare(sb, id) {
		const cardReferenceId = await cardReference(sb, id);
		return {
			parameters: {
				resource: 'cardReference',
				operation,
				merchantOrderId: id,
				cardReferenceId,
				amount: '3.30',
				currency: 'USD',
			},
		};
	},
});

/** Created From / Created To of today (the report's dates, read as UTC like the sandbox's). */
function today() {
	const day = new Date().toISOString().slice(0, 10);
	return { createdFrom: day, createdTo: day };
}

export const FIXTURES: Record<string, Fixture> = {
	// Payment
	'payment.sale': {
		variants: ['declined', 'unknown', 'threeDSecure'],
		prepare: async (_sb, id, variant) => ({ parameters: cardPayment({ merchantOrderId: id, cvv: cvvOf(variant) }) }),
	},
	'payment.preauth': {
		variants: ['declined', 'unknown', 'threeDSecure'],
		prepare: async (_sb, id, variant) => ({
			parameters: cardPayment({ merchantOrderId: id, cvv: cvvOf(variant) }, 'preauth'),
		}),
	},
	'payment.saleWithToken': {
		variants: ['declined', 'unknown'],
		async prepare(sb, id, variant) {
			const hostedFieldsToken = await ticket(sb, cvvOf(variant));
			return {
				parameters: {
					resource: 'payment',
					operation: 'saleWithToken',
					merchantOrderId: id,
					orderDescription: 'Hosted fields order',
					amount: '12.34',
					currency: 'USD',
					hostedFieldsToken,
					...CUSTOMER,
					redirectUrl: RETURN_URL,
				},
			};
		},
	},
	'payment.capture': {
		variants: ['partial'],
		async prepare(sb, id, variant) {
			const ids = await approved(sb, id, 'preauth');
			return {
				parameters: {
					resource: 'payment',
					operation: 'capture',
					...ids,
					...(variant === 'partial' ? { additionalFields: PARTIAL } : {}),
				},
				orderId: id,
				left: '10.00',
			};
		},
	},
	'payment.return': {
		// onHold: a return on an uncaptured preauth releases the hold.
		variants: ['partial', 'onHold'],
		async prepare(sb, id, variant) {
			const ids = await approved(sb, id, variant === 'onHold' ? 'preauth' : 'sale');
			return {
				parameters: {
					resource: 'payment',
					operation: 'return',
					...ids,
					additionalFields: { comment: 'refund', ...(variant === 'partial' ? PARTIAL : {}) },
				},
				orderId: id,
				left: '10.00',
			};
		},
	},
	'payment.void': {
		variants: ['onHold'],
		async prepare(sb, id, variant) {
			const ids = await approved(sb, id, variant === 'onHold' ? 'preauth' : 'sale');
			return {
				parameters: { resource: 'payment', operation: 'void', ...ids, comment: 'duplicate order' },
				orderId: id,
				left: '10.00',
			};
		},
	},
	'payment.verifyAccount': {
		prepare: async (_sb, id) => ({
			parameters: {
				resource: 'payment',
				operation: 'verifyAccount',
				merchantOrderId: id,
				orderDescription: 'Card check',
				...CARD,
				cvv: '123',
				...CUSTOMER,
			},
		}),
	},
	'payment.verifyAccountSync': {
		prepare: async (_sb, id) => ({
			parameters: {
				resource: 'payment',
				operation: 'verifyAccountSync',
				merchantOrderId: id,
				orderDescription: 'Card check',
				...CARD,
				cvv: '123',
				...CUSTOMER,
			},
		}),
	},

	// Card references
	'cardReference.rebill': rebill('rebill'),
	'cardReference.rebillSale': rebill('rebillSale'),
	'cardReference.rebillPreauth': rebill('rebillPreauth'),
	'cardReference.create': {
		prepare: async (sb, id) => ({
			parameters: { resource: 'cardReference', operation: 'create', ...(await approved(sb, id)) },
		}),
	},
	'cardReference.createV4': {
		prepare: async (sb, id) => ({
			parameters: { resource: 'cardReference', operation: 'createV4', ...(await approved(sb, id)) },
		}),
	},
	'cardReference.getInfo': {
		prepare: async (sb, id) => ({
			parameters: { resource: 'cardReference', operation: 'getInfo', cardReferenceId: await cardReference(sb, id) },
		}),
	},

	// Hosted forms
	'hostedForm.payout': { prepare: async (_sb, id) => ({ parameters: form('payout', id) }) },
	'hostedForm.payment': { prepare: async (_sb, id) => ({ parameters: form('payment', id) }) },
	'hostedForm.preauth': { prepare: async (_sb, id) => ({ parameters: form('preauth', id) }) },
	'hostedForm.sale': { prepare: async (_sb, id) => ({ parameters: form('sale', id) }) },
	'hostedForm.transfer': { prepare: async (_sb, id) => ({ parameters: form('transfer', id) }) },
	'hostedForm.verifyAccount': { prepare: async (_sb, id) => ({ parameters: form('verifyAccount', id, false) }) },

	// Recurring payments
	'recurringPayment.create': {
		async prepare(sb, id) {
			const cardReferenceId = await cardReference(sb, id);
			return {
				parameters: {
					resource: 'recurringPayment',
					operation: 'create',
					merchantOrderId: id,
					currency: 'USD',
					additionalFields: { period: 'monthly', interval: 1, amount: '9.99', cardReferenceId },
				},
			};
		},
	},
	'recurringPayment.charge': {
		prepare: async (sb, id) => ({
			parameters: {
				resource: 'recurringPayment',
				operation: 'charge',
				merchantOrderId: id,
				recurringPaymentId: await recurringPayment(sb, id),
				amount: '3.30',
				currency: 'USD',
			},
		}),
	},
	'recurringPayment.update': {
		prepare: async (sb, id) => ({
			parameters: {
				resource: 'recurringPayment',
				operation: 'update',
				recurringPaymentId: await recurringPayment(sb, id),
				additionalFields: { amount: '12.00', currency: 'USD' },
			},
		}),
	},

	// Payouts
	'payout.send': {
		prepare: async (_sb, id) => ({
			parameters: {
				resource: 'payout',
				operation: 'send',
				merchantOrderId: id,
				amount: '3.00',
				currency: 'USD',
				additionalFields: BANK_DESTINATION,
			},
		}),
	},
	'payout.sendV4': {
		prepare: async (_sb, id) => ({
			parameters: {
				resource: 'payout',
				operation: 'sendV4',
				merchantOrderId: id,
				amount: '3.00',
				currency: 'USD',
				additionalFields: PAYOUT_CARD,
			},
		}),
	},
	'payout.sendByReferenceV4': {
		prepare: async (sb, id) => ({
			parameters: {
				resource: 'payout',
				operation: 'sendByReferenceV4',
				merchantOrderId: id,
				amount: '3.00',
				currency: 'USD',
				destinationCardReferenceId: await cardReference(sb, id, PAN2),
			},
		}),
	},
	'payout.check': {
		prepare: async (_sb, id) => ({
			parameters: {
				resource: 'payout',
				operation: 'check',
				merchantOrderId: id,
				amount: '7.00',
				currency: 'USD',
				additionalFields: PAYOUT_CARD,
			},
		}),
	},
	'payout.pay': {
		prepare: async (sb, id) => ({
			parameters: { resource: 'payout', operation: 'pay', ...(await checkedPayout(sb, id)) },
			orderId: id,
			left: '7.00',
		}),
	},

	// Transfers
	'transfer.send': {
		variants: ['declined', 'unknown'],
		prepare: async (_sb, id, variant) => ({
			parameters: {
				resource: 'transfer',
				operation: 'send',
				merchantOrderId: id,
				amount: '4.00',
				currency: 'USD',
				additionalFields: { ...CARD, cvv: cvvOf(variant), destinationCardNumber: PAN2 },
			},
		}),
	},
	'transfer.sendByReference': {
		prepare: async (sb, id) => ({
			parameters: {
				resource: 'transfer',
				operation: 'sendByReference',
				merchantOrderId: id,
				amount: '4.00',
				currency: 'USD',
				destinationCardReferenceId: await cardReference(sb, id, PAN2),
			},
		}),
	},
	'transfer.sendByReferenceV2': {
		async prepare(sb, id) {
			const source = await cardReference(sb, id);
			const destination = await cardReference(sb, id, PAN2);
			return {
				parameters: {
					resource: 'transfer',
					operation: 'sendByReferenceV2',
					merchantOrderId: id,
					amount: '4.00',
					currency: 'USD',
					ipAddress: CUSTOMER.ipAddress,
					destinationCardReferenceId: destination,
					additionalFields: { sourceCardReferenceId: source },
				},
			};
		},
	},
	'transfer.checkPanEligibility': {
		prepare: async (sb, id) => ({
			parameters: {
				resource: 'transfer',
				operation: 'checkPanEligibility',
				merchantOrderId: id,
				cardReferenceId: await cardReference(sb, id),
			},
		}),
	},
	'transfer.checkPanEligibilityReceive': {
		prepare: async (sb, id) => ({
			parameters: {
				resource: 'transfer',
				operation: 'checkPanEligibilityReceive',
				merchantOrderId: id,
				destinationCardReferenceId: await cardReference(sb, id, PAN2),
			},
		}),
	},
	'transfer.checkPanEligibilityBoth': {
		prepare: async (sb, id) => ({
			parameters: {
				resource: 'transfer',
				operation: 'checkPanEligibilityBoth',
				merchantOrderId: id,
				cardReferenceId: await cardReference(sb, id),
				destinationCardReferenceId: await cardReference(sb, id, PAN2),
			},
		}),
	},

	// Transactions
	'transaction.getStatus': {
		prepare: async (sb, id) => ({
			parameters: { resource: 'transaction', operation: 'getStatus', ...(await approved(sb, id)) },
		}),
	},
	'transaction.getStatusV4': {
		prepare: async (sb, id) => ({
			parameters: { resource: 'transaction', operation: 'getStatusV4', ...(await approved(sb, id)) },
		}),
	},
	// Read-only: the report of today (it holds the fixture's sale), a reconciliation of that sale, the balance.
	'transaction.getMany': {
		prepare: async (sb, id) => {
			await approved(sb, id);
			return { parameters: { resource: 'transaction', operation: 'getMany', ...today(), returnAll: true } };
		},
	},
	'transaction.reconcile': {
		prepare: async (sb, id) => {
			const { merchantOrderId } = await approved(sb, id);
			return {
				parameters: {
					resource: 'transaction',
					operation: 'reconcile',
					...today(),
					merchantOrderId,
					amount: '10.00',
					currency: 'USD',
					expectedStatus: 'approved',
				},
			};
		},
	},
	'balance.get': {
		prepare: async () => ({ parameters: { resource: 'balance', operation: 'get' } }),
	},

	// 3-D Secure: the uploads complete a pending payment.
	'threeDSecure.uploadCRes': threeDSecureUpload('uploadCRes', 'cRes', 'eyJjaGFsbGVuZ2UiOiJwYXNzIn0', 'fail'),
	'threeDSecure.uploadPaRes': threeDSecureUpload('uploadPaRes', 'paRes', 'eJzLSM3JyQcABiwCFQ', 'fail'),
	'threeDSecure.uploadMethodUrlResult': threeDSecureUpload('uploadMethodUrlResult', 'threeDSCompInd', 'Y'),
};
