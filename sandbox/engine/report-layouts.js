// @ts-check
'use strict';
// The transaction report's layouts, chosen per merchant: the sandbox's own (kebab-case, UTC) and the
// platform's two exports as third-party readers of them bind the columns (gateway-facts §16):
// `transactions` and `orders`, human-readable headers, times in the server's and the user's zones.
// Each layout is one list of [header, value] pairs, so a header never drifts from its value.
const { formatMinor } = require('../amount');
const { wallTime } = require('../zones');

/** @typedef {import('./report').ReportRow} ReportRow */
/** @typedef {{ server: string, user: string }} Zones */
/** @typedef {[string, (row: ReportRow, zones: Zones) => string]} Column */
/** @typedef {import('./types').ReportSettings} ReportSettings */

/**
 * A layout.
 * @typedef {object} ReportLayout
 * @property {string} name
 * @property {string[]} header
 * @property {(row: ReportRow, zones: Zones) => string[]} values
 * @property {(zones: Zones) => string} filterZone   the zone its date filters are read in
 * @property {(row: ReportRow) => number} createdMs  the time createdFromDate/createdToDate select on
 */

/** @param {ReportRow} row */
const amount = (row) => formatMinor(row.amountMinor, row.currency);
/** @param {ReportRow} row */
const masked = (row) => (row.card ? row.card.masked : '');
/** @param {ReportRow} row  the sandbox's transaction id: the order id and the transaction's index (assumed) */
const transactionId = (row) => `${row.orderid}${String(row.index).padStart(3, '0')}`;
/** @param {string} name */
const param = (name) => (/** @type {ReportRow} */ row) => row.params[name] || '';
const empty = () => '';

/**
 * `yyyy-MM-ddTHH:mm:ss.ff` in a zone (the readers' format: 2024-07-01T00:02:19.00); '' for no time.
 * @param {number | null} ms
 * @param {string} zone
 */
function stamp(ms, zone) {
	return ms === null ? '' : wallTime(zone, ms).slice(0, 22);
}

/**
 * `yyyy-MM-dd` in a zone.
 * @param {number} ms
 * @param {string} zone
 */
function day(ms, zone) {
	return wallTime(zone, ms).slice(0, 10);
}

/**
 * `YYYY-MM-DD HH:MM:SS` UTC: the sandbox layout's dates.
 * @param {number} ms
 */
