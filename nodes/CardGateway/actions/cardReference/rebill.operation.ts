import { defineOperation } from '../common/define/operation';
import { REBILL } from '../common/define/requests';

export default defineOperation({
	gateway: 'makeRebill',
	menu: { name: 'Rebill', description: 'Charge a stored card without the cardholder', action: 'Charge a stored card' },
	...REBILL,
});
