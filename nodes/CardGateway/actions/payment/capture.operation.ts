import { defineOperation } from '../common/operation';
import { PARTIAL_FOLLOW_UP } from '../common/requests';

export const { spec, description, execute } = defineOperation({ resource: 'payment', operation: 'capture', gateway: 'capture', label: 'Payment → Capture', ...PARTIAL_FOLLOW_UP });
