import { defineOperation } from '../common/define/operation';
import { REBILL } from '../common/define/requests';

export default defineOperation({
	gateway: 'makeRebillSale',
	menu: {
		name: 'Rebill (Sale)',
		description: 'Charge a stored card (the make-rebill-sale command)',
		action: 'Charge a stored card with a rebill sale',
	},
	...REBILL,
});
