import { comment, gatewayOrderId, merchantOrderId } from '../common/core/fields';
import { defineOperation } from '../common/define/operation';

// Void cancels the whole amount; the gateway documentation requires a comment.
export default defineOperation({
	gateway: 'void',
	menu: {
		name: 'Void',
		description: 'Cancel an approved payment that is not settled yet (full amount only)',
		action: 'Cancel a payment before it settles',
	},
	required: [merchantOrderId, gatewayOrderId, comment],
	waitable: true,
});
