import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { GatewayInputError } from '../../../shared/protocol/errors';
import { mayHoldPan, maskText, redactSecrets } from '../../../shared/protocol/masking';
import { classifyReply, parseGatewayReply, replyRecord } from '../../../shared/protocol/reply';
import {
	formatReportDate,
	parseReportDate,
	reportUrl,
	reportWindows,
	TRANSACTION_STATUSES,
	TRANSACTION_TYPES,
	type ReportTransaction,
} from '../../../shared/protocol/report';
import {
	MAX_ANSWER_HEAD,
	NotAReport,
	ReportNotWhole,
	reportRows,
	whatTheBodyIs,
} from '../../../shared/protocol/reportBody';
import { checkedTimeZone, ZonedTimeReader } from '../../../shared/protocol/zonedTime';
import { gatewayError } from '../../../shared/transport';
import { readAnswer } from '../common/send/read';
import { defineOperation, defineRead } from '../common/define/operation';

/** What one report request asks for: a creation-date period (split into 31-day windows) and the docs' filters. */
export interface ReportQuery {
	from: number;
	to: number;
	filters: Array<[string, string]>;
	timeoutMs: number;
	/** The IANA zone the report's times are read in. */
	timeZone: string;
}

const DATE_HINT = 'YYYY-MM-DD HH:MM:SS (or YYYY-MM-DD), in the gateway’s time zone';

/** Created From / Created To, shared with Reconcile. */
export function createdRangeParameters(required: boolean): INodeProperties[] {
	return [
		{
			displayName: 'Created From',
			name: 'createdFrom',
			type: 'string',
			required,
			default: '',
			placeholder: 'e.g. 2026-11-01 00:00:00',
			description: `Transactions created at or after this moment: ${DATE_HINT}`,
		},
		{
			displayName: 'Created To',
			name: 'createdTo',
			type: 'string',
			required,
			default: '',
			placeholder: 'e.g. 2026-11-01 23:59:59',
			description: `Transactions created at or before this moment: ${DATE_HINT}. A period longer than 31 days is read in 31-day windows (the gateway's limit per request).`,
		},
	];
}

export const reportTimeout: INodeProperties = {
	displayName: 'Timeout (Seconds)',
	name: 'timeoutSeconds',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 120,
	description: 'How long to wait for each report window to start arriving',
};

/** The gateway's server zone as its status replies stamp it (`… MSK`): assumed for the report's times. */
export const GATEWAY_TIME_ZONE = 'Europe/Moscow';

export const reportTimeZone: INodeProperties = {
	displayName: 'Report Time Zone',
	name: 'timeZone',
	type: 'string',
	default: GATEWAY_TIME_ZONE,
	placeholder: 'e.g. Europe/Moscow',
	description:
		"The IANA time zone the gateway writes the report's times in (its server's zone; Europe/Moscow is assumed from the MSK stamps of its replies). Each transaction also gives its times in UTC (createdAt, bankAt, orderCreatedAt), read in this zone.",
};

/** Options of the operations that read the report (Get Many, Reconcile). */
export const reportOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [reportTimeZone, reportTimeout],
};

const parameters: INodeProperties[] = [
	...createdRangeParameters(true),
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		displayOptions: { show: { returnAll: [false] } },
		default: 50,
		description: 'Max number of results to return',
	},
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Bank Date From',
				name: 'bankFrom',
				type: 'string',
				default: '',
				description: `Transactions uploaded to the bank at or after this moment: ${DATE_HINT}`,
			},
			{
				displayName: 'Bank Date To',
				name: 'bankTo',
				type: 'string',
				default: '',
				description: `Transactions uploaded to the bank at or before this moment: ${DATE_HINT}`,
			},
			{
				displayName: 'Endpoint IDs',
				name: 'endpoints',
				type: 'string',
				default: '',
				placeholder: 'e.g. 1001, 1002',
				description: "Comma-separated endpoint IDs; empty means every endpoint of the credential's merchant",
			},
			{
				displayName: 'Transaction Statuses',
				name: 'transactionStatuses',
				type: 'multiOptions',
				options: TRANSACTION_STATUSES.map((status) => ({ name: capitalised(status), value: status })),
				default: [],
				description: 'Only these statuses; none chosen means all',
			},
			{
				displayName: 'Transaction Types',
				name: 'transactionTypes',
				type: 'multiOptions',
				options: TRANSACTION_TYPES.map((type) => ({ name: capitalised(type), value: type })),
				default: [],
				description: 'Only these types; none chosen means all',
			},
		],
	},
	reportOptions,
];

