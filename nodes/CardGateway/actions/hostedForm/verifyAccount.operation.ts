import { defineOperation } from '../common/operation';
import { VERIFICATION_FORM } from '../common/requests';

export const { spec, description, execute } = defineOperation({ resource: 'hostedForm', operation: 'verifyAccount', gateway: 'accountVerificationForm', label: 'Hosted Form → Verify Account', ...VERIFICATION_FORM });
