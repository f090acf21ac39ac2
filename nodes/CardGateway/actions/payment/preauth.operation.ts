import { defineOperation } from '../common/define/operation';
import { CARD_PAYMENT } from '../common/define/requests';

export default defineOperation({
	gateway: 'preauth',
	menu: {
		name: 'Preauth',
		description: 'Hold an amount on a card until it is captured or voided',
		action: 'Hold an amount on a card',
	},
	...CARD_PAYMENT,
});
