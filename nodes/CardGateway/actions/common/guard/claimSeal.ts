// The seal on every claim row: HMAC-SHA256 over the table's ID and the row's fields, keyed from the
// merchant's control key (the Card Gateway API credential). Whoever can write the claims table (its
// project's members, any holder of the claims API key) does not hold that key, so a row they wrote,
// edited or copied from another table or key does not verify. The claims API key would not do: it is
// what lets one write the table.
import { createHmac, timingSafeEqual } from 'node:crypto';

import type { ClaimRow } from './claimStore';

/** What a seal covers, in this order; `mac` is the seal itself. */
export const SEALED = ['key', 'owner', 'state', 'execution', 'claimedAt', 'before'] as const;

export type SealedFields = Pick<ClaimRow, (typeof SEALED)[number]>;

export interface Sealer {
	/** The row with its seal. */
	seal(fields: SealedFields): SealedFields & { mac: string };
	verifies(row: ClaimRow): boolean;
}

export function sealerFor(controlKey: string, tableId: string): Sealer {
	// A key of its own, so that a claim seal can never be mistaken for a gateway signature.
	const key = createHmac('sha256', controlKey).update('n8n-nodes-card-gateway claims v1').digest();
	const macOf = (fields: SealedFields) =>
		createHmac('sha256', key)
			.update(JSON.stringify([tableId, ...SEALED.map((name) => fields[name])]))
			.digest('hex');
	return {
		seal: (fields) => ({ ...fields, mac: macOf(fields) }),
		verifies(row) {
			if (typeof row.mac !== 'string' || !SEALED.every((name) => typeof row[name] === 'string')) return false;
			const expected = Buffer.from(macOf(row), 'hex');
			const given = Buffer.from(row.mac, 'hex');
			return given.length === expected.length && timingSafeEqual(given, expected);
		},
	};
}
