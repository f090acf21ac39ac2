import { gatewayOrderId, merchantOrderId, notifyUrl, serverCallbackUrl } from '../common/fields';
import { defineOperation } from '../common/operation';

// Step two: releases a checked payout. A lost reply is reported, never resent.
export const { spec, description, execute } = defineOperation({
	resource: 'payout',
	operation: 'pay',
	gateway: 'payoutPay',
	label: 'Payout → Pay',
	required: [merchantOrderId],
	main: [gatewayOrderId],
	optional: [serverCallbackUrl, notifyUrl],
	waitable: true,
});
