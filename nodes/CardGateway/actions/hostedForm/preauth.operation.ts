import { defineOperation } from '../common/operation';
import { PAYMENT_FORM } from '../common/requests';

export const { spec, description, execute } = defineOperation({ resource: 'hostedForm', operation: 'preauth', gateway: 'preauthForm', label: 'Hosted Form → Preauth', ...PAYMENT_FORM });
