// @ts-check
'use strict';
// RFC 4180 CSV, both ways: records as the transaction report writes them, and the records a batch
// request (process-recurring-payments' `payload`) sends.

/**
 * One field: quoted when it holds a comma, a quote or a line break; quotes doubled.
 * @param {string} value
 */
function csvField(value) {
	return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * A record, CRLF-terminated as RFC 4180 has it.
 * @param {string[]} values
 */
function csvRecord(values) {
	return `${values.map(csvField).join(',')}\r\n`;
}

/**
 * The records of a CSV text (CRLF or LF line ends; quoted fields may hold commas, quotes and line
 * breaks); blank lines are skipped. Throws on a quote that is never closed.
 * @param {string} text
 * @returns {string[][]}
 */
function parseCsv(text) {
	/** @type {string[][]} */
	const records = [];
	/** @type {string[]} */
	let record = [];
	let value = '';
	let quoted = false;
	let i = 0;
	const endRecord = () => {
		record.push(value);
		if (record.length > 1 || record[0] !== '') records.push(record);
		record = [];
		value = '';
	};
	while (i < text.length) {
		const ch = text[i];
		if (quoted) {
			if (ch === '"' && text[i + 1] === '"') {
				value += '"';
				i += 2;
				continue;
			}
			if (ch === '"') quoted = false;
			else value += ch;
		} else if (ch === '"' && value === '') quoted = true;
		else if (ch === ',') {
			record.push(value);
			value = '';
		} else if (ch === '\n' || ch === '\r') {
			if (ch === '\r' && text[i + 1] === '\n') i++;
			endRecord();
		} else value += ch;
		i++;
	}
	if (quoted) throw new Error('A quoted field is not closed');
	if (value !== '' || record.length > 0) endRecord();
	return records;
}

module.exports = { csvRecord, parseCsv };
