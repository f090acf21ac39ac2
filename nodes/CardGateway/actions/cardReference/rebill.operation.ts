import { defineOperation } from '../common/operation';
import { REBILL } from '../common/requests';

export const { spec, description, execute } = defineOperation({ resource: 'cardReference', operation: 'rebill', gateway: 'makeRebill', label: 'Card Reference → Rebill', ...REBILL });
