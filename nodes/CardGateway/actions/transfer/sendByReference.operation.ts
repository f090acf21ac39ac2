import { defineOperation } from '../common/define/operation';
import { TRANSFER_BY_REFERENCE } from '../common/define/requests';

// Between stored cards (v4, RSA).
export default defineOperation({
	gateway: 'transferByRef',
	menu: {
		name: 'Send by Reference',
		description: 'Move money between stored cards (card references)',
		action: 'Send money between stored cards',
	},
	...TRANSFER_BY_REFERENCE,
});
