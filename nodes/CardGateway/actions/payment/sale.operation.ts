import { defineOperation } from '../common/pipeline/item';
import { CARD_PAYMENT } from '../common/define/requests';

export default defineOperation({
	gateway: 'sale',
	menu: { name: 'Sale', description: 'Charge a card in one step', action: 'Charge a card' },
	...CARD_PAYMENT,
});
