// The node's Transaction → Get Many against an independent report client (report_client.py: Python's
// standard library, its own OAuth signature and CSV parser), issue 30 "Done when": for each report
// layout the sandbox serves (its own, the platform's transactions and orders exports) as text/csv and
// as text/html, over generated histories laid across midnight in the server's zone, both read the same
// period and must give the same rows, in the same order, with the same values. Which node field holds
// which column is written here from the layouts' headers (gateway-facts §16, docs/sandbox.md), not
// taken from the node's column tables; columns the node does not name must be under its otherColumns.
// A report cut short is incomplete to both: Python says so, the node's run fails and outputs no rows.
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MERCHANT, Sandbox, jsonOf, runNode } from '../support/harness';
import { seeded, type Random } from '../support/reconcile-cases';
import { wallParts } from '../support/wall-clock';

const { hasPython3, readReport } = require('../support/report-client') as {
	hasPython3(): boolean;
	readReport(
		url: string,
		merchant: { login: string; controlKey: string },
		params: Record<string, string>,
	): Promise<Read>;
};

/** What the Python client printed for a report. */
interface Read {
	status: number;
	contentType: string;
	complete: boolean;
	problem: string | null;
	header: string[];
	rows: Array<Record<string, string>>;
}

// Zones without daylight saving, so that a wall time names one instant (UTC+4 and UTC−3).
const SERVER_ZONE = 'Asia/Dubai';
const USER_ZONE = 'America/Sao_Paulo';
const PERIOD = { createdFromDate: '2026-03-01 00:00:00', createdToDate: '2026-03-01 23:59:59' };
const HISTORIES = 40;

/** The node's fields for a layout's columns (its output contract, docs/node.md), and the instant of each time. */
type NodeField =
	| 'transactionId'
	| 'orderId'
	| 'merchantOrderId'
	| 'type'
	| 'status'
	| 'amount'
	| 'currency'
	| 'orderAmount'
	| 'createdDate'
	| 'bankDate'
	| 'orderCreatedDate'
	| 'cardNumber'
	| 'endpointId';
const INSTANT_OF: Partial<Record<NodeField, string>> = {
	createdDate: 'createdAt',
	bankDate: 'bankAt',
	orderCreatedDate: 'orderCreatedAt',
};
/** What every item says besides the columns. */
const ABOUT_THE_READ = ['timeZone', 'reportLayout', 'otherColumns'];

interface Layout {
	/** The zone the layout writes its times and reads its period in. */
	zone: string;
	/** Its header, as the layout's sources list it (every column, in order). */
	header: string[];
	/** Column → the node's field; every other column belongs under otherColumns. */
	named: Record<string, NodeField>;
}

const LAYOUTS: Record<'sandbox' | 'transactions' | 'orders', Layout> = {
	// The sandbox's own (docs/sandbox.md): UTC, no public source.
	sandbox: {
		zone: 'UTC',
		header: [
			'paynet-order-id', 'merchant-order-id', 'serial-number', 'transaction-type', 'status', 'amount', 'currency',
			'end-point-id', 'created-date', 'bank-date', 'card-number', 'card-type', 'cardholder-name', 'approval-code',
			'error-code', 'error-message', 'order-desc',
		],
		named: {
			'paynet-order-id': 'orderId',
			'merchant-order-id': 'merchantOrderId',
			'serial-number': 'transactionId',
			'transaction-type': 'type',
			status: 'status',
			amount: 'amount',
			currency: 'currency',
			'end-point-id': 'endpointId',
			'created-date': 'createdDate',
			'bank-date': 'bankDate',
			'card-number': 'cardNumber',
		},
	},
	// The platform's transactions export (§16: the connectors' map, then the fraud tool's three): no gateway order ID.
	transactions: {
		zone: SERVER_ZONE,
		header: [
			'Txid', 'Created Date (Server TZ)', 'Created Date (User TZ)', 'Created Date (Server TZ, no time)',
			'Bank Date (Server TZ)', 'Bank Date (User TZ)', 'Merchant', 'End-Point ID', 'Project ID', 'Project Name',
			'Currency', 'Site URL', 'Card type', 'Ip', 'Type', 'Status', 'Amount', 'Processor tx ID', 'Card No', 'Name',
			'Email', 'Phone', 'Address', 'Zip', 'City', 'State', 'Country', 'First Name', 'Last Name', 'Order Description',
			'Merchant OID', 'Capture amount', 'Approval Code', 'View Receipt URL', 'Bank name', 'BIN country',
			'BIN country code', 'Initial tx bank date (Server TZ)', 'Initial tx Amount', 'Creation time',
			'Customer IP address country', 'Processor', 'Error Description', 'Is 3D',
		],
		named: {
			Txid: 'transactionId',
			'Merchant OID': 'merchantOrderId',
			Type: 'type',
			Status: 'status',
			Amount: 'amount',
			Currency: 'currency',
			'End-Point ID': 'endpointId',
			'Created Date (Server TZ)': 'createdDate',
			'Bank Date (Server TZ)': 'bankDate',
			'Card No': 'cardNumber',
		},
	},
	// The platform's orders export (§16, the GumballPay connector's columns): the order's time only.
	orders: {
		zone: SERVER_ZONE,
		header: [
			'Order Created', 'Order Created (no time)', 'Invoice No', 'Order ID', 'Rebill Tx', 'Status Change Date',
			'Description', 'Order Amount', 'Currency', 'Tx Gate ID', 'Card Name', 'Card Holder', 'Card Number',
			'End-Point ID', 'End-Point', 'Error Message', 'Tx ID', 'Tx Status', 'Tx Type', 'Tx Amount',
			'Destination Card No', 'BIN country',
		],
		named: {
			'Order ID': 'orderId',
			'Invoice No': 'merchantOrderId',
			'Tx ID': 'transactionId',
			'Tx Type': 'type',
			'Tx Status': 'status',
			'Tx Amount': 'amount',
			Currency: 'currency',
			'Order Amount': 'orderAmount',
			'End-Point ID': 'endpointId',
			'Order Created': 'orderCreatedDate',
			'Card Number': 'cardNumber',
		},
	},
}; // prettier-ignore

