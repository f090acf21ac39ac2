// The report's columns bound by NAME (issue 30, item 7): the sandbox's kebab-case header, the platform's
// transactions and orders layouts exactly as gateway-facts §16 lists them (written out here, not taken
// from the sandbox), in any column order; each column masked by what it holds; row times read in a zone.
import fc from 'fast-check';

import type { ReportTransaction } from '../../nodes/shared/protocol/report';
import { NotAReportHeader, ReportColumns } from '../../nodes/shared/protocol/reportColumns';
import { checkedTimeZone, ZonedTimeReader } from '../../nodes/shared/protocol/zonedTime';
import { digitsOf, pan } from '../support/card-numbers';
import { wallParts } from '../support/wall-clock';

/** The transactions layout: both connectors' class map, then the fraud tool's extra columns (§16). */
const TRANSACTIONS_HEADER = [
	'Txid',
	'Created Date (Server TZ)',
	'Created Date (User TZ)',
	'Created Date (Server TZ, no time)',
	'Bank Date (Server TZ)',
	'Bank Date (User TZ)',
	'Merchant',
	'End-Point ID',
	'Project ID',
	'Project Name',
	'Currency',
	'Site URL',
	'Card type',
	'Ip',
	'Type',
	'Status',
	'Amount',
	'Processor tx ID',
	'Card No',
	'Name',
	'Email',
	'Phone',
	'Address',
	'Zip',
	'City',
	'State',
	'Country',
	'First Name',
	'Last Name',
	'Order Description',
	'Merchant OID',
	'Capture amount',
	'Approval Code',
	'View Receipt URL',
	'Bank name',
	'BIN country',
	'BIN country code',
	'Initial tx bank date (Server TZ)',
	'Initial tx Amount',
	'Creation time',
	'Customer IP address country',
	'Processor',
	'Error Description',
	'Is 3D',
];

/** The orders layout (GumballPay connector's class map, §16), `Tx Gate ID` twice as that map has it. */
const ORDERS_HEADER = [
	'Order Created',
	'Order Created (no time)',
	'Invoice No',
	'Order ID',
	'Rebill Tx',
	'Status Change Date',
	'Description',
	'Order Amount',
	'Currency',
	'Tx Gate ID',
	'Card Name',
	'Card Holder',
	'Card Number',
	'End-Point ID',
	'End-Point',
	'Error Message',
	'Tx ID',
	'Tx Status',
	'Tx Type',
	'Tx Amount',
	'Tx Gate ID',
	'Destination Card No',
	'BIN country',
];

const SANDBOX_HEADER = [
	'paynet-order-id',
	'merchant-order-id',
	'serial-number',
	'transaction-type',
	'status',
	'amount',
	'currency',
	'end-point-id',
	'created-date',
	'bank-date',
	'card-number',
	'card-type',
	'cardholder-name',
	'approval-code',
	'error-code',
	'error-message',
	'order-desc',
];

/** Completes digits with their Luhn check digit (here, not the node's). */
function luhn(body: string): string {
	let sum = 0;
	for (let i = 0; i < body.length; i++) {
		let digit = Number(body[body.length - 1 - i]);
		if (i % 2 === 0) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
		sum += digit;
	}
	return body + String((10 - (sum % 10)) % 10);
}

// Gateway-minted IDs that happen to pass the card check digit: they must come out whole.
const TXID = luhn('702345678901');
const RRN = luhn('41234567890');
const ORDER_ID = luhn('51234567890123');
const moscow = new ZonedTimeReader('Europe/Moscow');

function row(header: readonly string[], values: Record<string, string>, occurrence = 1): string[] {
	let seen = 0;
	return header.map((name) => (name in values && (name !== 'Tx Gate ID' || ++seen === occurrence) ? values[name] : ''));
}

const read = (header: readonly string[], values: string[], times = moscow) =>
	new ReportColumns(header, times).read(values);

