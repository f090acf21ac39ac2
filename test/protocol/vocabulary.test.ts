// The gateway's reply and callback vocabulary (nodes/shared/protocol/vocabulary.ts): every spelling
// of every field is read, a field spelled twice with different values is reported, and the record of
// each kind of gateway answer (legacy form reply, JSON reply, the v4 untyped status reply, a callback).
import { summarise } from '../../nodes/CardGateway/actions/common/outcome/output';
import { claimOf, interpretStatusOutcome } from '../../nodes/CardGatewayTrigger/confirm';
import { conflictingSpellings, FIELD_SPELLINGS } from '../../nodes/CardGatewayTrigger/normalise';
import { MONEY_ACTIONS } from '../../nodes/shared/protocol/money';
import {
	GATEWAY_ORDER_ID_SPELLINGS,
	MERCHANT_ORDER_ID_SPELLINGS,
	parseGatewayReply,
	replyRecord,
} from '../../nodes/shared/protocol/reply';
import {
	FIELD_NAMES,
	FOLLOW_UP_TRANSACTION_TYPES,
	VOCABULARY,
	conflictOn,
	isFollowUpTransactionType,
	readCallback,
	readFields,
	readReply,
	spellingsOf,
	valuesOf,
	type FieldName,
	type FieldSource,
} from '../../nodes/shared/protocol/vocabulary';
import type { GatewayOutcome } from '../../nodes/shared/transport';

const SOURCES: FieldSource[] = ['reply', 'callback'];
const every = (source: FieldSource) =>
	FIELD_NAMES.flatMap((field) =>
		spellingsOf(field, source).map((spelling) => [field, spelling] as [FieldName, string]),
	);

describe('every spelling is read', () => {
	it.each(every('reply'))('a reply: %s ← %s', (field, spelling) => {
		const record = readReply({ [spelling]: 'value-1' });
		expect(record[field]).toBe('value-1');
		expect(record.conflicts).toEqual([]);
	});

	it.each(every('callback'))('a callback: %s ← %s', (field, spelling) => {
		const record = readCallback({ [spelling]: 'value-1' });
		expect(record[field]).toBe('value-1');
		expect(record.conflicts).toEqual([]);
	});

	it('declares each spelling once: no spelling names two fields in the same source', () => {
		for (const source of SOURCES) {
			const spellings = every(source).map(([, spelling]) => spelling);
			expect(new Set(spellings).size).toBe(spellings.length);
		}
	});

	it("a callback reads every spelling a reply reads, but the reply's own type", () => {
		for (const field of FIELD_NAMES) {
			const callback = spellingsOf(field, 'callback');
			if (field === 'replyType') expect(callback).toEqual([]);
			else expect(callback).toEqual(expect.arrayContaining([...VOCABULARY[field].spellings]));
		}
	});

	it("in a reply `type` is the reply's type; in a callback it is the transaction type", () => {
		expect(readReply({ type: 'status-response', 'transaction-type': 'sale' })).toMatchObject({
			replyType: 'status-response',
			transactionType: 'sale',
			conflicts: [],
		});
		expect(readReply({ type: 'status-response' }).transactionType).toBeUndefined();
		expect(readCallback({ type: 'sale' })).toMatchObject({ transactionType: 'sale' });
		expect(readCallback({ type: 'sale' }).replyType).toBeUndefined();
	});

	it("the order ID lists of reply.ts are the vocabulary's", () => {
		expect(MERCHANT_ORDER_ID_SPELLINGS).toEqual(spellingsOf('clientOrderId', 'reply'));
		expect(GATEWAY_ORDER_ID_SPELLINGS).toEqual(spellingsOf('orderId', 'reply'));
	});

	it('reads own properties only and never throws', () => {
		const hostile = JSON.parse('{"__proto__": {"status": "approved"}, "constructor": "x"}') as Record<string, string>;
		expect(readReply(hostile).status).toBeUndefined();
		expect(readReply({}).conflicts).toEqual([]);
		expect(readCallback(Object.create({ status: 'approved' }) as Record<string, string>).status).toBeUndefined();
	});
});

