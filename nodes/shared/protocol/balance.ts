import { GatewayInputError } from './errors';
import { decodeFormComponent } from './reply';

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
