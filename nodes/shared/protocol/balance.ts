import { currencyDigits, parseAmount, parseCurrency } from './amount';
import { GatewayInputError } from './errors';
import { decodeFormComponent, replyRecord, type GatewayReply } from './reply';

/*
 * get-balance (doc.payneteasy.com / doc.payneteasy.eu `integration/API_commands/api_v2_get_balance*`,
 * `common_utilities/get_balance.html`): the reply is form-encoded (`name=value\n&…`), one balance's
 * fields after another when several come back; a JSON reply lists them under `balances`.
 */

/** One balance, named; amounts are the gateway's decimal strings (they may be negative). */
export interface GatewayBalance {
	name?: string;
	/** Current balance including short-term hold and rolling reserve. */
	amount?: string;
	/** Current balance less short-term hold and rolling reserve. */
	onlineLiveAmount?: string;
	shortTermHold?: string;
	rollingReserve?: string;
	/** `amount-buffer-hold`: outgoing operations (payouts) without a final status. */
	pendingPayouts?: string;
	currency?: string;
	merchantLogin?: string;
}

const WIRE_NAMES: Record<keyof GatewayBalance, string> = {
	name: 'name',
	amount: 'amount',
	onlineLiveAmount: 'online-balance-live-amount',
	shortTermHold: 'total-short-term-hold-amount',
	rollingReserve: 'total-rolling-reserve-amount',
	pendingPayouts: 'amount-buffer-hold',
	currency: 'currency',
	merchantLogin: 'merchantLogin',
};

/** The reply fields that say what a balance holds (a balance has at least one of them). */
const AMOUNT_FIELDS = ['amount', 'onlineLiveAmount'] as const;

const FIELD_BY_WIRE = new Map(
	(Object.entries(WIRE_NAMES) as Array<[keyof GatewayBalance, string]>).map(([field, wire]) => [wire, field]),
);

/** The balances of a reply, in order (empty when it holds none: a refusal, or not a balance reply). */
export function readBalances(body: string): GatewayBalance[] {
	const text = body.trim();
	if (text.startsWith('{') || text.startsWith('[')) {
		try {
			return balancesOfJson(JSON.parse(text));
		} catch {
			return [];
		}
	}
	const balances: GatewayBalance[] = [];
	let current: GatewayBalance | undefined;
	for (const pair of text.split('&')) {
		const separator = pair.indexOf('=');
		if (separator <= 0) continue;
		const field = FIELD_BY_WIRE.get(decodeFormComponent(pair.slice(0, separator)).trim());
		if (!field) continue;
		// A name that repeats starts the next balance.
		if (!current || current[field] !== undefined) balances.push((current = {}));
		current[field] = decodeFormComponent(pair.slice(separator + 1)).trim();
	}
	return balances;
}

function balancesOfJson(value: unknown): GatewayBalance[] {
	const list = Array.isArray(value)
		? value
		: Array.isArray((value as { balances?: unknown })?.balances)
			? (value as { balances: unknown[] }).balances
			: [value];
	return list.flatMap((entry) => {
		if (!entry || typeof entry !== 'object') return [];
		const balance: GatewayBalance = {};
		for (const [wire, raw] of Object.entries(entry as Record<string, unknown>)) {
			const field = FIELD_BY_WIRE.get(wire);
			if (field && raw !== null && raw !== undefined) balance[field] = String(raw).trim();
		}
		return Object.keys(balance).length ? [balance] : [];
	});
}

const SIGNED_DECIMAL = /^(-?)(\d+)(?:\.(\d{1,3}))?$/;
const SCALE = 3;

/** A signed decimal string as thousandths, never through a float. */
export function signedUnits(amount: string, field: string): bigint {
	const match = SIGNED_DECIMAL.exec(amount.trim());
	if (!match) throw new GatewayInputError(field, `"${field}" is not a decimal amount: "${amount.slice(0, 30)}"`);
	const units = BigInt(match[2] + (match[3] ?? '').padEnd(SCALE, '0'));
	return match[1] ? -units : units;
}

