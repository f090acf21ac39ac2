import { gatewayOrderId, merchantOrderId } from '../common/fields';
import { defineOperation } from '../common/operation';

// The v4 status query of the vendor's hosted-fields examples (RSA-SHA256): the merchant login goes
// in the body beside the two order IDs, and the reply is JSON.
export const { spec, description, execute } = defineOperation({
	resource: 'transaction',
	operation: 'getStatusV4',
	gateway: 'statusV4',
	label: 'Transaction → Get Status (v4)',
	required: [merchantOrderId, gatewayOrderId],
	async prepare(_ctx, step) {
		step.request.fields.unshift(['login', step.login]);
	},
});
