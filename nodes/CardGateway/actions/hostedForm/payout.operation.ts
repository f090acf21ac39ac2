import { defineOperation } from '../common/define/operation';
import { PAYMENT_FORM } from '../common/define/requests';

// The interface states no signature scheme for this form: OAuth HMAC-SHA1 by default (public
// docs), the user may pick another. It pays out, so the AI-agent guard applies.
export default defineOperation({
	gateway: 'payoutForm',
	menu: {
		name: 'Payout',
		description: 'Get a hosted page where the recipient enters the card that receives a payout',
		action: 'Create a payout page for a recipient',
	},
	...PAYMENT_FORM,
	schemeChoice: true,
});
