// Transaction → Get Many against the sandbox over HTTP, an independent client of the same report
// (its own OAuth signing, its own CSV split), and the report's pure parts: the RFC 4180 reader under
// adversarial input and chunking, dates and 31-day windows.
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

import { CsvReader, parseCsv } from '../../nodes/shared/protocol/csv';
import { parseReportDate, reportUrl, reportWindows } from '../../nodes/shared/protocol/report';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { CARD, MERCHANT, Sandbox, cardPayment, jsonOf, runNode, useSandbox } from '../support/harness';

const { startHostileGateway } = require('../support/hostile-gateway') as {
	startHostileGateway(
		url: string,
		plan: () => { forward: boolean; answer?: string; reply?: { status: number; type: string; body: string } },
	): Promise<{ url: string; close(): Promise<void> }>;
};

const env = useSandbox();

beforeEach(() => env.sb.reset());

describe('the CSV reader (RFC 4180)', () => {
	const tricky =
		'id,note,amount\r\n1,"a, b",10.00\r\n2,"say ""hi""",0.50\n3,"two\r\nlines\nand more",7\r4,,\r\n\r\n5,"",1';
	const expected = [
		['id', 'note', 'amount'],
		['1', 'a, b', '10.00'],
		['2', 'say "hi"', '0.50'],
		['3', 'two\r\nlines\nand more', '7'],
		['4', '', ''],
		['5', '', '1'],
	];

	it('reads quotes, escaped quotes, commas, CRLF, LF, lone CR and line breaks inside quotes; skips blank lines', () => {
		expect(parseCsv(tricky)).toEqual(expected);
	});

	it('gives the same records whatever the chunks (every split point, and one character at a time)', () => {
		for (let split = 0; split <= tricky.length; split++) {
			const reader = new CsvReader();
			const records = [...reader.push(tricky.slice(0, split)), ...reader.push(tricky.slice(split)), ...reader.end()];
			expect({ split, records }).toEqual({ split, records: expected });
		}
		const reader = new CsvReader();
		const byChar = [...tricky].flatMap((char) => reader.push(char));
		expect([...byChar, ...reader.end()]).toEqual(expected);
	});

	it('drops a byte order mark, keeps a last record without a line break, and a CR split from its LF', () => {
		const reader = new CsvReader();
		expect([...reader.push('\uFEFFa,b\r'), ...reader.push('\nc,d'), ...reader.end()]).toEqual([
			['a', 'b'],
			['c', 'd'],
		]);
	});

	it('keeps stray quotes inside unquoted fields and text after a closing quote (lenient)', () => {
		expect(parseCsv('a"b,"c"d\n')).toEqual([['a"b', 'cd']]);
	});

	it('refuses a report cut short inside a quoted field, and a field beyond its size limit', () => {
		expect(() => parseCsv('id,note\n1,"never closed')).toThrow(/cut short/);
		const reader = new CsvReader(10);
		expect(() => reader.push('"01234567890123')).toThrow(/longer than 10/);
	});
});

describe('report dates and windows', () => {
	it('reads YYYY-MM-DD HH:MM:SS, a T separator and a bare day (its start, or its last second for an end)', () => {
		expect(parseReportDate('2026-11-01 10:20:30', 'x')).toBe(Date.UTC(2026, 10, 1, 10, 20, 30) / 1000);
		expect(parseReportDate('2026-11-01T10:20', 'x')).toBe(Date.UTC(2026, 10, 1, 10, 20) / 1000);
		expect(parseReportDate('2026-11-01', 'x', true)).toBe(Date.UTC(2026, 10, 1, 23, 59, 59) / 1000);
	});

	it.each(['2026-02-30 00:00:00', '2026-11-01 24:00:00', '01/11/2026', '', '2026-11-01 10:61'])(
		'refuses %j, naming the field',
		(text) => {
			expect(() => parseReportDate(text, 'Created From')).toThrow(/Created From/);
		},
	);

	it('splits a 40-day period into windows of at most 31 days that touch without overlapping', () => {
		const from = parseReportDate('2026-01-01 00:00:00', 'x');
		const to = parseReportDate('2026-02-09 23:59:59', 'x');
		expect(reportWindows(from, to)).toEqual([
			{ from: '2026-01-01 00:00:00', to: '2026-01-31 23:59:59' },
			{ from: '2026-02-01 00:00:00', to: '2026-02-09 23:59:59' },
		]);
		expect(reportWindows(from, from)).toEqual([{ from: '2026-01-01 00:00:00', to: '2026-01-01 00:00:00' }]);
	});

	it('puts the report beside /paynet on the same host', () => {
		expect(reportUrl('https://gate.example.com/paynet/')).toBe(
			'https://gate.example.com/paynet-ui/services/transaction-report',
		);
		expect(reportUrl('http://127.0.0.1:8080/x/paynet')).toBe(
			'http://127.0.0.1:8080/x/paynet-ui/services/transaction-report',
		);
	});
});

