import { GatewayInputError } from '../../../shared/protocol/errors';

import {
	BANK,
	CALLBACKS,
	CARD,
	CUSTOMER,
	CUSTOMER_EXTRA,
	MONEY,
	amount,
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
	sourceCardReferenceId,
} from './fields';
import { payoutDestination } from './destinations';
import type { CheckedValues, OperationSpec } from './operation';

/** The request shape several operations share: which fields, and how the order is treated. */
export type RequestShape = Pick<OperationSpec, 'required' | 'main' | 'optional' | 'waitable' | 'refine'>;

/** Capture and return: a partial amount needs its currency, and the other way round. */
function amountWithCurrency(values: CheckedValues): void {
	if (!!values.amount !== !!values.currency) {
		const missing = values.amount ? 'Currency' : 'Amount';
		throw new GatewayInputError(missing, `"${missing}" is required when "${missing === 'Currency' ? 'Amount' : 'Currency'}" is set (partial amounts need both; leave both empty for the full amount)`);
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

/**
 * Capture and return: the whole amount, or a part of it. The Amount field says, below the input,
 * what leaving it empty does (`whenEmpty`), with the fine print (`detail`) in its description.
 */
function partialFollowUp(whenEmpty: string, detail = ''): RequestShape {
	const partial = {
		...amount,
		property: {
			...amount.property,
			hint: `Leave empty (and Currency too) to ${whenEmpty}`,
			description: `${amount.property.description} Leave Amount and Currency empty to ${whenEmpty}.${detail ? ` ${detail}` : ''}`,
		},
	};
	return {
		required: [merchantOrderId, gatewayOrderId],
		optional: [partial, currency, comment],
		waitable: true,
		refine: amountWithCurrency,
	};
}

/** Capture: all of a preauthorization's hold, or a part of it. */
export const PARTIAL_FOLLOW_UP = partialFollowUp('capture everything still held');
/** Return: everything left on the order, or a part of it. */
export const RETURN_FOLLOW_UP = partialFollowUp(
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

/** Payouts to a card or a bank account. */
export const PAYOUT: RequestShape = {
	required: [newMerchantOrderId, ...MONEY],
	optional: [orderDescription, ipAddress, purpose, cardNumber, expireMonth, expireYear, cardholderName, ...BANK, redirectUrl, ...CALLBACKS],
	waitable: true,
	refine: payoutDestination,
};

/** Between stored cards: the receiving card is required; the charged one may be implied. */
export const TRANSFER_BY_REFERENCE: RequestShape = {
	required: [newMerchantOrderId, ...MONEY, destinationCardReferenceId],
	optional: [sourceCardReferenceId, cvv, orderDescription, ipAddress, redirectUrl, ...CALLBACKS],
	waitable: true,
};
