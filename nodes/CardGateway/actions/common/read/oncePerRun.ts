import type { IExecuteFunctions } from 'n8n-workflow';

import { withInputErrors } from '../../../../shared/transport';

import type { ReadMany } from '../core/operation';

/**
 * What a read over many records asks for, read once for the run with the first item's parameters and
 * checked: bad input is refused as n8n's error naming the field, before anything is sent.
 */
export function queryOfRun<Query>(ctx: IExecuteFunctions, read: ReadMany<Query>): Query {
	return withInputErrors(ctx, 0, () => read.query(ctx));
}
