// What one run of the node asks of n8n: the credential is read once per run (n8n fetches and
// decrypts it on every read, also inside httpRequestWithAuthentication unless handed over), a
// parameter without expressions once per run, an item's expression once per item, and the value
// the duplicate order ID check read is the value sent.
import type { IDataObject, IExecuteFunctions, INodeParameters } from 'n8n-workflow';

import { CardGateway } from '../../nodes/CardGateway/CardGateway.node';
import { runWorkflow } from '../support/n8n';

import { NODE_NAME, NODE_TYPE, cardPayment, jsonOf, runNode, useSandbox } from '../support/harness';

const env = useSandbox();

beforeEach(() => env.sb.reset());

/** Runs the node with every getNodeParameter call counted by parameter name. */
async function countedRun(parameters: INodeParameters, input: IDataObject[]) {
	const node = new CardGateway();
	const execute = node.execute;
	const reads: Record<string, number> = {};
	node.execute = async function (this: IExecuteFunctions) {
		const read = this.getNodeParameter.bind(this) as (...args: unknown[]) => unknown;
		this.getNodeParameter = ((name: string, ...rest: unknown[]) => {
			reads[name] = (reads[name] ?? 0) + 1;
			return read(name, ...rest);
		}) as IExecuteFunctions['getNodeParameter'];
		return await execute.call(this);
	};
	const { run, output, credentialReads } = await runWorkflow({
		nodeTypes: { [NODE_TYPE]: node },
		nodes: [
			{
				name: NODE_NAME,
				type: NODE_TYPE,
				parameters,
				credentials: { cardGatewayApi: { id: 'cred-1', name: 'Card Gateway account' } },
			},
		],
		credentials: env.sb.credentials(),
		input: input.map((json) => ({ json })),
	});
	return {
		error: run.data.resultData.error,
		items: output(NODE_NAME).map((item) => item.json),
		reads,
		credentialReads,
	};
}

async function approvedSales(count: number) {
	const input = Array.from({ length: count }, (_, index) => ({ cid: `reads-sale-${index}` }));
	const run = await runNode(env.sb, cardPayment({ merchantOrderId: '={{ $json.cid }}', options: { concurrency: 4 } }), {
		input,
	});
	expect(run.error).toBeUndefined();
	return jsonOf(run).map((json) => ({ cid: String(json.client_orderid), oid: String(json.orderid) }));
}

describe('reads per run', () => {
	it('status queries: the credential once, constant options once, each item its own expression once', async () => {
		const sales = await approvedSales(5);
		const parameters = {
			resource: 'transaction',
			operation: 'getStatus',
			merchantOrderId: '={{ $json.cid }}',
			gatewayOrderId: '={{ $json.oid }}',
			options: { concurrency: 2, timeoutSeconds: 20 },
		};
		const { error, items, reads, credentialReads } = await countedRun(parameters, sales);
		expect(error).toBeUndefined();
		expect(items.map((json) => [json.client_orderid, json.orderid, json.status])).toEqual(
			sales.map(({ cid, oid }) => [cid, oid, 'approved']),
		);
		// before: once by the node and once more for each request by n8n's authenticated request helper
		expect(credentialReads).toBe(1);
		expect(reads).toMatchObject({ options: 1, merchantOrderId: 5, gatewayOrderId: 5 });
	});

	it('an expression in the options is read for every item', async () => {
		const sales = await approvedSales(3);
		const parameters = {
			resource: 'transaction',
			operation: 'getStatus',
			merchantOrderId: '={{ $json.cid }}',
			gatewayOrderId: '={{ $json.oid }}',
			options: { timeoutSeconds: '={{ 10 + $itemIndex }}' },
		};
		const { error, reads } = await countedRun(parameters, sales);
		expect(error).toBeUndefined();
		expect(reads.options).toBeGreaterThanOrEqual(3);
	});

	it('refunds: the order ID the duplicate check read is the one sent, read once per item', async () => {
		const sales = await approvedSales(4);
		const parameters = {
			resource: 'payment',
			operation: 'return',
			merchantOrderId: '={{ $json.cid }}',
			gatewayOrderId: '={{ $json.oid }}',
			options: { concurrency: 2 },
		};
		const { error, items, reads, credentialReads } = await countedRun(parameters, sales);
		expect(error).toBeUndefined();
		expect(items.map((json) => json.client_orderid)).toEqual(sales.map((sale) => sale.cid));
		// one read per item (before: the check's read, then the item's own): an expression that
		// gives another value on a second evaluation cannot send what the check never saw
		expect(reads.merchantOrderId).toBe(4);
		expect(credentialReads).toBe(1);
		const returns = (await env.sb.requests()).filter((request) => request.op === 'return');
		expect(returns.map((request) => request.client_orderid).sort()).toEqual(sales.map((sale) => sale.cid).sort());
	});
});