/** The UTC instant (ISO 8601) a wall time `YYYY-MM-DD[ T]HH:MM:SS[.f…]` names in a zone without daylight saving. */
function instantIn(zone: string, wall: string): string {
	const match = /^(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(?:\.(\d{1,3}))?$/.exec(wall);
	if (!match) return `not a wall time: ${wall}`;
	const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
	const wallMs = Date.UTC(year, month - 1, day, hour, minute, second, Number((match[7] ?? '').padEnd(3, '0')));
	const parts = wallParts(zone, wallMs);
	const offsetMs =
		Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second) -
		(wallMs - (wallMs % 1000));
	return new Date(wallMs - offsetMs).toISOString();
}

// ---------------------------------------------------------------------------------------------
// Histories: every kind of row, across midnight in the server's zone, several orders under one ID.

const pick = <T>(random: Random, choices: readonly T[]): T => choices[Math.floor(random() * choices.length)];

/** Each endpoint's currency and amounts in it: a whole, a part (for partial captures and refunds). */
const SCOPES = [
	{ scope: { endpoint: '1001' }, whole: ['10.00', '25.50', '100.00'], part: '3.00' },
	{ scope: { endpoint: '1002' }, whole: ['12.34', '40.00'], part: '2.50' },
	{ scope: { endpoint: '1003' }, whole: ['1500', '9000'], part: '300' },
	{ scope: { group: '2001', currency: 'USD' }, whole: ['10.00', '75.25'], part: '3.00' },
];

/** An order's operation, outcome and steps (`part` stands for the scope's partial amount). */
const SHAPES: Array<{ operation: string; outcome?: string; steps: Array<{ op: string; part?: true }> }> = [
	{ operation: 'sale', steps: [] },
	{ operation: 'sale', outcome: 'declined', steps: [] },
	{ operation: 'sale', outcome: 'filtered', steps: [] },
	{ operation: 'sale', outcome: 'pending', steps: [] },
	{ operation: 'sale', steps: [{ op: 'return', part: true }] },
	{ operation: 'sale', steps: [{ op: 'return' }] },
	{ operation: 'sale', steps: [{ op: 'void' }] },
	{ operation: 'sale', steps: [{ op: 'chargeback' }] },
	{ operation: 'sale', steps: [{ op: 'return', part: true }, { op: 'chargeback' }] },
	{ operation: 'preauth', steps: [{ op: 'capture' }] },
	{ operation: 'preauth', steps: [{ op: 'capture', part: true }, { op: 'return', part: true }] },
	{ operation: 'preauth', steps: [{ op: 'return' }] },
	{ operation: 'preauth', steps: [{ op: 'void' }] },
	{ operation: 'payout', steps: [] },
	{ operation: 'payout', outcome: 'declined', steps: [] },
	{ operation: 'payout-check', steps: [] },
	{ operation: 'payout-check', steps: [{ op: 'pay' }] },
]; // prettier-ignore

