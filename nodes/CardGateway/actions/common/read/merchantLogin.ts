import type { IExecuteFunctions } from 'n8n-workflow';

import type { PrepareStep } from '../core/operation';

/**
 * The V4 calls whose pages list the merchant's `login` among the body fields (api_v4_status,
 * api_v4_payout-pay): the credential's login goes first. The signature covers it like any field.
 */
export async function sendMerchantLogin(_ctx: IExecuteFunctions, step: PrepareStep): Promise<void> {
	step.request.fields.unshift(['login', step.login]);
}
