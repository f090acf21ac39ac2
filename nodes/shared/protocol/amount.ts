import { GatewayInputError } from './errors';

// ISO 4217 exponents that differ from 2: they limit the decimals of a request amount (no cents
// in JPY). The signed amount is hundredths for every currency (controlAmount).
const ZERO_DECIMAL = new Set('BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF'.split(' '));
const THREE_DECIMAL = new Set('BHD IQD JOD KWD LYD OMR TND'.split(' '));

const MAX_INTEGER_DIGITS = 10;
const DECIMAL = /^(\d+)(?:\.(\d+))?$/;
const CURRENCY = /^[A-Z]{3}$/;

export function currencyDigits(currency: string | undefined): number {
	if (!currency) return 2;
	if (ZERO_DECIMAL.has(currency)) return 0;
	if (THREE_DECIMAL.has(currency)) return 3;
	return 2;
}

export function parseCurrency(value: unknown, field = 'currency'): string {
	if (typeof value !== 'string' || !CURRENCY.test(value.trim().toUpperCase())) {
		throw new GatewayInputError(field, `"${field}" must be a three-letter ISO 4217 code such as USD or EUR`);
	}
	return value.trim().toUpperCase();
}

/**
 * Returns the amount as the canonical decimal string sent to the gateway. Numbers are accepted
 * only when their shortest decimal form is exact (0.1 + 0.2 is refused, not rounded).
 */
export function parseAmount(value: unknown, currency?: string, field = 'amount'): string {
	let text: string;
	if (typeof value === 'number') {
		if (!Number.isFinite(value)) throw new GatewayInputError(field, `"${field}" must be a finite number`);
		text = String(value);
	} else if (typeof value === 'string') {
		text = value.trim();
	} else {
		throw new GatewayInputError(field, `"${field}" must be a decimal string such as "10.50", not ${describe(value)}`);
	}
	const match = DECIMAL.exec(text);
	if (!match) {
		throw new GatewayInputError(
			field,
			`"${field}" must be a positive decimal such as "10.50" (digits and one dot; no sign, exponent or thousands separator)`,
		);
	}
	const [, integerPart, fraction = ''] = match;
	const digits = currencyDigits(currency);
	if (fraction.length > digits) {
		throw new GatewayInputError(
			field,
			`"${field}" has ${fraction.length} decimals; ${currency ?? 'the currency'} allows at most ${digits}`,
		);
	}
	const integer = integerPart.replace(/^0+(?=\d)/, '');
	if (integer.length > MAX_INTEGER_DIGITS) {
		throw new GatewayInputError(field, `"${field}" is too large (at most ${MAX_INTEGER_DIGITS} digits before the dot)`);
	}
	if (/^0*$/.test(integer + fraction)) throw new GatewayInputError(field, `"${field}" must be greater than zero`);
	return fraction ? `${integer}.${fraction}` : integer;
}

/**
 * The amount as `control` signs it: hundredths of the decimal string, whatever the currency, as
 * every vendor client computes it (amount × 100: "19.99" → "1999", JPY "1000" → "100000"). Built
 * from the digits, never through a float. A third decimal that is not 0 cannot be signed.
 */
export function controlAmount(amount: string, field = 'amount'): string {
	const match = DECIMAL.exec(amount.trim());
	if (!match) throw new GatewayInputError(field, `"${field}" must be a decimal string such as "10.50"`);
	const [, integer, fraction = ''] = match;
	if (/[1-9]/.test(fraction.slice(2))) {
		throw new GatewayInputError(
			field,
			`"${field}" ${amount.trim()} cannot be signed: the gateway's control signs the amount in hundredths (amount × 100), so at most 2 decimals may be non-zero`,
		);
	}
	return (integer + fraction.slice(0, 2).padEnd(2, '0')).replace(/^0+(?=\d)/, '');
}

/** Decimal amounts compare by value: "10.5" = "10.50" = "010.50"; anything else compares as text. */
export function sameAmount(a: string, b: string): boolean {
	const canonical = (value: string) => {
		const match = /^(\d+)(?:\.(\d*))?$/.exec(value.trim());
		if (!match) return undefined;
		const integer = match[1].replace(/^0+(?=\d)/, '');
		const fraction = (match[2] ?? '').replace(/0+$/, '');
		return fraction ? `${integer}.${fraction}` : integer;
	};
	const left = canonical(a);
	const right = canonical(b);
	if (left === undefined || right === undefined) return a.trim() === b.trim();
	return left === right;
}

/** The finest scale of any currency (thousandths): amounts compare and add exactly as whole numbers of it. */
const UNIT_DIGITS = 3;

/** A decimal amount as a whole number of thousandths, never through a float: "10.5" → 10500n. */
export function amountUnits(amount: string): bigint {
	const match = DECIMAL.exec(amount.trim());
	if (!match || (match[2] ?? '').length > UNIT_DIGITS)
		throw new GatewayInputError('amount', `"${amount}" is not a decimal amount with at most ${UNIT_DIGITS} decimals`);
	return BigInt(match[1] + (match[2] ?? '').padEnd(UNIT_DIGITS, '0'));
}

/** Thousandths back to a decimal string with the currency's decimals (more only if they are not zero). */
export function formatUnits(units: bigint, currency?: string): string {
	const text = units.toString().padStart(UNIT_DIGITS + 1, '0');
	const integer = text.slice(0, -UNIT_DIGITS);
	const fraction = text.slice(-UNIT_DIGITS).replace(/0+$/, '').padEnd(currencyDigits(currency), '0');
	return fraction ? `${integer}.${fraction}` : integer;
}

function describe(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
