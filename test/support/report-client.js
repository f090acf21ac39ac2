'use strict';
// Runs the independent report client (test/independent/report_client.py: Python's standard library, its own OAuth
// signature and CSV parsing) and returns what it printed.
const { execFile, execFileSync } = require('node:child_process');
const path = require('node:path');
const { promisify } = require('node:util');

const run = promisify(execFile);
const CLIENT = path.join(__dirname, '..', 'independent', 'report_client.py');
const REPORT_PATH = '/paynet-ui/services/transaction-report';

/** Is there a python3 to run the client with? */
function hasPython3() {
	try {
		execFileSync('python3', ['--version'], { stdio: 'ignore' });
		return true;
	} catch {
		return false;
	}
}

/**
 * The report of sandbox `url` for `merchant` ({ login, controlKey }), as the client reads it:
 * { status, contentType, chunked, complete, problem, header, rows } (or body instead of header and rows).
 */
async function readReport(url, merchant, params, { tamper = false } = {}) {
	const args = [CLIENT, `${url}${REPORT_PATH}`, merchant.login, merchant.controlKey, JSON.stringify(params)];
	if (tamper) args.push('--tamper');
	const { stdout } = await run('python3', args, { maxBuffer: 256 * 1024 * 1024 });
	return JSON.parse(stdout);
}

module.exports = { hasPython3, readReport, REPORT_PATH };
