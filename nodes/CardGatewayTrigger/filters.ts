// Status and transaction-type filters. An event that does not pass is still acknowledged (HTTP 200)
// but starts no execution.
import type { INodePropertyOptions } from 'n8n-workflow';

import { STATUS } from '../shared/protocol/statusWords';

import { normaliseStatus } from './normalise';
import { TRANSACTION_TYPES, typeKey } from './transactionTypes';

export const STATUS_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Approved', value: STATUS.approved, description: 'Final: the payment or payout went through' },
	{ name: 'Declined', value: STATUS.declined, description: 'Final: the issuer or the gateway refused it' },
	{ name: 'Error', value: STATUS.error, description: 'Final: declined because something went wrong' },
	{ name: 'Filtered', value: STATUS.filtered, description: 'Final: refused by fraud control' },
	{ name: 'Processing', value: STATUS.processing, description: 'Not final yet' },
	{ name: 'Unknown', value: STATUS.unknown, description: 'The acquirer did not answer; ask the gateway later' },
];

export const ANY_TYPE = 'any';

export const TRANSACTION_TYPE_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Any', value: ANY_TYPE, description: 'Every transaction type (same as leaving the list empty)' },
	...TRANSACTION_TYPES.map(({ name, value, description }) =>
		description ? { name, value, description } : { name, value },
	),
].sort((a, b) => a.name.localeCompare(b.name));

export interface FilterSettings {
	statuses: readonly string[];
	transactionTypes: readonly string[];
}

export interface FilterSubject {
	status?: string;
	/** Absent for customer returns, which carry no type: the type filter does not apply to them. */
	type?: string;
}

/** True when the event should start the workflow. Empty lists (or "Any") let everything through. */
export function passesFilters(subject: FilterSubject, settings: FilterSettings): boolean {
	const statuses = settings.statuses.map(normaliseStatus).filter(Boolean);
	if (statuses.length > 0 && !statuses.includes(normaliseStatus(subject.status))) return false;
	const types = settings.transactionTypes.map(typeKey).filter(Boolean);
	if (types.length === 0 || types.includes(ANY_TYPE) || subject.type === undefined) return true;
	return types.includes(typeKey(subject.type));
}
