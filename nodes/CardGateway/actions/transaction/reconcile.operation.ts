import type { IExecuteFunctions } from 'n8n-workflow';

import { defineOperation, defineRead } from '../common/define/operation';

import { reportQuery, type ReportQuery } from './getMany.operation';
import { compare } from './reconcile/compare';
import type { GatewaySide, YourRecord } from './reconcile/orders';
import { parameters, RECORD_FIELDS, unknownFilter, type UnknownFilter } from './reconcile/parameters';
import { readRecords } from './reconcile/records';
import { ordersOfReport } from './reconcile/reportSide';
import { ordersByStatus, statusTimeoutMs } from './reconcile/statusSide';

/** What Reconcile compares: your records (one an input item) with one gateway side, read as the run's. */
interface ReconcileQuery {
	records: YourRecord[];
	filter: UnknownFilter;
	side: { report: ReportQuery } | { statusTimeoutMs: number };
}

// Read-only: compares the user's records with the gateway's and outputs only what differs.
export default defineOperation({
	gateway: 'transactionReport',
	menu: {
		name: 'Reconcile',
		description:
			"Compare your records (the input items) with the gateway's and output only the differences, plus a summary",
		action: 'Reconcile records with the gateway',
	},
	// The side, period and options are the run's (read at item 0); each item is one record.
	readMany: defineRead({
		parameters,
		readsOnce: 'one gateway side',
		perItem: RECORD_FIELDS,
		query: reconcileQuery,
		async send(ctx, { records, filter, side }) {
			if ('report' in side) return compare(records, await ordersOfReport(ctx, side.report), 'report', filter);
			return compare(records, await ordersByStatus(ctx, records, side.statusTimeoutMs), 'status', filter);
		},
	}),
});

function reconcileQuery(ctx: IExecuteFunctions): ReconcileQuery {
	const records = readRecords(ctx);
	const filter = unknownFilter(ctx);
	const side = ctx.getNodeParameter('gatewaySide', 0, 'report') as GatewaySide;
	return {
		records,
		filter,
		side: side === 'report' ? { report: reportQuery(ctx) } : { statusTimeoutMs: statusTimeoutMs(ctx) },
	};
}
