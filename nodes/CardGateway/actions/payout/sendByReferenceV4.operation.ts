import {
	CALLBACKS,
	MONEY,
	destinationCardReferenceId,
	ipAddress,
	newMerchantOrderId,
	orderDescription,
	purpose,
	redirectUrl,
} from '../common/core/fields';
import { defineOperation } from '../common/define/operation';

// The v4 payout (RSA) to a stored card: the card reference replaces the destination's card or bank fields.
export default defineOperation({
	gateway: 'payoutByRefV4',
	menu: {
		name: 'Send by Reference (V4)',
		description: 'Pay out to a stored card (card reference) in one step (RSA-signed v4 API)',
		action: 'Send a payout to a stored card',
	},
	required: [newMerchantOrderId, ...MONEY, destinationCardReferenceId],
	optional: [orderDescription, ipAddress, purpose, redirectUrl, ...CALLBACKS],
	waitable: true,
});