/** Thousandths back to a decimal string with at least `digits` decimals. */
export function formatSignedUnits(units: bigint, digits: number): string {
	const sign = units < 0n ? '-' : '';
	const text = (units < 0n ? -units : units).toString().padStart(SCALE + 1, '0');
	const fraction = text.slice(-SCALE).replace(/0+$/, '').padEnd(Math.min(digits, SCALE), '0');
	return `${sign}${text.slice(0, -SCALE)}${fraction ? `.${fraction}` : ''}`;
}

/**
 * Why a gateway reply is not a balance reply, or undefined when it is one. The docs do not show the
 * reply's `type` (assumed: absent, or one naming a balance, as `get-balance-response`); a reply of
 * another type, or one about an order (a status reply carries `amount` and `currency` too), is not
 * a balance, nor is one without any balance amount.
 */
export function notABalanceReply(reply: GatewayReply, body: string): string | undefined {
	const record = replyRecord(reply);
	const type = record.replyType;
	if (reply.httpStatus !== 200) return `an answer with HTTP ${reply.httpStatus}`;
	if (type !== undefined && !/balance/i.test(type)) return `a "${type.slice(0, 40)}" reply`;
	const order = record.orderId || record.clientOrderId || record.status;
	if (order) return `a reply about an order (${record.status ? `status "${record.status.slice(0, 20)}"` : 'order ID'})`;
	if (!readBalances(body).some((balance) => AMOUNT_FIELDS.some((field) => balance[field] !== undefined)))
		return 'a reply without any balance amount';
	return undefined;
}

/** What a balance has available for payouts: thousandths and the reply fields they come from, or why that cannot be told. */
export interface Availability {
	units?: bigint;
	/** The formula over the reply's own field names; null when unknown. */
	from: string | null;
	reason: string;
}

const LIVE = WIRE_NAMES.onlineLiveAmount;
const PENDING = WIRE_NAMES.pendingPayouts;
const DEDUCTIONS = ['shortTermHold', 'rollingReserve', 'pendingPayouts'] as const;
const FROM_LIVE = `${LIVE} − ${PENDING}`;
const FROM_GROSS = [WIRE_NAMES.amount, ...DEDUCTIONS.map((field) => WIRE_NAMES[field])].join(' − ');
const PENDING_ASSUMED = `pending payouts (${PENDING}) are taken off as well, assumed not yet taken from it: if they already were, this is below the truth, never above`;

/**
 * Only money the reply itself shows as free counts: the live amount (the docs: the balance less
 * short-term hold and rolling reserve) less pending payouts. Without a live amount, the balance less
 * every hold the reply lists, and only when it lists them all; when it lists both, the lower of the two.
 */
export function availableForPayouts(balance: GatewayBalance): Availability {
	const values = new Map<keyof GatewayBalance, bigint>();
	const problems: string[] = [];
	for (const [fields, deducted] of [
		[AMOUNT_FIELDS, false],
		[DEDUCTIONS, true],
	] as const) {
		for (const field of fields) {
			const text = balance[field];
			if (text === undefined) continue;
			const wire = WIRE_NAMES[field];
			if (!SIGNED_DECIMAL.test(text.trim())) problems.push(`${wire} is not a decimal ("${text.slice(0, 20)}")`);
			else if (deducted && text.trim().startsWith('-'))
				problems.push(`${wire} is negative (${text.slice(0, 20)}): a hold cannot add money`);
			else values.set(field, signedUnits(text, wire));
		}
	}
	if (problems.length) return unknown(`the reply's ${problems.join('; ')}`);
	const pending = values.get('pendingPayouts');
	const live = values.get('onlineLiveAmount');
	const missing = (fields: ReadonlyArray<keyof GatewayBalance>) =>
		fields.filter((field) => !values.has(field)).map((field) => WIRE_NAMES[field]);
	const gross = missing(['amount', ...DEDUCTIONS]).length
		? undefined
		: DEDUCTIONS.reduce((left, field) => left - (values.get(field) ?? 0n), values.get('amount') ?? 0n);
	if (live !== undefined && pending !== undefined && (gross === undefined || live - pending <= gross)) {
		return {
			units: live - pending,
			from: FROM_LIVE,
			reason: `The gateway's live amount (the balance less short-term hold and rolling reserve); ${PENDING_ASSUMED}`,
		};
	}
	if (gross !== undefined) {
		return {
			units: gross,
			from: FROM_GROSS,
			reason:
				live === undefined
					? `The reply has no ${LIVE}: the balance less the short-term hold, rolling reserve and pending payouts it lists (assumed to be what the live amount is)`
					: `The balance less the holds the reply lists is below its ${LIVE} less pending payouts: the lower counts`,
		};
	}
	if (live !== undefined)
		return unknown(`the reply has no ${PENDING}: payouts not yet final may already be spoken for`);
	return unknown(`the reply has no ${LIVE}, and no ${missing(['amount', ...DEDUCTIONS]).join(', ')} to take off`);
}

