import { defineOperation } from '../common/define/operation';
import { PAYMENT_FORM } from '../common/define/requests';

export default defineOperation({
	gateway: 'saleForm',
	menu: {
		name: 'Sale',
		description: 'Get a hosted card page that charges the customer; the card data never touches n8n',
		action: 'Create a card payment page',
	},
	...PAYMENT_FORM,
});
