import { defineResource } from '../common/define/operation';

import capture from './capture.operation';
import preauth from './preauth.operation';
import returnPayment from './return.operation';
import sale from './sale.operation';
import saleWithToken from './saleWithToken.operation';
import verifyAccount from './verifyAccount.operation';
import verifyAccountSync from './verifyAccountSync.operation';
import voidPayment from './void.operation';

// Each operation is one entry here; its own file declares the rest (menu entry, request; what it does to money is its catalogue line).
export const { operations, description } = defineResource('payment', 'Payment', 'sale', {
	capture,
	preauth,
	return: returnPayment,
	sale,
	saleWithToken,
	verifyAccount,
	verifyAccountSync,
	void: voidPayment,
});
