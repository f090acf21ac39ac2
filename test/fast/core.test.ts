// Stage core/ alone: the one reader of money facts and the status words.
import { OPERATIONS, type OperationId } from '../../nodes/shared/protocol/catalogue';
import { MONEY_ACTIONS } from '../../nodes/shared/protocol/money';
import { parseGatewayReply, replyRecord } from '../../nodes/shared/protocol/reply';
import { factsOf, moneyFactsOf, movesMoney, ordersOnce } from '../../nodes/CardGateway/actions/common/core/facts';
import { FINAL_STATUSES, isFinal, needsThreeDSecure } from '../../nodes/CardGateway/actions/common/core/statuses';

const reply = (fields: Record<string, string>) =>
	parseGatewayReply(200, 'text/html', new URLSearchParams(fields).toString());
/** An order's status as the gateway spells it, read as the pipeline reads it. */
const order = (fields: Record<string, string>) => replyRecord(reply(fields));

describe('money facts', () => {
	test('a sale moves money and is resent after a lost reply only when a status query does not find it', () => {
		expect(movesMoney({ gateway: 'sale' })).toBe(true);
		expect(ordersOnce({ gateway: 'sale' })).toBe(true);
		const facts = factsOf({ operation: 'sale' });
		expect(facts.statusQuery).toBe('status');
		expect(facts.statusConfirms).toBe(true);
		expect(facts.neverResent).toBe(false);
	});

	test('a status query moves no money; a payout check registers an order a later step pays', () => {
		expect(movesMoney({ gateway: 'status' })).toBe(false);
		expect(ordersOnce({ gateway: 'status' })).toBe(false);
		expect(movesMoney({ gateway: 'payoutCheck' })).toBe(false);
		expect(ordersOnce({ gateway: 'payoutCheck' })).toBe(true);
	});

	test('a recurring charge is never resent, and a follow-up is never confirmed by a status', () => {
		expect(factsOf({ operation: 'processRecurringPayment' }).neverResent).toBe(true);
		const capture = factsOf({ operation: 'capture' });
		expect(capture.money.followUp).toBe(true);
		expect(capture.statusConfirms).toBe(false);
		expect(capture.neverResent).toBe(true);
	});

	test('every operation reads its facts from its catalogue line', () => {
		for (const id of Object.keys(OPERATIONS) as OperationId[]) {
			expect(moneyFactsOf({ gateway: id })).toBe(MONEY_ACTIONS[OPERATIONS[id].money]);
			expect(movesMoney({ gateway: id })).toBe(MONEY_ACTIONS[OPERATIONS[id].money].moves);
		}
	});

	test('rerun rules: a void shows as done once the order shows an approved void', () => {
		const rule = factsOf({ operation: 'void' }).rerun;
		const voidType = MONEY_ACTIONS.void.ownTypes[0];
		expect(rule?.done?.(order({ status: 'approved', 'transaction-type': voidType }), {})).toBe('voided earlier');
		expect(rule?.done?.(order({ status: 'declined', 'transaction-type': voidType }), {})).toBeUndefined();
		expect(rule?.done?.(order({ status: 'approved', 'transaction-type': 'sale' }), {})).toBeUndefined();
	});

	test('rerun rules: a full return is done only when nothing is left, a partial one never', () => {
		const rule = factsOf({ operation: 'return' }).rerun;
		const returned = { status: 'approved', 'transaction-type': MONEY_ACTIONS.return.ownTypes[0], amount: '0.00' };
		expect(rule?.done?.(order(returned), {})).toMatch(/returned in full/);
		expect(rule?.done?.(order({ ...returned, amount: '5.00' }), {})).toBeUndefined();
		expect(rule?.done?.(order(returned), { amount: '1.00' })).toBeUndefined();
	});
});

describe('status words', () => {
	test.each(['approved', 'declined', 'filtered', 'error', 'unknown'])('"%s" is final', (status) => {
		expect(FINAL_STATUSES.has(status)).toBe(true);
		expect(isFinal(reply({ type: 'status-response', status }))).toBe(true);
		expect(needsThreeDSecure(reply({ type: 'status-response', status, 'redirect-to': 'https://acs.test' }))).toBe(
			false,
		);
	});

	test('"processing" is not final; a redirect-to then means 3-D Secure, a redirect-url does not', () => {
		expect(isFinal(reply({ type: 'status-response', status: 'processing' }))).toBe(false);
		expect(needsThreeDSecure(reply({ status: 'processing', 'redirect-to': 'https://acs.test' }))).toBe(true);
		expect(needsThreeDSecure(reply({ status: 'processing', 'redirect-url': 'https://form.test' }))).toBe(false);
		expect(needsThreeDSecure(reply({ status: 'processing' }))).toBe(false);
	});
});
