import { defineResource } from '../common/define/operation';

import charge from './charge.operation';
import create from './create.operation';
import update from './update.operation';

// Each operation is one entry here; its own file declares the rest (menu entry, request; what it does to money is its catalogue line).
export const { operations, description } = defineResource('recurringPayment', 'Recurring Payment', 'create', {
	charge,
	create,
	update,
});
