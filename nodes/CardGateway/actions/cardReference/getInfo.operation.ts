import { cardReferenceId } from '../common/fields';
import { defineOperation } from '../common/operation';

export const { spec, description, execute } = defineOperation({ resource: 'cardReference', operation: 'getInfo', gateway: 'getCardInfo', label: 'Card Reference → Get Info', required: [cardReferenceId] });