describe('empty values', () => {
	it('in a reply an empty spelling says nothing: the first non-empty one wins, "" only when every one is empty', () => {
		expect(readReply({ 'paynet-order-id': '', orderid: '42' }).orderId).toBe('42');
		expect(readReply({ 'error-message': '', error_message: '' }).errorMessage).toBe('');
		expect(readReply({ status: 'approved' }).amount).toBeUndefined();
	});

	it('in a callback the first spelling present is read as sent, empty or not', () => {
		expect(readCallback({ error_code: '', error_message: '' })).toMatchObject({ errorCode: '', errorMessage: '' });
		expect(readCallback({ orderid: '', 'paynet-order-id': '42' }).orderId).toBe('');
	});
});

describe('a field spelled twice with different values is reported', () => {
	it('in a callback: type against transaction-type (the forged respelling of issue #13)', () => {
		const record = readCallback({ type: 'sale', 'transaction-type': 'reversal', transaction_type: 'sale' });
		expect(record.transactionType).toBe('sale');
		expect(record.conflicts).toEqual([
			{
				field: 'transactionType',
				spellings: ['type', 'transaction-type', 'transaction_type'],
				values: ['sale', 'reversal'],
			},
		]);
		expect(conflictOn(record, 'transactionType')).toBeDefined();
		expect(valuesOf(record, 'transactionType')).toEqual(['sale', 'reversal']);
	});

	it('in a reply: two order IDs, and an empty spelling beside a filled one', () => {
		const record = readReply({
			'paynet-order-id': '42',
			orderid: '43',
			'error-message': '',
			error_message: 'Declined',
		});
		expect(record.orderId).toBe('42');
		expect(record.errorMessage).toBe('Declined');
		expect(record.conflicts.map((conflict) => conflict.field)).toEqual(['orderId', 'errorMessage']);
		expect(valuesOf(record, 'orderId')).toEqual(['42', '43']);
		expect(valuesOf(record, 'errorMessage')).toEqual(['Declined']);
	});

	it('equal spellings are no conflict', () => {
		const record = readCallback({ client_orderid: 'm-1', merchant_order: 'm-1', 'error-code': '5', error_code: '5' });
		expect(record).toMatchObject({ clientOrderId: 'm-1', errorCode: '5', conflicts: [] });
		expect(valuesOf(record, 'clientOrderId')).toEqual(['m-1']);
	});

	it('the record is frozen: what the gateway said is not edited afterwards', () => {
		const record = readFields({ status: 'approved' }, 'reply');
		expect(Object.isFrozen(record)).toBe(true);
		expect(Object.isFrozen(record.conflicts)).toBe(true);
	});
});

