import { GatewayInputError } from '../../../shared/protocol/errors';
import {
	cardNumber,
	cardReferenceId,
	cardholderName,
	expireMonth,
	expireYear,
	newMerchantOrderId,
	serverCallbackUrl,
	wire,
} from '../common/fields';
import { defineOperation } from '../common/operation';

// Asks whether a card may send transfers (HMAC-signed); no money moves.
export default defineOperation({
	gateway: 'panEligibilitySend',
	menu: {
		name: 'Check PAN Eligibility',
		description: 'Ask whether a card may send transfers (no money moves)',
		action: 'Check whether a card can send transfers',
	},
	required: [newMerchantOrderId],
	main: [wire(cardReferenceId, 'sending-card-ref-id')],
	optional: [
		wire(cardNumber, 'sending-card-number'),
		wire(cardholderName, 'card-printed-name'),
		expireMonth,
		expireYear,
		serverCallbackUrl,
	],
	refine(values) {
		if (!values.cardReferenceId && !values.cardNumber) {
			throw new GatewayInputError(
				'Card Reference ID',
				'Set "Card Reference ID", or the card number under Additional Fields',
			);
		}
	},
});
