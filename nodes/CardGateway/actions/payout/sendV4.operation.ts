import { defineOperation } from '../common/define/operation';
import { PAYOUT } from '../common/define/requests';

// The v4 payout, signed with OAuth RSA-SHA256.
export default defineOperation({
	gateway: 'payoutV4',
	menu: {
		name: 'Send (V4)',
		description: 'Pay out to a card or bank account in one step (RSA-signed v4 API)',
		action: 'Send a payout with the v4 API',
	},
	...PAYOUT,
});
