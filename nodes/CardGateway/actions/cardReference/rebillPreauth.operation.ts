import { defineOperation } from '../common/define/operation';
import { REBILL } from '../common/define/requests';

export default defineOperation({
	gateway: 'makeRebillPreauth',
	menu: {
		name: 'Rebill (Preauth)',
		description: 'Hold an amount on a stored card',
		action: 'Hold an amount on a stored card',
	},
	...REBILL,
});
