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

// Between stored cards (v4, RSA).
export const { description, execute } = defineOperation({
	resource: 'transfer',
	operation: 'sendByReference',
	gateway: 'transferByRef',
	label: 'Transfer → Send by Reference',
	required: [newMerchantOrderId, ...MONEY, destinationCardReferenceId],
	optional: [sourceCardReferenceId, cvv, orderDescription, ipAddress, redirectUrl, ...CALLBACKS],
	waitable: true,
});
