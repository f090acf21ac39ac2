import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { withMoneyEffect } from '../../../shared/moneyEffect';
import { CsvReader } from '../../../shared/protocol/csv';
import { GatewayInputError } from '../../../shared/protocol/errors';
import { maskText } from '../../../shared/protocol/masking';
import { classifyReply, parseGatewayReply } from '../../../shared/protocol/reply';
import {
	formatReportDate,
	parseReportDate,
	reportUrl,
	reportWindows,
	ReportColumns,
	TRANSACTION_STATUSES,
	TRANSACTION_TYPES,
	type ReportTransaction,
} from '../../../shared/protocol/report';
import { gatewayError, signedRequest, withInputErrors } from '../../../shared/transport';
import { defineOperation } from '../common/operation';

/** What one report request asks for: a creation-date period (split into 31-day windows) and the docs' filters. */
export interface ReportQuery {
	from: number;
	to: number;
	filters: Array<[string, string]>;
	timeoutMs: number;
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

/** Options of the operations that read the report (Get Many, Reconcile). */
export const reportOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [reportTimeout],
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
	readMany: {
		parameters,
		async run(ctx) {
			const output: INodeExecutionData[] = [];
			for (let itemIndex = 0; itemIndex < ctx.getInputData().length; itemIndex++) {
				const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
				const limit = returnAll ? Infinity : (ctx.getNodeParameter('limit', itemIndex, 50) as number);
				const query = reportQuery(ctx, itemIndex);
				let count = 0;
				for await (const transaction of reportTransactions(ctx, query, itemIndex)) {
					output.push({ json: transaction as IDataObject, pairedItem: { item: itemIndex } });
					if (++count >= limit) break;
				}
			}
			return output;
		},
	},
});

/** The item's period, filters and timeout, checked; bad input is refused naming the field, before anything is sent. */
export function reportQuery(ctx: IExecuteFunctions, itemIndex: number): ReportQuery {
	const filters = ctx.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const read = (): ReportQuery => {
		const from = parseReportDate(ctx.getNodeParameter('createdFrom', itemIndex, ''), 'Created From');
		const to = parseReportDate(ctx.getNodeParameter('createdTo', itemIndex, ''), 'Created To', true);
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
			throw new GatewayInputError(
				'Endpoint IDs',
				`"Endpoint IDs" must be whole numbers, got "${notAnId.slice(0, 20)}"`,
			);
		if (endpoints.length) wire.push(['endpoints', endpoints.join(',')]);
		const timeoutSeconds = Number(options.timeoutSeconds ?? reportTimeout.default);
		return { from, to, filters: wire, timeoutMs: Math.round(timeoutSeconds * 1000) };
	};
	try {
		return withInputErrors(ctx, itemIndex, read);
	} catch (error) {
		throw withMoneyEffect(error as Error, 'notSent');
	}
}

/** Every error of the report says so: reading it changes nothing. */
export const READS_ONLY = 'Reading the transaction report moves no money.';

/** The report's refusals and unreadable answers carry at most this much of the body. */
const MAX_ERROR_BODY = 64 * 1024;

/**
 * The report's transactions, window after window, read as they arrive: a consumer that stops early
 * (a limit) stops the download, and no window is ever held whole.
 */
export async function* reportTransactions(
	ctx: IExecuteFunctions,
	query: ReportQuery,
	itemIndex: number,
): AsyncGenerator<ReportTransaction> {
	for (const window of reportWindows(query.from, query.to)) {
		const outcome = await signedRequest(ctx, {
			method: 'GET',
			url: reportUrl,
			fields: [['createdFromDate', window.from], ['createdToDate', window.to], ...query.filters],
			stream: true,
			accept: 'text/csv, text/plain, */*',
			timeoutMs: query.timeoutMs,
			itemIndex,
		}).catch((error: Error) => {
			throw withMoneyEffect(error, 'notSent');
		});
		if (outcome.kind === 'lost') {
			throw withMoneyEffect(
				new NodeOperationError(
					ctx.getNode(),
					`The transaction report for ${window.from} – ${window.to} could not be read: ${outcome.what}`,
					{ itemIndex, description: `${outcome.message}. ${READS_ONLY}` },
				),
				'notSent',
			);
		}
		if (outcome.statusCode !== 200 || /json|html/i.test(outcome.contentType)) {
			const text = await bodyText(outcome.body, MAX_ERROR_BODY);
			const reply = parseGatewayReply(outcome.statusCode, outcome.contentType, text);
			const failure = classifyReply(reply) ?? {
				kind: 'transport' as const,
				httpStatus: outcome.statusCode,
				message: `The gateway answered HTTP ${outcome.statusCode} with ${outcome.contentType || 'no content type'}, not a report`,
			};
			throw withMoneyEffect(
				gatewayError(ctx, failure, itemIndex, `Transaction report ${window.from} – ${window.to}: `, READS_ONLY),
				'notSent',
			);
		}
		yield* csvTransactions(ctx, outcome.body, itemIndex);
	}
}

async function* csvTransactions(
	ctx: IExecuteFunctions,
	body: AsyncIterable<Uint8Array> | string,
	itemIndex: number,
): AsyncGenerator<ReportTransaction> {
	const reader = new CsvReader();
	const decoder = new TextDecoder('utf-8');
	let columns: ReportColumns | undefined;
	const rows = function* (records: string[][]) {
		for (const record of records) {
			if (!columns) columns = new ReportColumns(record);
			else yield columns.read(record);
		}
	};
	try {
		for await (const chunk of typeof body === 'string' ? [body] : body) {
			yield* rows(reader.push(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })));
		}
		yield* rows([...reader.push(decoder.decode()), ...reader.end()]);
	} catch (error) {
		// Not a report (CsvError, GatewayInputError), or the connection broke while it arrived.
		throw withMoneyEffect(
			new NodeOperationError(
				ctx.getNode(),
				`The transaction report could not be read: ${maskText((error as Error).message)}`,
				{ itemIndex, description: READS_ONLY },
			),
			'notSent',
		);
	}
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
