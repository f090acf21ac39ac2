// @ts-check
'use strict';
// The remote transaction report (GET {host}/paynet-ui/services/transaction-report, OAuth HMAC-SHA1
// over the query): the signing merchant's transactions — those its orders made, and the synthetic
// rows the admin API seeded — filtered as the public docs describe, in the merchant's layout
// (report-layouts.js), as RFC 4180 CSV lines generated one at a time, so that a 100,000-row report
// is never held in memory.
const cards = require('../cards');
const { csvRecord } = require('../csv');
const { instantOf } = require('../zones');
const { verifyOAuthSigner } = require('./auth');
const { E_AUTH, E_FIELD, fail } = require('./errors');
const { LAYOUTS } = require('./report-layouts');

/** @typedef {import('./types').GatewayState} GatewayState */
/** @typedef {import('./types').Merchant} Merchant */
/** @typedef {import('./types').Order} Order */

/**
 * One row of the report: a transaction and what its layouts show of its order.
 * @typedef {object} ReportRow
 * @property {string} orderid
 * @property {string} clientOrderId
 * @property {string} merchant          login
 * @property {string} serial
 * @property {number} index             the transaction's place in its order (0: the order's own)
 * @property {string} type
 * @property {string} status
 * @property {number} amountMinor
 * @property {string} currency
 * @property {string} endpointId
 * @property {number} createdMs
 * @property {number | null} bankMs   when it reached its final status ("uploaded to bank"); null while processing
 * @property {import('./types').CardSummary | null} card
 * @property {string} approvalCode
 * @property {string} errorCode
 * @property {string} errorMessage
 * @property {string} orderDesc
 * @property {number} orderCreatedMs
 * @property {number} orderAmountMinor
 * @property {{ amountMinor: number, bankMs: number | null } | null} initial   the order's own transaction, on a follow-up's row
 * @property {boolean} toCard           a payout's or transfer's: the card is where the money went
 * @property {Record<string, string>} params   the order's request, masked
 */

/**
 * What a report request asks for, once checked. The dates are instants, read in the layout's zone.
 * @typedef {object} ReportQuery
 * @property {Merchant} merchant
 * @property {import('./report-layouts').ReportLayout} layout
 * @property {import('./types').ReportSettings} settings
 * @property {{ server: string, user: string }} zones
 * @property {Set<string>} endpointIds
 * @property {number} createdFromMs
 * @property {number} createdToMs
 * @property {number | null} bankFromMs
 * @property {number | null} bankToMs
 * @property {Set<string> | null} types
 * @property {Set<string> | null} statuses
 */

const MAX_PERIOD_MS = 31 * 24 * 60 * 60 * 1000;
// The docs' transaction types, and the ones the sandbox's own orders also make.
const DOCUMENTED_TYPES = [
	'sale',
	'reversal',
	'preauth',
	'capture',
	'cancel',
	'fraud',
	'chargeback',
	'retrieval',
	'dispute',
	'refund',
];
const SANDBOX_TYPES = ['void', 'payout', 'payout-check', 'transfer', 'account-verification', 'pan-eligibility'];
const TYPES = new Set([...DOCUMENTED_TYPES, ...SANDBOX_TYPES]);
// approved, declined, filtered: the docs; the others are statuses the sandbox's transactions can have.
const STATUSES = new Set(['approved', 'declined', 'filtered', 'processing', 'unknown', 'error']);

const SYNTHETIC_CARD = cards.cardSummary('4444555566661111', '12', '2030', '');

/**
 * A report date, `YYYY-MM-DD HH:MM:SS` read in `zone`, as the instant it names (milliseconds).
 * @param {Record<string, string>} params
 * @param {string} name
 * @param {boolean} required
 * @param {string} zone
 * @returns {number | null}
 */
function reportDate(params, name, required, zone) {
	const value = params[name];
	if (value === undefined || value === '') {
		if (required) fail(E_FIELD, `Field '${name}' is required`);
		return null;
	}
	const parts = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(value);
	const wallMs = parts ? Date.UTC(+parts[1], +parts[2] - 1, +parts[3], +parts[4], +parts[5], +parts[6]) : NaN;
	// A date the calendar does not have (2026-02-30) comes back different.
	if (!parts || formatReportDate(wallMs) !== value)
		fail(E_FIELD, `Field '${name}' must be a date in the format YYYY-MM-DD HH:MM:SS, got '${value}'`);
	return instantOf(zone, wallMs);
}

