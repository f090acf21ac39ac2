// Transaction → Get Many against the sandbox over HTTP, an independent client of the same report
// (its own OAuth signing, its own CSV split), and the report's pure parts: the RFC 4180 reader under
// adversarial input and chunking, dates and 31-day windows.
import { createHmac, randomBytes } from 'node:crypto';

import { CsvReader, parseCsv } from '../../nodes/shared/protocol/csv';
import { parseReportDate, reportUrl, reportWindows } from '../../nodes/shared/protocol/report';

import { CARD, MERCHANT, cardPayment, jsonOf, runNode, useSandbox, type Sandbox } from '../support/harness';

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
