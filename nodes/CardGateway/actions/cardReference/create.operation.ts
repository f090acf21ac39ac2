import { defineOperation } from '../common/define/operation';
import { ORDER_REFERENCE } from '../common/define/requests';

// Stores the card of an approved initial payment for later rebills.
export default defineOperation({
	gateway: 'createCardRef',
	menu: {
		name: 'Create',
		description: 'Store the card of an approved payment as a card reference for later charges',
		action: 'Store a card for later charges',
	},
	...ORDER_REFERENCE,
});
