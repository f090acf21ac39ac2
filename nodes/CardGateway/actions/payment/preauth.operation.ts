import { defineOperation } from '../common/operation';
import { CARD_PAYMENT } from '../common/requests';

export const { spec, description, execute } = defineOperation({ resource: 'payment', operation: 'preauth', gateway: 'preauth', label: 'Payment → Preauth', ...CARD_PAYMENT });