/** The report's types and statuses of those shapes (docs/sandbox.md's table). */
const EVERY_TYPE = ['sale', 'preauth', 'capture', 'reversal', 'void', 'cancel', 'chargeback', 'payout', 'payout-check'];
const EVERY_STATUS = ['approved', 'declined', 'filtered', 'processing'];

/**
 * Texts a CSV must quote (commas, quotes, line breaks) and that are not ASCII. None holds a card-like run of
 * digits (the node masks those in any text, by rule) or blanks at either end (the node trims every value).
 */
const CUSTOMERS = [
	{},
	{ order_desc: 'Invoice 7, "express"\nsecond line', first_name: 'Zoë', last_name: "O'Brien", city: 'São Paulo' },
	{ order_desc: 'Café №5 — tea, coffee', email: 'buyer+1@example.com', phone: '+971501234567', country: 'AE' },
	{ order_desc: 'a "quoted" word', address1: '1 Main St, Apt "B"', zip_code: '12345', state: 'CA' },
];

/** Server wall times, 2026-03-01 18:00 to 2026-03-02 06:00 and on midnight's edges (the admin API reads them so). */
const START_MS = Date.UTC(2026, 2, 1, 18, 0, 0);
const EDGES_MS = [
	Date.UTC(2026, 2, 1, 23, 59, 59, 500),
	Date.UTC(2026, 2, 2, 0, 0, 0),
	Date.UTC(2026, 2, 1, 23, 59, 59),
];
const STEP_DELAYS_MS = [500, 1000, 60_000, 45 * 60_000];
const wallTime = (ms: number) => new Date(ms).toISOString().slice(0, 23).replace('T', ' ');

function generateHistories(random: Random): IDataObject[] {
	const taken = new Set<string>();
	const histories: IDataObject[] = [];
	while (histories.length < HISTORIES) {
		const { scope, whole, part } = pick(random, SCOPES);
		// A small pool of merchant order IDs: several gateway orders under one ID, in different scopes.
		const merchantOrderId = pick(random, [
			`inv,${Math.floor(random() * 25)} "q"`,
			`Zahlung-${Math.floor(random() * 25)}`,
		]);
		const key = `${merchantOrderId}@${scope.endpoint ?? scope.group}`;
		if (taken.has(key)) continue;
		taken.add(key);
		// Every shape once, early in the evening (in every layout's period), then shapes and times at random.
		const first = histories.length < SHAPES.length;
		const shape = first ? SHAPES[histories.length] : pick(random, SHAPES);
		let at = first
			? START_MS + histories.length * 60_000
			: random() < 0.2
				? pick(random, EDGES_MS)
				: START_MS + Math.floor(random() * 12 * 3600) * 1000;
		const created = at;
		histories.push({
			merchantOrderId,
			...scope,
			operation: shape.operation,
			outcome: shape.outcome ?? 'approved',
			amount: pick(random, whole),
			params: pick(random, CUSTOMERS),
			at: wallTime(created),
			steps: shape.steps.map((step) => ({
				op: step.op,
				...(step.part ? { amount: part } : {}),
				at: wallTime((at += pick(random, STEP_DELAYS_MS))),
			})),
		});
	}
	return histories;
}

// ---------------------------------------------------------------------------------------------
// The comparison: every field the Python client gives, in the node's item that stands at its place.

/** How a node item differs from the Python client's row (nothing when they agree). */
function differences(layout: Layout, name: string, row: Record<string, string>, item: IDataObject): string[] {
	const found: string[] = [];
	const differ = (what: string, python: unknown, node: unknown) => {
		if (python !== node) found.push(`${what}: python ${JSON.stringify(python)}, node ${JSON.stringify(node)}`);
	};
	const other = (item.otherColumns ?? {}) as IDataObject;
	for (const [column, value] of Object.entries(row)) {
		const field = layout.named[column];
		// An empty column the node does not name is left out of otherColumns.
		if (!field) differ(`"${column}" (otherColumns)`, value, other[column] ?? '');
		else differ(`"${column}" (${field})`, value, item[field]);
		const instant = field && INSTANT_OF[field];
		if (instant)
			differ(
				`"${column}" read in ${layout.zone} (${instant})`,
				value ? instantIn(layout.zone, value) : undefined,
				item[instant],
			);
	}
	differ('timeZone', layout.zone, item.timeZone);
	differ('reportLayout', name, item.reportLayout);
	// Nothing besides: no field the row does not give, no other column the header does not have.
	const allowed = new Set([...Object.values(layout.named), ...Object.values(INSTANT_OF), ...ABOUT_THE_READ]);
	for (const key of Object.keys(item)) if (!allowed.has(key)) differ(`node field ${key}`, undefined, item[key]);
	for (const column of Object.keys(other))
		if (!(column in row) || layout.named[column]) differ(`otherColumns["${column}"]`, undefined, other[column]);
	return found;
}