describe('the transactions layout (§16)', () => {
	const values = {
		Txid: TXID,
		'Created Date (Server TZ)': '2024-07-01T00:02:19.00',
		'Created Date (User TZ)': '2024-06-30T21:02:19.00',
		'Bank Date (Server TZ)': '2024-07-01T00:02:21.50',
		Merchant: 'acme',
		'End-Point ID': '1001',
		Currency: 'usd',
		Type: 'Sale',
		Status: 'APPROVED',
		Amount: '10.00',
		'Processor tx ID': RRN,
		'Card No': '4444555566661111',
		Name: 'J. Doe 4444 5555 6666 1111',
		'Order Description': 'gift card 5555555555554444',
		'Merchant OID': 'inv-7',
		'Capture amount': '',
		'Approval Code': '123456',
		'Initial tx Amount': '',
		'Creation time': '2024-07-01T00:02:18.00',
	};
	const transaction = read(TRANSACTIONS_HEADER, row(TRANSACTIONS_HEADER, values));

	it('names the fields by column name: Txid, Merchant OID, Created/Bank Date (Server TZ), Card No', () => {
		expect(transaction).toMatchObject({
			transactionId: TXID,
			merchantOrderId: 'inv-7',
			type: 'sale',
			status: 'approved',
			amount: '10.00',
			currency: 'USD',
			endpointId: '1001',
			createdDate: '2024-07-01T00:02:19.00',
			bankDate: '2024-07-01T00:02:21.50',
			cardNumber: '444455******1111',
			reportLayout: 'transactions',
		});
		// This layout has no gateway order ID column.
		expect(transaction.orderId).toBeUndefined();
	});

	it('reads the server-zone times in the zone it is told, and says which', () => {
		expect(transaction).toMatchObject({
			timeZone: 'Europe/Moscow',
			createdAt: '2024-06-30T21:02:19.000Z',
			bankAt: '2024-06-30T21:02:21.500Z',
		});
		const utc = read(TRANSACTIONS_HEADER, row(TRANSACTIONS_HEADER, values), new ZonedTimeReader('UTC'));
		expect(utc).toMatchObject({ timeZone: 'UTC', createdAt: '2024-07-01T00:02:19.000Z' });
	});

	it('keeps the columns it does not name under their header; IDs the gateway minted stay whole', () => {
		expect(transaction.otherColumns).toEqual({
			'Created Date (User TZ)': '2024-06-30T21:02:19.00',
			Merchant: 'acme',
			'Processor tx ID': RRN,
			Name: 'J. Doe 444455******1111',
			'Order Description': 'gift card 555555******4444',
			'Approval Code': '123456',
			'Creation time': '2024-07-01T00:02:18.00',
		});
	});
});

describe('the orders layout (§16)', () => {
	const values = {
		'Order Created': '2026-03-01 23:59:59',
		'Invoice No': 'INV-7',
		'Order ID': ORDER_ID,
		'Status Change Date': '2026-03-02 00:00:01',
		Description: 'two tickets',
		'Order Amount': '25.00',
		Currency: 'EUR',
		'Tx Gate ID': '77',
		'Card Holder': 'Ann Lee',
		'Card Number': '5555555555554444',
		'End-Point ID': '1002',
		'End-Point': 'EUR shop',
		'Tx ID': TXID,
		'Tx Status': 'approved',
		'Tx Type': 'reversal',
		'Tx Amount': '5.00',
		'Destination Card No': '4444 5555 6666 1111',
	};
	const header = ORDERS_HEADER;
	const values2 = row(header, values);
	values2[header.lastIndexOf('Tx Gate ID')] = '78';
	const transaction = read(header, values2);

	it('Order ID is the gateway order, Invoice No the merchant order (assumed), Tx * the transaction; Order Created the order’s time', () => {
		expect(transaction).toMatchObject({
			orderId: ORDER_ID,
			merchantOrderId: 'INV-7',
			transactionId: TXID,
			type: 'reversal',
			status: 'approved',
			amount: '5.00',
			orderAmount: '25.00',
			currency: 'EUR',
			endpointId: '1002',
			orderCreatedDate: '2026-03-01 23:59:59',
			orderCreatedAt: '2026-03-01T20:59:59.000Z',
			cardNumber: '555555******4444',
			reportLayout: 'orders',
		});
		// The layout has no transaction creation time.
		expect(transaction.createdDate).toBeUndefined();
	});

	it('masks the destination card, keeps End-Point (the name) apart from End-Point ID and both Tx Gate IDs', () => {
		expect(transaction.otherColumns).toEqual({
			'Status Change Date': '2026-03-02 00:00:01',
			Description: 'two tickets',
			'Tx Gate ID': '77',
			'Tx Gate ID (2)': '78',
			'Card Holder': 'Ann Lee',
			'End-Point': 'EUR shop',
			'Destination Card No': '444455******1111',
		});
	});
});

