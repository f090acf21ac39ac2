import { defineOperation } from '../common/define/operation';
import { CARD_VERIFICATION } from '../common/define/requests';

// The synchronous variant answers with the final status (and a card reference) at once.
export default defineOperation({
	gateway: 'syncAccountVerification',
	menu: {
		name: 'Verify Account (Synchronous)',
		description: 'Verify a card and get the final result (and a card reference) in the same call',
		action: 'Check that a card is valid, with the result at once',
	},
	...CARD_VERIFICATION,
	waitable: false,
});
