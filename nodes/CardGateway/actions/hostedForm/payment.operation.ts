import { defineOperation } from '../common/operation';
import { PAYMENT_FORM } from '../common/requests';

// The interface states no signature scheme for this form: control by default, the user may pick.
export const { spec, description, execute } = defineOperation({
	resource: 'hostedForm',
	operation: 'payment',
	gateway: 'paymentForm',
	label: 'Hosted Form → Payment',
	...PAYMENT_FORM,
	schemeChoice: true,
});
