import { ipAddress } from '../common/core/fields';
import { defineOperation } from '../common/define/operation';
import { TRANSFER_BY_REFERENCE } from '../common/define/requests';

// Between stored cards (v2, SHA-1 control over login, order, both card references, amount and
// currency). The vendor's PHP library (TransferByRefQuery) requires the payer's IP address here.
export default defineOperation({
	gateway: 'transferByRefV2',
	menu: {
		name: 'Send by Reference (V2)',
		description: "Move money between stored cards with the v2 API (SHA-1 control), as the vendor's PHP library does",
		action: 'Send money between stored cards with the v2 API',
	},
	...TRANSFER_BY_REFERENCE,
	required: [...(TRANSFER_BY_REFERENCE.required ?? []), ipAddress],
	optional: TRANSFER_BY_REFERENCE.optional?.filter((field) => field !== ipAddress),
});
