import { OPERATIONS } from './catalogue';
import { GatewayInputError } from './errors';
import { statusesWhere } from './statusWords';

/*
 * The remote transaction report (doc.payneteasy.com `integration/API_commands/services_transaction-report`,
 * `common_utilities/remote_transaction_report.html`): a GET beside `/paynet`, its filters in the query,
 * at most 31 days per request. The docs leave the reply's format open; what the node reads is a CSV
 * with a header row, its columns found by name (below).
 */

/** The longest creation-date period one request may ask for (docs: "must not exceed 31 days"). */
export const MAX_WINDOW_SECONDS = 31 * 24 * 60 * 60;

export const TRANSACTION_TYPES = [
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
] as const;

/** The statuses the report's filter offers (the words are declared in reply.ts). */
export const TRANSACTION_STATUSES = statusesWhere('reportFilter');

/** `{host}/paynet-ui/services/transaction-report`: the base URL's last segment (`/paynet`) replaced. */
export function reportUrl(baseUrl: string): string {
	const url = new URL(baseUrl.trim());
	const parent = url.pathname.replace(/\/+$/, '').replace(/\/[^/]*$/, '');
	return `${url.origin}${parent}${OPERATIONS.transactionReport.path}`;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * A report date as seconds (read as UTC, only to count and split; the gateway reads it in its own zone)
 * from `YYYY-MM-DD HH:MM:SS`, `YYYY-MM-DDTHH:MM[:SS]` or `YYYY-MM-DD` (the day's start, or its last
 * second for an end date).
 */
export function parseReportDate(value: unknown, field: string, endOfDay = false): number {
	const text = typeof value === 'string' ? value.trim() : '';
	const match = DATE_TIME.exec(text);
	const invalid = () =>
		new GatewayInputError(
			field,
			`"${field}" must be a date and time as YYYY-MM-DD HH:MM:SS (or YYYY-MM-DD), got "${text.slice(0, 40)}"`,
		);
	if (!match) throw invalid();
	const [, year, month, day, hour, minute, second] = match;
	const dayOnly = hour === undefined;
	const parts = [
		Number(year),
		Number(month) - 1,
		Number(day),
		dayOnly ? (endOfDay ? 23 : 0) : Number(hour),
		dayOnly ? (endOfDay ? 59 : 0) : Number(minute),
		dayOnly ? (endOfDay ? 59 : 0) : Number(second ?? 0),
	] as const;
	const millis = Date.UTC(...parts);
	const back = new Date(millis);
	// Date.UTC rolls 2026-02-30 over into March: such a date is refused instead.
	if (back.getUTCMonth() !== parts[1] || back.getUTCDate() !== parts[2] || parts[3] > 23 || parts[4] > 59) {
		throw invalid();
	}
	if (parts[5] > 59) throw invalid();
	return millis / 1000;
}

/** Seconds back to the gateway's `YYYY-MM-DD HH:MM:SS`. */
export function formatReportDate(seconds: number): string {
	return new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/** A longer period as consecutive windows of at most 31 days, each starting one second after the last one ended. */
export function reportWindows(from: number, to: number): Array<{ from: string; to: string }> {
	const windows: Array<{ from: string; to: string }> = [];
	for (let start = from; start <= to; start += MAX_WINDOW_SECONDS) {
		const end = Math.min(start + MAX_WINDOW_SECONDS - 1, to);
		windows.push({ from: formatReportDate(start), to: formatReportDate(end) });
	}
	return windows;
}

/** The layouts the node knows, recognised by their header (columns are still read by name in any of them). */
export type ReportLayout = 'sandbox' | 'transactions' | 'orders' | 'unrecognised';

/** One transaction of the report, named (the same names whatever the columns were called). */
export interface ReportTransaction {
	transactionId?: string;
	/** The gateway's order ID (the transactions layout has none). */
	orderId?: string;
	merchantOrderId?: string;
	type?: string;
	status?: string;
	/** The transaction's amount, as the report wrote it. */
	amount?: string;
	currency?: string;
	/** The order's amount, where the layout gives it apart from the transaction's (orders layout). */
	orderAmount?: string;
	/** When the transaction was created, and reached the bank, as the report wrote it (its zone's wall clock). */
	createdDate?: string;
	bankDate?: string;
	/** When its order was created (the orders layout gives only this). */
	orderCreatedDate?: string;
	/** `createdDate`, `bankDate`, `orderCreatedDate` read in `timeZone`, as UTC instants (ISO 8601); absent when not a date and time. */
	createdAt?: string;
	bankAt?: string;
	orderCreatedAt?: string;
	/** The zone the row's times were read in. */
	timeZone?: string;
	cardNumber?: string;
	endpointId?: string;
	reportLayout?: ReportLayout;
	/** Columns the node has no name for, under their header. */
	otherColumns?: Record<string, string>;
}