// Read-only: the gateway's own records of the merchant's transactions (the remote transaction report).
export default defineOperation({
	gateway: 'transactionReport',
	menu: {
		name: 'Get Many',
		description: "List the gateway's transactions created in a period (the remote transaction report)",
		action: 'Get many transactions',
	},
	// One report for the whole run, whatever the number of input items: read with item 0's parameters.
	readMany: defineRead({
		parameters,
		readsOnce: 'one report',
		query: (ctx) => {
			const returnAll = ctx.getNodeParameter('returnAll', 0, false) as boolean;
			return {
				report: reportQuery(ctx),
				limit: returnAll ? Infinity : (ctx.getNodeParameter('limit', 0, 50) as number),
			};
		},
		async send(ctx, { report, limit }) {
			const output: INodeExecutionData[] = [];
			for await (const transaction of reportTransactions(ctx, report)) {
				output.push({ json: transaction as IDataObject, pairedItem: { item: 0 } });
				if (output.length >= limit) break;
			}
			return output;
		},
		// The reader masked card data column by column; the net catches a card number anywhere else.
		mask: maskReportItem,
	}),
});

/** A field the gateway minted as an ID (orderId, transactionId, `Processor tx ID`, …): kept whole. */
const GATEWAY_ID = /id$/i;

/**
 * The last net over an item the reader masked by column, in place (the item is the reader's own, made
 * for this run: no copy of 100,000 rows): a text with a run of 12+ digits where the reader expected
 * no card number (a type, a date, a column it keeps as the gateway wrote it) is masked as free text;
 * the gateway's IDs stay whole (an ID that happens to pass the card check must not read as a masked
 * card; text columns named "… ID" were masked by the reader already). The credential's secrets are
 * blanked out of every text.
 */
export function maskReportItem(json: IDataObject, secrets: readonly string[]): IDataObject {
	for (const name in json) {
		const value = json[name];
		if (typeof value === 'string')
			json[name] =
				mayHoldPan(value) && !GATEWAY_ID.test(name) ? maskText(value, secrets) : redactSecrets(value, secrets);
		else if (value && typeof value === 'object') maskReportItem(value as IDataObject, secrets);
	}
	return json;
}

/** The run's period, filters and timeout (item 0), checked: a GatewayInputError names the field; sends nothing. */
export function reportQuery(ctx: IExecuteFunctions): ReportQuery {
	const filters = ctx.getNodeParameter('filters', 0, {}) as IDataObject;
	const options = ctx.getNodeParameter('options', 0, {}) as IDataObject;
	const from = parseReportDate(ctx.getNodeParameter('createdFrom', 0, ''), 'Created From');
	const to = parseReportDate(ctx.getNodeParameter('createdTo', 0, ''), 'Created To', true);
	if (to < from) throw new GatewayInputError('Created To', '"Created To" is before "Created From"');
	const wire: Array<[string, string]> = [];
	const bankFrom = String(filters.bankFrom ?? '').trim();
	const bankTo = String(filters.bankTo ?? '').trim();
	if (bankFrom) wire.push(['bankFromDate', formatReportDate(parseReportDate(bankFrom, 'Bank Date From'))]);
	if (bankTo) wire.push(['bankToDate', formatReportDate(parseReportDate(bankTo, 'Bank Date To', true))]);
	const types = (filters.transactionTypes as string[] | undefined) ?? [];
	if (types.length) wire.push(['transactionTypes', types.join(',')]);
	const statuses = (filters.transactionStatuses as string[] | undefined) ?? [];
	if (statuses.length) wire.push(['transactionStatuses', statuses.join(',')]);
	const endpoints = String(filters.endpoints ?? '')
		.split(',')
		.map((id) => id.trim())
		.filter(Boolean);
	const notAnId = endpoints.find((id) => !/^\d{1,19}$/.test(id));
	if (notAnId !== undefined)
		throw new GatewayInputError('Endpoint IDs', `"Endpoint IDs" must be whole numbers, got "${notAnId.slice(0, 20)}"`);
	if (endpoints.length) wire.push(['endpoints', endpoints.join(',')]);
	const timeoutSeconds = Number(options.timeoutSeconds ?? reportTimeout.default);
	const timeZone = checkedTimeZone(options.timeZone ?? GATEWAY_TIME_ZONE, 'Report Time Zone');
	return { from, to, filters: wire, timeoutMs: Math.round(timeoutSeconds * 1000), timeZone };
}

