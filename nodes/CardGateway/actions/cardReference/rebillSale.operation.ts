import { defineOperation } from '../common/operation';
import { REBILL } from '../common/requests';

export const { spec, description, execute } = defineOperation({ resource: 'cardReference', operation: 'rebillSale', gateway: 'makeRebillSale', label: 'Card Reference → Rebill (Sale)', ...REBILL });
