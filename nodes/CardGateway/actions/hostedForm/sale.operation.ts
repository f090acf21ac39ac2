import { defineOperation } from '../common/operation';
import { PAYMENT_FORM } from '../common/requests';

export const { spec, description, execute } = defineOperation({ resource: 'hostedForm', operation: 'sale', gateway: 'saleForm', label: 'Hosted Form → Sale', ...PAYMENT_FORM });
