// Issues #7 and #13, campaigns 2, 4, 7 and 5 in a real n8n (one start for the file): small slices of
// `npm run reliability` — forged callbacks, callback load, forgeries of genuine callbacks, and the
// at-rest scan after them.
import { atRestCampaign } from '../../reliability/atRest';
import { forgedCampaign } from '../../reliability/forged';
import { forgedGenuineCampaign } from '../../reliability/forgedGenuine';
import { loadCampaign } from '../../reliability/load';
import { startReliabilityN8n, type ReliabilityN8n } from '../../reliability/n8n';
import { expectEveryInvariantRanAndHeld } from '../support/slices';
import { scaled } from '../support/time-scale';

let n8n: ReliabilityN8n;
const outputs: Array<{ campaign: string; texts: string[] }> = [];

beforeAll(
	async () => {
		n8n = await startReliabilityN8n(5760);
	},
	scaled(15 * 60_000),
);
afterAll(async () => {
	await n8n?.stop();
	await require('undici').getGlobalDispatcher().close();
}, scaled(60_000));
test(
	'forged callbacks: 50 requests (2 of each forgery), every one refused, nothing on Accepted, one Rejected execution per 403',
	async () => {
		const result = await forgedCampaign(n8n, { seed: 7, runs: 50 });
		expect(result.cases).toBe(50);
		expectEveryInvariantRanAndHeld(result);
		expect(result.figures['executions with an Accepted item']).toBe(0);
		expect(Number(result.figures['answered 403'])).toBeGreaterThan(0);
		expect(result.figures['executions with one Rejected item only']).toBe(result.figures['answered 403']);
	},
	scaled(120_000),
);
test(
	'callback load: 200 genuine callbacks at 50 concurrent, each acknowledged and run exactly once',
	async () => {
		const result = await loadCampaign(n8n, { seed: 7, runs: 200, concurrency: 50 });
		outputs.push({ campaign: 'load', texts: result.outputs });
		expectEveryInvariantRanAndHeld(result);
		expect(result.invariants.find((i) => i.name === 'no duplicate execution')?.passed).toBe(200);
		expect(result.figures['executions of the load workflow']).toBe(200);
	},
	scaled(180_000),
);
test(
	'forgeries of genuine callbacks (live and refunded sale): no item that disagrees with the gateway is confirmed',
	async () => {
		const result = await forgedGenuineCampaign(n8n, { callbacks: 2 });
		expectEveryInvariantRanAndHeld(result);
		expect(Number(result.figures['executions with confirmed: true'])).toBeGreaterThan(0);
	},
	scaled(300_000),
);
test(
	'card data at rest: none in the database, logs or outputs after the slices',
	async () => {
		const result = await atRestCampaign(n8n, outputs);
		expectEveryInvariantRanAndHeld(result);
	},
	scaled(60_000),
);
