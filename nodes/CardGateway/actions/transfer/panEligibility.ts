import { GatewayInputError } from '../../../shared/protocol/errors';
import {
	cardNumber,
	cardReferenceId,
	cardholderName,
	destinationCardNumber,
	destinationCardReferenceId,
	expireMonth,
	expireYear,
	newMerchantOrderId,
	serverCallbackUrl,
	wire,
	type Field,
} from '../common/fields';
import type { RequestShape } from '../common/requests';

/** One card a PAN eligibility check asks about: stored (a top-level parameter) or typed (Additional Fields). */
interface CheckedCard {
	reference: Field;
	number: Field;
	/** What goes with a typed number. */
	details: readonly Field[];
}

// The docs' field names (api_v2_pan-eligibility): sending-card-ref-id, or sending-card-number with the name and expiry.
export const SENDING_CARD: CheckedCard = {
	reference: wire(cardReferenceId, 'sending-card-ref-id'),
	number: wire(cardNumber, 'sending-card-number'),
	details: [wire(cardholderName, 'card-printed-name'), expireMonth, expireYear],
};

// The receiving side named as the docs' callback names it (receiving-card-type, receiving-bin, …).
export const RECEIVING_CARD: CheckedCard = {
	reference: wire(destinationCardReferenceId, 'receiving-card-ref-id'),
	number: wire(destinationCardNumber, 'receiving-card-number'),
	details: [],
};

/** The request of a PAN eligibility check of one card or both: each card is stored or typed. */
export function eligibilityRequest(checked: readonly CheckedCard[]): RequestShape {
	return {
		required: [newMerchantOrderId],
		main: checked.map((card) => card.reference),
		optional: [...checked.flatMap((card) => [card.number, ...card.details]), serverCallbackUrl],
		refine(values) {
			for (const { reference, number } of checked) {
				if (!values[reference.property.name] && !values[number.property.name]) {
					const name = reference.property.displayName;
					throw new GatewayInputError(
						name,
						`Set "${name}", or the card number under Additional Fields ("${number.property.displayName}")`,
					);
				}
			}
		},
	};
}