function unknown(why: string): Availability {
	return { from: null, reason: `What is available cannot be told: ${why}` };
}

/** What a run needs, in one currency. */
export interface RequiredAmount {
	units: bigint;
	currency: string;
}

const REQUIRED = 'Required Amount';
const TERM = /^(\S+)\s+([A-Za-z]{3})$/;

/**
 * Required Amount: "500.00 USD", or several joined with "+" ("120.00 USD + 75.50 USD"), added
 * exactly. Every amount names its currency, so a run that mixes currencies is refused, not added up.
 */
export function parseRequiredAmount(text: string): RequiredAmount {
	let currency: string | undefined;
	let units = 0n;
	for (const term of text.split('+').map((part) => part.trim())) {
		const match = TERM.exec(term);
		if (!match) {
			throw new GatewayInputError(
				REQUIRED,
				`"${REQUIRED}" needs a currency after each amount, e.g. "500.00 USD" or "120.00 USD + 75.50 USD" (got "${term.slice(0, 30)}")`,
			);
		}
		const termCurrency = parseCurrency(match[2], REQUIRED);
		if (currency && termCurrency !== currency) {
			throw new GatewayInputError(
				REQUIRED,
				`"${REQUIRED}" adds ${currency} and ${termCurrency}: a balance covers one currency, so check each currency on its own`,
			);
		}
		currency = termCurrency;
		units += signedUnits(parseAmount(match[1], currency, REQUIRED), REQUIRED);
	}
	return { units, currency: currency as string };
}

/** Whether a balance covers what a run needs: only from what is available, and only in the run's currency. */
export function sufficiency(
	balance: GatewayBalance,
	availability: Availability,
	required: RequiredAmount,
): { sufficient: boolean | null; shortfall: string | null; sufficientReason: string } {
	const digits = currencyDigits(required.currency);
	const needs = `${formatSignedUnits(required.units, digits)} ${required.currency}`;
	const currency = balance.currency?.trim().toUpperCase();
	if (!currency)
		return {
			sufficient: null,
			shortfall: null,
			sufficientReason: `The balance names no currency; the run needs ${needs}`,
		};
	if (currency !== required.currency) {
		return {
			sufficient: false,
			shortfall: null,
			sufficientReason: `This balance is in ${currency}; the run needs ${needs}: a balance covers only its own currency`,
		};
	}
	if (availability.units === undefined)
		return { sufficient: null, shortfall: null, sufficientReason: `${availability.reason}; the run needs ${needs}` };
	const available = `${formatSignedUnits(availability.units, digits)} ${currency} available (${availability.from})`;
	const short = required.units - availability.units;
	return short > 0n
		? {
				sufficient: false,
				shortfall: formatSignedUnits(short, digits),
				sufficientReason: `${available} is short of the ${needs} the run needs`,
			}
		: { sufficient: true, shortfall: formatSignedUnits(0n, digits), sufficientReason: `${available} covers ${needs}` };
}