const getMany = (zone: string): INodeParameters => ({
	resource: 'transaction',
	operation: 'getMany',
	createdFrom: PERIOD.createdFromDate,
	createdTo: PERIOD.createdToDate,
	returnAll: true,
	options: { timeZone: zone },
});

const PYTHON = hasPython3();
if (!PYTHON)
	console.warn('get-many-vs-python: SKIPPED — python3 is not installed, so the independent client cannot run');
const title = PYTHON
	? 'Get Many reads the report as the independent Python client does'
	: 'Get Many vs the independent Python client — SKIPPED: python3 is not installed, so the client cannot run';

const CASES = Object.keys(LAYOUTS).flatMap((name) =>
	['text/csv', 'text/html'].map((contentType) => [name as keyof typeof LAYOUTS, contentType] as const),
);

/** A case's sandbox and the Python client's reads of it: the whole report, then one cut inside a row. */
interface Prepared {
	sb: Sandbox;
	whole: Read;
	cut: Read;
}

/** A sandbox serving the layout, its histories and the Python client's two reads (all at once: Python is slow). */
async function prepare(name: keyof typeof LAYOUTS, contentType: string, seed: number): Promise<Prepared> {
	const sb = await Sandbox.start({ serverTimeZone: SERVER_ZONE, userTimeZone: USER_ZONE });
	await sb.admin('POST', `merchants/${MERCHANT.login}/report`, { layout: name, contentType });
	await sb.admin('POST', 'histories', { histories: generateHistories(seeded(seed)) });
	const whole = await readReport(sb.url, MERCHANT, PERIOD);
	await sb.fault({ kind: 'report-cut-mid-row', op: 'transaction-report' });
	const cut = await readReport(sb.url, MERCHANT, PERIOD);
	return { sb, whole, cut };
}

(PYTHON ? describe : describe.skip)(title, () => {
	const prepared = new Map<string, Prepared>();
	beforeAll(async () => {
		const ready = await Promise.all(CASES.map(([name, contentType], index) => prepare(name, contentType, 30 + index)));
		CASES.forEach(([name, contentType], index) => prepared.set(`${name} ${contentType}`, ready[index]));
	});
	afterAll(() => Promise.all([...prepared.values()].map(({ sb }) => sb.close())));

	describe.each(CASES)('layout %s as %s', (name, contentType) => {
		const layout = LAYOUTS[name];
		const the = () => prepared.get(`${name} ${contentType}`)!;

		it('the same rows, in the same order, with the same value in every column', async () => {
			const { sb, whole: python } = the();
			expect(python).toMatchObject({ status: 200, complete: true, problem: null });
			expect(python.contentType.startsWith(contentType)).toBe(true);
			expect(python.header).toEqual(layout.header);

			const run = await runNode(sb, getMany(layout.zone));
			expect(run.error?.message).toBeUndefined();
			const items = jsonOf(run);

			const found = python.rows.flatMap((row, index) =>
				differences(layout, name, row, items[index] ?? {}).map((what) => `row ${index + 1}: ${what}`),
			);
			console.log(
				`layout ${name} as ${contentType}: python ${python.rows.length} rows, ` +
					`node ${items.length} items, ${found.length} differences`,
			);
			expect(found.slice(0, 20)).toEqual([]);
			expect(items).toHaveLength(python.rows.length);
			// Every kind of row is there, so that the comparison says something of each.
			expect(new Set(items.map((item) => item.type))).toEqual(new Set(EVERY_TYPE));
			expect(new Set(items.map((item) => item.status))).toEqual(new Set(EVERY_STATUS));
		});

		it('a report cut short inside a row: Python reads it incomplete, the node’s run fails with no rows', async () => {
			const { sb, cut: python } = the();
			expect(python.status).toBe(200);
			expect(python.complete).toBe(false);
			expect(python.problem).toEqual(expect.any(String));

			// Two cut reports: one for a plain run, one for a run that continues on fail.
			await sb.fault({ kind: 'report-cut-mid-row', op: 'transaction-report', count: 2 });
			const run = await runNode(sb, getMany(layout.zone));
			expect(run.error?.message).toMatch(/could not be read whole/);
			expect(run.items).toHaveLength(0);
			const onFail = await runNode(sb, getMany(layout.zone), { continueOnFail: true });
			expect(jsonOf(onFail)).toEqual([{ error: expect.stringMatching(/could not be read whole/) }]);
		});
	});
});
