import { defineOperation } from '../common/define/operation';
import { VERIFICATION_FORM } from '../common/define/requests';

export default defineOperation({
	gateway: 'accountVerificationForm',
	menu: {
		name: 'Verify Account',
		description: 'Get a hosted card page that verifies a card with a zero-amount authorization',
		action: 'Create a card check page',
	},
	...VERIFICATION_FORM,
});