function utcDate(ms) {
	return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** @type {Column[]} */
const SANDBOX_COLUMNS = [
	['paynet-order-id', (row) => row.orderid],
	['merchant-order-id', (row) => row.clientOrderId],
	['serial-number', (row) => row.serial],
	['transaction-type', (row) => row.type],
	['status', (row) => row.status],
	['amount', amount],
	['currency', (row) => row.currency],
	['end-point-id', (row) => row.endpointId],
	['created-date', (row) => utcDate(row.createdMs)],
	['bank-date', (row) => (row.bankMs === null ? '' : utcDate(row.bankMs))],
	['card-number', masked],
	['card-type', (row) => (row.card ? row.card.type : '')],
	['cardholder-name', (row) => (row.card ? row.card.holder : '')],
	['approval-code', (row) => row.approvalCode],
	['error-code', (row) => row.errorCode],
	['error-message', (row) => row.errorMessage],
	['order-desc', (row) => row.orderDesc],
];

// The two connectors' class map, in its order, then the fraud tool's three extra columns.
/** @type {Column[]} */
const TRANSACTIONS_COLUMNS = [
	['Txid', transactionId],
	['Created Date (Server TZ)', (row, zones) => stamp(row.createdMs, zones.server)],
	['Created Date (User TZ)', (row, zones) => stamp(row.createdMs, zones.user)],
	['Created Date (Server TZ, no time)', (row, zones) => day(row.createdMs, zones.server)],
	['Bank Date (Server TZ)', (row, zones) => stamp(row.bankMs, zones.server)],
	['Bank Date (User TZ)', (row, zones) => stamp(row.bankMs, zones.user)],
	['Merchant', (row) => row.merchant],
	['End-Point ID', (row) => row.endpointId],
	['Project ID', empty],
	['Project Name', empty],
	['Currency', (row) => row.currency],
	['Site URL', param('site_url')],
	['Card type', (row) => (row.card ? row.card.type : '')],
	['Ip', param('ipaddress')],
	['Type', (row) => row.type],
	['Status', (row) => row.status],
	['Amount', amount],
	['Processor tx ID', (row) => `PNTEST-${row.orderid}`],
	['Card No', masked],
	['Name', (row) => (row.card ? row.card.holder : '')],
	['Email', param('email')],
	['Phone', param('phone')],
	['Address', param('address1')],
	['Zip', param('zip_code')],
	['City', param('city')],
	['State', param('state')],
	['Country', param('country')],
	['First Name', param('first_name')],
	['Last Name', param('last_name')],
	['Order Description', (row) => row.orderDesc],
	['Merchant OID', (row) => row.clientOrderId],
	['Capture amount', (row) => (row.type === 'capture' ? amount(row) : '')],
	['Approval Code', (row) => row.approvalCode],
	['View Receipt URL', empty],
	['Bank name', empty],
	['BIN country', empty],
	['BIN country code', empty],
	['Initial tx bank date (Server TZ)', (row, zones) => (row.initial ? stamp(row.initial.bankMs, zones.server) : '')],
	['Initial tx Amount', (row) => (row.initial ? formatMinor(row.initial.amountMinor, row.currency) : '')],
	['Creation time', (row, zones) => stamp(row.orderCreatedMs, zones.server)],
	['Customer IP address country', empty],
	['Processor', empty],
	['Error Description', (row) => row.errorMessage],
	['Is 3D', empty],
];

// The GumballPay connector's class map as far as gateway-facts §16 lists it.
/** @type {Column[]} */
const ORDERS_COLUMNS = [
	['Order Created', (row, zones) => stamp(row.orderCreatedMs, zones.server)],
	['Order Created (no time)', (row, zones) => day(row.orderCreatedMs, zones.server)],
	['Invoice No', (row) => row.clientOrderId],
	['Order ID', (row) => row.orderid],
	['Rebill Tx', empty],
	['Status Change Date', (row, zones) => stamp(row.bankMs, zones.server)],
	['Description', (row) => row.orderDesc],
	['Order Amount', (row) => formatMinor(row.orderAmountMinor, row.currency)],
	['Currency', (row) => row.currency],
	['Tx Gate ID', empty],
	['Card Name', (row) => (row.card ? row.card.type : '')],
	['Card Holder', (row) => (row.card ? row.card.holder : '')],
	['Card Number', (row) => (row.toCard ? '' : masked(row))],
	['End-Point ID', (row) => row.endpointId],
	['End-Point', empty],
	['Error Message', (row) => row.errorMessage],
	['Tx ID', transactionId],
	['Tx Status', (row) => row.status],
	['Tx Type', (row) => row.type],
	['Tx Amount', amount],
	['Destination Card No', (row) => (row.toCard ? masked(row) : '')],
	['BIN country', empty],
];

/**
 * @param {string} name
 * @param {Column[]} columns
 * @param {Omit<ReportLayout, 'name' | 'header' | 'values'>} rules
 * @returns {ReportLayout}
 */
function layout(name, columns, rules) {
	return {
		name,
		header: columns.map(([header]) => header),
		values: (row, zones) => columns.map(([, value]) => value(row, zones)),
		...rules,
	};
}

/** @type {Record<string, ReportLayout>} */
const LAYOUTS = {
	sandbox: layout('sandbox', SANDBOX_COLUMNS, {
		filterZone: () => 'UTC',
		createdMs: (row) => row.createdMs,
	}),
	transactions: layout('transactions', TRANSACTIONS_COLUMNS, {
		filterZone: (zones) => zones.server,
		createdMs: (row) => row.createdMs,
	}),
	// An orders export selects orders by when they were made: all of an order's rows or none.
	orders: layout('orders', ORDERS_COLUMNS, {
		filterZone: (zones) => zones.server,
		createdMs: (row) => row.orderCreatedMs,
	}),
};

// The report's content types: the CSV type, or the gateway's legacy type (the body is the same CSV).
/** @type {Record<string, string>} */
const CONTENT_TYPES = { 'text/csv': 'text/csv;charset=utf-8', 'text/html': 'text/html;charset=utf-8' };

/**
 * A merchant's report settings, `given` over `fallback`; throws on a layout or content type the
 * sandbox does not serve. A content type may be given as served (`text/html;charset=utf-8`).
 * @param {any} given   { layout?, contentType? } or undefined
 * @param {ReportSettings} fallback
 * @returns {ReportSettings}
 */
function reportSettings(given, fallback) {
	const settings = { ...fallback };
	if (given === undefined || given === null) return settings;
	if (typeof given !== 'object') throw new Error('report settings must be an object { layout, contentType }');
	if (given.layout !== undefined) {
		if (!Object.hasOwn(LAYOUTS, given.layout))
			throw new Error(`report layout must be one of ${Object.keys(LAYOUTS).join(', ')}, got '${given.layout}'`);
		settings.layout = given.layout;
	}
	if (given.contentType !== undefined) {
		const type = Object.keys(CONTENT_TYPES).find(
			(short) => given.contentType === short || given.contentType === CONTENT_TYPES[short],
		);
		if (!type)
			throw new Error(
				`report contentType must be one of ${Object.keys(CONTENT_TYPES).join(', ')}, got '${given.contentType}'`,
			);
		settings.contentType = /** @type {ReportSettings['contentType']} */ (type);
	}
	return settings;
}

module.exports = { LAYOUTS, CONTENT_TYPES, reportSettings };
