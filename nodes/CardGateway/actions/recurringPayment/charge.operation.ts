import { MONEY, newMerchantOrderId, recurringPaymentId } from '../common/core/fields';
import { defineOperation } from '../common/define/operation';

// Charges a subscription's card once, now (v4, RSA), as a new order under its own order ID. The docs make Amount
// optional (the profile's amount); the node requires it and its currency, so that what a charge may move is
// known before it is sent: the spending limits and Dry Run count it.
export default defineOperation({
	gateway: 'processRecurringPayment',
	menu: {
		name: 'Charge',
		description: "Charge a subscription's stored card once, now (a new order under its own order ID)",
		action: "Charge a subscription's card now",
	},
	required: [newMerchantOrderId, recurringPaymentId, ...MONEY],
	waitable: true,
});
