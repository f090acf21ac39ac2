import { defineOperation } from '../common/define/operation';
import { CARD_VERIFICATION } from '../common/define/requests';

export default defineOperation({
	gateway: 'accountVerification',
	menu: {
		name: 'Verify Account',
		description: 'Check with a zero-amount authorization that a card is in good standing',
		action: 'Check that a card is valid',
	},
	...CARD_VERIFICATION,
});
