import {
	CALLBACKS,
	CARD,
	MONEY,
	depositToCard,
	destinationCardNumber,
	destinationRecurringPaymentId,
	ipAddress,
	newMerchantOrderId,
	orderDescription,
	redirectUrl,
	sourceRecurringPaymentId,
} from '../common/fields';
import { transferEnds } from '../common/destinations';
import { defineOperation } from '../common/operation';

// Card to card (v4, RSA): a source card (data or stored) and a destination card (number or stored).
export const { spec, description, execute } = defineOperation({
	resource: 'transfer',
	operation: 'send',
	gateway: 'transfer',
	label: 'Transfer → Send',
	required: [newMerchantOrderId, ...MONEY],
	optional: [orderDescription, ipAddress, ...CARD, sourceRecurringPaymentId, destinationCardNumber, destinationRecurringPaymentId, depositToCard, redirectUrl, ...CALLBACKS],
	waitable: true,
	refine: transferEnds,
});