const DAY = '2026-11-01';
const getMany = (parameters: Record<string, unknown> = {}) => ({
	resource: 'transaction',
	operation: 'getMany',
	createdFrom: `${DAY} 00:00:00`,
	createdTo: `${DAY} 23:59:59`,
	returnAll: true,
	...parameters,
});

async function seed(sandbox: Sandbox, count: number, from = `${DAY} 00:00:00`, stepMs = 1000) {
	return await sandbox.admin('POST', 'report-rows', { endpoint: '1001', count, from, stepMs });
}

describe('Transaction → Get Many', () => {
	it('one item per transaction with named, typed fields; the card masked', async () => {
		await seed(env.sb, 25);
		const run = await runNode(env.sb, getMany());
		expect(run.error).toBeUndefined();
		const items = jsonOf(run);
		expect(items).toHaveLength(25);
		expect(items[0]).toMatchObject({
			orderId: expect.stringMatching(/^\d+$/),
			type: expect.any(String),
			status: expect.stringMatching(/^(approved|declined|filtered|processing)$/),
			amount: expect.stringMatching(/^-?\d+(\.\d+)?$/),
			currency: 'USD',
			createdDate: expect.stringMatching(/^2026-11-01 \d\d:\d\d:\d\d$/),
			endpointId: '1001',
		});
		expect(run.serialised).not.toContain(CARD.cardNumber);
		for (const item of items) if (item.cardNumber) expect(String(item.cardNumber)).toMatch(/^\d{6}\*+\d{4}$/);
	});

	it("the node's orders appear in the report, under their merchant order ID", async () => {
		const sale = await runNode(env.sb, cardPayment({ merchantOrderId: 'report-sale-1', amount: '12.34' }));
		expect(sale.error).toBeUndefined();
		const today = new Date().toISOString().slice(0, 10);
		const run = await runNode(env.sb, getMany({ createdFrom: today, createdTo: today }));
		expect(jsonOf(run)).toContainEqual(
			expect.objectContaining({ merchantOrderId: 'report-sale-1', amount: '12.34', currency: 'USD', type: 'sale' }),
		);
	});

	it('stops at Limit, and the filters reach the gateway', async () => {
		await seed(env.sb, 500);
		const all = jsonOf(await runNode(env.sb, getMany()));
		expect(all.some((item) => item.status !== 'approved')).toBe(true);
		const run = await runNode(
			env.sb,
			getMany({
				returnAll: false,
				limit: 7,
				filters: { transactionStatuses: ['approved'], transactionTypes: ['sale'], endpoints: '1001' },
			}),
		);
		expect(run.error).toBeUndefined();
		expect(jsonOf(run)).toEqual(all.filter((item) => item.status === 'approved' && item.type === 'sale').slice(0, 7));
	});

	it('reads a 40-day period as two windows the gateway accepts, every row once', async () => {
		await seed(env.sb, 40, '2026-01-01 12:00:00', 24 * 60 * 60 * 1000);
		const run = await runNode(env.sb, getMany({ createdFrom: '2026-01-01', createdTo: '2026-02-09' }));
		expect(run.error).toBeUndefined();
		const ids = jsonOf(run).map((item) => item.orderId);
		expect(ids).toHaveLength(40);
		expect(new Set(ids).size).toBe(40);
		expect(await reportRequests(env.sb)).toHaveLength(2);
	});

	it('refuses a bad date, naming the field, before anything is sent', async () => {
		for (const [parameters, field] of [
			[{ createdFrom: '={{ "" }}' }, 'Created From'],
			[{ createdTo: '2026-13-01' }, 'Created To'],
			[{ createdFrom: '2026-11-02', createdTo: '2026-11-01' }, 'Created To'],
			[{ filters: { endpoints: '1001, abc' } }, 'Endpoint IDs'],
		] as const) {
			const run = await runNode(env.sb, getMany(parameters));
			expect(run.error?.message).toContain(field);
			expect(run.error?.context?.moneyEffect).toBe('notSent');
		}
		expect(await reportRequests(env.sb)).toHaveLength(0);
	});

	it("a refusal is the gateway's message and code (an endpoint not the merchant's; a wrong key)", async () => {
		const foreign = await runNode(env.sb, getMany({ filters: { endpoints: '9999' } }));
		expect(foreign.error?.name).toBe('NodeApiError');
		expect(foreign.error?.message).toMatch(/9999/);
		const wrongKey = await runNode(env.sb, getMany(), { credentials: { controlKey: 'WRONG-KEY-0000' } });
		expect(wrongKey.error?.name).toBe('NodeApiError');
		expect(wrongKey.error?.message).toMatch(/signature|403/);
	});
});

