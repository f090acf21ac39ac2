import { defineOperation } from '../common/operation';
import { ORDER_REFERENCE } from '../common/requests';

// The RSA-signed v4 variant; it also returns a recurring payment ID.
export const { spec, description, execute } = defineOperation({ resource: 'cardReference', operation: 'createV4', gateway: 'createCardRefV4', label: 'Card Reference → Create (V4)', ...ORDER_REFERENCE });
