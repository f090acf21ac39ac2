import { defineResource } from '../common/define/operation';

import payment from './payment.operation';
import payout from './payout.operation';
import preauth from './preauth.operation';
import sale from './sale.operation';
import transfer from './transfer.operation';
import verifyAccount from './verifyAccount.operation';

// Each operation is one entry here; its own file declares the rest (menu entry, request; what it does to money is its catalogue line).
export const { operations, description } = defineResource('hostedForm', 'Hosted Form', 'sale', {
	payment,
	payout,
	preauth,
	sale,
	transfer,
	verifyAccount,
});
