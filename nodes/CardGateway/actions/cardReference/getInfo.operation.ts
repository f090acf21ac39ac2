import { cardReferenceId } from '../common/core/fields';
import { defineOperation } from '../common/define/operation';

export default defineOperation({
	gateway: 'getCardInfo',
	menu: {
		name: 'Get Info',
		description: 'Get the masked card number, brand and expiry behind a card reference',
		action: 'Look up a stored card',
	},
	required: [cardReferenceId],
});
