import { defineField, gatewayOrderId, merchantOrderId } from '../common/core/fields';
import { defineOperation } from '../common/define/operation';

const requestSerialNumber = defineField('by-request-sn', 'id', {
	displayName: 'Request Serial Number',
	name: 'requestSerialNumber',
	type: 'string',
	default: '',
	description: 'Ask about one step of the order: the serialNumber of that request (for example of a capture)',
});

// Read-only: the order is identified by the merchant order ID and, when known, the gateway's.
export default defineOperation({
	gateway: 'status',
	menu: {
		name: 'Get Status',
		description: 'Get the current status of an order: final or not, 3-D Secure data, amounts',
		action: 'Get the status of a transaction',
	},
	required: [merchantOrderId],
	main: [gatewayOrderId],
	optional: [requestSerialNumber],
});
