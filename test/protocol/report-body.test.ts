// A report body read whole or not at all (issue 30, items 5 and 7): what it is comes from the body, not
// the content type; a body cut anywhere inside a row is refused, whatever the chunks; an empty body is
// not "no transactions"; an error page or a gateway reply is not a report.
import fc from 'fast-check';

import type { ReportTransaction } from '../../nodes/shared/protocol/report';
import { NotAReport, ReportNotWhole, reportRows } from '../../nodes/shared/protocol/reportBody';
import { ZonedTimeReader } from '../../nodes/shared/protocol/zonedTime';

const utc = new ZonedTimeReader('UTC');
const HEADER = ['Txid', 'Merchant OID', 'Type', 'Status', 'Amount', 'Currency', 'Order Description'];

/** One CSV field as RFC 4180 writes it (here, not the node's). */
const field = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
const record = (values: readonly string[]) => `${values.map(field).join(',')}\r\n`;

async function readAll(chunks: Iterable<string> | AsyncIterable<Uint8Array>): Promise<ReportTransaction[]> {
	const rows: ReportTransaction[] = [];
	for await (const row of reportRows(chunks, utc)) rows.push(row);
	return rows;
}

/** What reading gives: the rows, or the kind of error and its message. */
async function outcome(chunks: Iterable<string> | AsyncIterable<Uint8Array>) {
	try {
		return { rows: await readAll(chunks) };
	} catch (error) {
		const kind = error instanceof ReportNotWhole ? 'notWhole' : error instanceof NotAReport ? 'notAReport' : 'other';
		return { error: kind, message: (error as Error).message };
	}
}

/** A text split at the given points. */
function split(text: string, points: number[]): string[] {
	const cuts = [...new Set(points.map((point) => point % (text.length + 1)))].sort((a, b) => a - b);
	return [0, ...cuts].map((from, index) => text.slice(from, [...cuts, text.length][index]));
}

const rowValues = fc.tuple(
	fc.integer({ min: 1, max: 999_999 }).map(String),
	fc.string({ maxLength: 8 }).map((text) => `inv-${text}`),
	fc.constantFrom('sale', 'reversal', 'capture'),
	fc.constantFrom('approved', 'declined'),
	fc.integer({ min: 0, max: 100_000 }).map((units) => (units / 100).toFixed(2)),
	fc.constantFrom('USD', 'EUR'),
	// Descriptions with commas, quotes and line breaks: quoted fields that a cut can fall inside.
	fc.string({ maxLength: 12 }).map((text) => text.replace(/\r/g, '')),
);

