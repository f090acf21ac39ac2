import type { ControlPart } from './control';
import type { MoneyAction } from './money';

/**
 * How a request is authenticated. `control` is the SHA-1 field computed per operation; the two
 * OAuth 1.0a schemes sign the whole body into the Authorization header.
 */
export type AuthScheme = 'control' | 'oauth-hmac-sha1' | 'oauth-rsa-sha256' | 'none';

export interface GatewayOperation {
	/** The interface's name for the operation, or the path's last segment where it gives none. */
	name: string;
	/** Path under the base URL, without the endpoint segment. */
	path: string;
	auth: AuthScheme;
	/** The `control` concatenation (for `control`, and for operations where the user picks it). */
	control?: readonly ControlPart[];
	/** The wire name of the merchant's order id for this operation. */
	orderIdField: string;
	/** What it does to money (money.ts). */
	money: MoneyAction;
	/**
	 * The status query that finds what this operation creates or changes, by the merchant order ID
	 * (a lost reply is resolved by it), or undefined when no status query finds it.
	 */
	statusQuery: StatusQueryId | undefined;
	/** Accepts an endpoint group instead of an endpoint (`…/group/{id}`). */
	groupCapable: boolean;
}

const amountMinor: ControlPart = { field: 'amount', minorUnits: true };
const currency: ControlPart = { field: 'currency' };
const optionalAmount: ControlPart = { field: 'amount', minorUnits: true, onlyWith: 'amount' };
const optionalCurrency: ControlPart = { field: 'currency', onlyWith: 'amount' };

const PAYMENT_FORMULA: readonly ControlPart[] = [
	'endpointId',
	{ field: 'client_orderid' },
	amountMinor,
	{ field: 'email' },
];
const VERIFY_FORMULA: readonly ControlPart[] = ['endpointId', { field: 'client_orderid' }, { field: 'email' }];
/** login + client_orderid + orderid: status, void, create-card-ref. */
export const STATUS_FORMULA: readonly ControlPart[] = ['login', { field: 'client_orderid' }, { field: 'orderid' }];
/** Return: the interface omits amount and currency for a full reversal, so they are signed only when sent. */
const PARTIAL_FORMULA: readonly ControlPart[] = [...STATUS_FORMULA, optionalAmount, optionalCurrency];
/** Capture: always signed (interface; the vendor's PHP library); the node always sends both. */
const CAPTURE_FORMULA: readonly ControlPart[] = [...STATUS_FORMULA, amountMinor, currency];
const REBILL_FORMULA: readonly ControlPart[] = [
	'login',
	{ field: 'client_orderid' },
	{ field: 'cardrefid' },
	amountMinor,
	currency,
];
const TRANSFER_BY_REF_FORMULA: readonly ControlPart[] = [
	'login',
	{ field: 'client_orderid' },
	{ field: 'source-card-ref-id' },
	{ field: 'destination-card-ref-id' },
	amountMinor,
	currency,
];
const TDS_FORMULA: readonly ControlPart[] = ['login', { field: 'client-order-id' }, { field: 'orderid' }];

/** The two status queries: v2 (control) for v2 operations, v4 (RSA) for v4 ones. */
export type StatusQueryId = 'status' | 'statusV4';

/** How a status query is asked, and how it says that the gateway holds no such order. */
export interface StatusQuery {
	/** Can ask about one transaction of the order by its serial number (`by-request-sn`). */
	bySerial: boolean;
	/**
	 * A refusal that means "no such order" (besides a status reply saying so): its HTTP status and its
	 * message, whose group 1 names the order the gateway did not find. Any other refusal leaves the order unknown.
	 */
	noSuchOrderRefusal?: { httpStatus: number; message: RegExp };
}

/**
 * Both status queries find an order by the merchant order ID alone; the gateway order ID is added when
 * known. So an operation asks its own status query whether a new order's ID is taken, and a V4 one asks
 * the v4 status: a V4-only gateway (the vendor's hosted-fields emulator) serves no /api/v2/*.
 */
export const STATUS_QUERIES: Readonly<Record<StatusQueryId, StatusQuery>> = {
	status: { bySerial: true },
	// api_v4_status: orderid "can be requested with only client_orderid if it's unique"; by-request-sn is listed
	// but not sent (the vendor's emulator reads none). That emulator refuses an order it does not hold with
	// HTTP 400 and an untyped `Unknown order <orderid>.` (gateway-facts §15–16).
	statusV4: { bySerial: false, noSuchOrderRefusal: { httpStatus: 400, message: /^Unknown order\s*(\S*?)\.?$/i } },
};

type OperationOptions = Partial<Pick<GatewayOperation, 'control' | 'orderIdField' | 'groupCapable'>>;

