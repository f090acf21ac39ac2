import { defineOperation } from '../common/define/operation';
import { RETURN_FOLLOW_UP } from '../common/define/requests';

export default defineOperation({
	gateway: 'return',
	menu: {
		name: 'Return',
		description: 'Refund a sale or capture (in full or in part), or cancel a preauth',
		action: 'Refund a payment',
	},
	...RETURN_FOLLOW_UP,
});