describe('a report cut short is never read as complete', () => {
	it('every cut point of generated reports: refused, or (only at a row boundary) exactly the first rows (property)', async () => {
		let cases = 0;
		let boundaries = 0;
		await fc.assert(
			fc.asyncProperty(
				fc.array(rowValues, { minLength: 1, maxLength: 4 }),
				fc.array(fc.nat(), { maxLength: 3 }),
				async (rows, chunkPoints) => {
					const records = [HEADER, ...rows].map(record);
					const body = records.join('');
					const whole = await readAll([body]);
					expect(whole.map((row) => [row.transactionId, row.amount, otherText(row)])).toEqual(
						rows.map((values) => [values[0], values[4], values[6].trim()]),
					);
					// Record ends, counted here from how the body was built.
					const ends = records.map((_, index) => records.slice(0, index + 1).join('').length);
					for (let cut = 0; cut < body.length; cut++) {
						cases++;
						const read = await outcome(split(body.slice(0, cut), chunkPoints));
						// A cut between a row's CR and LF leaves the row whole (a lone CR ends a record).
						const boundary = ends.findIndex((end) => cut === end || cut === end - 1);
						if (boundary >= 0) {
							boundaries++;
							// Between two rows: the format cannot show the cut (documented), the rows are whole ones.
							expect(read).toEqual({ rows: whole.slice(0, boundary) });
						} else if (cut === 0 || /^\s*$/.test(body.slice(0, cut))) {
							expect(read).toMatchObject({ error: 'notAReport' });
						} else {
							expect(read).toMatchObject({ error: expect.stringMatching(/notWhole|notAReport/) });
						}
					}
				},
			),
			{ numRuns: 100, seed: 5 },
		);
		console.log(`report-body cut judge: ${cases} cut points, ${boundaries} at row boundaries, 0 violations`);
	});

	it('says why: a short last row, a last row without its line break, an unterminated quote, a row of the wrong width', async () => {
		const header = record(HEADER);
		const full = record(['1', 'inv-1', 'sale', 'approved', '10.00', 'USD', 'ok']);
		expect(await outcome([header + full.slice(0, 12)])).toEqual({
			error: 'notWhole',
			message: expect.stringMatching(/last row has 3 of 7 fields.*cut short/),
		});
		expect(await outcome([header + full.slice(0, -2)])).toEqual({
			error: 'notWhole',
			message: expect.stringMatching(/no line break/),
		});
		expect(await outcome([`${header}1,inv-1,sale,approved,10.00,USD,"never clo`])).toEqual({
			error: 'notWhole',
			message: expect.stringMatching(/quoted field/),
		});
		expect(await outcome([header + '1,inv-1,sale,approved\r\n' + full])).toEqual({
			error: 'notWhole',
			message: 'row 1 has 4 fields where the header has 7',
		});
		expect(await outcome([header.slice(0, -2)])).toEqual({
			error: 'notWhole',
			message: expect.stringMatching(/header line/),
		});
	});

	it('a connection that breaks while the report arrives is a cut too', async () => {
		async function* broken() {
			yield new TextEncoder().encode(record(HEADER) + record(['1', 'a', 'sale', 'approved', '1.00', 'USD', '']));
			throw new Error('aborted');
		}
		expect(await outcome(broken())).toEqual({
			error: 'notWhole',
			message: expect.stringMatching(/connection broke.*aborted/),
		});
	});
});

describe('what the body is, not what its content type says', () => {
	it('an empty body (or only blanks) is not "no transactions"; a header alone is', async () => {
		for (const body of [[], [''], ['', '  \r\n', '\n']]) {
			expect(await outcome(body)).toEqual({ error: 'notAReport', message: expect.stringMatching(/empty body/) });
		}
		expect(await outcome([record(HEADER)])).toEqual({ rows: [] });
		expect(await outcome(['\uFEFF', '\r\n', record(HEADER)])).toEqual({ rows: [] });
	});

	it('an HTML page, JSON, or a gateway reply is not a report; its start is kept to read the message from', async () => {
		const page = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>a,b,c\r\n</body></html>';
		const html = await readError(split(page, [3, 40]));
		expect(html).toMatchObject({ message: 'an HTML page ("502 Bad Gateway")', head: page });
		expect(await readError(['{"error":"Unauthorized"}'])).toMatchObject({ message: 'JSON' });
		const legacy =
			'type=validation-error&serial-number=00000000-0000-0000-0000-000002d9b22a&error-message=Endpoint+9999+is+not+yours&error-code=2';
		expect(await readError([legacy])).toMatchObject({
			message: expect.stringMatching(/not a report's header \(its first line has no amount, status, order ID column\)/),
			head: legacy,
		});
	});

	it('reads the same rows whatever the chunks, a byte order mark and blank lines first', async () => {
		const body = `\uFEFF\r\n${record(HEADER)}${record(['7', 'inv-7', 'sale', 'approved', '1.00', 'USD', 'a,"b"\nc é€'])}`;
		const bytes = new TextEncoder().encode(body);
		const expected = await readAll([body]);
		expect(expected).toHaveLength(1);
		for (let at = 0; at <= bytes.length; at++) {
			// Split inside multi-byte characters too (the decoder joins them).
			async function* chunks() {
				yield bytes.slice(0, at);
				yield bytes.slice(at);
			}
			expect(await readAll(chunks())).toEqual(expected);
		}
	});
});

async function readError(chunks: Iterable<string>): Promise<NotAReport> {
	try {
		await readAll(chunks);
	} catch (error) {
		if (error instanceof NotAReport) return error;
		throw error;
	}
	throw new Error('read as a report');
}

function otherText(row: ReportTransaction): string {
	return row.otherColumns?.['Order Description'] ?? '';
}
