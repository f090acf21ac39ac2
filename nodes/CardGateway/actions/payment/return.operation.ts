import { defineOperation } from '../common/operation';
import { RETURN_FOLLOW_UP } from '../common/requests';

export const { spec, description, execute } = defineOperation({ resource: 'payment', operation: 'return', gateway: 'return', label: 'Payment → Return', ...RETURN_FOLLOW_UP });
