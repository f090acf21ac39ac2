// A server callback refused for its signature is answered 403 (handle.ts) and, unless Rejected Callbacks
// says otherwise, starts an execution with one item on the trigger's Rejected output, so that a wrong
// credential shows in the editor and in the Executions list instead of only in n8n's log. The item is
// in our words: the reason, what to check, and the order IDs only when they have an ID's shape. Nothing
// else the sender wrote (status, amount, free text) and no secret reaches it.
import type { IDataObject } from 'n8n-workflow';

import { maskText } from '../shared/protocol/masking';
import { readCallback } from '../shared/protocol/vocabulary';
import { describeVerificationFailure, type VerificationFailure } from './verify';

/** The values of the Rejected Callbacks option. */
export const REJECTED_CALLBACKS = { startExecution: 'startExecution', logOnly: 'logOnly' } as const;

/** The trigger's outputs, in order: saved workflows' connections are on the first. */
export const OUTPUT_NAMES = ['Accepted', 'Rejected'];

/** What to check, by reason; `credential` is the name of the trigger's credential. */
const ADVICE: Record<VerificationFailure, (credential: string) => string> = {
	signatureMismatch: (credential) =>
		`If the gateway sent it, this trigger's credential (${credential}) is not the one the gateway signs with: select the credential of the merchant login these payments were made with, or correct its Merchant Control Key. If nobody you know sent it, it is a forgery.`,
	noControlKey: (credential) =>
		`This trigger's credential (${credential}) has no Merchant Control Key: set it, or select the right credential; until then every callback is refused.`,
	noSignature: () =>
		'A gateway callback always carries a control signature: this request was not sent by the gateway, or lost its control parameter on the way.',
	malformedSignature: () =>
		'A gateway control signature is 40 hexadecimal characters: this request was not sent by the gateway as it is.',
	orderIdsDiffer: () => 'The gateway names an order once; a request naming it twice differently is treated as forged.',
};

const RESENT =
	'Nothing ran on the Accepted output. The gateway sends a refused callback again later (the real gateway up to 30 times over 14 days), so callbacks refused for a wrong credential arrive again once it is corrected.';

/** Shapes of what an ID may be; anything else the sender put there is left out. */
const ID_SHAPES = { orderid: /^\d{1,20}$/, client_orderid: /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/ } as const;

export function rejectedItem(
	fields: Readonly<Record<string, string>>,
	context: {
		reason: VerificationFailure;
		credential: string;
		method: string;
		receivedAt: string;
		secrets: readonly string[];
	},
): IDataObject {
	const { reason, secrets } = context;
	const credential = maskText(context.credential || '(unnamed)', secrets);
	const item: IDataObject = {
		rejected: true,
		reason,
		explanation: `Refused with HTTP 403: ${describeVerificationFailure(reason)}. ${ADVICE[reason](credential)} ${RESENT}`,
		credential,
	};
	const record = readCallback(fields);
	const ids = { orderid: record.orderId, client_orderid: record.clientOrderId };
	for (const name of Object.keys(ID_SHAPES) as Array<keyof typeof ID_SHAPES>) {
		const value = ids[name];
		if (value !== undefined && ID_SHAPES[name].test(value)) item[name] = maskText(value, secrets);
	}
	item.event = 'serverCallback';
	item.method = context.method.toUpperCase();
	item.receivedAt = context.receivedAt;
	return item;
}
