import { notifyUrl, serverCallbackUrl } from '../common/core/fields';
import { sendMerchantLogin } from '../common/read/merchantLogin';
import { defineOperation } from '../common/define/operation';
import { ORDER_REFERENCE } from '../common/define/requests';

// Step two: releases a checked payout. A lost reply is reported, never resent. api_v4_payout-pay lists
// client_orderid, orderid and login as required.
export default defineOperation({
	gateway: 'payoutPay',
	menu: {
		name: 'Pay',
		description: 'Release a payout registered with Check: the money goes out (step two of two)',
		action: 'Release a registered payout',
	},
	...ORDER_REFERENCE,
	optional: [serverCallbackUrl, notifyUrl],
	waitable: true,
	prepare: sendMerchantLogin,
});
