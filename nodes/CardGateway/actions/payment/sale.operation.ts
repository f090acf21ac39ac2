import { defineOperation } from '../common/operation';
import { CARD_PAYMENT } from '../common/requests';

export const { spec, description, execute } = defineOperation({ resource: 'payment', operation: 'sale', gateway: 'sale', label: 'Payment → Sale', ...CARD_PAYMENT });
