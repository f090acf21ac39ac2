import { defineField, gatewayOrderId, merchantOrderId } from '../common/fields';
import { defineOperation } from '../common/operation';

const requestSerialNumber = defineField('by-request-sn', 'id', {
	displayName: 'Request Serial Number',
	name: 'requestSerialNumber',
	type: 'string',
	default: '',
	description: 'Ask about one step of the order: the serialNumber of that request (for example of a capture)',
});

// Read-only: the order is identified by the merchant order ID and, when known, the gateway's.
export const { spec, description, execute } = defineOperation({
	resource: 'transaction',
	operation: 'getStatus',
	gateway: 'status',
	label: 'Transaction → Get Status',
	required: [merchantOrderId],
	main: [gatewayOrderId],
	optional: [requestSerialNumber],
});