/** A transaction as the judge compares it: from the node's output, or from the sandbox's own order views. */
interface Seen {
	merchantOrderId: string;
	orderId?: string;
	type: string;
	status: string;
	amount: string;
	currency: string;
	createdAt: string;
}

/** Wall time in Moscow (the sandbox's server zone) of minute `minute` after 2026-03-01 22:00, second `second`. */
const moscowWall = (minute: number, second = 0) =>
	new Date(Date.UTC(2026, 2, 1, 19, minute, second)).toISOString().slice(0, 19).replace('T', ' ');

/**
 * Histories across Moscow's midnight (2026-03-01 22:00 → 2026-03-02 02:00): sales, declines, a pending
 * order, preauth → capture → return, void, cancel, chargeback, payouts (a paid check too), and one
 * merchant order ID used twice (an endpoint and a group). Every transaction's time is set.
 */
function generatedHistories(count: number, seed: number) {
	let state = seed;
	const next = (n: number) => {
		state = (state * 1103515245 + 12345) % 2 ** 31;
		return state % n;
	};
	const shapes = [
		() => ({ operation: 'sale', steps: [] }),
		() => ({ operation: 'sale', outcome: 'declined', steps: [] }),
		() => ({ operation: 'sale', outcome: 'pending', steps: [] }),
		() => ({ operation: 'sale', steps: [{ op: 'return', amount: '1.25' }] }),
		() => ({ operation: 'sale', steps: [{ op: 'void' }] }),
		() => ({ operation: 'sale', steps: [{ op: 'chargeback' }] }),
		() => ({
			operation: 'preauth',
			steps: [
				{ op: 'capture', amount: '3.00' },
				{ op: 'return', amount: '1.00' },
			],
		}),
		() => ({ operation: 'preauth', steps: [{ op: 'return' }] }),
		() => ({ operation: 'payout', steps: [] }),
		() => ({ operation: 'payout-check', steps: [{ op: 'pay' }] }),
	];
	return Array.from({ length: count }, (_, index) => {
		const shape = shapes[next(shapes.length)]();
		const minute = index * Math.floor(240 / count) + next(5);
		return {
			merchantOrderId: `inv,${index} "q"`,
			...(index % 3 === 1 ? { group: '2001' } : { endpoint: index % 2 ? '1002' : '1001' }),
			amount: `${5 + next(50)}.${String(next(100)).padStart(2, '0')}`,
			at: moscowWall(minute, next(60)),
			...shape,
			steps: shape.steps.map((step, at) => ({ ...step, at: moscowWall(minute + at + 1, next(60)) })),
		};
	});
}

/** What a layout shows: the gateway order ID or not, each row's own creation time or its order's. */
interface Shows {
	orderId: boolean;
	time: 'transaction' | 'order';
}

