import { RECURRING_DETAILS } from './details';
import { currency, newMerchantOrderId } from '../common/fields';
import { defineOperation } from '../common/operation';

// Synchronous v4 call (RSA); the API spells its fields with hyphens.
export const { spec, description, execute } = defineOperation({
	resource: 'recurringPayment',
	operation: 'create',
	gateway: 'createRecurringPayment',
	label: 'Recurring Payment → Create',
	required: [newMerchantOrderId, currency],
	optional: RECURRING_DETAILS,
});
