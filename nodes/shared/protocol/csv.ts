/**
 * An incremental RFC 4180 reader: text goes in as it arrives, complete records come out, so a large
 * report is never held whole. Quoted fields may hold commas, escaped quotes ("") and line breaks;
 * records end at CRLF, LF or a lone CR. Blank lines are skipped. A quote inside an unquoted field
 * and text after a closing quote are kept as they are (lenient, as most readers are); a report that
 * ends inside a quoted field is refused, because it was cut short.
 */
export class CsvReader {
	private field = '';
	private record: string[] = [];
	/** Inside a quoted field. */
	private quoted = false;
	/** A quote was just read inside a quoted field: an escaped quote if another follows, else the closing one. */
	private quoteEnding = false;
	/** A CR ended the last record: an LF at the start of the next chunk belongs to it. */
	private afterCr = false;
	private started = false;
	/** Characters of one field, at most: a field longer than this is not a report's. */
	constructor(private readonly maxFieldChars = 1_000_000) {}

	/** Reads a chunk; returns the records it completed. */
	push(chunk: string): string[][] {
		const records: string[][] = [];
		let text = chunk;
		if (!this.started && text.length) {
			this.started = true;
			if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
		}
		let index = 0;
		if (this.afterCr && text.startsWith('\n')) index = 1;
		if (text.length) this.afterCr = false;
		while (index < text.length) {
			if (this.quoted) {
				if (this.quoteEnding) {
					this.quoteEnding = false;
					if (text[index] === '"') {
						this.field += '"';
						index++;
						continue;
					}
					this.quoted = false;
					continue;
				}
				const quote = text.indexOf('"', index);
				if (quote < 0) {
					this.append(text.slice(index));
					break;
				}
				this.append(text.slice(index, quote));
				this.quoteEnding = true;
				index = quote + 1;
				continue;
			}
			const special = nextSpecial(text, index);
			this.append(text.slice(index, special));
			if (special >= text.length) break;
			const char = text[special];
			index = special + 1;
			if (char === '"') {
				// Only a quote that opens a field starts a quoted field.
				if (this.field === '') this.quoted = true;
				else this.append('"');
			} else if (char === ',') {
				this.record.push(this.field);
				this.field = '';
			} else {
				if (char === '\r') {
					if (text[index] === '\n') index++;
					else if (index >= text.length) this.afterCr = true;
				}
				this.endRecord(records);
			}
		}
		return records;
	}

	/** Ends the input; returns the last record if the text did not end with a line break. */
	end(): string[][] {
		if (this.quoted && !this.quoteEnding) {
			throw new CsvError('the report ends inside a quoted field: it was cut short');
		}
		this.quoted = false;
		this.quoteEnding = false;
		const records: string[][] = [];
		this.endRecord(records);
		return records;
	}

	private append(text: string): void {
		if (!text) return;
		this.field += text;
		if (this.field.length > this.maxFieldChars) {
			throw new CsvError(`a report field is longer than ${this.maxFieldChars} characters: this is not a report`);
		}
	}

	private endRecord(records: string[][]): void {
		this.record.push(this.field);
		this.field = '';
		const record = this.record;
		this.record = [];
		if (record.length === 1 && record[0] === '') return;
		records.push(record);
	}
}

export class CsvError extends Error {}

const SPECIAL = /[",\r\n]/g;

function nextSpecial(text: string, from: number): number {
	SPECIAL.lastIndex = from;
	const match = SPECIAL.exec(text);
	return match ? match.index : text.length;
}

/** Every record of a whole text (tests and small replies). */
export function parseCsv(text: string): string[][] {
	const reader = new CsvReader();
	return [...reader.push(text), ...reader.end()];
}
