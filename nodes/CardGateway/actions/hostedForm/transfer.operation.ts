import { defineOperation } from '../common/operation';
import { PAYMENT_FORM } from '../common/requests';

// The payer moves money from their card on the hosted page (the vendor's PHP library signs it like
// the sale form); like the other payment forms, the request itself moves no money.
export const { spec, description, execute } = defineOperation({ resource: 'hostedForm', operation: 'transfer', gateway: 'transferForm', label: 'Hosted Form → Transfer', ...PAYMENT_FORM });
