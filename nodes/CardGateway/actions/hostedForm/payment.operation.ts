import { defineOperation } from '../common/define/operation';
import { PAYMENT_FORM } from '../common/define/requests';

// The interface states no signature scheme for this form: control by default, the user may pick.
export default defineOperation({
	gateway: 'paymentForm',
	menu: {
		name: 'Payment',
		description: 'Get a hosted payment page where the customer picks how to pay',
		action: 'Create a payment page for a customer',
	},
	...PAYMENT_FORM,
	schemeChoice: true,
});
