import { timingSafeEqual } from 'node:crypto';

import { sha1Hex } from './control';

/** The fields a gateway callback (server callback or customer return) signs. */
export interface CallbackSignedFields {
	status?: string;
	orderid?: string;
	merchant_order?: string;
	client_orderid?: string;
	control?: string;
}

export function callbackControl(fields: CallbackSignedFields, controlKey: string): string {
	const merchantOrder = fields.merchant_order ?? fields.client_orderid ?? '';
	return sha1Hex(`${fields.status ?? ''}${fields.orderid ?? ''}${merchantOrder}${controlKey}`);
}

/**
 * Constant-time check of a callback's `control`. Never throws: anything malformed is simply not
 * genuine. Uppercase hex is accepted (a digest is case-insensitive); any other length is refused.
 */
export function isGenuineCallback(fields: CallbackSignedFields, controlKey: string): boolean {
	const actual = typeof fields.control === 'string' ? fields.control.trim().toLowerCase() : '';
	if (!controlKey || !/^[0-9a-f]{40}$/.test(actual)) return false;
	const expected = callbackControl(fields, controlKey);
	return timingSafeEqual(Buffer.from(expected, 'ascii'), Buffer.from(actual, 'ascii'));
}
