// Stage core/ alone: the one reader of money facts and the status words.
import { OPERATIONS, type OperationId } from '../../nodes/shared/protocol/catalogue';
import { MONEY_ACTIONS } from '../../nodes/shared/protocol/money';
import { notAGatewayReply, parseGatewayReply, replyRecord } from '../../nodes/shared/protocol/reply';
import { GATEWAY_STATUSES, STATUS } from '../../nodes/shared/protocol/statusWords';
import { TRANSACTION_STATUSES } from '../../nodes/shared/protocol/report';
import { STATUS_OPTIONS } from '../../nodes/CardGatewayTrigger/filters';
import { factsOf, moneyFactsOf, movesMoney, ordersOnce } from '../../nodes/CardGateway/actions/common/core/facts';
import {
	FINAL_STATUSES,
	isFinal,
	isRefusal,
	needsThreeDSecure,
} from '../../nodes/CardGateway/actions/common/core/statuses';

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

	test('each word is declared once (protocol/statusWords.ts) and every list is read from there', () => {
		// a second opinion, spelled here: gateway-facts §5.3, §8 and the report filter of §15
		expect(GATEWAY_STATUSES).toEqual(['approved', 'declined', 'filtered', 'processing', 'error', 'unknown']);
		expect(Object.entries(STATUS).every(([name, word]) => name === word)).toBe(true);
		expect([...FINAL_STATUSES]).toEqual(['approved', 'declined', 'filtered', 'error', 'unknown']);
		expect(GATEWAY_STATUSES.filter(isRefusal)).toEqual(['declined', 'filtered', 'error']);
		expect(TRANSACTION_STATUSES).toEqual(['approved', 'declined', 'filtered']);
		// The trigger's status filter offers every word, as statusWords.ts spells it.
		expect(STATUS_OPTIONS.map((option) => option.value).sort()).toEqual([...GATEWAY_STATUSES].sort());
		// A follow-up is accepted on a status the gateway has.
		const accepted = Object.values(MONEY_ACTIONS).flatMap((facts) =>
			facts.acceptsStatus ? [facts.acceptsStatus] : [],
		);
		expect(new Set(accepted)).toEqual(new Set(['approved', 'processing']));
		expect([undefined, '', 'Approved', 'constructor', 'toString'].filter(isRefusal)).toEqual([]);
	});

	test('an untyped status reply counts only with a status word the gateway has', () => {
		const untyped = (status: string) =>
			parseGatewayReply(
				200,
				'application/json',
				JSON.stringify({ status, 'paynet-order-id': '7', 'merchant-order-id': 'inv-1' }),
			);
		const expected = { clientOrderId: 'inv-1', orderId: '7' };
		expect(notAGatewayReply(untyped('approved'), expected)).toBeUndefined();
		expect(notAGatewayReply(untyped('toString'), expected)).toMatch(/status "toString" no gateway reply has/);
	});

	test('"processing" is not final; a redirect-to then means 3-D Secure, a redirect-url does not', () => {
		expect(isFinal(reply({ type: 'status-response', status: 'processing' }))).toBe(false);
		expect(needsThreeDSecure(reply({ status: 'processing', 'redirect-to': 'https://acs.test' }))).toBe(true);
		expect(needsThreeDSecure(reply({ status: 'processing', 'redirect-url': 'https://form.test' }))).toBe(false);
		expect(needsThreeDSecure(reply({ status: 'processing' }))).toBe(false);
	});
});
