import { defineOperation } from '../common/operation';
import { REBILL } from '../common/requests';

export const { spec, description, execute } = defineOperation({ resource: 'cardReference', operation: 'rebillPreauth', gateway: 'makeRebillPreauth', label: 'Card Reference → Rebill (Preauth)', ...REBILL });