/** @param {number} ms */
function formatReportDate(ms) {
	return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * The report settings in force for a merchant: the admin API's, else its configured ones.
 * @param {GatewayState} state
 * @param {Merchant} merchant
 * @returns {import('./types').ReportSettings}
 */
function reportSettingsOf(state, merchant) {
	return state.store.reportSettings.get(merchant.login) || merchant.report;
}

/**
 * A comma-separated filter, each value one of `allowed`; null when absent.
 * @param {Record<string, string>} params
 * @param {string} name
 * @param {Set<string>} allowed
 */
function listFilter(params, name, allowed) {
	if (!params[name]) return null;
	const values = params[name].split(',').map((value) => value.trim().toLowerCase());
	const unknown = values.filter((value) => !allowed.has(value));
	if (unknown.length > 0) fail(E_FIELD, `Field '${name}': unknown value(s) ${unknown.join(', ')}`);
	return new Set(values);
}

/**
 * Check a report request: its OAuth signature (an AuthError when bad), its dates (required, at most
 * 31 days apart), its endpoints (the signer's) and filters (a GatewayError otherwise).
 * @param {GatewayState} state
 * @param {{ authorization: string | undefined, oauthUrl: string, queryPairs: [string, string][] }} request
 * @returns {ReportQuery}
 */
function readReportRequest(state, request) {
	// A GET: the query parameters are what is signed (the same rule as a POST body).
	const merchant = verifyOAuthSigner(
		state,
		{ authorization: request.authorization, oauthUrl: request.oauthUrl, pairs: request.queryPairs, queryPairs: [] },
		{ method: 'GET', allowedMethods: ['HMAC-SHA1'], signers: state.config.byLogin },
	);
	/** @type {Record<string, string>} */
	const params = {};
	for (const [name, value] of request.queryPairs) if (!(name in params)) params[name] = value.trim();
	const settings = reportSettingsOf(state, merchant);
	const layout = LAYOUTS[settings.layout];
	const zones = { server: state.options.serverTimeZone, user: state.options.userTimeZone };
	const zone = layout.filterZone(zones);
	const createdFromMs = /** @type {number} */ (reportDate(params, 'createdFromDate', true, zone));
	const createdToMs = /** @type {number} */ (reportDate(params, 'createdToDate', true, zone));
	if (createdToMs < createdFromMs) fail(E_FIELD, 'createdToDate is before createdFromDate');
	if (createdToMs - createdFromMs > MAX_PERIOD_MS)
		fail(E_FIELD, 'The period between createdFromDate and createdToDate must not exceed 31 days');
	let endpointIds = new Set(merchant.endpoints.map((endpoint) => endpoint.id));
	if (params.endpoints) {
		const asked = params.endpoints.split(',').map((id) => id.trim());
		const foreign = asked.filter((id) => !endpointIds.has(id));
		if (foreign.length > 0)
			fail(E_AUTH, `Endpoint(s) ${foreign.join(', ')} do not exist or do not belong to merchant ${merchant.login}`);
		endpointIds = new Set(asked);
	}
	return {
		merchant,
		layout,
		settings,
		zones,
		endpointIds,
		createdFromMs,
		createdToMs,
		bankFromMs: reportDate(params, 'bankFromDate', false, zone),
		bankToMs: reportDate(params, 'bankToDate', false, zone),
		types: listFilter(params, 'transactionTypes', TYPES),
		statuses: listFilter(params, 'transactionStatuses', STATUSES),
	};
}

/**
 * Is a date within [from, to], to the second (the filters name whole seconds)?
 * @param {number} ms
 * @param {number | null} fromMs
 * @param {number | null} toMs
 */
function within(ms, fromMs, toMs) {
	const second = Math.floor(ms / 1000) * 1000;
	return (fromMs === null || second >= fromMs) && (toMs === null || second <= toMs);
}

/**
 * @param {ReportQuery} query
 * @param {ReportRow} row
 */
function matches(query, row) {
	if (!query.endpointIds.has(row.endpointId)) return false;
	if (!within(query.layout.createdMs(row), query.createdFromMs, query.createdToMs)) return false;
	if (query.bankFromMs !== null || query.bankToMs !== null) {
		if (row.bankMs === null || !within(row.bankMs, query.bankFromMs, query.bankToMs)) return false;
	}
	if (query.types && !query.types.has(row.type)) return false;
	return !query.statuses || query.statuses.has(row.status);
}

/**
 * The rows of an order: one per transaction (the order's own, then captures, returns, voids…).
 * @param {Order} order
 * @returns {ReportRow[]}
 */
function orderRows(order) {
	const outcome = order.outcome;
	const first = order.transactions[0];
	const firstBankMs = first.status === 'processing' ? null : Date.parse(first.finalAt || first.at);
	return order.transactions.map((transaction, index) => {
		const initial = index === 0;
		const failed = initial && order.finalized && transaction.status !== 'approved' && outcome;
		return {
			orderid: order.orderid,
			clientOrderId: order.clientOrderId,
			merchant: order.merchant.login,
			serial: transaction.serial || '',
			index,
			// A payout check's own transaction is the check; the pay is the payout.
			type: initial && order.kind === 'payout-check' ? 'payout-check' : transaction.type,
			status: transaction.status,
			amountMinor: transaction.amountMinor,
			currency: order.currency,
			endpointId: order.endpointId,
			createdMs: Date.parse(transaction.at),
			bankMs: transaction.status === 'processing' ? null : Date.parse(transaction.finalAt || transaction.at),
			card: order.card,
			approvalCode: initial && transaction.status === 'approved' ? order.approvalCode || '' : '',
			errorCode: failed ? String(outcome.errorCode || '') : '',
			errorMessage: failed ? outcome.errorMessage || '' : '',
			orderDesc: order.params.order_desc || '',
			orderCreatedMs: Date.parse(first.at),
			orderAmountMinor: order.amountMinor,
			initial: initial ? null : { amountMinor: first.amountMinor, bankMs: firstBankMs },
			toCard: order.kind === 'payout' || order.kind === 'payout-check' || order.kind === 'transfer',
			params: order.params,
		};
	});
}

/**
 * The synthetic rows of a batch that fall into the created-date window, made one at a time.
 * Every tenth is declined; the texts carry commas, quotes and line breaks, which CSV must quote.
 * @param {import('../store').SyntheticReportBatch} batch
 * @param {ReportQuery} query
 * @returns {Generator<ReportRow>}
 */
function* syntheticRows(batch, query) {
	const first = Math.max(0, Math.ceil((query.createdFromMs - batch.fromMs) / batch.stepMs));
	const last = Math.min(batch.count - 1, Math.floor((query.createdToMs + 999 - batch.fromMs) / batch.stepMs));
	for (let n = first; n <= last; n++) {
		const createdMs = batch.fromMs + n * batch.stepMs;
		const declined = n % 10 === 9;
		const amountMinor = 100 + ((n * 7919) % 100000);
		yield {
			orderid: String(batch.firstOrderId + n),
			clientOrderId: `synthetic-${batch.firstOrderId + n}`,
			merchant: batch.merchant,
			serial: '',
			index: 0,
			type: 'sale',
			status: declined ? 'declined' : 'approved',
			amountMinor,
			currency: batch.currency,
			endpointId: batch.endpointId,
			createdMs,
			bankMs: createdMs,
			card: { ...SYNTHETIC_CARD, holder: n % 2 ? 'JANE DOE' : 'Sean "Jr" O\'Brien, III' },
			approvalCode: declined ? '' : String(batch.firstOrderId + n).slice(-6),
			errorCode: declined ? '100' : '',
			errorMessage: declined ? 'Declined by issuer' : '',
			orderDesc:
				n % 100 === 0
					? `Synthetic order ${n + 1},\nsecond line`
					: `Synthetic order ${n + 1}, from ${batch.firstOrderId}`,
			orderCreatedMs: createdMs,
			orderAmountMinor: amountMinor,
			initial: null,
			toCard: false,
			params: {},
		};
	}
}

/**
 * The report: the header record, then one record per matching transaction — the orders' in the
 * order they were made, then each synthetic batch's — in the query's layout.
 * @param {GatewayState} state
 * @param {ReportQuery} query
 * @returns {Generator<string>}
 */
function* reportRecords(state, query) {
	const { layout, zones } = query;
	yield csvRecord(layout.header);
	for (const order of state.store.orders.values()) {
		if (order.merchant !== query.merchant) continue;
		for (const row of orderRows(order)) if (matches(query, row)) yield csvRecord(layout.values(row, zones));
	}
	for (const batch of state.store.syntheticReportBatches) {
		if (batch.merchant !== query.merchant.login) continue;
		for (const row of syntheticRows(batch, query)) if (matches(query, row)) yield csvRecord(layout.values(row, zones));
	}
}

/**
 * The admin API's seeding of N synthetic report rows on one endpoint, without N orders: described
 * now, generated when a report reads them. Their order ids are reserved, never reused.
 * @param {GatewayState} state
 * @param {{ endpoint?: string | number, count?: number, from?: string, stepMs?: number }} body
 */
function seedReportRows(state, body) {
	const endpoint = state.config.endpoints.get(String(body.endpoint));
	if (!endpoint) fail(E_FIELD, `Unknown endpoint '${body.endpoint}'`);
	const count = Number(body.count);
	if (!Number.isSafeInteger(count) || count < 1 || count > 10_000_000) fail(E_FIELD, "'count' must be 1 … 10,000,000");
	const fromMs = body.from ? /** @type {number} */ (reportDate({ from: body.from }, 'from', true, 'UTC')) : Date.now();
	const stepMs = body.stepMs === undefined ? 1000 : Number(body.stepMs);
	if (!Number.isSafeInteger(stepMs) || stepMs < 1) fail(E_FIELD, "'stepMs' must be a positive integer");
	const store = state.store;
	const batch = {
		merchant: endpoint.merchant.login,
		endpointId: endpoint.id,
		currency: endpoint.currency,
		count,
		fromMs,
		stepMs,
		firstOrderId: store.orderSeq + 1,
	};
	store.orderSeq += count;
	store.syntheticReportBatches.push(batch);
	return {
		...batch,
		from: formatReportDate(fromMs),
		to: formatReportDate(fromMs + (count - 1) * stepMs),
		lastOrderId: batch.firstOrderId + count - 1,
	};
}

module.exports = { readReportRequest, reportRecords, reportSettingsOf, seedReportRows };
