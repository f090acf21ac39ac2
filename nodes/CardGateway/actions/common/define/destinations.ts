import { GatewayInputError } from '../../../../shared/protocol/errors';

import {
	accountNumber,
	bankName,
	cardNumber,
	destinationCardNumber,
	destinationRecurringPaymentId,
	expireMonth,
	expireYear,
	sourceRecurringPaymentId,
	type Field,
} from '../core/fields';
import type { CheckedValues } from '../core/operation';

/** One way of naming where money goes (or comes from): every field of it must be set. */
interface Endpoint {
	what: string;
	fields: readonly Field[];
}

const CARD: Endpoint = { what: 'a card', fields: [cardNumber, expireMonth, expireYear] };
const BANK_ACCOUNT: Endpoint = { what: 'a bank account', fields: [accountNumber, bankName] };

const names = (fields: readonly Field[]) => fields.map((field) => `"${field.property.displayName}"`).join(', ');

/** The choices as the user reads them: a card ("Card Number", …) or a bank account (…). */
const choicesText = (choices: readonly Endpoint[]) =>
	choices.map((choice) => `${choice.what} (${names(choice.fields)})`).join(' or ');

/**
 * Refuses, before anything is sent, a request that names none or more than one of the choices,
 * or only part of one: money must have exactly one complete place to go.
 */
export function exactlyOne(role: string, choices: readonly Endpoint[]): (values: CheckedValues) => void {
	return (values) => {
		const started = choices.filter((choice) => choice.fields.some((field) => values[field.property.name]));
		if (started.length === 0) {
			const first = choices[0].fields[0].property.displayName;
			throw new GatewayInputError(first, `A ${role} is required: ${choicesText(choices)}`);
		}
		if (started.length > 1) {
			const [a, b] = started;
			throw new GatewayInputError(
				b.fields[0].property.displayName,
				`Give one ${role}, not two: ${a.what} (${names(a.fields)}) and ${b.what} (${names(b.fields)}) are both set`,
			);
		}
		const missing = started[0].fields.find((field) => !values[field.property.name]);
		if (missing)
			throw new GatewayInputError(
				missing.property.displayName,
				`"${missing.property.displayName}" is required: ${started[0].what} as ${role} needs ${names(started[0].fields)}`,
			);
	};
}

const PAYOUT_DESTINATIONS = [CARD, BANK_ACCOUNT] as const;

/** Payouts: a card or a bank account. */
export const payoutDestination = exactlyOne('destination', PAYOUT_DESTINATIONS);

/**
 * What the payout form says above Amount, where no click is needed to read it: the destination is
 * required although its fields sit under Additional Fields (where saved workflows keep them).
 */
export const PAYOUT_DESTINATION_HEADING = `<b>Payout</b>: Amount, Currency and a destination are required. Add the destination under <b>Additional Fields</b> below: ${choicesText(PAYOUT_DESTINATIONS)}.`;

const transferDestination = exactlyOne('destination', [
	{ what: 'a card number', fields: [destinationCardNumber] },
	{ what: 'a stored card', fields: [destinationRecurringPaymentId] },
]);
const transferSource = exactlyOne('source', [CARD, { what: 'a stored card', fields: [sourceRecurringPaymentId] }]);

/** Card-to-card transfers: one destination, and one source unless the transfer only credits. */
export function transferEnds(values: CheckedValues): void {
	transferDestination(values);
	if (values.depositToCard !== 'true') transferSource(values);
}
