// Every resource of the node, by its parameter value: the node's description and the tests read
// them here (the router keeps a typed map of the same modules, checked against node.type.ts).
import * as balance from './balance';
import * as cardReference from './cardReference';
import * as hostedForm from './hostedForm';
import * as payment from './payment';
import * as payout from './payout';
import * as recurringPayment from './recurringPayment';
import * as threeDSecure from './threeDSecure';
import * as transaction from './transaction';
import * as transfer from './transfer';

export const RESOURCES = {
	balance,
	cardReference,
	hostedForm,
	payment,
	payout,
	recurringPayment,
	threeDSecure,
	transaction,
	transfer,
};
