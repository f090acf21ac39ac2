import { defineOperation } from '../common/define/operation';
import { PAYOUT } from '../common/define/requests';

// The v2 payout, signed with OAuth HMAC-SHA1.
export default defineOperation({
	gateway: 'payout',
	menu: {
		name: 'Send',
		description: 'Pay out to a card or bank account in one step (HMAC-signed v2 API)',
		action: 'Send a payout',
	},
	...PAYOUT,
});
