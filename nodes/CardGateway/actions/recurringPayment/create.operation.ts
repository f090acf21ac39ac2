import { RECURRING_DETAILS } from './details';
import { currency, newMerchantOrderId } from '../common/core/fields';
import { defineOperation } from '../common/define/operation';

// Synchronous v4 call (RSA); the API spells its fields with hyphens.
export default defineOperation({
	gateway: 'createRecurringPayment',
	menu: {
		name: 'Create',
		description: 'Create a subscription that charges a card on a schedule',
		action: 'Create a subscription',
	},
	required: [newMerchantOrderId, currency],
	optional: RECURRING_DETAILS,
});
