// The user's side: every input item read as one record, checked before anything is sent.
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { parseAmount, parseCurrency } from '../../../../shared/protocol/amount';
import { GatewayInputError } from '../../../../shared/protocol/errors';
import { STATUS } from '../../../../shared/protocol/statusWords';
import { withInputErrors } from '../../../../shared/transport';

import type { YourRecord } from './orders';
import { RECORD_FIELDS } from './parameters';

/** Every input item as a record, checked before anything is sent; a bad one is refused naming its field. */
export function readRecords(ctx: IExecuteFunctions): YourRecord[] {
	const items = ctx.getInputData();
	const fieldOf = plainFieldReads(ctx);
	return items.map((item, itemIndex) => {
		const read = (name: string) =>
			fieldOf[name] !== undefined
				? ownField(item.json, fieldOf[name])
				: (ctx.getNodeParameter(name, itemIndex, '') as unknown);
		// Refused as the record's own item, naming the field.
		return withInputErrors(ctx, itemIndex, () => {
			const merchantOrderId = String(read('merchantOrderId') ?? '').trim();
			if (!merchantOrderId) throw new GatewayInputError('Merchant Order ID', `"Merchant Order ID" is empty`);
			const currency = parseCurrency(read('currency'), 'Currency');
			const amount = parseAmount(read('amount'), currency, 'Amount');
			const status =
				String(read('expectedStatus') ?? '')
					.trim()
					.toLowerCase() || STATUS.approved;
			return { itemIndex, merchantOrderId, amount, currency, status };
		});
	});
}

/** `={{ $json.name }}` and nothing else: the item's own field, read without n8n's expression evaluator. */
const PLAIN_FIELD = /^=\{\{\s*\$json\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/;

const ownField = (json: IDataObject, name: string): unknown =>
	Object.prototype.hasOwnProperty.call(json, name) ? json[name] : undefined;

/**
 * The record fields whose parameter only names a field of the item (as the defaults do), by
 * parameter: reading them directly gives what n8n would, and spares it four evaluations per record.
 */
function plainFieldReads(ctx: IExecuteFunctions): Record<string, string | undefined> {
	const { parameters } = ctx.getNode();
	return Object.fromEntries(RECORD_FIELDS.map((name) => [name, PLAIN_FIELD.exec(String(parameters[name] ?? ''))?.[1]]));
}
