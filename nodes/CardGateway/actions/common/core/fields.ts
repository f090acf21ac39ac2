import type { INodeProperties } from 'n8n-workflow';

/** How a parameter's value is checked and turned into its wire form before anything is sent. */
export type Check =
	| 'text'
	| 'id'
	| 'amount'
	| 'currency'
	| 'cardNumber'
	| 'month'
	| 'year'
	| 'cvv'
	| 'email'
	| 'url'
	| 'country'
	| 'flag'
	| 'choice'
	| 'count';

/**
 * One request field: the n8n parameter the user sees and the name it has on the wire. The wire
 * spelling differs between gateway APIs (client_orderid, client-order-id, credit-card-number…);
 * operations pick the spelling with `wire()` and the user never sees it.
 */
export interface Field {
	property: INodeProperties;
	wire: string;
	check: Check;
	/** The merchant order ID: its wire name comes from the catalogue, and it may be generated. */
	merchantOrderId?: 'new' | 'existing';
	/** A heading shown above the field where it is a top-level parameter, so long forms read in sections. */
	section?: string;
}

export function defineField(wireName: string, check: Check, property: INodeProperties): Field {
	return { wire: wireName, check, property };
}

/** The heading of a field's section, as a notice placed above it (the parameter's name is unchanged). */
export function sectionHeading(field: Field): INodeProperties[] {
	if (!field.section) return [];
	return [{ displayName: field.section, name: `${field.property.name}Section`, type: 'notice', default: '' }];
}

/** The same field under another wire name. */
export function wire(source: Field, wireName: string): Field {
	return { ...source, wire: wireName };
}

/** The field with a wire name written with hyphens (the v4 recurring API's spelling). */
export function hyphenated(source: Field): Field {
	return wire(source, source.wire.replace(/_/g, '-'));
}

// ── Order identity ────────────────────────────────────────────────────────────────────────────

/** For operations that start an order: may be left empty, then a unique ID is generated. */
export const newMerchantOrderId: Field = {
	merchantOrderId: 'new',
	...defineField('client_orderid', 'id', {
		displayName: 'Order ID (Merchant)',
		name: 'merchantOrderId',
		type: 'string',
		default: '',
		placeholder: 'e.g. invoice-10042',
		description:
			'Your unique ID for this order (the idempotency key the safe-retry logic relies on). Leave empty to generate one (n8n- plus 14 letters); it is returned as client_orderid.',
	}),
};

/** For operations on an order that exists: the merchant ID it was created with. */
export const merchantOrderId: Field = {
	merchantOrderId: 'existing',
	...defineField('client_orderid', 'id', {
		displayName: 'Order ID (Merchant)',
		name: 'merchantOrderId',
		type: 'string',
		default: '',
		placeholder: 'e.g. invoice-10042',
		description: 'The merchant order ID the order was created with (client_orderid in earlier outputs)',
	}),
};

export const gatewayOrderId = defineField('orderid', 'id', {
	displayName: 'Gateway Order ID',
	name: 'gatewayOrderId',
	type: 'string',
	default: '',
	placeholder: 'e.g. 100042',
	description: 'The order ID the gateway assigned (orderid in earlier outputs)',
});

export const cardReferenceId = defineField('cardrefid', 'id', {
	displayName: 'Card Reference ID',
	name: 'cardReferenceId',
	type: 'string',
	default: '',
	placeholder: 'e.g. 7000123',
	description: 'A stored card, as returned by Create Card Reference (cardRefId)',
});

export const destinationCardReferenceId = defineField('destination-card-ref-id', 'id', {
	displayName: 'Destination Card Reference ID',
	name: 'destinationCardReferenceId',
	type: 'string',
	default: '',
	placeholder: 'e.g. 7000456',
	description: 'The stored card that receives the money',
});

export const sourceCardReferenceId = defineField('source-card-ref-id', 'id', {
	displayName: 'Source Card Reference ID',
	name: 'sourceCardReferenceId',
	type: 'string',
	default: '',
	description: 'The stored card that is charged',
});

export const recurringPaymentId = defineField('recurring-payment-id', 'id', {
	displayName: 'Recurring Payment ID',
	name: 'recurringPaymentId',
	type: 'string',
	default: '',
	placeholder: 'e.g. 5000123',
	description: 'The subscription returned by Create Recurring Payment (recurringPaymentId)',
});

