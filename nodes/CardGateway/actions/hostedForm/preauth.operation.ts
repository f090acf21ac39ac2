import { defineOperation } from '../common/define/operation';
import { PAYMENT_FORM } from '../common/define/requests';

export default defineOperation({
	gateway: 'preauthForm',
	menu: {
		name: 'Preauth',
		description: 'Get a hosted card page that holds an amount',
		action: 'Create a card page that holds an amount',
	},
	...PAYMENT_FORM,
});