// Generic so that an operation declared with a formula is typed as having one. What an operation does
// to money and which status query finds it are positional: no operation can leave them out.
function op<O extends OperationOptions = Record<never, never>>(
	name: string,
	path: string,
	auth: AuthScheme,
	money: MoneyAction,
	statusQuery: StatusQueryId | undefined,
	options?: O,
): GatewayOperation & O {
	return {
		name,
		path,
		auth,
		money,
		statusQuery,
		orderIdField: 'client_orderid',
		groupCapable: true,
		...(options as O),
	};
}

/** Every gateway operation the package knows, keyed by a stable id. Requests are built from this. */
export const OPERATIONS = {
	sale: op('SALE', '/api/v2/sale', 'control', 'charge', 'status', { control: PAYMENT_FORMULA }),
	preauth: op('PREAUTH', '/api/v2/preauth', 'control', 'hold', 'status', { control: PAYMENT_FORMULA }),
	capture: op('CAPTURE', '/api/v2/capture', 'control', 'capture', 'status', { control: CAPTURE_FORMULA }),
	void: op('VOID', '/api/v2/void', 'control', 'void', 'status', { control: STATUS_FORMULA }),
	return: op('RETURN', '/api/v2/return', 'control', 'return', 'status', { control: PARTIAL_FORMULA }),
	accountVerification: op('ACCOUNT_VERIFICATION', '/api/v2/account-verification', 'control', 'none', 'status', {
		control: VERIFY_FORMULA,
	}),
	syncAccountVerification: op(
		'SYNC_ACCOUNT_VERIFICATION',
		'/api/v2/sync/account-verification',
		'control',
		'none',
		'status',
		{ control: VERIFY_FORMULA },
	),
	status: op('STATUS', '/api/v2/status', 'control', 'none', 'status', { control: STATUS_FORMULA }),
	// The vendor's hosted-fields examples: a sale paid with a payment ticket, and its status (JSON).
	saleV4: op('SALE_V4', '/api/v4/sale', 'oauth-rsa-sha256', 'charge', 'statusV4'),
	statusV4: op('STATUS_V4', '/api/v4/status', 'oauth-rsa-sha256', 'none', 'statusV4'),
	saleForm: op('SALEFORM', '/api/v2/sale-form', 'control', 'none', 'status', { control: PAYMENT_FORMULA }),
	preauthForm: op('PREAUTHFORM', '/api/v2/preauth-form', 'control', 'none', 'status', { control: PAYMENT_FORMULA }),
	// The interface states no scheme for these two; the defaults follow the public docs and the
	// node lets the user pick another.
	paymentForm: op('PAYMENTFORM', '/api/v2/payment-form', 'control', 'none', 'status', { control: PAYMENT_FORMULA }),
	payoutForm: op('PAYOUTFORM', '/api/v2/payout-form', 'oauth-hmac-sha1', 'openPayoutForm', 'status', {
		control: PAYMENT_FORMULA,
	}),
	transferForm: op('TRANSFERFORM', '/api/v2/transfer-form', 'control', 'none', 'status', { control: PAYMENT_FORMULA }),
	accountVerificationForm: op(
		'ACCOUNT_VERIFICATION_FORM',
		'/api/v2/account-verification-form',
		'control',
		'none',
		'status',
		{ control: VERIFY_FORMULA },
	),
	createCardRef: op('CARDREF', '/api/v2/create-card-ref', 'control', 'none', 'status', { control: STATUS_FORMULA }),
	createCardRefV4: op('CARDREF_V4', '/api/v4/create-card-ref', 'oauth-rsa-sha256', 'none', 'statusV4'),
	getCardInfo: op('CARDINFO', '/api/v2/get-card-info', 'control', 'none', undefined, {
		control: ['login', { field: 'cardrefid' }],
		orderIdField: '',
	}),
	makeRebill: op('REBILL', '/api/v2/make-rebill', 'control', 'charge', 'status', { control: REBILL_FORMULA }),
	makeRebillSale: op('REBILL_SALE', '/api/v2/make-rebill-sale', 'control', 'charge', 'status', {
		control: REBILL_FORMULA,
	}),
	makeRebillPreauth: op('REBILL_PREAUTH', '/api/v2/make-rebill-preauth', 'control', 'hold', 'status', {
		control: REBILL_FORMULA,
	}),
	// A subscription charges its card on a schedule: it moves money, and it is not an order a status query finds.
	createRecurringPayment: op(
		'CREATE_RP_V4',
		'/api/v4/create-recurring-payment',
		'oauth-rsa-sha256',
		'setUpRecurring',
		undefined,
		{ orderIdField: 'client-orderid' },
	),
	updateRecurringPayment: op(
		'UPDATE_RP_V4',
		'/api/v4/update-recurring-payment',
		'oauth-rsa-sha256',
		'changeRecurring',
		undefined,
		{ orderIdField: 'client-orderid' },
	),
	// Charges a subscription's stored card once, now: a new order, found by its order ID like a rebill. The docs
	// publish no group URL for it.
	processRecurringPayment: op(
		'PROCESS_RP_V4',
		'/api/v4/process-recurring-payment',
		'oauth-rsa-sha256',
		'charge',
		'statusV4',
		{ orderIdField: 'client-orderid', groupCapable: false },
	),
	payout: op('PAYOUT', '/api/v2/payout', 'oauth-hmac-sha1', 'payout', 'status'),
	payoutCheck: op('PAYOUT_V4_CHECK', '/api/v4/payout-check', 'oauth-rsa-sha256', 'none', 'statusV4'),
	payoutPay: op('PAYOUT_V4_PAY', '/api/v4/payout-pay', 'oauth-rsa-sha256', 'payCheckedPayout', 'statusV4'),
	payoutV4: op('PAYOUT_V4', '/api/v4/payout', 'oauth-rsa-sha256', 'payout', 'statusV4'),
	payoutByRefV4: op('PAYOUT_BY_REF_V4', '/api/v4/payout-by-ref', 'oauth-rsa-sha256', 'payout', 'statusV4'),
	transfer: op('TRANSFER_V4', '/api/v4/transfer', 'oauth-rsa-sha256', 'transfer', 'statusV4'),
	transferByRefV2: op('TRANSFER_BY_REF', '/api/v2/transfer-by-ref', 'control', 'transfer', 'status', {
		control: TRANSFER_BY_REF_FORMULA,
	}),
	transferByRef: op('TRANSFER_BY_REF_V4', '/api/v4/transfer-by-ref', 'oauth-rsa-sha256', 'transfer', 'statusV4'),
	panEligibilitySend: op('PAN_ELIGIBILITY_SEND', '/api/v2/pan-eligibility/send', 'oauth-hmac-sha1', 'none', 'status', {
		orderIdField: 'client-order-id',
	}),
	panEligibilityReceive: op(
		'PAN_ELIGIBILITY_RECEIVE',
		'/api/v2/pan-eligibility/receive',
		'oauth-hmac-sha1',
		'none',
		'status',
		{ orderIdField: 'client-order-id' },
	),
	panEligibilityBoth: op('PAN_ELIGIBILITY_BOTH', '/api/v2/pan-eligibility/both', 'oauth-hmac-sha1', 'none', 'status', {
		orderIdField: 'client-order-id',
	}),
	// The uploads let a pending 3-D Secure sale or preauth go on: PaRes and CRes complete it, and after the
	// method step the issuer may approve it without a challenge.
	uploadPaRes: op(
		'TDS_UPLOAD_PARES_RESULT',
		'/api/3ds/v1/upload-pares-result',
		'control',
		'completePending',
		'status',
		{
			control: TDS_FORMULA,
			orderIdField: 'client-order-id',
			groupCapable: false,
		},
	),
	uploadCRes: op('TDS_UPLOAD_CRES_RESULT', '/api/3ds/v1/upload-cres-result', 'control', 'completePending', 'status', {
		control: TDS_FORMULA,
		orderIdField: 'client-order-id',
		groupCapable: false,
	}),
	uploadMethodUrlResult: op(
		'TDS_UPLOAD_METHOD_URL_RESULT',
		'/api/3ds/v1/upload-method-url-result',
		'control',
		'completePending',
		'status',
		{
			control: TDS_FORMULA,
			orderIdField: 'client-order-id',
			groupCapable: false,
		},
	),
	// Read-only records beside the order API (docs: services_transaction-report, api_v2_get_balance): no order
	// ID; the report lives beside /paynet, the balance names its endpoint or login itself.
	transactionReport: op(
		'TRANSACTION_REPORT',
		'/paynet-ui/services/transaction-report',
		'oauth-hmac-sha1',
		'none',
		undefined,
		{
			orderIdField: '',
			groupCapable: false,
		},
	),
	getBalance: op('GET_BALANCE', '/api/v2/get-balance', 'oauth-hmac-sha1', 'none', undefined, {
		orderIdField: '',
		groupCapable: false,
	}),
} as const satisfies Record<string, GatewayOperation>;

export type OperationId = keyof typeof OPERATIONS;

/** The endpoint segment: `/{endpointId}` or `/group/{endpointGroupId}`. */
export function operationUrl(
	baseUrl: string,
	operation: GatewayOperation,
	endpoint: { endpointId?: string; endpointGroupId?: string },
): string {
	const base = baseUrl.trim().replace(/\/+$/, '');
	const segment =
		endpoint.endpointGroupId && operation.groupCapable ? `group/${endpoint.endpointGroupId}` : endpoint.endpointId;
	return `${base}${operation.path}/${segment}`;
}
