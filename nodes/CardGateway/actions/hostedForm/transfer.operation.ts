import { defineOperation } from '../common/define/operation';
import { PAYMENT_FORM } from '../common/define/requests';

// The payer moves money from their card on the hosted page (the vendor's PHP library signs it like
// the sale form); like the other payment forms, the request itself moves no money.
export default defineOperation({
	gateway: 'transferForm',
	menu: {
		name: 'Transfer',
		description: 'Get a hosted page where the payer sends money from their card',
		action: 'Create a card transfer page',
	},
	...PAYMENT_FORM,
});
