import { defineResource } from '../common/define/operation';

import create from './create.operation';
import createV4 from './createV4.operation';
import getInfo from './getInfo.operation';
import rebill from './rebill.operation';
import rebillPreauth from './rebillPreauth.operation';
import rebillSale from './rebillSale.operation';

// Each operation is one entry here; its own file declares the rest (menu entry, request; what it does to money is its catalogue line).
export const { operations, description } = defineResource('cardReference', 'Card Reference', 'rebill', {
	create,
	createV4,
	getInfo,
	rebill,
	rebillPreauth,
	rebillSale,
});
