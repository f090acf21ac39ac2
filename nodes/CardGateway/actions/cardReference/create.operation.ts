import { defineOperation } from '../common/operation';
import { ORDER_REFERENCE } from '../common/requests';

// Stores the card of an approved initial payment for later rebills.
export const { spec, description, execute } = defineOperation({ resource: 'cardReference', operation: 'create', gateway: 'createCardRef', label: 'Card Reference → Create', ...ORDER_REFERENCE });
