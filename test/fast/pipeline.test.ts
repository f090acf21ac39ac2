// Stage pipeline/ alone: one item through the composer (executeOperation), with a fake n8n context and
// a fake gateway in place of n8n-core's engine and the sandbox. What was sent, in order, and what the
// item outputs.
import { executeOperation } from '../../nodes/CardGateway/actions/common/pipeline/execute';
import { operations } from '../../nodes/CardGateway/actions/payment';
import { fakeContext, saleParameters, saleReplies, type FakeAnswer } from '../support/fake-context';

const sale = operations.sale.spec;
const ORDER = 'inv-1';

const { notFound, accepted, approved } = saleReplies(ORDER);

function run(answers: FakeAnswer[], overrides = {}) {
	const fake = fakeContext({
		parameters: saleParameters({ merchantOrderId: ORDER, ...overrides }),
		gateway: (_request, index) => answers[index] ?? { networkError: 'ECONNRESET' },
	});
	const paths = () => fake.sent.map((request) => new URL(request.url).pathname.replace(/\/\d+$/, ''));
	return { output: executeOperation(fake.ctx, sale, 0), sent: fake.sent, paths };
}

test('a new order: its ID is asked about first, then the sale is sent once', async () => {
	const { output, paths, sent } = run([notFound, accepted]);
	await expect(output).resolves.toMatchObject({ status: 'processing', client_orderid: ORDER, moneyEffect: 'pending' });
	expect(paths()).toEqual(['/api/v2/status', '/api/v2/sale']);
	expect(sent[1].fields).toMatchObject({ client_orderid: ORDER, amount: '10.00', currency: 'USD' });
	expect(sent[1].fields.credit_card_number).toBe('4444555566661111');
});

test('waiting for the final status: approved, the amount charged', async () => {
	const { output, paths } = run([notFound, accepted, approved], {
		options: { waitForFinalStatus: true, pollIntervalSeconds: 0, maxWaitSeconds: 30 },
	});
	await expect(output).resolves.toMatchObject({
		status: 'approved',
		final: true,
		moneyEffect: 'moved',
		amountCharged: '10.00',
	});
	expect(paths()).toEqual(['/api/v2/status', '/api/v2/sale', '/api/v2/status']);
});

test('an order ID the gateway already has: nothing is sent, that order is reported', async () => {
	const { output, paths } = run([approved]);
	await expect(output).resolves.toMatchObject({
		alreadyExisted: true,
		moneyEffect: 'noMoneyMoved',
		status: 'approved',
	});
	expect(paths()).toEqual(['/api/v2/status']);
});

test('a bad field stops the item before anything is sent, naming the field', async () => {
	const { output, sent } = run([], { currency: 'DOLLARS' });
	await expect(output).rejects.toThrow(/Currency/);
	expect(sent).toEqual([]);
});

test('an unreadable option stops the item before anything is sent', async () => {
	const { output, sent } = run([], { options: { maxTotalPerRun: {} } });
	await expect(output).rejects.toThrow(/"Max Total per Run" cannot be read/);
	expect(sent).toEqual([]);
});

test('a dry run sends only the status query and names a plan ID', async () => {
	const { output, paths } = run([notFound], { options: { dryRun: true } });
	const result = await output;
	expect(paths()).toEqual(['/api/v2/status']);
	expect(result).toMatchObject({ dryRun: true, moneyEffect: 'notSent' });
	expect(JSON.stringify(result)).toMatch(/plan-[a-z]{16}-[a-z]{24}/);
	expect(JSON.stringify(result)).not.toContain('4444555566661111');
});
