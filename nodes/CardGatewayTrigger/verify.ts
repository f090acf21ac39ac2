// The callback signature check: control = sha1(status + orderid + merchant_order + control key),
// compared in constant time by the shared protocol code. Pure; never throws.
import { isGenuineCallback } from '../shared/protocol/callback';
import { FIELD_SPELLINGS } from './normalise';

/** Why a callback was refused; the words are also the `reason` of the trigger's Rejected item (rejected.ts). */
export type VerificationFailure =
	'noSignature' | 'malformedSignature' | 'noControlKey' | 'orderIdsDiffer' | 'signatureMismatch';

export type Verification = { genuine: true } | { genuine: false; reason: VerificationFailure };

const HEX_40 = /^[0-9a-fA-F]{40}$/;

export function verifyCallback(fields: Readonly<Record<string, string>>, controlKey: string | undefined): Verification {
	const control = typeof fields.control === 'string' ? fields.control.trim() : '';
	if (!control) return { genuine: false, reason: 'noSignature' };
	if (!HEX_40.test(control)) return { genuine: false, reason: 'malformedSignature' };
	if (typeof controlKey !== 'string' || controlKey === '') return { genuine: false, reason: 'noControlKey' };
	// The item reports these identifiers; every spelling sent must be exactly the value the signature
	// covers (not even a space apart), or a genuine control could carry a forged client_orderid.
	const signedOrder = fields.merchant_order ?? fields.client_orderid ?? '';
	const signedOrderId = fields.orderid ?? '';
	const differs = (names: readonly string[], signedValue: string) =>
		names.some((name) => Object.prototype.hasOwnProperty.call(fields, name) && fields[name] !== signedValue);
	if (differs(FIELD_SPELLINGS.client_orderid, signedOrder) || differs(FIELD_SPELLINGS.orderid, signedOrderId))
		return { genuine: false, reason: 'orderIdsDiffer' };
	const signed = {
		status: fields.status,
		orderid: fields.orderid,
		merchant_order: fields.merchant_order,
		client_orderid: fields.client_orderid,
		control,
	};
	return isGenuineCallback(signed, controlKey) ? { genuine: true } : { genuine: false, reason: 'signatureMismatch' };
}

export function describeVerificationFailure(reason: VerificationFailure): string {
	switch (reason) {
		case 'noSignature':
			return 'no control signature';
		case 'malformedSignature':
			return 'the control signature is not 40 hexadecimal characters';
		case 'noControlKey':
			return 'the credential has no merchant control key';
		case 'orderIdsDiffer':
			return 'an order ID appears under two names with different values (the signature covers one)';
		default:
			return 'the control signature does not match';
	}
}
