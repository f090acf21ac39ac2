import { defineOperation } from '../common/operation';
import { CARD_VERIFICATION } from '../common/requests';

export const { spec, description, execute } = defineOperation({
	resource: 'payment',
	operation: 'verifyAccount',
	gateway: 'accountVerification',
	label: 'Payment → Verify Account',
	...CARD_VERIFICATION,
});
