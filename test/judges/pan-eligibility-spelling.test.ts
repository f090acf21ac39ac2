// Judge (issue 30, finding 9): a PAN eligibility check is spelled in one generation of the vendor's pages,
// whole (gateway-facts §16: hyphens client-order-id, sending-card-number, card-printed-name, expire-month,
// expire-year, sending-card-ref-id, server-callback-url; underscores client_orderid, expire_month,
// expire_year, server_callback_url). Over every check (send, receive, both) and every way of naming the
// cards, with and without the callback URL: no field of the other generation is sent, the sandbox (which
// refuses a request mixing them) takes it, and reads from it the expiry, the printed name and the callback
// URL the user gave. The truth is the sandbox's request log and its order, read through its admin API.
import type { IDataObject } from 'n8n-workflow';

import { CARD, PAN2, Sandbox, runNode, storedCard, type SandboxRequest } from '../support/harness';
import { scaled } from '../support/time-scale';

/** The underscored generation's names: none of them may be sent beside the hyphenated ones. */
const UNDERSCORED = ['client_orderid', 'expire_month', 'expire_year', 'server_callback_url', 'card_printed_name'];
const CALLBACK = 'https://n8n.example.com/webhook/eligibility';

interface SendingCard {
	name: string;
	fields: (reference: string) => IDataObject;
	/** What the sandbox's order must show of the card. */
	shows: IDataObject;
}
const SENDING: SendingCard[] = [
	{
		name: 'sending by reference',
		fields: (reference) => ({ cardReferenceId: reference }),
		shows: { lastFour: '1111' },
	},
	{
		name: 'sending by number',
		fields: () => ({ cardNumber: CARD.cardNumber }),
		shows: { lastFour: '1111', holder: '' },
	},
	{
		name: 'sending by number, name',
		fields: () => ({ cardNumber: CARD.cardNumber, cardholderName: 'JOHN SMITH' }),
		shows: { holder: 'JOHN SMITH', expMonth: '' },
	},
	{
		name: 'sending by number, expiry',
		fields: () => ({ cardNumber: CARD.cardNumber, expireMonth: '3', expireYear: '2031' }),
		shows: { expMonth: '03', expYear: '2031' },
	},
	{
		name: 'sending by number, name and expiry',
		fields: () => ({
			cardNumber: CARD.cardNumber,
			cardholderName: 'JOHN SMITH',
			expireMonth: '11',
			expireYear: '2032',
		}),
		shows: { holder: 'JOHN SMITH', expMonth: '11', expYear: '2032' },
	},
];
const RECEIVING = [
	{ name: 'receiving by reference', fields: (reference: string) => ({ destinationCardReferenceId: reference }) },
	{ name: 'receiving by number', fields: () => ({ destinationCardNumber: PAN2 }) },
];

interface Case {
	name: string;
	operation: string;
	path: string;
	/** Top-level parameters and Additional Fields, from the stored cards' references. */
	parameters: (references: { sending: string; receiving: string }) => IDataObject;
	shows?: IDataObject;
	callback: boolean;
}

/** Splits a case's fields into the top-level ones and Additional Fields, as the node shows them. */
const TOP_LEVEL = new Set(['cardReferenceId', 'destinationCardReferenceId']);
function placed(fields: IDataObject, callback: boolean): IDataObject {
	const top = Object.fromEntries(Object.entries(fields).filter(([name]) => TOP_LEVEL.has(name)));
	const additional = Object.fromEntries(Object.entries(fields).filter(([name]) => !TOP_LEVEL.has(name)));
	return { ...top, additionalFields: { ...additional, ...(callback ? { serverCallbackUrl: CALLBACK } : {}) } };
}

const CASES: Case[] = [true, false].flatMap((callback) => [
	...SENDING.map((sending) => ({
		name: sending.name,
		operation: 'checkPanEligibility',
		path: '/paynet/api/v2/pan-eligibility/send/1001',
		parameters: (references: { sending: string }) => placed(sending.fields(references.sending), callback),
		shows: sending.shows,
		callback,
	})),
	...RECEIVING.map((receiving) => ({
		name: receiving.name,
		operation: 'checkPanEligibilityReceive',
		path: '/paynet/api/v2/pan-eligibility/receive/1001',
		parameters: (references: { receiving: string }) => placed(receiving.fields(references.receiving), callback),
		callback,
	})),
	...SENDING.flatMap((sending) =>
		RECEIVING.map((receiving) => ({
			name: `${sending.name}, ${receiving.name}`,
			operation: 'checkPanEligibilityBoth',
			path: '/paynet/api/v2/pan-eligibility/both/1001',
			parameters: (references: { sending: string; receiving: string }) =>
				placed({ ...sending.fields(references.sending), ...receiving.fields(references.receiving) }, callback),
			shows: sending.shows,
			callback,
		})),
	),
]);

let sb: Sandbox;
beforeAll(async () => {
	sb = await Sandbox.start();
});
afterAll(() => sb.close());

async function judge(testCase: Case, index: number, references: { sending: string; receiving: string }) {
	const violations: string[] = [];
	const fail = (what: string) =>
		violations.push(`${testCase.operation}, ${testCase.name}${testCase.callback ? ', callback' : ''}: ${what}`);
	const id = `pan-${index}`;
	const run = await runNode(sb, {
		resource: 'transfer',
		operation: testCase.operation,
		merchantOrderId: id,
		...testCase.parameters(references),
	});
	const requests = (await sb.requests()).filter(
		(request: SandboxRequest) => request.params?.['client-order-id'] === id,
	);
	if (requests.length !== 1)
		return [...violations, `${testCase.name}: ${requests.length} requests under client-order-id`];
	const [request] = requests;
	if (request.path !== testCase.path) fail(`sent to ${request.path}`);
	const other = Object.keys(request.params ?? {}).filter((name) => UNDERSCORED.includes(name));
	if (other.length) fail(`sent ${other.join(', ')} beside client-order-id`);
	if (request.result !== 'async-response') fail(`the sandbox answered ${request.result}`);
	if (run.error) fail(`the node failed: ${run.error.message}`);
	else {
		const order = await sb.order(String(run.items[0].json.orderid));
		for (const [field, value] of Object.entries(testCase.shows ?? {})) {
			const shown = (order.card as IDataObject | null)?.[field];
			if (shown !== value) fail(`the gateway read card ${field} "${String(shown)}", not "${String(value)}"`);
		}
		const callback = (order.urls as IDataObject).serverCallback;
		if (callback !== (testCase.callback ? CALLBACK : ''))
			fail(`the gateway read the callback URL "${String(callback)}"`);
	}
	return violations;
}

it(
	'every PAN eligibility check is sent in one spelling generation, and read whole',
	async () => {
		const references = { sending: await storedCard(sb, 'pan-src'), receiving: await storedCard(sb, 'pan-dst') };
		const violations: string[] = [];
		for (let start = 0; start < CASES.length; start += 8) {
			const batch = CASES.slice(start, start + 8);
			violations.push(
				...(await Promise.all(batch.map((testCase, offset) => judge(testCase, start + offset, references)))).flat(),
			);
		}
		console.log(`PAN eligibility spelling judge: ${CASES.length} cases`);
		expect(violations).toEqual([]);
	},
	scaled(120_000),
);
