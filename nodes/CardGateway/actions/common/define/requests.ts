import { GatewayInputError } from '../../../../shared/protocol/errors';

import {
	CALLBACKS,
	CARD,
	CUSTOMER,
	CUSTOMER_EXTRA,
	MONEY,
	accountNumber,
	amount,
	bankBranch,
	bankName,
	cardNumber,
	cardReferenceId,
	cardholderName,
	comment,
	currency,
	cvv,
	destinationCardReferenceId,
	enumerateAmounts,
	expireMonth,
	expireYear,
	gatewayOrderId,
	ipAddress,
	merchantOrderId,
	newMerchantOrderId,
	orderDescription,
	purpose,
	recurrentScenario,
	redirectUrl,
	routingNumber,
	sourceCardReferenceId,
} from '../core/fields';
import { PAYOUT_DESTINATION_HEADING, payoutDestination } from './destinations';
import type { Field } from '../core/fields';
import type { CheckedValues, OperationSpec } from '../core/operation';

/** The request shape several operations share: which fields, and how the order is treated. */
export type RequestShape = Pick<OperationSpec, 'required' | 'main' | 'optional' | 'waitable' | 'refine'>;

/** Capture and return: a partial amount needs its currency, and the other way round. */
function amountWithCurrency(values: CheckedValues): void {
	if (!!values.amount !== !!values.currency) {
		const missing = values.amount ? 'Currency' : 'Amount';
		throw new GatewayInputError(
			missing,
			`"${missing}" is required when "${missing === 'Currency' ? 'Amount' : 'Currency'}" is set (partial amounts need both; leave both empty for the full amount)`,
		);
	}
}

/** Sale and preauth with card data (gateway-facts §6: every starred field is required). */
export const CARD_PAYMENT: RequestShape = {
	required: [newMerchantOrderId, orderDescription, ...MONEY, ...CARD, ...CUSTOMER, redirectUrl],
	optional: [...CUSTOMER_EXTRA, ...CALLBACKS],
	waitable: true,
};

/** Hosted payment pages: the sale fields without card data; the customer types those on the page. */
export const PAYMENT_FORM: RequestShape = {
	required: [newMerchantOrderId, orderDescription, ...MONEY, ...CUSTOMER, redirectUrl],
	optional: [...CUSTOMER_EXTRA, ...CALLBACKS],
};

/** Zero-amount authorisation: like a sale without amount, currency and redirect. */
export const CARD_VERIFICATION: RequestShape = {
	required: [newMerchantOrderId, orderDescription, ...CARD, ...CUSTOMER],
	optional: [...CUSTOMER_EXTRA, redirectUrl, purpose, ...CALLBACKS],
	waitable: true,
};

export const VERIFICATION_FORM: RequestShape = {
	required: [newMerchantOrderId, orderDescription, ...CUSTOMER, redirectUrl],
	optional: [...CUSTOMER_EXTRA, purpose, ...CALLBACKS],
};

/** The field with a hint below its input (the parameter's name, and so saved values, unchanged). */
function withHint(field: Field, hint: string): Field {
	return { ...field, property: { ...field.property, hint } };
}

/**
 * Capture and return: the whole amount, or a part of it. Amount and Currency stay under Additional
 * Fields (saved workflows keep them there), so what leaving them out does is said twice: in a
 * heading above the order fields (`heading`), readable without adding anything, and below the
 * Amount input once it is added (`whenEmpty`), with the fine print (`detail`) in its description.
 */
function partialFollowUp(heading: string, whenEmpty: string, detail = ''): RequestShape {
	const partial: Field = {
		...amount,
		property: {
			...amount.property,
			hint: `Leave empty (and Currency too) to ${whenEmpty}`,
			description: `${amount.property.description} Leave Amount and Currency empty to ${whenEmpty}.${detail ? ` ${detail}` : ''}`,
		},
	};
	return {
		required: [{ ...merchantOrderId, section: heading }, gatewayOrderId],
		optional: [partial, currency, comment],
		waitable: true,
		refine: amountWithCurrency,
	};
}

/** Capture: all of a preauthorization's hold, or a part of it. */
export const PARTIAL_FOLLOW_UP = partialFollowUp(
	'<b>Full or partial capture</b>: with no Amount, the capture takes everything still held. To capture only a part, add Amount and Currency under <b>Additional Fields</b> below. <b>Run again</b>, a partial capture is not sent once the order’s latest transaction is a capture: give each intended one a key of its own (<b>Options → Act Once per Key</b>).',
	'capture everything still held',
);
/** Return: everything left on the order, or a part of it. */
export const RETURN_FOLLOW_UP = partialFollowUp(
	'<b>Full or partial refund</b>: with no Amount, the return refunds everything left on the order (on a preauthorization that was never captured, it releases the whole hold). To refund only a part, add Amount and Currency under <b>Additional Fields</b> below. <b>Run again</b>, a partial refund is not sent once the order’s latest transaction is a return: give each intended one a key of its own (<b>Options → Act Once per Key</b>).',
	'return everything that is left on the order',
	'On a preauthorization that was never captured, a return releases the whole hold instead.',
);

/** An operation on an existing order that only names it. */
export const ORDER_REFERENCE: RequestShape = {
	required: [merchantOrderId, gatewayOrderId],
};

/** Charging a stored card (the cardholder is not present). */
export const REBILL: RequestShape = {
	required: [newMerchantOrderId, cardReferenceId, ...MONEY],
	optional: [orderDescription, ipAddress, cvv, comment, enumerateAmounts, recurrentScenario, redirectUrl, ...CALLBACKS],
	waitable: true,
};

/**
 * Payouts to a card or a bank account. The destination is required (refine), but its fields stay
 * under Additional Fields, where saved workflows hold their values: the heading above Amount says
 * so without a click, and the first field of each destination says, once added, what goes with it.
 */
export const PAYOUT: RequestShape = {
	required: [newMerchantOrderId, { ...amount, section: PAYOUT_DESTINATION_HEADING }, currency],
	optional: [
		orderDescription,
		ipAddress,
		purpose,
		withHint(cardNumber, 'Payout to a card: Expiry Month and Expiry Year are required with it'),
		expireMonth,
		expireYear,
		cardholderName,
		withHint(accountNumber, 'Payout to a bank account: Bank Name is required with it'),
		bankName,
		bankBranch,
		routingNumber,
		redirectUrl,
		...CALLBACKS,
	],
	waitable: true,
	refine: payoutDestination,
};

/** Between stored cards: the receiving card is required; the charged one may be implied. */
export const TRANSFER_BY_REFERENCE: RequestShape = {
	required: [newMerchantOrderId, ...MONEY, destinationCardReferenceId],
	optional: [sourceCardReferenceId, cvv, orderDescription, ipAddress, redirectUrl, ...CALLBACKS],
	waitable: true,
};
