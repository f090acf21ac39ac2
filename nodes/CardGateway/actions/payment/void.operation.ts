import { comment, gatewayOrderId, merchantOrderId } from '../common/fields';
import { defineOperation } from '../common/operation';

// Void cancels the whole amount; the gateway documentation requires a comment.
export const { spec, description, execute } = defineOperation({
	resource: 'payment',
	operation: 'void',
	gateway: 'void',
	label: 'Payment → Void',
	required: [merchantOrderId, gatewayOrderId, comment],
	waitable: true,
});
