import { asciiDigits, fieldKind, maskPan, maskText } from './masking';
import { comparableName } from './names';
import type { ReportLayout, ReportTransaction } from './report';
import type { ZonedTimeReader } from './zonedTime';

/*
 * The report's columns, bound by NAME (never by position): the same transaction fields whatever the
 * layout calls them, each column masked by what it holds.
 */

type NamedColumn =
	| 'transactionId'
	| 'orderId'
	| 'merchantOrderId'
	| 'type'
	| 'status'
	| 'amount'
	| 'currency'
	| 'orderAmount'
	| 'createdDate'
	| 'bankDate'
	| 'orderCreatedDate'
	| 'cardNumber'
	| 'endpointId';

/**
 * Header spellings of each named field, compared without case or separators, the preferred first
 * (so `End-Point ID` is the endpoint, not `End-Point`, its name, wherever each stands). The sandbox's
 * kebab-case header, the platform's transactions layout (`Txid`, `Merchant OID`, `Created Date (Server
 * TZ)`, `Card No`, …) and its orders layout (`Order ID`, `Invoice No`, `Tx ID`, `Tx Status`, `Tx Amount`,
 * …), as public readers of its exports bind them (gateway-facts §16). In the orders layout `Order ID`
 * is assumed to be the gateway's order ID (a number in those readers) and `Invoice No` the merchant's
 * (a text, which one reader takes as its own reference).
 */
const COLUMN_SPELLINGS: Record<NamedColumn, readonly string[]> = {
	transactionId: ['transaction id', 'txid', 'serial number', 'id', 'transaction'],
	orderId: ['paynet order id', 'order id', 'order'],
	merchantOrderId: ['merchant order id', 'client order id', 'merchant oid', 'invoice no', 'merchant order'],
	type: ['transaction type', 'tx type', 'type'],
	status: ['transaction status', 'tx status', 'status'],
	amount: ['transaction amount', 'tx amount', 'amount'],
	currency: ['currency', 'currency code'],
	orderAmount: ['order amount'],
	createdDate: [
		'created date (server tz)',
		'created date',
		'creation date',
		'date created',
		'created at',
		'created',
		'date',
	],
	bankDate: ['bank date (server tz)', 'bank date', 'uploaded to bank', 'bank upload date'],
	// The orders layout's only creation time is its order's, not its transaction's.
	orderCreatedDate: ['order created', 'order created date', 'order date'],
	cardNumber: ['card number', 'card no', 'credit card number', 'masked card', 'card', 'pan'],
	endpointId: ['endpoint id', 'endpoint'],
};

/** Each layout by columns only it has (compared as above). */
const LAYOUT_SIGNATURES: ReadonlyArray<[ReportLayout, readonly string[]]> = [
	['sandbox', ['paynet-order-id', 'merchant-order-id', 'serial-number', 'transaction-type']],
	['transactions', ['Txid', 'Merchant OID', 'Created Date (Server TZ)']],
	['orders', ['Order ID', 'Invoice No', 'Tx ID', 'Tx Status']],
];

/**
 * What a column holds, for masking: card numbers (cut to first 6 / last 4), text where anyone could
 * have written a card number (masked inside), values the gateway minted (kept as they are: an ID
 * must never read as a masked card), or a secret (dropped).
 */
type ColumnKind = 'card' | 'text' | 'minted' | 'secret';

const NAMED_KINDS: Record<NamedColumn, ColumnKind> = {
	transactionId: 'minted',
	orderId: 'minted',
	// The merchant's own text, chosen outside the node.
	merchantOrderId: 'text',
	type: 'minted',
	status: 'minted',
	amount: 'minted',
	currency: 'minted',
	orderAmount: 'minted',
	createdDate: 'minted',
	bankDate: 'minted',
	orderCreatedDate: 'minted',
	cardNumber: 'card',
	endpointId: 'minted',
};

/** Columns of the platform's layouts the node does not name, whose values the gateway minted (IDs, codes, amounts, dates). */
const MINTED_COLUMNS = new Set(
	[
		'Processor tx ID',
		'Approval Code',
		'Project ID',
		'Merchant ID',
		'Tx Gate ID',
		'Rebill Tx',
		'Capture amount',
		'Initial tx Amount',
		'Client commission',
		'Created Date (User TZ)',
		'Created Date (Server TZ, no time)',
		'Bank Date (User TZ)',
		'Initial tx bank date (Server TZ)',
		'Creation time',
		'Order Created (no time)',
		'Status Change Date',
		'Tx Creation Duration',
		'BIN country code',
		'Destination BIN country code',
		'Fraud Score',
		'Is 3D',
		'error-code',
		'approval-code',
	].map(comparableName),
);