/** Every error of the report says so: reading it changes nothing. */
export const READS_ONLY = 'Reading the transaction report moves no money.';

/**
 * The report's transactions, window after window, read as they arrive: a consumer that stops early
 * (a limit) stops the download, and no window is ever held whole. A window that cannot be read whole
 * throws: its consumer outputs nothing of a partial read (Get Many, Reconcile end the run).
 */
export async function* reportTransactions(
	ctx: IExecuteFunctions,
	query: ReportQuery,
): AsyncGenerator<ReportTransaction> {
	const times = new ZonedTimeReader(query.timeZone);
	for (const window of reportWindows(query.from, query.to)) {
		const where = `${window.from} – ${window.to}`;
		const outcome = await readAnswer(
			ctx,
			{
				method: 'GET',
				url: reportUrl,
				fields: [['createdFromDate', window.from], ['createdToDate', window.to], ...query.filters],
				stream: true,
				accept: 'text/csv, text/plain, */*',
				timeoutMs: query.timeoutMs,
				itemIndex: 0,
			},
			`The transaction report for ${where}`,
			READS_ONLY,
		);
		const answer = { ...outcome, where };
		if (outcome.statusCode !== 200) {
			const text = await bodyText(outcome.body, MAX_ANSWER_HEAD);
			throw notAReport(ctx, answer, new NotAReport(text, whatTheBodyIs(text)));
		}
		try {
			// Whatever the content type says (the gateway's legacy replies are text/html), the body decides.
			yield* reportRows(typeof outcome.body === 'string' ? [outcome.body] : outcome.body, times);
		} catch (error) {
			throw unreadReport(ctx, answer, error as Error);
		}
	}
}

interface ReportAnswer {
	statusCode: number;
	contentType: string;
	where: string;
}

/** Why a report was not read, as the node's error. */
function unreadReport(ctx: IExecuteFunctions, answer: ReportAnswer, error: Error): Error {
	if (error instanceof NotAReport) return notAReport(ctx, answer, error);
	if (error instanceof ReportNotWhole) return notWhole(ctx, answer, error.message);
	return error;
}

function notWhole(ctx: IExecuteFunctions, answer: ReportAnswer, reason: string): Error {
	return new NodeOperationError(
		ctx.getNode(),
		`The gateway's transaction report for ${answer.where} could not be read whole: ${maskText(reason)}`,
		{
			itemIndex: 0,
			description: `Nothing of it is output: a partial report would read as complete. Run again; if it persists, the gateway (or a proxy) is cutting the report off. ${READS_ONLY}`,
		},
	);
}

/** An answer that is not a report: the gateway's refusal with its message and code, or what the body was instead. */
function notAReport(ctx: IExecuteFunctions, answer: ReportAnswer, body: NotAReport): Error {
	const reply = parseGatewayReply(answer.statusCode, answer.contentType, body.head);
	const failure = (replyRecord(reply).replyType || answer.statusCode !== 200 ? classifyReply(reply) : undefined) ?? {
		kind: 'transport' as const,
		httpStatus: answer.statusCode,
		message: `The gateway answered HTTP ${answer.statusCode} (${answer.contentType || 'no content type'}) with ${maskText(body.message)}, not a transaction report`,
	};
	return gatewayError(ctx, failure, 0, `Transaction report ${answer.where}: `, READS_ONLY);
}

/** At most `max` characters of a body, as text. */
async function bodyText(body: AsyncIterable<Uint8Array> | string, max: number): Promise<string> {
	if (typeof body === 'string') return body.slice(0, max);
	const decoder = new TextDecoder('utf-8');
	let text = '';
	for await (const chunk of body) {
		text += decoder.decode(chunk, { stream: true });
		if (text.length >= max) break;
	}
	return text.slice(0, max);
}

function capitalised(word: string): string {
	return word[0].toUpperCase() + word.slice(1);
}
