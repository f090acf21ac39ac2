import { defineResource } from '../common/define/operation';

import check from './check.operation';
import pay from './pay.operation';
import send from './send.operation';
import sendByReferenceV4 from './sendByReferenceV4.operation';
import sendV4 from './sendV4.operation';

// Each operation is one entry here; its own file declares the rest (menu entry, request; what it does to money is its catalogue line).
export const { operations, description } = defineResource('payout', 'Payout', 'send', {
	check,
	pay,
	send,
	sendByReferenceV4,
	sendV4,
});
