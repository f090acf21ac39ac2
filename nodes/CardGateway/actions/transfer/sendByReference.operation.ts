import { defineOperation } from '../common/operation';
import { TRANSFER_BY_REFERENCE } from '../common/requests';

// Between stored cards (v4, RSA).
export const { spec, description, execute } = defineOperation({
	resource: 'transfer',
	operation: 'sendByReference',
	gateway: 'transferByRef',
	label: 'Transfer → Send by Reference',
	...TRANSFER_BY_REFERENCE,
});
