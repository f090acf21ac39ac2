import { defineField, gatewayOrderId, merchantOrderId } from '../common/core/fields';
import { defineOperation } from '../common/define/operation';

const cRes = defineField('cRes', 'text', {
	displayName: 'CRes',
	name: 'cRes',
	type: 'string',
	default: '',
	description: 'The challenge response the issuer posted back (3-D Secure 2)',
});

export default defineOperation({
	gateway: 'uploadCRes',
	menu: {
		name: 'Upload CRes',
		description: 'Send the 3-D Secure 2 challenge result so the payment can finish',
		action: 'Finish a 3-D Secure 2 challenge',
	},
	required: [merchantOrderId, gatewayOrderId, cRes],
	waitable: true,
});
