import { defineOperation } from '../common/operation';
import { PAYOUT } from '../common/requests';

// The v2 payout, signed with OAuth HMAC-SHA1.
export const { spec, description, execute } = defineOperation({ resource: 'payout', operation: 'send', gateway: 'payout', label: 'Payout → Send', ...PAYOUT });
