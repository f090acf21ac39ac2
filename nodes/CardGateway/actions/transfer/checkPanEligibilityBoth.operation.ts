import { defineOperation } from '../common/define/operation';
import { RECEIVING_CARD, SENDING_CARD, eligibilityRequest } from './panEligibility';

// Asks about both cards of a transfer in one request (HMAC-signed); no money moves.
export default defineOperation({
	gateway: 'panEligibilityBoth',
	menu: {
		name: 'Check PAN Eligibility (Both Cards)',
		description: 'Ask whether one card may send and another receive a transfer (no money moves)',
		action: 'Check whether two cards can make a transfer',
	},
	...eligibilityRequest([SENDING_CARD, RECEIVING_CARD]),
});
