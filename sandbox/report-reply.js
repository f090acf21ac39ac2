// @ts-check
'use strict';
// The transaction report's HTTP reply: the merchant's content type, the records streamed (chunked,
// written as they are generated, waiting whenever the client reads slower, so memory stays flat on
// a 100,000-row report), and the report's own faults — a reply cut inside its last record or at a
// record boundary (the connection closed before the chunked body ends), or an empty 200.
const { reportRecords } = require('./engine/report');
const { CONTENT_TYPES } = require('./engine/report-layouts');

/** @typedef {import('node:http').ServerResponse} ServerResponse */

const RECORDS_PER_WRITE = 512;
const CUT_KINDS = ['report-cut-mid-row', 'report-cut-at-row'];

/**
 * Until the response can take more, or the client has gone.
 * @param {ServerResponse} res
 * @returns {Promise<void>}
 */
function writable(res) {
	return new Promise((resolve) => {
		const done = () => {
			res.off('drain', done);
			res.off('close', done);
			resolve();
		};
		res.on('drain', done);
		res.on('close', done);
	});
}

/**
 * Write `text` (the status line and headers at least), then close the connection once it is sent,
 * without the chunk that ends the body.
 * @param {ServerResponse} res
 * @param {string} text
 */
function writeThenDrop(res, text) {
	if (text) res.write(text);
	else res.flushHeaders();
	if (res.socket) res.socket.destroySoon();
}

/**
 * Send the report a checked query asks for; resolves to what the request log says of it.
 * @param {ServerResponse} res
 * @param {import('./engine/types').GatewayState} state
 * @param {import('./engine/report').ReportQuery} query
 * @param {import('./engine/types').CommandName} faultTarget   what the report's faults name
 * @returns {Promise<string>}
 */
async function sendReportReply(res, state, query, faultTarget) {
	const contentType = CONTENT_TYPES[query.settings.contentType];
	if (state.faults.take('report-empty', faultTarget)) {
		res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': '0' });
		res.end();
		return 'fault:report-empty';
	}
	const cut = CUT_KINDS.find((kind) => state.faults.take(kind, faultTarget));
	res.writeHead(200, { 'Content-Type': contentType });
	let rows = -1; // the header record is not a row
	/** @type {string[]} */
	let pending = [];
	// One record held back: a cut needs to know which record is the last.
	/** @type {string | null} */
	let previous = null;
	for (const record of reportRecords(state, query)) {
		if (previous !== null) pending.push(previous);
		previous = record;
		rows++;
		if (pending.length < RECORDS_PER_WRITE) continue;
		if (!res.write(pending.join(''))) await writable(res);
		if (res.destroyed) return `aborted after ${rows} rows`;
		pending = [];
	}
	const last = /** @type {string} */ (previous);
	if (cut === 'report-cut-mid-row') {
		// Half of the last record: never a whole one, never its line break.
		writeThenDrop(res, pending.join('') + last.slice(0, Math.max(1, Math.floor((last.length - 2) / 2))));
		return `fault:${cut} (${rows} rows, the last cut)`;
	}
	if (cut === 'report-cut-at-row') {
		writeThenDrop(res, pending.join(''));
		return `fault:${cut} (${rows} rows, the last dropped)`;
	}
	res.end(pending.join('') + last);
	return `200 (${rows} rows)`;
}

module.exports = { sendReportReply };
