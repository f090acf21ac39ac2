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
} from '../common/core/fields';
import { transferEnds } from '../common/define/destinations';
import { defineOperation } from '../common/define/operation';

// Card to card (v4, RSA): a source card (data or stored) and a destination card (number or stored).
export default defineOperation({
	gateway: 'transfer',
	menu: { name: 'Send', description: 'Move money from one card to another', action: 'Send money from card to card' },
	required: [newMerchantOrderId, ...MONEY],
	optional: [
		orderDescription,
		ipAddress,
		...CARD,
		sourceRecurringPaymentId,
		destinationCardNumber,
		destinationRecurringPaymentId,
		depositToCard,
		redirectUrl,
		...CALLBACKS,
	],
	waitable: true,
	refine: transferEnds,
});
