import { defineResource } from '../common/define/operation';

import getMany from './getMany.operation';
import getStatus from './getStatus.operation';
import getStatusV4 from './getStatusV4.operation';
import reconcile from './reconcile.operation';

// Each operation is one entry here; its own file declares the rest (menu entry, request; what it does to money is its catalogue line).
export const { operations, description } = defineResource('transaction', 'Transaction', 'getStatus', {
	getMany,
	getStatus,
	getStatusV4,
	reconcile,
});
