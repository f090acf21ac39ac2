import { GatewayInputError } from '../../../shared/protocol/errors';
import {
	cardNumber,
	cardReferenceId,
	cardholderName,
	destinationCardNumber,
	destinationCardReferenceId,
	expireMonth,
	expireYear,
	hyphenated,
	newMerchantOrderId,
	serverCallbackUrl,
	wire,
	type Field,
} from '../common/core/fields';
import type { RequestShape } from '../common/define/requests';

/** One card a PAN eligibility check asks about: stored (a top-level parameter) or typed (Additional Fields). */
interface CheckedCard {
	reference: Field;
	number: Field;
	/** What goes with a typed number. */
	details: readonly Field[];
}

// The vendor's pages spell these requests in two generations (gateway-facts §16): hyphens (client-order-id,
// sending-card-ref-id, sending-card-number, card-printed-name, expire-month, expire-year, server-callback-url)
// and underscores (client_orderid, expire_month, expire_year, server_callback_url). One is sent, whole: the
// hyphenated one, which the interface's example uses (client-order-id, sending-card-ref-id) and the only one
// that names every field sent here (the order ID's spelling is the catalogue's). A gateway reading one
// generation would silently drop the fields spelled in the other.
export const SENDING_CARD: CheckedCard = {
	reference: wire(cardReferenceId, 'sending-card-ref-id'),
	number: wire(cardNumber, 'sending-card-number'),
	details: [hyphenated(cardholderName), hyphenated(expireMonth), hyphenated(expireYear)],
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
		optional: [...checked.flatMap((card) => [card.number, ...card.details]), hyphenated(serverCallbackUrl)],
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