describe('the sandbox layout', () => {
	it('reads its kebab-case header', () => {
		const values = ['900001', 'order-1', '42', 'capture', 'approved', '1.50', 'USD', '1001', '2026-11-01 10:00:00'];
		const transaction = read(SANDBOX_HEADER, [...values, ...new Array(SANDBOX_HEADER.length - values.length).fill('')]);
		expect(transaction).toMatchObject({
			orderId: '900001',
			merchantOrderId: 'order-1',
			transactionId: '42',
			type: 'capture',
			amount: '1.50',
			reportLayout: 'sandbox',
		});
	});
});

describe('any column order, any layout (property)', () => {
	const layouts = [
		[TRANSACTIONS_HEADER, 'Txid'],
		[ORDERS_HEADER, 'Tx ID'],
		[SANDBOX_HEADER, 'serial-number'],
	] as const;

	it('a shuffled header and row give the same transaction (600 runs)', () => {
		fc.assert(
			fc.property(
				fc.constantFrom(...layouts),
				fc.array(fc.string({ maxLength: 12 }), { minLength: 44, maxLength: 44 }),
				fc.integer(),
				([header, idColumn], cells, seed) => {
					const values = header.map((name, index) =>
						name === idColumn ? 'id-1' : name.startsWith('Tx Gate') ? `${index}` : cells[index],
					);
					const straight = read(header, values);
					const order = header
						.map((_, index) => index)
						.sort((a, b) => ((a * 7919 + seed) % 97) - ((b * 7919 + seed) % 97));
					const shuffled = read(
						order.map((index) => header[index]),
						order.map((index) => values[index]),
					);
					// Only a repeated header's "(2)" may follow the new order.
					const withoutRepeats = (transaction: ReportTransaction) => ({
						...transaction,
						otherColumns: Object.fromEntries(
							Object.entries(transaction.otherColumns ?? {}).filter(([name]) => !name.startsWith('Tx Gate ID')),
						),
					});
					expect(withoutRepeats(shuffled)).toEqual(withoutRepeats(straight));
				},
			),
			{ numRuns: 600, seed: 30 },
		);
	});
});

describe('masking by column', () => {
	const cardColumns = new Set(['Card No', 'Card Number', 'Destination Card No', 'card-number']);
	const minted = new Set(['Txid', 'Tx ID', 'Order ID', 'Processor tx ID', 'serial-number', 'paynet-order-id']);
	/** Columns anyone could have typed into (names, addresses, descriptions, the merchant's order ID). */
	const typed = new Set([
		...['Merchant', 'Project Name', 'Site URL', 'Name', 'Email', 'Phone', 'Address', 'Zip', 'City', 'State'],
		...['Country', 'First Name', 'Last Name', 'Order Description', 'Merchant OID', 'View Receipt URL', 'Bank name'],
		...['Error Description', 'Invoice No', 'Description', 'Card Holder', 'End-Point', 'Error Message'],
		...['merchant-order-id', 'cardholder-name', 'error-message', 'order-desc'],
	]);

	it('a card number in a card or typed column is masked (first 6 / last 4 at most), minted IDs stay whole (1,000 runs)', () => {
		fc.assert(
			fc.property(
				fc.constantFrom(TRANSACTIONS_HEADER, ORDERS_HEADER, SANDBOX_HEADER),
				fc.nat(),
				pan,
				(header, at, digits) => {
					const column = header[at % header.length];
					const values = header.map((name) =>
						name === 'Txid' || name === 'Tx ID' || name === 'serial-number' ? TXID : '',
					);
					values[at % header.length] = typed.has(column) ? `x ${digits} y` : digits;
					const output = JSON.stringify(read(header, values));
					if (minted.has(column)) expect(output).toContain(`"${digits}"`);
					if (typed.has(column) || cardColumns.has(column)) {
						expect(digitsOf(output)).not.toContain(digits);
						expect(output).toMatch(
							digits.length >= 16 ? new RegExp(`${digits.slice(0, 6)}\\*+${digits.slice(-4)}`) : /\*+\d{4}/,
						);
					}
				},
			),
			{ numRuns: 1000, seed: 7 },
		);
	});

	it('drops a column whose name says it holds a card verification code', () => {
		const header = [...SANDBOX_HEADER, 'CVV2'];
		const values = header.map((name) => (name === 'CVV2' ? '123' : name === 'serial-number' ? '1' : 'x'));
		expect(JSON.stringify(read(header, values))).not.toContain('CVV2');
	});
});

