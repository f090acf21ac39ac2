import { defineOperation } from '../common/operation';
import { PAYOUT } from '../common/requests';

// Step one of the two-step v4 payout: validates and registers it; no money moves yet.
export const { spec, description, execute } = defineOperation({ resource: 'payout', operation: 'check', gateway: 'payoutCheck', label: 'Payout → Check', ...PAYOUT });
