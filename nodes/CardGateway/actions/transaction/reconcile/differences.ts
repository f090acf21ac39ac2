// What Reconcile reports: the kinds of difference, in the order an item lists them, and how each reads.
/** What one difference is, in the order the output lists an order's differences. */
export const DIFFERENCES = [
	'missingAtGateway',
	'unknownToYou',
	'duplicateInYourRecords',
	'severalGatewayOrders',
	'createdBeforePeriod',
	'amountDiffers',
	'currencyDiffers',
	'statusDiffers',
	'heldNotCaptured',
	'checkedNotPaid',
	'voidedSince',
	'holdReleased',
	'refundedSince',
	'chargedBackSince',
	'disputedSince',
] as const;
export type Difference = (typeof DIFFERENCES)[number];

/** How each difference reads in an item's message. */
export const DIFFERENCE_WORDS: Record<Difference, string> = {
	missingAtGateway: 'missing at the gateway',
	unknownToYou: 'unknown to you',
	duplicateInYourRecords: 'twice in your records',
	severalGatewayOrders: 'several gateway orders under one merchant order ID',
	createdBeforePeriod: 'created before the period',
	amountDiffers: 'amount differs',
	currencyDiffers: 'currency differs',
	statusDiffers: 'status differs',
	heldNotCaptured: 'held, not captured',
	checkedNotPaid: 'payout checked, never paid',
	voidedSince: 'voided since',
	holdReleased: 'hold released since',
	refundedSince: 'refunded since',
	chargedBackSince: 'charged back since',
	disputedSince: 'disputed since',
};
