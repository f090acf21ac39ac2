// Stage send/ alone: what a delivery does with each kind of answer from a fake gateway. A lost reply to
// a request that moves money leads to a status query, and to a resend only when the money facts allow it;
// a refusal is reported with the gateway's own message and code.
import { NodeApiError } from 'n8n-workflow';

import type { Delivery } from '../../nodes/CardGateway/actions/common/core/delivery';
import { deliver, learnStatus } from '../../nodes/CardGateway/actions/common/send/delivery';
import { moneyEffectOf } from '../../nodes/shared/moneyEffect';
import type { OperationId } from '../../nodes/shared/protocol/catalogue';
import { fakeContext, formReply, rsaCredentials, type FakeAnswer } from '../support/fake-context';

const ORDER = 'inv-1';
const sale: Delivery = {
	itemIndex: 0,
	label: 'Payment → Sale',
	login: 'merchant-login',
	operation: 'sale',
	clientOrderId: ORDER,
};
const callOf = (operation: OperationId) => ({
	operation,
	fields: [
		['client_orderid', ORDER],
		['amount', '10.00'],
		['currency', 'USD'],
	] as const,
	itemIndex: 0,
});

const accepted = formReply({
	type: 'async-response',
	'merchant-order-id': ORDER,
	'paynet-order-id': '777',
	'serial-number': 'sn-1',
});
const approved = formReply({
	type: 'status-response',
	status: 'approved',
	'merchant-order-id': ORDER,
	'paynet-order-id': '777',
	amount: '10.00',
	currency: 'USD',
});
const notFound = formReply({ type: 'status-response', status: 'error', 'error-message': 'Order not found' });
const lost: FakeAnswer = { networkError: 'ETIMEDOUT' };

/** A fake gateway answering the requests in turn; every request's path is recorded. */
function scripted(answers: FakeAnswer[]) {
	const fake = fakeContext({
		credentials: rsaCredentials(),
		gateway: (_request, index) => answers[index] ?? { networkError: 'ECONNRESET' },
	});
	const paths = () => fake.sent.map((request) => new URL(request.url).pathname.replace(/\/\d+$/, ''));
	return { ...fake, paths };
}

async function failure(promise: Promise<unknown>): Promise<NodeApiError> {
	try {
		await promise;
	} catch (error) {
		return error as NodeApiError;
	}
	throw new Error('expected the delivery to fail');
}