export const orderDescription = defineField('order_desc', 'text', {
	displayName: 'Order Description',
	name: 'orderDescription',
	type: 'string',
	default: '',
	placeholder: 'e.g. Order 10042: 2 items',
	description: 'What the customer pays for',
});

// ── Money ─────────────────────────────────────────────────────────────────────────────────────

/**
 * n8n's editor draws no asterisk for a required parameter (define/operation.ts puts one in the label):
 * where Amount is a top-level parameter, the heading above it says that it and Currency are required.
 */
export const amount: Field = {
	section: '<b>Money</b>: Amount and Currency are required',
	...defineField('amount', 'amount', {
		displayName: 'Amount',
		name: 'amount',
		type: 'string',
		default: '',
		placeholder: 'e.g. 10.50',
		description:
			'Decimal amount in major units with a dot, such as 10.50 (no more decimals than the currency has). Text rather than a number, so that no rounding happens.',
	}),
};

export const currency = defineField('currency', 'currency', {
	displayName: 'Currency',
	name: 'currency',
	type: 'string',
	default: '',
	placeholder: 'e.g. USD',
	description: 'Three-letter ISO 4217 code; it must match the endpoint',
});

export const comment = defineField('comment', 'text', {
	displayName: 'Comment',
	name: 'comment',
	type: 'string',
	default: '',
	placeholder: 'e.g. Customer returned the goods',
	description: 'Reason shown in the gateway back office (at most 50 characters)',
});

// ── Card ──────────────────────────────────────────────────────────────────────────────────────

export const cardNumber: Field = {
	section: '<b>Card</b>: the card number and CVV never appear in outputs or logs',
	...defineField('credit_card_number', 'cardNumber', {
		displayName: 'Card Number',
		name: 'cardNumber',
		type: 'string',
		default: '',
		placeholder: 'e.g. 4000 0000 0000 0002',
		description: 'Full card number (12–19 digits, spaces allowed). Outputs only ever show it masked.',
	}),
};

export const expireMonth = defineField('expire_month', 'month', {
	displayName: 'Expiry Month',
	name: 'expireMonth',
	type: 'string',
	default: '',
	placeholder: 'e.g. 12',
	description: 'Month the card expires, 1–12',
});

export const expireYear = defineField('expire_year', 'year', {
	displayName: 'Expiry Year',
	name: 'expireYear',
	type: 'string',
	default: '',
	placeholder: 'e.g. 2030',
	description: 'Year the card expires, 2 or 4 digits',
});

export const cvv = defineField('cvv2', 'cvv', {
	displayName: 'CVV',
	name: 'cvv',
	type: 'string',
	typeOptions: { password: true },
	default: '',
	placeholder: 'e.g. 123',
	description: 'Card security code, 3 or 4 digits. It is never echoed in outputs.',
});

export const cardholderName = defineField('card_printed_name', 'text', {
	displayName: 'Cardholder Name',
	name: 'cardholderName',
	type: 'string',
	default: '',
	placeholder: 'e.g. JOHN SMITH',
	description: 'Name as printed on the card',
});

// ── Customer ──────────────────────────────────────────────────────────────────────────────────

export const email: Field = {
	section: '<b>Customer</b>: the gateway requires these for its fraud checks',
	...defineField('email', 'email', {
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
		description: "Customer's email address",
	}),
};

export const firstName = defineField('first_name', 'text', {
	displayName: 'First Name',
	name: 'firstName',
	type: 'string',
	default: '',
	placeholder: 'e.g. John',
	description: "Customer's first name",
});

export const lastName = defineField('last_name', 'text', {
	displayName: 'Last Name',
	name: 'lastName',
	type: 'string',
	default: '',
	placeholder: 'e.g. Smith',
	description: "Customer's last name",
});

export const address: Field = {
	section: '<b>Billing Address</b>',
	...defineField('address1', 'text', {
		displayName: 'Address',
		name: 'address',
		type: 'string',
		default: '',
		placeholder: 'e.g. 1 Main Street',
		description: "Customer's street address",
	}),
};

export const city = defineField('city', 'text', {
	displayName: 'City',
	name: 'city',
	type: 'string',
	default: '',
	placeholder: 'e.g. Springfield',
	description: "Customer's city",
});

