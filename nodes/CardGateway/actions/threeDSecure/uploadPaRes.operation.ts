import { defineField, gatewayOrderId, merchantOrderId } from '../common/core/fields';
import { defineOperation } from '../common/define/operation';

const paRes = defineField('paRes', 'text', {
	displayName: 'PARes',
	name: 'paRes',
	type: 'string',
	default: '',
	description: 'The payer authentication response the issuer posted back (3-D Secure 1.0.2)',
});

const md = defineField('md', 'text', {
	displayName: 'MD',
	name: 'md',
	type: 'string',
	default: '',
	description: 'The merchant data value posted back with the PARes',
});

export default defineOperation({
	gateway: 'uploadPaRes',
	menu: {
		name: 'Upload PARes',
		description: 'Send the 3-D Secure 1 authentication result so the payment can finish',
		action: 'Finish a 3-D Secure 1 authentication',
	},
	required: [merchantOrderId, gatewayOrderId, paRes],
	optional: [md],
	waitable: true,
});
