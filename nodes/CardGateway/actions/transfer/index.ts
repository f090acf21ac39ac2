import { defineResource } from '../common/define/operation';

import checkPanEligibility from './checkPanEligibility.operation';
import checkPanEligibilityBoth from './checkPanEligibilityBoth.operation';
import checkPanEligibilityReceive from './checkPanEligibilityReceive.operation';
import send from './send.operation';
import sendByReference from './sendByReference.operation';
import sendByReferenceV2 from './sendByReferenceV2.operation';

// Each operation is one entry here; its own file declares the rest (menu entry, request; what it does to money is its catalogue line).
export const { operations, description } = defineResource('transfer', 'Transfer', 'send', {
	checkPanEligibility,
	checkPanEligibilityBoth,
	checkPanEligibilityReceive,
	send,
	sendByReference,
	sendByReferenceV2,
});
