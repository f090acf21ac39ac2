import { defineOperation } from '../common/operation';
import { REBILL } from '../common/requests';

export default defineOperation({
	gateway: 'makeRebill',
	menu: { name: 'Rebill', description: 'Charge a stored card without the cardholder', action: 'Charge a stored card' },
	...REBILL,
});