/** The report's transactions as the sandbox's order views list them (the truth). */
async function truthOf(sandbox: Sandbox, shows: Shows): Promise<Seen[]> {
	const { orders } = await sandbox.admin<{ orders: Array<IDataObject & { transactions: IDataObject[] }> }>(
		'GET',
		'orders',
	);
	return orders
		.filter((order) => order.merchant === MERCHANT.login)
		.flatMap((order) =>
			order.transactions.map((transaction) => ({
				merchantOrderId: String(order.client_orderid),
				...(shows.orderId ? { orderId: String(order.orderid) } : {}),
				type: String(transaction.type),
				status: String(transaction.status),
				amount: String(transaction.amount),
				currency: String(order.currency),
				createdAt: new Date(String(shows.time === 'order' ? order.createdAt : transaction.at)).toISOString(),
			})),
		);
}

function seenByNode(items: IDataObject[], shows: Shows): Seen[] {
	return items.map((item) => ({
		merchantOrderId: String(item.merchantOrderId),
		...(shows.orderId ? { orderId: String(item.orderId) } : {}),
		type: String(item.type),
		status: String(item.status),
		amount: String(item.amount),
		currency: String(item.currency),
		createdAt: String(shows.time === 'order' ? item.orderCreatedAt : item.createdAt),
	}));
}

const sorted = (rows: Seen[]) => rows.map((row) => JSON.stringify(row)).sort();

describe('every layout the gateway serves, read by column name (issue 30, item 7)', () => {
	const LAYOUTS = [
		// The sandbox's own layout writes (and filters) UTC; the platform's write the server's zone (Moscow).
		{ layout: 'sandbox', zone: 'UTC', shows: { orderId: true, time: 'transaction' } },
		{ layout: 'transactions', zone: undefined, shows: { orderId: false, time: 'transaction' } },
		{ layout: 'orders', zone: undefined, shows: { orderId: true, time: 'order' } },
	];

	it('each layout, as text/csv and as text/html: the node outputs exactly the sandbox’s transactions, times in UTC', async () => {
		const histories = generatedHistories(24, 30);
		await env.sb.admin('POST', 'histories', histories);
		let compared = 0;
		for (const { layout, zone, shows } of LAYOUTS) {
			for (const contentType of ['text/csv', 'text/html']) {
				await env.sb.admin('POST', `merchants/${MERCHANT.login}/report`, { layout, contentType });
				const run = await runNode(
					env.sb,
					getMany({
						createdFrom: '2026-03-01 00:00:00',
						createdTo: '2026-03-02 23:59:59',
						options: zone ? { timeZone: zone } : {},
					}),
				);
				expect({ layout, contentType, error: run.error?.message }).toEqual({ layout, contentType, error: undefined });
				const items = jsonOf(run);
				const truth = await truthOf(env.sb, shows as Shows);
				expect(sorted(seenByNode(items, shows as Shows))).toEqual(sorted(truth));
				expect(items.every((item) => item.reportLayout === layout && item.timeZone === (zone ?? 'Europe/Moscow'))).toBe(
					true,
				);
				expect(run.serialised).not.toMatch(/4444555566661111|5555555555554444/);
				compared += truth.length;
			}
		}
		console.log(`layouts × content types: ${compared} transactions compared, 0 differences`);
	});

	it('the zone option reads the platform layout of a gateway in another zone (New York, across a DST change)', async () => {
		const newYork = await Sandbox.start({ serverTimeZone: 'America/New_York' });
		try {
			await newYork.admin('POST', `merchants/${MERCHANT.login}/report`, { layout: 'transactions' });
			// 01:30 happens twice on 2026-11-01 in New York: one order each time, and one in the hour after.
			await newYork.admin('POST', 'histories', [
				{ merchantOrderId: 'ny-1', operation: 'sale', amount: '1.00', at: '2026-11-01T05:30:00Z' },
				{ merchantOrderId: 'ny-2', operation: 'sale', amount: '2.00', at: '2026-11-01T06:30:00Z' },
				{ merchantOrderId: 'ny-3', operation: 'sale', amount: '3.00', at: '2026-11-01T07:30:00Z' },
			]);
			const period = { createdFrom: '2026-11-01 00:00:00', createdTo: '2026-11-01 23:59:59' };
			const read = await runNode(newYork, getMany({ ...period, options: { timeZone: 'America/New_York' } }));
			expect(read.error).toBeUndefined();
			const byOrder = Object.fromEntries(jsonOf(read).map((item) => [item.merchantOrderId, item]));
			expect(byOrder['ny-1']).toMatchObject({ timeZone: 'America/New_York', createdAt: '2026-11-01T05:30:00.000Z' });
			// The second 01:30 is indistinguishable in the report: read as the first (said in the docs).
			expect(byOrder['ny-2'].createdAt).toBe('2026-11-01T05:30:00.000Z');
			expect(byOrder['ny-3'].createdAt).toBe('2026-11-01T07:30:00.000Z');
			// Told the wrong zone, the output says which zone it read in.
			const wrong = await runNode(newYork, getMany(period));
			expect(jsonOf(wrong).find((item) => item.merchantOrderId === 'ny-3')).toMatchObject({
				timeZone: 'Europe/Moscow',
				createdAt: '2026-10-31T23:30:00.000Z',
			});
		} finally {
			await newYork.close();
		}
	});

	it('an unknown zone is refused naming the option, before anything is sent', async () => {
		const run = await runNode(env.sb, getMany({ options: { timeZone: 'MSK' } }));
		expect(run.error?.message).toMatch(/Report Time Zone/);
		expect(await reportRequests(env.sb)).toHaveLength(0);
	});
});

