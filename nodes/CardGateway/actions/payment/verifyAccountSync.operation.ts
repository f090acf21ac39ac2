import { defineOperation } from '../common/operation';
import { CARD_VERIFICATION } from '../common/requests';

// The synchronous variant answers with the final status (and a card reference) at once.
export const { spec, description, execute } = defineOperation({
	resource: 'payment',
	operation: 'verifyAccountSync',
	gateway: 'syncAccountVerification',
	label: 'Payment → Verify Account (Synchronous)',
	...CARD_VERIFICATION,
	waitable: false,
});
