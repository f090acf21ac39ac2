import { defineField, gatewayOrderId, merchantOrderId } from '../common/fields';
import { defineOperation } from '../common/operation';

const cRes = defineField('cRes', 'text', {
	displayName: 'CRes',
	name: 'cRes',
	type: 'string',
	default: '',
	description: 'The challenge response the issuer posted back (3-D Secure 2)',
});

export const { spec, description, execute } = defineOperation({
	resource: 'threeDSecure',
	operation: 'uploadCRes',
	gateway: 'uploadCRes',
	label: '3-D Secure → Upload CRes',
	required: [merchantOrderId, gatewayOrderId, cRes],
	waitable: true,
});