describe('the record of each kind of gateway answer', () => {
	it('a legacy form reply (sale status, urlencoded)', () => {
		const body = [
			'type=status-response',
			'serial-number=00000000-0000-0000-0000-000002a1a2a3',
			'merchant-order-id=905',
			'paynet-order-id=314201',
			'status=approved',
			'amount=10.50',
			'currency=USD',
			'transaction-type=sale',
			'order-stage=sale_approved',
			'approval-code=A1B2',
			'card-type=VISA',
			'bin=444455',
			'last-four-digits=1111',
			'cardholder-name=JOHN+SMITH',
			'card-exp-month=12',
			'card-exp-year=2030',
			'descriptor=SHOP+%2F+3ds',
			'processor-tx-id=PNTEST-314201',
			'end-point-id=1001',
			'by-request-sn=00000000-0000-0000-0000-000002a1a2a0',
		].join('\n&');
		const reply = parseGatewayReply(200, 'text/html;charset=utf-8', `${body}\n`);
		expect(reply.format).toBe('legacy');
		expect(reply.fields['transaction-type']).toBe('sale');
		expect(reply.record).toEqual({
			replyType: 'status-response',
			serialNumber: '00000000-0000-0000-0000-000002a1a2a3',
			clientOrderId: '905',
			orderId: '314201',
			status: 'approved',
			amount: '10.50',
			currency: 'USD',
			transactionType: 'sale',
			orderStage: 'sale_approved',
			approvalCode: 'A1B2',
			cardType: 'VISA',
			bin: '444455',
			lastFourDigits: '1111',
			cardHolderName: 'JOHN SMITH',
			expireMonth: '12',
			expireYear: '2030',
			descriptor: 'SHOP / 3ds',
			processorTxId: 'PNTEST-314201',
			endpointId: '1001',
			requestSerialNumber: '00000000-0000-0000-0000-000002a1a2a0',
			conflicts: [],
		});
	});

	it('a JSON reply (a 3-D Secure sale, then a validation error)', () => {
		const sale = parseGatewayReply(
			200,
			'application/vnd.pay+json',
			JSON.stringify({
				type: 'async-response',
				'serial-number': 's-1',
				'merchant-order-id': 'c-1',
				'paynet-order-id': 42,
				status: 'processing',
				'redirect-to': 'https://acs.example/3ds',
				html: '<form></form>',
				'card-ref-id': 'ref-9',
			}),
		);
		expect(sale.format).toBe('json');
		expect(sale.record).toMatchObject({
			replyType: 'async-response',
			serialNumber: 's-1',
			clientOrderId: 'c-1',
			orderId: '42',
			status: 'processing',
			redirectUrl: 'https://acs.example/3ds',
			html: '<form></form>',
			cardRefId: 'ref-9',
			conflicts: [],
		});
		const refused = parseGatewayReply(
			400,
			'application/vnd.pay+json',
			'{"type":"validation-error","error-message":"Bad amount","error-code":1}',
		);
		expect(refused.record).toEqual({
			replyType: 'validation-error',
			errorMessage: 'Bad amount',
			errorCode: '1',
			conflicts: [],
		});
	});

	it("the v4 untyped status reply (the vendor emulator's shape: no type, no serial-number)", () => {
		const reply = parseGatewayReply(
			200,
			'application/vnd.pay+json; charset=utf-8',
			JSON.stringify({
				'paynet-order-id': '4823190',
				'merchant-order-id': 'hf-order-1',
				status: 'approved',
				amount: '12.34',
				currency: 'USD',
				'card-type': 'VISA',
				'last-four-digits': '4448',
				'cardholder-name': 'JANE ROE',
				'approval-code': '831000',
				'processor-rrn': 'rrn-4823190',
				bank_message: 'Approved',
			}),
		);
		expect(reply.record).toEqual({
			orderId: '4823190',
			clientOrderId: 'hf-order-1',
			status: 'approved',
			amount: '12.34',
			currency: 'USD',
			cardType: 'VISA',
			lastFourDigits: '4448',
			cardHolderName: 'JANE ROE',
			approvalCode: '831000',
			processorRrn: 'rrn-4823190',
			bankMessage: 'Approved',
			conflicts: [],
		});
		expect(reply.record?.replyType).toBeUndefined();
		expect(reply.record?.transactionType).toBeUndefined();
	});

	it("a callback (the sandbox's sale callback, GET parameters)", () => {
		const fields = {
			status: 'approved',
			type: 'sale',
			orderid: '314201',
			merchant_order: '905',
			client_orderid: '905',
			amount: '10.50',
			currency: 'USD',
			bin: '444455',
			'last-four-digits': '1111',
			'card-type': 'VISA',
			'approval-code': 'A1B2',
			descriptor: 'GARAN24 - 3ds',
			'processor-tx-id': 'PNTEST-314201',
			error_code: '',
			error_message: '',
			control: 'c0ffee',
		};
		expect(readCallback(fields)).toEqual({
			status: 'approved',
			transactionType: 'sale',
			orderId: '314201',
			clientOrderId: '905',
			amount: '10.50',
			currency: 'USD',
			bin: '444455',
			lastFourDigits: '1111',
			cardType: 'VISA',
			approvalCode: 'A1B2',
			descriptor: 'GARAN24 - 3ds',
			processorTxId: 'PNTEST-314201',
			errorCode: '',
			errorMessage: '',
			conflicts: [],
		});
	});

	it('a reply built without parseGatewayReply is read on demand', () => {
		expect(
			replyRecord({ httpStatus: 200, format: 'json', fields: { status: 'declined', error_message: 'No funds' } }),
		).toMatchObject({
			status: 'declined',
			errorMessage: 'No funds',
		});
	});
});

