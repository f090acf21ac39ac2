import { defineOperation } from '../common/define/operation';
import { CARD_PAYMENT } from '../common/define/requests';

export default defineOperation({
	gateway: 'sale',
	menu: { name: 'Sale', description: 'Charge a card in one step', action: 'Charge a card' },
	...CARD_PAYMENT,
});