describe('a report that is not whole, or not a report (issue 30, item 5)', () => {
	beforeEach(async () => {
		await env.sb.admin('POST', 'histories', generatedHistories(6, 5));
		// A layout and content type the node of 2ab4de6 could read, so that only the cut tells them apart.
		await env.sb.admin('POST', `merchants/${MERCHANT.login}/report`, {
			layout: 'transactions',
			contentType: 'text/csv',
		});
	});
	const period = getMany({ createdFrom: '2026-03-01 00:00:00', createdTo: '2026-03-02 23:59:59' });

	it.each(['report-cut-mid-row', 'report-cut-at-row'])(
		'%s: the run fails saying the report could not be read whole; nothing is output, even with Continue On Fail',
		async (kind) => {
			await env.sb.fault({ kind, op: 'transaction-report', count: 2 });
			const run = await runNode(env.sb, period);
			expect(run.error?.message).toMatch(/could not be read whole/);
			expect(run.error?.context?.moneyEffect).toBe('notSent');
			const onFail = await runNode(env.sb, period, { continueOnFail: true });
			expect(jsonOf(onFail)).toEqual([{ error: expect.stringMatching(/could not be read whole/) }]);
		},
	);

	it('sent without a length (close-delimited) and cut anywhere: refused, or at a row boundary only whole rows (about 60 cut points)', async () => {
		const full = await runNode(env.sb, period);
		expect(full.error).toBeUndefined();
		const relay = await startUnframedRelay(env.sb);
		try {
			const body = await relay.body(period);
			// Record ends, found by an RFC 4180 scan written here (quotes may hold line breaks).
			const ends = recordEnds(body);
			expect(ends.length).toBe(full.items.length + 1);
			const last = ends[ends.length - 2];
			// A spread over the whole body, each row boundary (and its CR), and 40 points inside the last row.
			const lastRow = range(last, body.length).filter((_, n, all) => n % Math.ceil(all.length / 40) === 0);
			const spread = Array.from({ length: 12 }, (_, n) => Math.floor((n * last) / 12));
			const cuts = [
				...new Set([
					...spread,
					...ends
						.slice(0, -1)
						.flatMap((end) => [end, end - 1])
						.slice(-6),
					...lastRow,
				]),
			];
			let refused = 0;
			for (const cut of cuts) {
				relay.cutAt(cut);
				const run = await relay.run(period);
				const whole = ends.indexOf(cut);
				if (whole >= 1 || (whole < 0 && ends.indexOf(cut + 1) >= 1 && body[cut] === '\n')) {
					// Between two rows the format cannot show the cut: only whole rows, never a partial one.
					const rows = ends.indexOf(cut) >= 1 ? ends.indexOf(cut) : ends.indexOf(cut + 1);
					expect({ cut, error: run.error?.message }).toEqual({ cut, error: undefined });
					expect(jsonOf(run)).toEqual(jsonOf(full).slice(0, rows));
				} else {
					refused++;
					expect({ cut, error: run.error?.message }).toEqual({
						cut,
						error: expect.stringMatching(/could not be read whole|not a transaction report/),
					});
					expect(run.items).toHaveLength(0);
				}
			}
			console.log(`close-delimited cuts: ${cuts.length} cut points, ${refused} refused, 0 violations`);
		} finally {
			await relay.close();
		}
	});

	it('what a proxy or the gateway serves instead (HTML error page, a refusal as text/html): a NodeApiError, never rows', async () => {
		const answers = [
			[{ answer: 'html200' }, /HTML page/],
			[
				{
					reply: {
						status: 200,
						type: 'text/html;charset=utf-8',
						body: 'type=validation-error&error-message=Endpoint+9999+does+not+belong+to+merchant&error-code=2',
					},
				},
				/Endpoint 9999 does not belong to merchant \(code 2\)/,
			],
		] as const;
		for (const [decision, message] of answers) {
			const proxy = await startHostileGateway(env.sb.url, () => ({ forward: false, ...decision }));
			try {
				const run = await runNode(env.sb, period, { credentials: { baseUrl: `${proxy.url}/paynet` } });
				expect(run.error?.name).toBe('NodeApiError');
				expect(run.error?.message).toMatch(message);
				expect(run.items).toHaveLength(0);
			} finally {
				await proxy.close();
			}
		}
	});

	it('an HTTP 200 with an empty body is an error, not "no transactions"; a header alone is "no transactions"', async () => {
		await env.sb.fault({ kind: 'report-empty', op: 'transaction-report' });
		const run = await runNode(env.sb, period);
		expect(run.error?.name).toBe('NodeApiError');
		expect(run.error?.message).toMatch(/empty body/);
		const none = await runNode(env.sb, getMany({ createdFrom: '2026-01-01', createdTo: '2026-01-01' }));
		expect(none.error).toBeUndefined();
		expect(none.items).toHaveLength(0);
	});
});

