import { OPERATIONS } from './catalogue';
import { GatewayInputError } from './errors';
import { asciiDigits, maskPan } from './masking';
import { comparableName } from './names';

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

export const TRANSACTION_STATUSES = ['approved', 'declined', 'filtered'] as const;

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

/** One transaction of the report, named (the same names whatever the columns were called). */
export interface ReportTransaction {
	transactionId?: string;
	orderId?: string;
	merchantOrderId?: string;
	type?: string;
	status?: string;
	amount?: string;
	currency?: string;
	createdDate?: string;
	bankDate?: string;
	cardNumber?: string;
	endpointId?: string;
	/** Columns the node has no name for, under their header. */
	otherColumns?: Record<string, string>;
}

type NamedColumn = Exclude<keyof ReportTransaction, 'otherColumns'>;

/** Header spellings of each named field, compared without case or separators. */
const COLUMN_SPELLINGS: Record<NamedColumn, readonly string[]> = {
	transactionId: ['transaction id', 'id', 'tx id', 'transaction', 'serial number'],
	orderId: ['order id', 'orderid', 'paynet order id', 'paynet-order-id', 'order'],
	merchantOrderId: ['merchant order id', 'client_orderid', 'client order id', 'merchant order', 'merchant-order-id'],
	type: ['type', 'transaction type', 'transaction_type'],
	status: ['status', 'transaction status'],
	amount: ['amount', 'transaction amount'],
	currency: ['currency', 'currency code'],
	createdDate: ['created date', 'created', 'creation date', 'date created', 'created at', 'date'],
	bankDate: ['bank date', 'uploaded to bank', 'bank upload date'],
	cardNumber: ['card number', 'card', 'masked card', 'pan', 'card-number', 'credit card number'],
	endpointId: ['endpoint id', 'endpoint', 'endpointid'],
};

const COLUMN_BY_SPELLING = new Map<string, NamedColumn>(
	(Object.entries(COLUMN_SPELLINGS) as Array<[NamedColumn, readonly string[]]>).flatMap(([name, spellings]) =>
		spellings.map((spelling) => [comparableName(spelling), name] as const),
	),
);

/** Reads report rows by the header's column names. */
export class ReportColumns {
	private readonly named: Array<NamedColumn | undefined>;

	constructor(private readonly header: readonly string[]) {
		const taken = new Set<NamedColumn>();
		this.named = header.map((column) => {
			const name = COLUMN_BY_SPELLING.get(comparableName(column));
			if (!name || taken.has(name)) return undefined;
			taken.add(name);
			return name;
		});
		// What no report can lack: without these a reply is something else (a login page, an error text).
		const missing = (['amount', 'status'] as const).filter((name) => !taken.has(name));
		const ids = ['orderId', 'merchantOrderId', 'transactionId'] as const;
		const labels: string[] = [...missing];
		if (!ids.some((id) => taken.has(id))) labels.push('order ID');
		if (labels.length) {
			throw new GatewayInputError(
				'report',
				`the reply is not a transaction report: its first line has no ${labels.join(', ')} column`,
			);
		}
	}

	/** One row as a transaction: amounts and IDs as strings, the card number masked again. */
	read(row: readonly string[]): ReportTransaction {
		const transaction: ReportTransaction = {};
		let other: Record<string, string> | undefined;
		row.forEach((raw, index) => {
			const value = raw.trim();
			const name = this.named[index];
			if (name === 'cardNumber') transaction.cardNumber = maskedAgain(value);
			else if (name === 'currency' || name === 'type' || name === 'status')
				transaction[name] = name === 'currency' ? value.toUpperCase() : value.toLowerCase();
			else if (name) transaction[name] = value;
			else if (index < this.header.length && value) (other ??= {})[this.header[index]] = value;
		});
		if (other) transaction.otherColumns = other;
		return transaction;
	}
}

/** A card number as the report gives it, masked again: a whole number (12+ digits) keeps its first 6 and last 4. */
function maskedAgain(value: string): string {
	return asciiDigits(value).length >= 12 ? maskPan(value) : value;
}
