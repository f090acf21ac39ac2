import { ipAddress } from '../common/fields';
import { defineOperation } from '../common/operation';
import { TRANSFER_BY_REFERENCE } from '../common/requests';

// Between stored cards (v2, SHA-1 control over login, order, both card references, amount and
// currency). The vendor's PHP library (TransferByRefQuery) requires the payer's IP address here.
export const { spec, description, execute } = defineOperation({
	resource: 'transfer',
	operation: 'sendByReferenceV2',
	gateway: 'transferByRefV2',
	label: 'Transfer → Send by Reference (V2)',
	...TRANSFER_BY_REFERENCE,
	required: [...(TRANSFER_BY_REFERENCE.required ?? []), ipAddress],
	optional: TRANSFER_BY_REFERENCE.optional?.filter((field) => field !== ipAddress),
});
