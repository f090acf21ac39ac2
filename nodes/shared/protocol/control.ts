import { createHash } from 'node:crypto';

import { controlAmount } from './amount';

/**
 * One part of a `control` concatenation. `amount` parts are signed in hundredths; `onlyWith`
 * drops the part when that field was not sent (capture and return sign amount and currency only
 * for partial amounts).
 */
export type ControlPart = 'endpointId' | 'login' | { field: string; minorUnits?: boolean; onlyWith?: string };

export interface ControlInputs {
	endpointId: string;
	login: string;
	fields: Readonly<Record<string, string | undefined>>;
}

export function sha1Hex(text: string): string {
	return createHash('sha1').update(text, 'utf8').digest('hex');
}

export function controlString(formula: readonly ControlPart[], inputs: ControlInputs): string {
	const { fields } = inputs;
	return formula
		.map((part) => {
			if (part === 'endpointId') return inputs.endpointId;
			if (part === 'login') return inputs.login;
			if (part.onlyWith && !fields[part.onlyWith]) return '';
			const value = fields[part.field] ?? '';
			return part.minorUnits && value ? controlAmount(value, part.field) : value;
		})
		.join('');
}

/** SHA-1 over the concatenation plus the merchant control key, as 40 lowercase hex digits. */
export function controlSignature(formula: readonly ControlPart[], inputs: ControlInputs, controlKey: string): string {
	return sha1Hex(controlString(formula, inputs) + controlKey);
}