describe('delivery', () => {
	test('a direct reply is the answer: one request, no status query', async () => {
		const fake = scripted([accepted]);
		const delivered = await deliver(fake.ctx, callOf('sale'), sale);
		expect(delivered).toMatchObject({ direct: true, serial: 'sn-1', notes: {} });
		expect(fake.paths()).toEqual(['/api/v2/sale']);
		expect(fake.sent[0].fields).toMatchObject({ client_orderid: ORDER, amount: '10.00' });
		expect(fake.sent[0].fields.control).toMatch(/^[0-9a-f]{40}$/);
	});

	test('a lost reply, then the status finds the order: recovered, never resent', async () => {
		const fake = scripted([lost, approved]);
		const delivered = await deliver(fake.ctx, callOf('sale'), sale);
		expect(delivered).toMatchObject({ direct: false, notes: { recoveredFromLostReply: true } });
		expect(fake.paths()).toEqual(['/api/v2/sale', '/api/v2/status']);
		expect(fake.sent[1].fields).toMatchObject({ client_orderid: ORDER, login: 'merchant-login' });
	});

	test('a lost reply, then the gateway has no such order: resent once, same order ID', async () => {
		const fake = scripted([lost, notFound, accepted]);
		const delivered = await deliver(fake.ctx, callOf('sale'), sale);
		expect(delivered).toMatchObject({ direct: true, notes: { resentAfterLostReply: true } });
		expect(fake.paths()).toEqual(['/api/v2/sale', '/api/v2/status', '/api/v2/sale']);
		expect(fake.sent[2].fields).toEqual(fake.sent[0].fields);
	});

	test('a recurring charge is never resent: its outcome is reported as unknown', async () => {
		const fake = scripted([lost, notFound]);
		const delivery = { ...sale, operation: 'processRecurringPayment' as const };
		const error = await failure(deliver(fake.ctx, callOf('processRecurringPayment'), delivery));
		expect(fake.sent).toHaveLength(2);
		expect(fake.paths()[1]).not.toBe(fake.paths()[0]);
		expect(moneyEffectOf(error)).toBe('mayHaveMoved');
	});

	test('a follow-up whose reply is lost is never resent, whatever the status says', async () => {
		const fake = scripted([lost, approved]);
		const delivery = { ...sale, operation: 'capture' as const, orderId: '777' };
		const error = await failure(deliver(fake.ctx, callOf('capture'), delivery));
		expect(fake.paths()).toEqual(['/api/v2/capture', '/api/v2/status']);
		expect(moneyEffectOf(error)).not.toBe('notSent');
	});

	test('a status query the gateway refuses: money may have moved, nothing resent', async () => {
		const refused = formReply({ type: 'validation-error', 'error-message': 'Status not allowed', 'error-code': '42' });
		const fake = scripted([lost, refused]);
		const error = await failure(deliver(fake.ctx, callOf('sale'), sale));
		expect(fake.sent).toHaveLength(2);
		expect(moneyEffectOf(error)).toBe('mayHaveMoved');
		expect(error.message).toMatch(/Payment → Sale/);
	});

	test('no connection at all: nothing was sent, no status query', async () => {
		const fake = scripted([{ networkError: 'ECONNREFUSED' }]);
		const error = await failure(deliver(fake.ctx, callOf('sale'), sale));
		expect(fake.sent).toHaveLength(1);
		expect(moneyEffectOf(error)).toBe('notSent');
		expect(error.message).toMatch(/could not connect to the gateway.*nothing was sent/);
	});

	test('a reply about another amount under this order ID is an older order, never this approval', async () => {
		const fake = scripted([
			formReply({
				type: 'status-response',
				status: 'approved',
				'merchant-order-id': ORDER,
				amount: '99.00',
				currency: 'USD',
			}),
		]);
		const delivery = { ...sale, requested: { amounts: ['10.00'], currency: 'USD' } };
		const error = await failure(deliver(fake.ctx, callOf('sale'), delivery));
		expect(error.message).toMatch(/99\.00/);
	});
});

describe('refusals', () => {
	test.each([
		['validation-error', 'Invalid amount', '2'],
		['error', 'Card declined', '300'],
	])('a reply of type "%s" is a NodeApiError with the gateway message and code', async (type, message, code) => {
		const fake = scripted([
			formReply({ type, 'error-message': message, 'error-code': code, 'merchant-order-id': ORDER }),
		]);
		const error = await failure(deliver(fake.ctx, callOf('sale'), sale));
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toContain(message);
		expect(`${error.message} ${error.description} ${error.httpCode}`).toContain(code);
		expect(moneyEffectOf(error)).toBe('noMoneyMoved');
		expect(fake.sent).toHaveLength(1);
	});

	test('a decline that reports an order status is an outcome, not a refusal', async () => {
		const declined = {
			statusCode: 400,
			body: { status: 'declined', error_message: 'Do not honor', 'merchant-order-id': ORDER },
		};
		const fake = scripted([declined]);
		const delivered = await deliver(fake.ctx, callOf('sale'), sale);
		expect(delivered).toMatchObject({ direct: true, reply: { record: { status: 'declined' } } });
		// the same refusal without an order status is a refusal
		const bare = scripted([{ ...declined, body: { error_message: 'Do not honor' } }]);
		await expect(deliver(bare.ctx, callOf('sale'), sale)).rejects.toThrow(/Do not honor/);
	});

	test('the V4 status reads its "Unknown order" refusal as no such order; any other refusal as unknown', async () => {
		const delivery = { ...sale, operation: 'saleV4' as const };
		const unknownOrder = {
			statusCode: 400,
			contentType: 'application/json',
			body: { error_message: 'Unknown order undefined.' },
		};
		const notHeld = scripted([unknownOrder]);
		await expect(learnStatus(notHeld.ctx, {}, delivery)).resolves.toMatchObject({ kind: 'notFound' });
		expect(notHeld.paths()).toEqual(['/api/v4/status']);
		const other = scripted([{ ...unknownOrder, body: { error_message: 'Endpoint disabled' } }]);
		await expect(learnStatus(other.ctx, {}, delivery)).resolves.toMatchObject({ kind: 'unknown' });
	});
});
