import { gatewayOrderId, merchantOrderId, notifyUrl, serverCallbackUrl } from '../common/fields';
import { defineOperation } from '../common/operation';

// Step two: releases a checked payout. A lost reply is reported, never resent.
export default defineOperation({
	gateway: 'payoutPay',
	menu: {
		name: 'Pay',
		description: 'Release a payout registered with Check: the money goes out (step two of two)',
		action: 'Release a registered payout',
	},
	required: [merchantOrderId],
	main: [gatewayOrderId],
	optional: [serverCallbackUrl, notifyUrl],
	waitable: true,
});