export const state = defineField('state', 'text', {
	displayName: 'State',
	name: 'state',
	type: 'string',
	default: '',
	placeholder: 'e.g. CA',
	description: 'Two-letter state or province code (required for the US, Canada and Australia)',
});

export const zipCode = defineField('zip_code', 'text', {
	displayName: 'ZIP Code',
	name: 'zipCode',
	type: 'string',
	default: '',
	placeholder: 'e.g. 90210',
	description: "Customer's postal code",
});

export const country = defineField('country', 'country', {
	displayName: 'Country',
	name: 'country',
	type: 'string',
	default: '',
	placeholder: 'e.g. US',
	description: 'Two-letter ISO 3166 country code',
});

export const phone = defineField('phone', 'text', {
	displayName: 'Phone',
	name: 'phone',
	type: 'string',
	default: '',
	placeholder: 'e.g. +1 555 010 0199',
	description: "Customer's phone number",
});

export const ipAddress = defineField('ipaddress', 'text', {
	displayName: 'IP Address',
	name: 'ipAddress',
	type: 'string',
	default: '',
	placeholder: 'e.g. 203.0.113.7',
	description: "Customer's IP address",
});

export const birthday = defineField('birthday', 'text', {
	displayName: 'Birthday',
	name: 'birthday',
	type: 'string',
	default: '',
	placeholder: 'e.g. 19820115',
	description: "Customer's date of birth as YYYYMMDD",
});

export const ssn = defineField('ssn', 'text', {
	displayName: 'SSN (Last 4 Digits)',
	name: 'ssn',
	type: 'string',
	default: '',
	placeholder: 'e.g. 6789',
	description: 'Last four digits of the customer’s social security number',
});

export const cellPhone = defineField('cell_phone', 'text', {
	displayName: 'Cell Phone',
	name: 'cellPhone',
	type: 'string',
	default: '',
	placeholder: 'e.g. +1 555 010 0100',
	description: "Customer's mobile number",
});

export const siteUrl = defineField('site_url', 'url', {
	displayName: 'Site URL',
	name: 'siteUrl',
	type: 'string',
	default: '',
	placeholder: 'e.g. https://shop.example.com',
	description: 'The shop the order comes from',
});

export const purpose = defineField('purpose', 'text', {
	displayName: 'Purpose',
	name: 'purpose',
	type: 'string',
	default: '',
	placeholder: 'e.g. Salary advance',
	description: 'Purpose of the payment as the acquirer wants it (at most 128 characters)',
});

// ── Where the gateway sends the customer and the result ───────────────────────────────────────

export const redirectUrl: Field = {
	section: "<b>Return</b>: where the customer's browser goes after 3-D Secure or the hosted page",
	...defineField('redirect_url', 'url', {
		displayName: 'Redirect URL',
		name: 'redirectUrl',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://shop.example.com/payment/return',
		description: 'Where the customer returns after 3-D Secure or the hosted page',
	}),
};

export const serverCallbackUrl = defineField('server_callback_url', 'url', {
	displayName: 'Server Callback URL',
	name: 'serverCallbackUrl',
	type: 'string',
	default: '',
	placeholder: 'e.g. https://n8n.example.com/webhook/…/callback',
	description: 'Where the gateway reports the final status (for example the Card Gateway Trigger webhook URL)',
});

export const notifyUrl = defineField('notify_url', 'url', {
	displayName: 'Notify URL',
	name: 'notifyUrl',
	type: 'string',
	default: '',
	placeholder: 'e.g. https://n8n.example.com/webhook/…/callback',
	description: 'Like the server callback URL, but also called for later refunds and chargebacks of the order',
});

export const merchantData = defineField('merchantdata', 'text', {
	displayName: 'Merchant Data',
	name: 'merchantData',
	type: 'string',
	default: '',
	placeholder: 'e.g. basket-42',
	description: 'Free text the gateway hands back in callbacks',
});

// ── Rebill specifics ──────────────────────────────────────────────────────────────────────────

export const enumerateAmounts = defineField('enumerate_amounts', 'text', {
	displayName: 'Fallback Amounts',
	name: 'enumerateAmounts',
	type: 'string',
	default: '',
	placeholder: 'e.g. 10.00,5.00',
	description: 'Comma-separated amounts tried in order until one is approved',
});

