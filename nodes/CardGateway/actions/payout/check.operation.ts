import { defineOperation } from '../common/define/operation';
import { PAYOUT } from '../common/define/requests';

// Step one of the two-step v4 payout: validates and registers it; no money moves yet.
export default defineOperation({
	gateway: 'payoutCheck',
	menu: {
		name: 'Check',
		description: 'Validate and register a payout without releasing funds (step one of two)',
		action: 'Register a payout without sending money',
	},
	...PAYOUT,
});
