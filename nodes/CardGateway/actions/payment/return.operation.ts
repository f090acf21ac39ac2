import { defineOperation } from '../common/operation';
import { PARTIAL_FOLLOW_UP } from '../common/requests';

export const { spec, description, execute } = defineOperation({ resource: 'payment', operation: 'return', gateway: 'return', label: 'Payment → Return', ...PARTIAL_FOLLOW_UP });
