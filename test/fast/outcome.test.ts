// Stage outcome/ alone: what a delivered reply says this request did to the money (moneyOutcome), and
// the normalised output (summarise), from fake replies.
import type { Delivered } from '../../nodes/CardGateway/actions/common/core/delivery';
import { moneyOutcome } from '../../nodes/CardGateway/actions/common/outcome/moneyOutcome';
import { summarise } from '../../nodes/CardGateway/actions/common/outcome/output';
import { parseGatewayReply } from '../../nodes/shared/protocol/reply';

const reply = (fields: Record<string, string>) =>
	parseGatewayReply(200, 'text/html', new URLSearchParams(fields).toString());
const delivered = (fields: Record<string, string>, more: Partial<Delivered> = {}): Delivered => ({
	reply: reply(fields),
	notes: {},
	direct: true,
	...more,
});
const SENT = { amount: '10.00', currency: 'USD' };

describe('moneyOutcome', () => {
	test('an approved sale charged the amount', () => {
		expect(
			moneyOutcome(
				'sale',
				delivered({ type: 'status-response', status: 'approved', amount: '10.00', currency: 'USD' }),
				SENT,
			),
		).toEqual({
			amountRequested: '10.00',
			amountCharged: '10.00',
			moneyEffect: 'moved',
			outcome: 'Charged 10.00 USD',
		});
	});

	test('a declined sale moved nothing', () => {
		const output = moneyOutcome('sale', delivered({ type: 'status-response', status: 'declined' }), SENT);
		expect(output).toMatchObject({
			moneyEffect: 'noMoneyMoved',
			outcome: 'Charge of 10.00 USD not done: the gateway answered declined',
		});
		expect(output).not.toHaveProperty('amountCharged');
	});

	test('status unknown: money MAY have moved', () => {
		expect(moneyOutcome('sale', delivered({ status: 'unknown' }), SENT).moneyEffect).toBe('mayHaveMoved');
	});

	test('an accepted request not final yet is pending, and names no amount moved', () => {
		const output = moneyOutcome('sale', delivered({ type: 'async-response' }), SENT);
		expect(output.moneyEffect).toBe('pending');
		expect(output).not.toHaveProperty('amountCharged');
	});

	test('3-D Secure: pending until the customer is done', () => {
		const output = moneyOutcome('sale', delivered({ status: 'processing', 'redirect-to': 'https://acs.test' }), SENT);
		expect(output).toMatchObject({ moneyEffect: 'pending', outcome: expect.stringMatching(/3-D Secure/) });
	});

	test('a capture confirmed only by a status of the order is not claimed as moved', () => {
		const status = {
			type: 'status-response',
			status: 'approved',
			'transaction-type': 'capture',
			amount: '10.00',
			currency: 'USD',
		};
		expect(moneyOutcome('capture', delivered(status, { direct: false }), SENT).moneyEffect).toBe('pending');
		// a status naming this request's own serial number confirms it
		const own = delivered({ ...status, 'by-request-sn': 'sn-9' }, { direct: false, serial: 'sn-9' });
		expect(moneyOutcome('capture', own, SENT)).toMatchObject({ moneyEffect: 'moved', amountCaptured: '10.00' });
		const other = delivered({ ...status, 'by-request-sn': 'sn-8' }, { direct: false, serial: 'sn-9' });
		expect(moneyOutcome('capture', other, SENT).moneyEffect).toBe('pending');
	});

	test('an operation that moves no money has no money outcome', () => {
		expect(moneyOutcome('status', delivered({ status: 'approved' }), {})).toEqual({});
	});
});

describe('summarise', () => {
	test('the reply in camelCase, with what the request did to money and how it was obtained', () => {
		const output = summarise(
			reply({
				type: 'status-response',
				status: 'approved',
				'paynet-order-id': '777',
				'merchant-order-id': 'inv-1',
				'serial-number': 'sn-1',
			}),
			{ clientOrderId: 'inv-1', generatedOrderId: true },
			{ recoveredFromLostReply: true },
			false,
			{ moneyEffect: 'moved' },
		);
		expect(output).toEqual({
			status: 'approved',
			type: 'status-response',
			orderid: '777',
			client_orderid: 'inv-1',
			serialNumber: 'sn-1',
			final: true,
			moneyEffect: 'moved',
			clientOrderIdGenerated: true,
			recoveredFromLostReply: true,
		});
	});

	test('an accepted asynchronous request is processing, and names the order ID sent', () => {
		const output = summarise(
			reply({ type: 'async-response', 'paynet-order-id': '777' }),
			{ clientOrderId: 'inv-2' },
			{},
			true,
		);
		expect(output).toMatchObject({ status: 'processing', final: false, client_orderid: 'inv-2' });
		expect(output.raw).toEqual({ type: 'async-response', 'paynet-order-id': '777' });
	});

	test('3-D Secure is flagged', () => {
		const output = summarise(reply({ status: 'processing', 'redirect-to': 'https://acs.test' }), {}, {}, false);
		expect(output).toMatchObject({ status: 'processing', threeDSecureRequired: true, final: false });
	});
});
