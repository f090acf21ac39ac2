import { defineOperation } from '../common/operation';
import { PAYOUT } from '../common/requests';

// The v4 payout, signed with OAuth RSA-SHA256.
export const { spec, description, execute } = defineOperation({ resource: 'payout', operation: 'sendV4', gateway: 'payoutV4', label: 'Payout → Send (V4)', ...PAYOUT });
