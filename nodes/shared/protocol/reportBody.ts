import { CsvError, CsvReader } from './csv';
import type { ReportTransaction } from './report';
import { NotAReportHeader, ReportColumns } from './reportColumns';
import type { ZonedTimeReader } from './zonedTime';

/*
 * A report's body, read as it arrives. What it is comes from the body, not the content type (the
 * gateway serves its legacy replies as text/html): a CSV whose first line names the report's
 * columns. A report is read whole or not at all: every row must end with a line break and have the
 * header's fields, so a body cut inside a row is refused. A body cut exactly between two rows cannot
 * be told from a shorter report: the format carries no row count.
 */

/** At most this much of an answer that is not a report is kept, to say what it is. */
export const MAX_ANSWER_HEAD = 64 * 1024;

/** The body is not a report (an error page, a gateway reply, nothing); `head` is its start, to read the gateway's message from. */
export class NotAReport extends Error {
	constructor(
		readonly head: string,
		message: string,
	) {
		super(message);
	}
}

/** The body is a report that did not arrive whole; the message says why. */
export class ReportNotWhole extends Error {}

/** A body that opens as markup or JSON is not a CSV report. */
const NOT_CSV = /^[<{[]/;

/** The report's transactions, row by row; throws NotAReport or ReportNotWhole. */
export async function* reportRows(
	chunks: AsyncIterable<Uint8Array | string> | Iterable<string>,
	times: ZonedTimeReader,
): AsyncGenerator<ReportTransaction> {
	const reader = new CsvReader();
	const decoder = new TextDecoder('utf-8');
	let columns: ReportColumns | undefined;
	/** The body's text until the header is known. */
	let head = '';
	let notCsv = false;
	let row = 0;
	const rows = function* (records: string[][], unterminated: boolean) {
		for (const record of records) {
			// A line of blanks is a blank line.
			if (record.length === 1 && !record[0].trim()) continue;
			if (!columns) {
				columns = new ReportColumns(record, times);
				if (unterminated) throw new ReportNotWhole('it ends inside its header line');
				continue;
			}
			row++;
			if (unterminated) throw new ReportNotWhole(lastRowCut(record.length, columns.width));
			if (record.length !== columns.width)
				throw new ReportNotWhole(`row ${row} has ${record.length} fields where the header has ${columns.width}`);
			yield columns.read(record);
		}
	};
	try {
		for await (const chunk of chunks) {
			const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
			if (!head) {
				// Blanks (and a byte order mark) before the first line say nothing yet.
				head = text.replace(/^\uFEFF/, '').trimStart();
				notCsv = NOT_CSV.test(head);
				if (head && !notCsv) yield* rows(reader.push(head), false);
				continue;
			}
			if (!columns && head.length < MAX_ANSWER_HEAD) head += text;
			if (notCsv) {
				if (head.length >= MAX_ANSWER_HEAD) break;
				continue;
			}
			yield* rows(reader.push(text), false);
		}
		if (notCsv) throw new NotAReport(head, whatTheBodyIs(head));
		yield* rows(reader.push(decoder.decode()), false);
		yield* rows(reader.end(), true);
	} catch (error) {
		throw asReportError(error as Error, head);
	}
	if (!columns) throw new NotAReport(head, whatTheBodyIs(head));
}

/** What went wrong while a body was read, as NotAReport or ReportNotWhole. */
function asReportError(error: Error, head: string): Error {
	if (error instanceof NotAReport || error instanceof ReportNotWhole) return error;
	if (error instanceof NotAReportHeader) return new NotAReport(head, whatTheBodyIs(head, error.message));
	if (error instanceof CsvError) return new ReportNotWhole(error.message);
	return new ReportNotWhole(`the connection broke while it arrived (${error.message})`);
}

/** Why a last row without its line break cannot be trusted. */
function lastRowCut(fields: number, width: number): string {
	if (fields < width) return `its last row has ${fields} of ${width} fields and no line break: it was cut short`;
	return 'its last row has no line break, so its last field may have been cut short';
}

/** What an answer that is not a report is, from its start. */
export function whatTheBodyIs(text: string, headerProblem = ''): string {
	const start = text.replace(/^\uFEFF/, '').trimStart();
	if (!start) return 'an empty body (a report without transactions still has its header line)';
	if (start.startsWith('<')) {
		const title = /<title[^>]*>([^<]*)/i.exec(start)?.[1]?.trim();
		return title ? `an HTML page ("${title.slice(0, 100)}")` : 'an HTML page';
	}
	if (NOT_CSV.test(start)) return 'JSON';
	return `a first line that is not a report's header (${headerProblem || 'no header'})`;
}
