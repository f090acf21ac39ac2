import type { AllEntities } from 'n8n-workflow';

/** Every resource and its operations: the node's public contract (parameter values never change). */
type CardGatewayMap = {
	cardReference: 'create' | 'createV4' | 'getInfo' | 'rebill' | 'rebillPreauth' | 'rebillSale';
	hostedForm: 'payment' | 'payout' | 'preauth' | 'sale' | 'transfer' | 'verifyAccount';
	payment: 'capture' | 'preauth' | 'return' | 'sale' | 'saleWithToken' | 'verifyAccount' | 'verifyAccountSync' | 'void';
	payout: 'check' | 'pay' | 'send' | 'sendV4';
	recurringPayment: 'create' | 'update';
	threeDSecure: 'uploadCRes' | 'uploadMethodUrlResult' | 'uploadPaRes';
	transaction: 'getStatus' | 'getStatusV4';
	transfer: 'checkPanEligibility' | 'send' | 'sendByReference' | 'sendByReferenceV2';
};

export type CardGatewayType = AllEntities<CardGatewayMap>;

export type Resource = CardGatewayType['resource'];

/** The operations of one resource. */
export type OperationOf<R extends Resource> = Extract<CardGatewayType, { resource: R }>['operation'];
