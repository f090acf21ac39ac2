import { gatewayOrderId, merchantOrderId } from '../common/core/fields';
import { sendMerchantLogin } from '../common/read/merchantLogin';
import { defineOperation } from '../common/define/operation';

// The v4 status query (RSA-SHA256, JSON reply): the merchant login goes in the body beside the order IDs.
// api_v4_status: the gateway order ID may be left out when the merchant order ID names one order only.
// Two reply shapes are read alike: the page's full status reply (type, serial-number, …) and the vendor
// emulator's short untyped JSON.
export default defineOperation({
	gateway: 'statusV4',
	menu: {
		name: 'Get Status (V4)',
		description: 'Get the status of an order with the v4 API (RSA-signed, JSON), as hosted-fields integrations do',
		action: 'Get the status of a transaction with the v4 API',
	},
	required: [merchantOrderId],
	main: [gatewayOrderId],
	prepare: sendMerchantLogin,
});
