import { defineResource } from '../common/define/operation';

import uploadCRes from './uploadCRes.operation';
import uploadMethodUrlResult from './uploadMethodUrlResult.operation';
import uploadPaRes from './uploadPaRes.operation';

// Each operation is one entry here; its own file declares the rest (menu entry, request; what it does to money is its catalogue line).
export const { operations, description } = defineResource('threeDSecure', '3-D Secure', 'uploadCRes', {
	uploadCRes,
	uploadMethodUrlResult,
	uploadPaRes,
});