describe('Get Many runs once for all input items (issue 30, item 9)', () => {
	it('3 input items: the report is read once and every row is output once, paired with item 0', async () => {
		await seed(env.sb, 4);
		const run = await runNode(env.sb, getMany(), { input: [{ n: 1 }, { n: 2 }, { n: 3 }] });
		expect(run.error).toBeUndefined();
		expect(await reportRequests(env.sb)).toHaveLength(1);
		expect(run.items).toHaveLength(4);
		expect(new Set(jsonOf(run).map((item) => item.orderId)).size).toBe(4);
		expect(run.items.every((item) => JSON.stringify(item.pairedItem) === '{"item":0}')).toBe(true);
	});

	it('a parameter whose expression differs between items stops the run, naming it, before anything is sent', async () => {
		const run = await runNode(env.sb, getMany({ createdFrom: '={{ $json.day }} 00:00:00' }), {
			input: [{ day: DAY }, { day: DAY }, { day: '2026-10-31' }],
		});
		expect(run.error?.message).toMatch(/"Created From" differs between input items .*item 3/);
		expect(run.error?.context?.moneyEffect).toBe('notSent');
		expect(await reportRequests(env.sb)).toHaveLength(0);
		// The same value for every item is one report.
		const same = await runNode(env.sb, getMany({ createdFrom: '={{ $json.day }} 00:00:00' }), {
			input: [{ day: DAY }, { day: DAY }],
		});
		expect(same.error).toBeUndefined();
		expect(await reportRequests(env.sb)).toHaveLength(1);
	});
});

describe('an independent client of the report', () => {
	it('signs its own request and gets the rows the node returns', async () => {
		await seed(env.sb, 30);
		const node = jsonOf(await runNode(env.sb, getMany()));
		const response = await independentReport(env.sb, {
			createdFromDate: `${DAY} 00:00:00`,
			createdToDate: `${DAY} 23:59:59`,
		});
		expect(response.status).toBe(200);
		const [header, ...rows] = parseCsv(await response.text());
		const column = (name: string) => header.indexOf(name);
		expect(rows.map((row) => [row[column('paynet-order-id')], row[column('amount')], row[column('status')]])).toEqual(
			node.map((item) => [item.orderId, item.amount, item.status]),
		);
	});

	it('is refused with a wrong signature, without a date, and for a 40-day window', async () => {
		const period = { createdFromDate: `${DAY} 00:00:00`, createdToDate: `${DAY} 23:59:59` };
		expect((await independentReport(env.sb, period, 'WRONG-KEY-0000')).status).toBe(403);
		const missing = await independentReport(env.sb, { createdToDate: period.createdToDate });
		expect(missing.status).toBe(400);
		expect(await replyText(missing)).toMatch(/createdFromDate/);
		const long = await independentReport(env.sb, {
			createdFromDate: '2026-01-01 00:00:00',
			createdToDate: '2026-02-10 00:00:00',
		});
		expect(long.status).toBe(400);
		expect(await replyText(long)).toMatch(/31 days/);
	});
});