/** Named times of a row and the field that gives each as a UTC instant. */
const ZONED_TIMES = [
	['createdDate', 'createdAt'],
	['bankDate', 'bankAt'],
	['orderCreatedDate', 'orderCreatedAt'],
] as const;

/** What no report can lack: without these a reply is something else (a login page, an error text). */
const REQUIRED: ReadonlyArray<[NamedColumn, string]> = [
	['amount', 'amount'],
	['status', 'status'],
];
const ID_COLUMNS: readonly NamedColumn[] = ['orderId', 'merchantOrderId', 'transactionId'];

/** Reads report rows by the header's column names, masking each column by what it holds. */
export class ReportColumns {
	readonly layout: ReportLayout;
	private readonly named: Array<NamedColumn | undefined>;
	private readonly kinds: ColumnKind[];
	/** Header names as the output shows unnamed columns (a repeated name gets its position). */
	private readonly otherNames: string[];
	/** The layout's named times: each also given as a UTC instant. */
	private readonly times: ReadonlyArray<(typeof ZONED_TIMES)[number]>;

	constructor(
		private readonly header: readonly string[],
		private readonly clock: ZonedTimeReader,
	) {
		const comparable = header.map((column) => comparableName(column));
		this.named = new Array<NamedColumn | undefined>(header.length).fill(undefined);
		for (const [name, spellings] of Object.entries(COLUMN_SPELLINGS) as Array<[NamedColumn, readonly string[]]>) {
			for (const spelling of spellings) {
				const index = comparable.findIndex((column, at) => column === comparableName(spelling) && !this.named[at]);
				if (index >= 0) {
					this.named[index] = name;
					break;
				}
			}
		}
		const taken = new Set(this.named);
		const labels = REQUIRED.filter(([name]) => !taken.has(name)).map(([, label]) => label);
		if (!ID_COLUMNS.some((id) => taken.has(id))) labels.push('order ID');
		if (labels.length) {
			throw new NotAReportHeader(`its first line has no ${labels.join(', ')} column`);
		}
		const present = new Set(comparable);
		this.layout =
			LAYOUT_SIGNATURES.find(([, columns]) => columns.every((column) => present.has(comparableName(column))))?.[0] ??
			'unrecognised';
		this.kinds = header.map((column, index) => {
			const name = this.named[index];
			if (name) return NAMED_KINDS[name];
			if (MINTED_COLUMNS.has(comparable[index])) return 'minted';
			const kind = fieldKind(column);
			return kind === 'pan' ? 'card' : kind === 'secret' ? 'secret' : 'text';
		});
		const seen = new Map<string, number>();
		this.otherNames = header.map((column) => {
			const count = (seen.get(column) ?? 0) + 1;
			seen.set(column, count);
			return count > 1 ? `${column} (${count})` : column;
		});
		this.times = ZONED_TIMES.filter(([date]) => this.named.includes(date));
	}

	get width(): number {
		return this.header.length;
	}

	/** One row (as many fields as the header) as a transaction: IDs and amounts as strings, card data masked. */
	read(row: readonly string[]): ReportTransaction {
		const transaction: ReportTransaction = {};
		let other: Record<string, string> | undefined;
		for (let index = 0; index < row.length; index++) {
			const kind = this.kinds[index];
			if (kind === 'secret') continue;
			const raw = row[index].trim();
			const value = kind === 'minted' ? raw : kind === 'card' ? maskedCard(raw) : maskText(raw);
			const name = this.named[index];
			if (name === 'currency') transaction.currency = value.toUpperCase();
			else if (name === 'type' || name === 'status') transaction[name] = value.toLowerCase();
			else if (name) transaction[name] = value;
			else if (value) (other ??= {})[this.otherNames[index]] = value;
		}
		for (const [date, instant] of this.times) {
			const at = transaction[date] && this.clock.instant(transaction[date]);
			if (at) transaction[instant] = at;
		}
		if (this.times.length) transaction.timeZone = this.clock.timeZone;
		transaction.reportLayout = this.layout;
		if (other) transaction.otherColumns = other;
		return transaction;
	}
}

/** The reply's first line is not a report's header; the message says what it lacks. */
export class NotAReportHeader extends Error {}

/** A card number as the report gives it, masked again: more than first 6 + last 4 digits is cut to them. */
function maskedCard(value: string): string {
	return asciiDigits(value).length > 10 ? maskPan(value) : value;
}
