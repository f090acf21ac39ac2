import {
	CALLBACKS,
	MONEY,
	cvv,
	defineField,
	destinationCardReferenceId,
	ipAddress,
	newMerchantOrderId,
	orderDescription,
	redirectUrl,
} from '../common/fields';
import { defineOperation } from '../common/operation';

const sourceCardReferenceId = defineField('source-card-ref-id', 'id', {
	displayName: 'Source Card Reference ID',
	name: 'sourceCardReferenceId',
	type: 'string',
	default: '',
	description: 'The stored card that is charged',
});

// Between stored cards (v4, RSA).
export const { spec, description, execute } = defineOperation({
	resource: 'transfer',
	operation: 'sendByReference',
	gateway: 'transferByRef',
	label: 'Transfer → Send by Reference',
	required: [newMerchantOrderId, ...MONEY, destinationCardReferenceId],
	optional: [sourceCardReferenceId, cvv, orderDescription, ipAddress, redirectUrl, ...CALLBACKS],
	waitable: true,
});