describe('follow-up transaction types', () => {
	it('are the own types of the follow-up money actions that no initial action has, and the chargeback', () => {
		expect([...FOLLOW_UP_TRANSACTION_TYPES].sort()).toEqual([
			'cancel',
			'capture',
			'chargeback',
			'refund',
			'return',
			'reversal',
			'void',
		]);
		for (const type of [
			...MONEY_ACTIONS.capture.ownTypes,
			...MONEY_ACTIONS.return.ownTypes,
			...MONEY_ACTIONS.void.ownTypes,
		]) {
			expect(isFollowUpTransactionType(type)).toBe(true);
		}
	});

	it('compare without case or separators; initial types are not follow-ups', () => {
		expect(isFollowUpTransactionType('Reversal')).toBe(true);
		expect(isFollowUpTransactionType('CHARGE-BACK')).toBe(true);
		for (const type of ['sale', 'preauth', 'payout', 'transfer', '', undefined])
			expect(isFollowUpTransactionType(type)).toBe(false);
	});
});

describe('the readers read the record', () => {
	it("the node's output keys come from the record", () => {
		const reply = parseGatewayReply(
			200,
			'text/html',
			'type=status-response\n&serial-number=s-1\n&merchant-order-id=c-1\n&paynet-order-id=42\n&status=approved\n&transaction_type=sale\n&approval_code=A1\n',
		);
		expect(summarise(reply, {}, {}, false)).toMatchObject({
			type: 'status-response',
			serialNumber: 's-1',
			client_orderid: 'c-1',
			orderid: '42',
			status: 'approved',
			transactionType: 'sale',
			approvalCode: 'A1',
		});
	});

	it('the trigger refuses a callback whose spellings disagree, naming them', () => {
		expect(conflictingSpellings({ type: 'sale', transaction_type: 'reversal' })).toBe(
			'the parameters type / transaction-type / transaction_type disagree',
		);
		expect(conflictingSpellings({ error_code: '', 'error-code': '5' })).toBe(
			'the parameters error_code / error-code disagree',
		);
		// The order IDs are checked against the signed values instead (verify.ts reads FIELD_SPELLINGS).
		expect(conflictingSpellings({ orderid: '1', 'paynet-order-id': '2' })).toBeUndefined();
		expect(FIELD_SPELLINGS.orderid).toEqual(spellingsOf('orderId', 'callback'));
		expect(FIELD_SPELLINGS.client_orderid).toEqual(spellingsOf('clientOrderId', 'callback'));
	});

	it('a status reply that gives a compared field twice confirms nothing', () => {
		const claim = claimOf({
			status: 'approved',
			type: 'sale',
			amount: '10.50',
			currency: 'USD',
			orderid: '100001',
			client_orderid: 'c-1',
		});
		const fields = {
			type: 'status-response',
			status: 'approved',
			amount: '10.50',
			currency: 'USD',
			'paynet-order-id': '100001',
			'merchant-order-id': 'c-1',
			'transaction-type': 'sale',
		};
		const reply = (extra: Record<string, string>): GatewayOutcome => ({
			kind: 'reply',
			reply: parseGatewayReply(200, 'application/json', JSON.stringify({ ...fields, ...extra })),
		});
		expect(interpretStatusOutcome(reply({}), claim)).toMatchObject({ confirmed: true });
		expect(interpretStatusOutcome(reply({ client_orderid: 'c-1' }), claim)).toMatchObject({ confirmed: true });
		expect(interpretStatusOutcome(reply({ client_orderid: 'c-2' }), claim)).toMatchObject({
			confirmed: false,
			confirmation: { mismatches: ['client_orderid: the status reply gives it twice, as "c-1" and "c-2"'] },
		});
		expect(interpretStatusOutcome(reply({ transaction_type: 'reversal' }), claim)).toMatchObject({ confirmed: false });
	});
});
