import type { AllEntities } from 'n8n-workflow';

import type * as balance from './balance';
import type * as cardReference from './cardReference';
import type * as hostedForm from './hostedForm';
import type * as payment from './payment';
import type * as payout from './payout';
import type * as recurringPayment from './recurringPayment';
import type * as threeDSecure from './threeDSecure';
import type * as transaction from './transaction';
import type * as transfer from './transfer';

/** Every resource's module; its operations are the entries of its defineResource list. */
type Resources = {
	balance: typeof balance;
	cardReference: typeof cardReference;
	hostedForm: typeof hostedForm;
	payment: typeof payment;
	payout: typeof payout;
	recurringPayment: typeof recurringPayment;
	threeDSecure: typeof threeDSecure;
	transaction: typeof transaction;
	transfer: typeof transfer;
};

/** Every resource and its operations: the node's public contract (parameter values never change). */
type CardGatewayMap = { [R in keyof Resources]: keyof Resources[R]['operations'] & string };

export type CardGatewayType = AllEntities<CardGatewayMap>;

export type Resource = CardGatewayType['resource'];

/** The operations of one resource. */
export type OperationOf<R extends Resource> = Extract<CardGatewayType, { resource: R }>['operation'];
