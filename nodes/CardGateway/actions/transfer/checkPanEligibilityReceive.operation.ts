import { defineOperation } from '../common/define/operation';
import { RECEIVING_CARD, eligibilityRequest } from './panEligibility';

// Asks whether a card may receive transfers (HMAC-signed); no money moves.
export default defineOperation({
	gateway: 'panEligibilityReceive',
	menu: {
		name: 'Check PAN Eligibility (Receiving)',
		description: 'Ask whether a card may receive transfers (no money moves)',
		action: 'Check whether a card can receive transfers',
	},
	...eligibilityRequest([RECEIVING_CARD]),
});