describe('a first line that is not a report header', () => {
	it.each([
		[['type=validation-error&error-message=Bad signature'], /amount, status, order ID/],
		[['id', 'amount', 'currency'], /status/],
		[['Txid', 'Status', 'Currency'], /amount/],
		[['Amount', 'Status', 'Currency'], /order ID/],
	])('%j is refused, saying what it lacks', (header, lack) => {
		expect(() => new ReportColumns(header, moscow)).toThrow(NotAReportHeader);
		expect(() => new ReportColumns(header, moscow)).toThrow(lack);
	});
});

describe('row times', () => {
	it('read wall times of a zone as UTC instants: DST gaps read later, repeated times earlier', () => {
		const berlin = new ZonedTimeReader('Europe/Berlin');
		const newYork = new ZonedTimeReader('America/New_York');
		expect(berlin.instant('2026-03-29 02:30:00')).toBe('2026-03-29T01:30:00.000Z');
		expect(berlin.instant('2026-10-25 02:30:00')).toBe('2026-10-25T00:30:00.000Z');
		expect(berlin.instant('2026-10-25 03:00:00')).toBe('2026-10-25T02:00:00.000Z');
		expect(newYork.instant('2026-11-01 01:30:00')).toBe('2026-11-01T05:30:00.000Z');
		expect(newYork.instant('2026-07-04T12:00')).toBe('2026-07-04T16:00:00.000Z');
		expect(moscow.instant('2026-01-01T00:00:00.25')).toBe('2025-12-31T21:00:00.250Z');
	});

	it('a time with its own offset is read at that offset; a text that is not a time has none', () => {
		expect(moscow.instant('2026-07-01 12:00:00Z')).toBe('2026-07-01T12:00:00.000Z');
		expect(moscow.instant('2026-07-01T12:00:00+05:30')).toBe('2026-07-01T06:30:00.000Z');
		for (const text of [
			'',
			'2026-02-30 00:00:00',
			'2026-13-01 00:00:00',
			'2026-11-01 24:00:00',
			'2026-11-01',
			'01.11.2026 10:00',
		]) {
			expect(moscow.instant(text)).toBeUndefined();
		}
	});

	it('agrees with Intl on 2,000 instants across zones (each instant formatted, then read back)', () => {
		const zones = [
			'Europe/Moscow',
			'Europe/London',
			'America/Sao_Paulo',
			'Australia/Lord_Howe',
			'Asia/Kathmandu',
			'UTC',
		];
		const readers = new Map(zones.map((zone) => [zone, new ZonedTimeReader(zone)]));
		fc.assert(
			fc.property(
				fc.constantFrom(...zones),
				fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2035, 0, 1) }),
				(zone, ms) => {
					const instant = Math.floor(ms / 1000) * 1000;
					const parts = wallParts(zone, instant);
					const two = (value: number) => String(value).padStart(2, '0');
					const wall = `${parts.year}-${two(parts.month)}-${two(parts.day)} ${two(parts.hour)}:${two(parts.minute)}:${two(parts.second)}`;
					const back = Date.parse(readers.get(zone)!.instant(wall)!);
					// The same wall time; a repeated one (clocks going back) reads as its earlier instant.
					expect(wallParts(zone, back)).toEqual(parts);
					expect(back === instant || (back < instant && instant - back <= 2 * 3600_000)).toBe(true);
				},
			),
			{ numRuns: 2000, seed: 3 },
		);
	});

	it('the zone option: an IANA name (canonicalised), anything else refused naming the field', () => {
		expect(checkedTimeZone('europe/moscow', 'Report Time Zone')).toBe('Europe/Moscow');
		expect(checkedTimeZone(' UTC ', 'Report Time Zone')).toBe('UTC');
		for (const bad of ['', 'MSK+3', 'Mars/Olympus', 42]) {
			expect(() => checkedTimeZone(bad, 'Report Time Zone')).toThrow(/Report Time Zone/);
		}
	});
});
