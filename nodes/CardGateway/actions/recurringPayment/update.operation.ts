import { RECURRING_DETAILS } from './details';
import { currency, recurringPaymentId } from '../common/fields';
import { defineOperation } from '../common/operation';

// Changes the schedule, amount or card of a subscription (synchronous v4 call, RSA).
export const { spec, description, execute } = defineOperation({
	resource: 'recurringPayment',
	operation: 'update',
	gateway: 'updateRecurringPayment',
	label: 'Recurring Payment → Update',
	required: [recurringPaymentId],
	optional: [currency, ...RECURRING_DETAILS],
});
