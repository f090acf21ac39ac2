import {
	CALLBACKS,
	MONEY,
	cvv,
	destinationCardReferenceId,
	ipAddress,
	newMerchantOrderId,
	orderDescription,
	redirectUrl,
	sourceCardReferenceId,
} from '../common/fields';
import { defineOperation } from '../common/operation';

// Between stored cards (v2, SHA-1 control over login, order, both card references, amount, currency);
// fields as the vendor's PHP library sends them (TransferByRefQuery).
export const { description, execute } = defineOperation({
	resource: 'transfer',
	operation: 'sendByReferenceV2',
	gateway: 'transferByRefV2',
	label: 'Transfer → Send by Reference (v2)',
	required: [newMerchantOrderId, ...MONEY, ipAddress, destinationCardReferenceId],
	optional: [sourceCardReferenceId, cvv, orderDescription, redirectUrl, ...CALLBACKS],
	waitable: true,
});
