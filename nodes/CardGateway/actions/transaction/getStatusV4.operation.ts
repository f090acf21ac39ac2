import { gatewayOrderId, merchantOrderId } from '../common/fields';
import { defineOperation } from '../common/operation';

// The v4 status query of the vendor's hosted-fields examples (RSA-SHA256): the merchant login goes
// in the body beside the two order IDs, and the reply is JSON.
export default defineOperation({
	gateway: 'statusV4',
	menu: {
		name: 'Get Status (V4)',
		description: 'Get the status of an order with the v4 API (RSA-signed, JSON), as hosted-fields integrations do',
		action: 'Get the status of a transaction with the v4 API',
	},
	required: [merchantOrderId, gatewayOrderId],
	async prepare(_ctx, step) {
		step.request.fields.unshift(['login', step.login]);
	},
});
