import { defineOperation } from '../common/define/operation';
import { ORDER_REFERENCE } from '../common/define/requests';

// The RSA-signed v4 variant; it also returns a recurring payment ID.
export default defineOperation({
	gateway: 'createCardRefV4',
	menu: {
		name: 'Create (V4)',
		description: 'Store the card of an approved payment (RSA-signed API; also returns a recurring payment ID)',
		action: 'Store a card for later charges with the v4 API',
	},
	...ORDER_REFERENCE,
});