/** A form-encoded reply as plain text. */
const replyText = async (response: Response) => decodeURIComponent((await response.text()).replace(/\+/g, ' '));

/** The report requests the sandbox logged. */
async function reportRequests(sandbox: Sandbox) {
	return (await sandbox.requests()).filter((request) => /transaction-report/.test(request.path));
}

/** RFC 3986 encoding, written here again (not the node's). */
const encode = (text: string) =>
	encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);

/** A report request signed from scratch: OAuth 1.0a HMAC-SHA1 over the query, as RFC 5849 describes. */
async function independentReport(sandbox: Sandbox, query: Record<string, string>, key = MERCHANT.controlKey) {
	const url = `${sandbox.url}/paynet-ui/services/transaction-report`;
	const oauth: Record<string, string> = {
		oauth_consumer_key: MERCHANT.login,
		oauth_nonce: randomBytes(8).toString('hex'),
		oauth_signature_method: 'HMAC-SHA1',
		oauth_timestamp: String(Math.floor(Date.now() / 1000)),
		oauth_version: '1.0',
	};
	const pairs = [...Object.entries(query), ...Object.entries(oauth)]
		.map(([name, value]) => `${encode(name)}=${encode(value)}`)
		.sort();
	const base = ['GET', encode(url), encode(pairs.join('&'))].join('&');
	const signature = createHmac('sha1', `${key}&`).update(base).digest('base64');
	const header = Object.entries({ ...oauth, oauth_signature: signature })
		.map(([name, value]) => `${name}="${encode(value)}"`)
		.join(', ');
	const search = Object.entries(query)
		.map(([name, value]) => `${encode(name)}=${encode(value)}`)
		.join('&');
	return await fetch(`${url}?${search}`, { headers: { Authorization: `OAuth ${header}` } });
}

const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from) }, (_, n) => from + n);

/** Where each CSV record ends (after its line break), scanned here: a quoted field may hold line breaks. */
function recordEnds(body: string): number[] {
	const ends: number[] = [];
	let quoted = false;
	for (let at = 0; at < body.length; at++) {
		if (body[at] === '"') quoted = !quoted;
		else if (!quoted && body[at] === '\n') ends.push(at + 1);
	}
	return ends;
}

/**
 * The sandbox's report relayed without a length: no Content-Length, no chunked framing, the body ends
 * when the connection closes (HTTP/1.1 allows it) — cut at a chosen character. Only the framing is
 * faked; the report is the sandbox's, its signature checked by the sandbox.
 */
async function startUnframedRelay(sandbox: Sandbox) {
	const target = new URL(sandbox.url);
	let cut = Infinity;
	let last = '';
	const server = createServer((req, res) => {
		const forwarded = httpRequest(
			{ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
			async (reply) => {
				const chunks: Buffer[] = [];
				for await (const chunk of reply) chunks.push(chunk as Buffer);
				last = Buffer.concat(chunks).toString('utf8');
				const socket = res.socket!;
				socket.write(
					`HTTP/1.1 ${reply.statusCode} OK\r\nContent-Type: ${reply.headers['content-type']}\r\nConnection: close\r\n\r\n`,
				);
				socket.end(Buffer.from(last.slice(0, cut), 'utf8'));
			},
		);
		forwarded.end();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	// The node signs the URL it calls; the relay keeps the Host header, so the sandbox checks the same URL.
	const through = { credentials: { baseUrl: `http://127.0.0.1:${port}/paynet` } };
	return {
		run: (parameters: INodeParameters) => runNode(sandbox, parameters, through),
		cutAt(at: number) {
			cut = at;
		},
		/** The whole body the sandbox sends for these parameters. */
		async body(parameters: INodeParameters) {
			cut = Infinity;
			expect((await runNode(sandbox, parameters, through)).error).toBeUndefined();
			return last;
		},
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
