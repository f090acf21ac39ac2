import { defineOperation } from '../common/operation';
import { PAYMENT_FORM } from '../common/requests';

// The interface states no signature scheme for this form: OAuth HMAC-SHA1 by default (public
// docs), the user may pick another. It pays out, so the AI-agent guard applies.
export const { spec, description, execute } = defineOperation({
	resource: 'hostedForm',
	operation: 'payout',
	gateway: 'payoutForm',
	label: 'Hosted Form → Payout',
	...PAYMENT_FORM,
	schemeChoice: true,
});
