import { sameForEveryItem } from '../common/read/oncePerRun';
import { defineOperation } from '../common/define/operation';

import { compare } from './reconcile/compare';
import type { GatewaySide } from './reconcile/orders';
import { parameters, RECORD_FIELDS, unknownFilter } from './reconcile/parameters';
import { readRecords } from './reconcile/records';
import { ordersOfReport } from './reconcile/reportSide';
import { ordersByStatus } from './reconcile/statusSide';

// Read-only: compares the user's records with the gateway's and outputs only what differs.
export default defineOperation({
	gateway: 'transactionReport',
	menu: {
		name: 'Reconcile',
		description:
			"Compare your records (the input items) with the gateway's and output only the differences, plus a summary",
		action: 'Reconcile records with the gateway',
	},
	readMany: {
		parameters,
		async run(ctx) {
			// The side, period and options are the run's (read at item 0); each item is one record.
			sameForEveryItem(
				ctx,
				parameters.filter((property) => !RECORD_FIELDS.includes(property.name)),
				'one gateway side',
			);
			const records = readRecords(ctx);
			const filter = unknownFilter(ctx);
			const side = ctx.getNodeParameter('gatewaySide', 0, 'report') as GatewaySide;
			const gateway = side === 'report' ? await ordersOfReport(ctx) : await ordersByStatus(ctx, records);
			return compare(records, gateway, side, filter);
		},
	},
});
