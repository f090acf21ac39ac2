// A read over many records through the pipeline's one entry (pipeline/run.ts), stage by stage, with a
// fake n8n context and a fake gateway: guard/ refuses an expression that differs between items, read/
// reads the query and names a bad field, send/ sends and turns a lost reply into the read's error,
// outcome/ masks and makes the error item, pipeline/ composes and marks every error "nothing sent".
// Balance → Get is the read under test; Transaction → Get Status shows the per-item path beside it.
import { NodeApiError, NodeOperationError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import { moneyEffectOf } from '../../nodes/shared/moneyEffect';
import { GatewayInputError } from '../../nodes/shared/protocol/errors';
import { operations as balanceOperations } from '../../nodes/CardGateway/actions/balance';
import { operations as transactionOperations } from '../../nodes/CardGateway/actions/transaction';
import { defineRead } from '../../nodes/CardGateway/actions/common/define/operation';
import { sameForEveryItem } from '../../nodes/CardGateway/actions/common/guard/sameForEveryItem';
import { errorItem, maskedItems } from '../../nodes/CardGateway/actions/common/outcome/items';
import { readFieldsAhead } from '../../nodes/CardGateway/actions/common/pipeline/ahead';
import { runOperation } from '../../nodes/CardGateway/actions/common/pipeline/run';
import { queryOfRun } from '../../nodes/CardGateway/actions/common/read/oncePerRun';
import { nodeParameter } from '../../nodes/CardGateway/actions/common/read/parameters';
import { readAnswer } from '../../nodes/CardGateway/actions/common/send/read';
import { fakeContext, formReply, type FakeAnswer, type FakeContextOptions } from '../support/fake-context';

const balance = balanceOperations.get.spec;
const CARD = '4444555566661111';
const SECRET = 'control-key-not-a-secret-in-tests';

const balanceReply = (extra: Record<string, string> = {}) =>
	formReply({ type: 'get-balance-response', amount: '100.00', currency: 'USD', ...extra });

function balanceRun(options: FakeContextOptions & { answers?: FakeAnswer[]; continueOnFail?: boolean } = {}) {
	const fake = fakeContext({
		parameters: { resource: 'balance', operation: 'get', balanceOf: 'endpoint', ...options.parameters },
		gateway: (_request, index) => options.answers?.[index] ?? { networkError: 'ECONNRESET' },
		...options,
	});
	if (options.continueOnFail) fake.ctx.continueOnFail = () => true;
	return { output: runOperation(fake.ctx, balance, [SECRET]), sent: fake.sent };
}

/** A read that reads one parameter and sends nothing: the stages' own behaviour, apart from any operation. */
const probe = defineRead({
	parameters: [
		{ displayName: 'Period', name: 'period', type: 'string', default: '' },
		{ displayName: 'Record', name: 'record', type: 'string', default: '' },
	],
	readsOnce: 'one period',
	perItem: ['record'],
	query: (ctx) => {
		const period = String(ctx.getNodeParameter('period', 0, ''));
		if (!/^\d{4}$/.test(period)) throw new GatewayInputError('Period', '"Period" must be a year');
		return period;
	},
	send: async (_ctx, period) => [{ json: { period, note: `card ${CARD}, key ${SECRET}` }, pairedItem: { item: 0 } }],
});

/** Two items whose "Period" (an expression) resolves per item as given. */
function twoItems(period: (itemIndex: number) => string, record = (itemIndex: number) => `r${itemIndex}`) {
	return fakeContext({
		parameters: { period: '={{ $json.period }}', record: '={{ $json.record }}' },
		items: [{ json: {} }, { json: {} }],
		resolve: (name, itemIndex) =>
			name === 'period' ? period(itemIndex) : name === 'record' ? record(itemIndex) : undefined,
	});
}

describe('guard/: the same value for every item', () => {
	it('an expression that gives the second item another value stops the run, naming the parameter', () => {
		const { ctx } = twoItems((itemIndex) => (itemIndex ? '2025' : '2026'));
		const refused = () => sameForEveryItem(ctx, probe);
		expect(refused).toThrow(NodeOperationError);
		expect(refused).toThrow(/"Period" differs between input items \(item 1: "2026", item 2: "2025"\)/);
	});

	it('a parameter read for every item may differ; one value for all passes', () => {
		const { ctx } = twoItems(() => '2026');
		expect(() => sameForEveryItem(ctx, probe)).not.toThrow();
	});
});

describe('read/: the query of the run', () => {
	it('bad input is n8n’s error naming the field', () => {
		const { ctx } = fakeContext({ parameters: { period: 'last year' } });
		const refused = () => queryOfRun(ctx, probe);
		expect(refused).toThrow(NodeOperationError);
		expect(refused).toThrow('"Period" must be a year');
		try {
			refused();
		} catch (error) {
			expect((error as NodeOperationError).description).toBe('Check the "Period" parameter.');
		}
	});

	it('good input is the query', () => {
		expect(queryOfRun(fakeContext({ parameters: { period: '2026' } }).ctx, probe)).toBe('2026');
	});
});

describe('send/: one read-only request', () => {
	const call = {
		method: 'POST' as const,
		url: (base: string) => `${base}/api/v2/read`,
		fields: [],
		accept: 'text/html',
	};

	it('an answer comes back unparsed', async () => {
		const { ctx, sent } = fakeContext({ gateway: () => ({ statusCode: 503, body: 'busy' }) });
		await expect(readAnswer(ctx, call, 'The thing', 'Reading it moves no money.')).resolves.toMatchObject({
			kind: 'answer',
			statusCode: 503,
			body: 'busy',
		});
		expect(sent).toHaveLength(1);
	});

	it('a reply that never came is the read’s error, saying that the read moves no money', async () => {
		const { ctx } = fakeContext({ gateway: () => ({ networkError: 'ETIMEDOUT' }) });
		const read = readAnswer(ctx, call, 'The thing', 'Reading it moves no money.');
		await expect(read).rejects.toThrow(/^The thing could not be read: /);
		await expect(read).rejects.toMatchObject({ description: expect.stringMatching(/Reading it moves no money\.$/) });
	});
});

describe('outcome/: what leaves the node', () => {
	it('items are masked by the read’s own mask, or every text as free text', () => {
		const items = () => [{ json: { note: `card ${CARD}, key ${SECRET}` } as IDataObject }];
		const [free] = maskedItems(items(), [SECRET]);
		expect(JSON.stringify(free.json)).not.toContain(CARD);
		expect(JSON.stringify(free.json)).not.toContain(SECRET);
		const [own] = maskedItems(items(), [SECRET], (json) => ({ ...json, masked: 'by its own mask' }));
		expect(own.json.masked).toBe('by its own mask');
	});

	it('an error item keeps n8n’s own error and its item; another error becomes a NodeOperationError', () => {
		const { ctx } = fakeContext();
		const api = new NodeApiError(ctx.getNode(), { message: 'refused' }, { message: 'refused', description: 'why' });
		expect(errorItem(ctx, api, 3, true)).toEqual({
			json: { error: 'refused', description: 'why' },
			error: api,
			pairedItem: { item: 3 },
		});
		expect(errorItem(ctx, api, 0, false).json).toEqual({ error: 'refused' });
		expect(errorItem(ctx, new Error('plain'), 1, true).error).toBeInstanceOf(NodeOperationError);
	});
});

describe('pipeline/: a read once for the run', () => {
	it('one request for all items; the items paired with item 0 and masked', async () => {
		const { output, sent } = balanceRun({
			items: [{ json: {} }, { json: {} }, { json: {} }],
			answers: [balanceReply({ name: `main ${CARD}` })],
		});
		const items = await output;
		expect(sent).toHaveLength(1);
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({ json: { amount: '100.00', currency: 'USD' }, pairedItem: { item: 0 } });
		expect(items[0].json.name).toMatch(/^main \S*1111$/);
		expect(JSON.stringify(items)).not.toContain(CARD);
	});

	it('bad input: refused naming the field, nothing sent, nothing moved', async () => {
		const { output, sent } = balanceRun({ parameters: { endpointId: '12ab' } });
		const error = await output.catch((thrown: Error) => thrown);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toMatch(/^"Endpoint ID" must be a whole number/);
		expect(moneyEffectOf(error as Error)).toBe('notSent');
		expect(sent).toEqual([]);
	});

	it('a lost reply, and a gateway refusal: the read’s error says nothing was sent', async () => {
		const lost = await balanceRun({ answers: [{ networkError: 'ETIMEDOUT' }] }).output.catch((e: Error) => e);
		expect((lost as Error).message).toMatch(/^The balance could not be read/);
		expect(moneyEffectOf(lost as Error)).toBe('notSent');
		const refused = await balanceRun({
			answers: [formReply({ type: 'validation-error', 'error-message': 'Unknown endpoint', 'error-code': '2' })],
		}).output.catch((e: Error) => e);
		expect(refused).toBeInstanceOf(NodeApiError);
		expect(moneyEffectOf(refused as Error)).toBe('notSent');
	});

	it('with Continue On Fail the read’s error is one error item, paired with item 0, without secrets', async () => {
		const items = await balanceRun({
			parameters: { endpointId: `${SECRET}` },
			items: [{ json: {} }, { json: {} }],
			continueOnFail: true,
		}).output;
		expect(items).toHaveLength(1);
		expect(items[0]).toMatchObject({
			json: { error: expect.stringMatching(/"Endpoint ID"/) },
			pairedItem: { item: 0 },
		});
		expect(Object.keys(items[0].json)).toEqual(['error']);
		expect(items[0].error).toBeInstanceOf(NodeOperationError);
		expect(JSON.stringify(items[0].json)).not.toContain(SECRET);
	});

	it('a per-item operation through the same entry: one request and one output item per input item', async () => {
		const status = (id: string) =>
			formReply({ type: 'status-response', status: 'approved', 'merchant-order-id': id, 'paynet-order-id': '9' });
		const fake = fakeContext({
			parameters: {
				resource: 'transaction',
				operation: 'getStatus',
				merchantOrderId: '={{ $json.id }}',
				gatewayOrderId: '9',
			},
			items: [{ json: { id: 'a-1' } }, { json: { id: 'a-2' } }],
			resolve: (name, itemIndex) =>
				name === 'merchantOrderId' ? `a-${itemIndex + 1}` : name === 'gatewayOrderId' ? '9' : undefined,
			gateway: (request) => status(request.fields.client_orderid),
		});
		const items = await runOperation(fake.ctx as IExecuteFunctions, transactionOperations.getStatus.spec, [SECRET]);
		expect(items.map((item) => [item.json.client_orderid, item.pairedItem])).toEqual([
			['a-1', { item: 0 }],
			['a-2', { item: 1 }],
		]);
		expect(fake.sent).toHaveLength(2);
	});
});

describe('pipeline/: reading ahead in the item loop', () => {
	/** Three items whose Merchant Order ID is an expression; every resolution of it counted by item. */
	function counted() {
		const resolved: number[] = [];
		const fake = fakeContext({
			parameters: { resource: 'transaction', operation: 'getStatus', merchantOrderId: '={{ $json.id }}' },
			items: [{ json: {} }, { json: {} }, { json: {} }],
			resolve: (name, itemIndex) => {
				if (name !== 'merchantOrderId') return undefined;
				resolved.push(itemIndex);
				return `a-${itemIndex}`;
			},
		});
		return { ctx: fake.ctx, resolved };
	}
	const getStatus = transactionOperations.getStatus.spec;

	it('the next item’s fields are read while an item is in flight, and handed to its own read', async () => {
		const { ctx, resolved } = counted();
		await readFieldsAhead(ctx, getStatus, { count: 3, next: 1, failed: false });
		expect(resolved).toEqual([1]);
		expect(nodeParameter(ctx, 'merchantOrderId', 1, '')).toBe('a-1');
		expect(resolved).toEqual([1]);
		// The next call reads the item after it, not the same one again.
		await readFieldsAhead(ctx, getStatus, { count: 3, next: 1, failed: false });
		expect(resolved).toEqual([1, 2]);
	});

	it('a run stopped at a failed item reads nothing more ahead', async () => {
		const { ctx, resolved } = counted();
		await readFieldsAhead(ctx, getStatus, { count: 3, next: 1, failed: true });
		expect(resolved).toEqual([]);
	});
});