export const recurrentScenario = defineField('recurrent_scenario', 'choice', {
	displayName: 'Recurrent Scenario',
	name: 'recurrentScenario',
	type: 'options',
	options: [
		{ name: 'Irregular', value: 'IRREGULAR' },
		{ name: 'Regular', value: 'REGULAR' },
	],
	default: 'REGULAR',
	description: 'Whether the charges follow a fixed schedule',
});

// ── Payout destinations ───────────────────────────────────────────────────────────────────────

export const accountNumber = defineField('account_number', 'text', {
	displayName: 'Bank Account Number',
	name: 'accountNumber',
	type: 'string',
	default: '',
	placeholder: 'e.g. 0123456789',
	description: 'Bank account that receives a bank payout',
});

export const bankName = defineField('bank_name', 'text', {
	displayName: 'Bank Name',
	name: 'bankName',
	type: 'string',
	default: '',
	placeholder: 'e.g. First Example Bank',
	description: 'Bank of the receiving account',
});

export const bankBranch = defineField('bank_branch', 'text', {
	displayName: 'Bank Branch',
	name: 'bankBranch',
	type: 'string',
	default: '',
	placeholder: 'e.g. Downtown',
	description: 'Branch of the receiving bank',
});

export const routingNumber = defineField('routing_number', 'text', {
	displayName: 'Routing Number',
	name: 'routingNumber',
	type: 'string',
	default: '',
	placeholder: 'e.g. 021000021',
	description: 'Routing or sort code of the receiving bank',
});

export const destinationCardNumber = defineField('destination-card-no', 'cardNumber', {
	displayName: 'Destination Card Number',
	name: 'destinationCardNumber',
	type: 'string',
	default: '',
	placeholder: 'e.g. 5555 5555 5555 4444',
	description: 'Card that receives the money. Outputs only ever show it masked.',
});

export const depositToCard = defineField('deposit2card', 'flag', {
	displayName: 'Deposit to Card',
	name: 'depositToCard',
	type: 'boolean',
	default: false,
	description: 'Whether the transfer only credits the destination card (no debit of a source card)',
});

export const sourceRecurringPaymentId = defineField('card_recurring_payment_id', 'id', {
	displayName: 'Source Recurring Payment ID',
	name: 'sourceRecurringPaymentId',
	type: 'string',
	default: '',
	placeholder: 'e.g. 5000123',
	description: 'A stored source card (recurring payment ID) instead of source card data',
});

export const destinationRecurringPaymentId = defineField('destination_card_recurring_payment_id', 'id', {
	displayName: 'Destination Recurring Payment ID',
	name: 'destinationRecurringPaymentId',
	type: 'string',
	default: '',
	placeholder: 'e.g. 5000456',
	description: 'A stored destination card (recurring payment ID) instead of the destination card number',
});

// ── Recurring payments ────────────────────────────────────────────────────────────────────────

export const period = defineField('period', 'choice', {
	displayName: 'Period',
	name: 'period',
	type: 'options',
	options: [
		{ name: 'Daily', value: 'daily' },
		{ name: 'Monthly', value: 'monthly' },
		{ name: 'Weekly', value: 'weekly' },
	],
	default: 'monthly',
	description: 'Unit of the schedule',
});

export const interval = defineField('interval', 'count', {
	displayName: 'Interval',
	name: 'interval',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 1,
	description: 'How many periods lie between two charges (1 with Monthly: every month)',
});

export const cardRole = defineField('rp_card_type', 'choice', {
	displayName: 'Card Role',
	name: 'cardRole',
	type: 'options',
	options: [
		{ name: 'Destination (Receives Money)', value: 'DST' },
		{ name: 'Source (Is Charged)', value: 'SRC' },
	],
	default: 'SRC',
	description: 'Whether the stored card is charged or receives payouts',
});

// ── Groups used by several operations ─────────────────────────────────────────────────────────

export const CARD = [cardNumber, expireMonth, expireYear, cvv, cardholderName] as const;
/** The customer fields the sale-style operations require. */
export const CUSTOMER = [email, phone, ipAddress, address, city, zipCode, country] as const;
/** The customer fields they accept on top. */
export const CUSTOMER_EXTRA = [firstName, lastName, state, birthday, ssn, cellPhone, siteUrl] as const;
export const CALLBACKS = [serverCallbackUrl, notifyUrl, merchantData] as const;
export const MONEY = [amount, currency] as const;
export const BANK = [accountNumber, bankName, bankBranch, routingNumber] as const;
