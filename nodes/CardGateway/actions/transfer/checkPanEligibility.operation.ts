import { defineOperation } from '../common/define/operation';
import { SENDING_CARD, eligibilityRequest } from './panEligibility';

// Asks whether a card may send transfers (HMAC-signed); no money moves.
export default defineOperation({
	gateway: 'panEligibilitySend',
	menu: {
		name: 'Check PAN Eligibility',
		description: 'Ask whether a card may send transfers (no money moves)',
		action: 'Check whether a card can send transfers',
	},
	...eligibilityRequest([SENDING_CARD]),
});
