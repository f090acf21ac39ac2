import { RECURRING_DETAILS } from './details';
import { currency, recurringPaymentId } from '../common/core/fields';
import { defineOperation } from '../common/define/operation';

// Changes the schedule, amount or card of a subscription (synchronous v4 call, RSA).
export default defineOperation({
	gateway: 'updateRecurringPayment',
	menu: {
		name: 'Update',
		description: 'Change the schedule, amount or card of a subscription',
		action: 'Change a subscription',
	},
	required: [recurringPaymentId],
	optional: [currency, ...RECURRING_DETAILS],
});
