// Issue #13, campaign 8 (card numbers in every spelling, CVVs under every name): a small fixed-seed
// slice of `npm run reliability`. test/protocol/masking.test.ts holds the same property at 2,000 runs.
// Issue 34: Get Many masks by column, not every field of every row; the guarantee is the same: no card
// number survives in any column where card data can be, whatever the layout.
import fc from 'fast-check';

import { asciiDigits, mayHoldPan } from '../../nodes/shared/protocol/masking';
import { ReportColumns } from '../../nodes/shared/protocol/reportColumns';
import { ZonedTimeReader } from '../../nodes/shared/protocol/zonedTime';
import { maskingCampaign } from '../../reliability/masking';
import { maskReportItem } from '../../nodes/CardGateway/actions/transaction/getMany.operation';
import { MERCHANT, jsonOf, runNode, useSandbox } from '../support/harness';
import { expectEveryInvariantRanAndHeld } from '../support/slices';

const { Client } = require('../support/sandbox-client') as {
	Client: new (sb: { url: string }) => {
		sale(over: Record<string, string>): Promise<{ status: number; data: Record<string, string> | null }>;
	};
};

test('card numbers in every spelling: 300 fast-check cases (seed 7), none survives the masking', () => {
	const result = maskingCampaign({ seed: 7, runs: 300 });
	expect(result.cases).toBe(300);
	expectEveryInvariantRanAndHeld(result);
});

/** Luhn-valid test numbers of 12 to 19 digits, none a prefix of another's masked form. */
const PANS = [
	'4539578763621486',
	'5105105105105100',
	'378282246310005',
	'6011000990139424',
	'4012888888881881',
	'3530111333300000',
	'6304000000000000',
	'4222222222222',
	'6759649826438453',
	'4917484589897107',
	'5019717010103742',
	'4000056655665556',
	'2223003122003222',
	'36227206271667',
	'6200000000000005',
	'4571736000000075',
	'6703444444444449',
	'5200828282828210',
	'4000000760000002',
	'4000002500003155',
	'3056930009020004',
	'6011981111111113',
	'4242424242424242',
	'5555555555554444',
];

/** The ways a card number is written into a text: whole, grouped, glued to letters, in another script's digits. */
const SPELLINGS: Array<(pan: string) => string> = [
	(pan) => pan,
	(pan) => pan.replace(/(\d{4})(?=\d)/g, '$1 '),
	(pan) => `ref ${pan.replace(/(\d{4})(?=\d)/g, '$1-')} ok`,
	(pan) => `card:${pan.replace(/(\d{4})(?=\d)/g, '$1.')}`,
	(pan) => `x${pan}y`,
	(pan) => `no ${pan.replace(/(\d{4})(?=\d)/g, '$1 / ')}`,
	(pan) => `full ${[...pan].map((digit) => String.fromCodePoint(0xff10 + Number(digit))).join('')}`,
];

/** The planted numbers whose digits one output text still holds whole. */
function survivors(output: unknown, pans: readonly string[]): string[] {
	const found: string[] = [];
	const visit = (value: unknown) => {
		if (typeof value === 'string') {
			const digits = asciiDigits(value);
			found.push(...pans.filter((pan) => digits.includes(pan)));
		} else if (value && typeof value === 'object') Object.values(value).forEach(visit);
	};
	visit(output);
	return found;
}

describe('the cheap test before the digit-group scan (issue 34)', () => {
	it('answers as the digit-group scan reads a text: a run of 12+ digits, or any non-ASCII character (2,000 runs)', () => {
		// DIGIT_GROUPS of masking.ts, restated: digit groups joined by up to three separators
		const runs = /\p{Nd}+(?:[\s._/-]{1,3}\p{Nd}+)*/gu;
		const digit = fc.constantFrom(...'0123456789');
		const ascii = fc.oneof(
			digit,
			digit,
			fc.constantFrom(' ', '-', '.', '/', '_', '\t', '\n', 'a', 'Z', ':', ',', 'T', '+'),
		);
		const text = (character: fc.Arbitrary<string>) =>
			fc.array(character, { minLength: 8, maxLength: 40, size: 'max' }).map((chars) => chars.join(''));
		// mostly ASCII texts (the cheap test's own path); some with another script's digits or spaces
		const texts = fc.oneof(
			{ arbitrary: text(ascii), weight: 9 },
			{ arbitrary: text(fc.oneof(ascii, fc.constantFrom('٣', '７', '\u00a0'))), weight: 1 },
		);
		fc.assert(
			fc.property(texts, (value) => {
				const isAscii = ![...value].some((char) => char.charCodeAt(0) > 0x7f);
				const longRun = [...value.matchAll(runs)].some((run) => run[0].replace(/\D/g, '').length >= 12);
				expect(mayHoldPan(value)).toBe(value.length >= 12 && (!isAscii || longRun));
				if (isAscii) expect(asciiDigits(value)).toBe(value.replace(/[^0-9]/g, ''));
			}),
			{ numRuns: 2000, seed: 34 },
		);
	});

	it('reads ASCII digits as before, other scripts by their value', () => {
		expect(asciiDigits('4111 1111-1111.1111')).toBe('4111111111111111');
		expect(asciiDigits('ab')).toBe('');
		expect(asciiDigits('٤١١١ ７')).toBe('41117');
		expect(mayHoldPan('12345678901')).toBe(false);
		expect(mayHoldPan('1234 5678 9012')).toBe(true);
		expect(mayHoldPan('1234 - 5678 / 9012')).toBe(true);
		expect(mayHoldPan('1234    5678 9012')).toBe(false);
		expect(mayHoldPan('2026-03-01T21:00:00.000Z')).toBe(false);
		expect(mayHoldPan('order 1, item 2')).toBe(false);
		expect(mayHoldPan('٤١١١١١١١١١١١')).toBe(true);
	});
});

describe('Get Many: no card number survives in any column where card data can be (issue 34)', () => {
	const env = useSandbox();
	/** The columns of the gateway's own IDs (orderId, transactionId): kept whole, test/protocol/report-columns.test.ts. */
	const gatewayIds = new Set(['paynet-order-id', 'serial-number', 'Txid', 'Tx ID', 'Order ID']);

	it('a card number planted in any column but the gateway IDs, of every layout (named, typed, unnamed, unknown) is masked', () => {
		const layouts = [
			['paynet-order-id', 'merchant-order-id', 'serial-number', 'transaction-type', 'status', 'amount', 'currency'],
			['Txid', 'Created Date (Server TZ)', 'Merchant', 'Type', 'Status', 'Amount', 'Card No', 'Name', 'Email'],
			['Order ID', 'Invoice No', 'Tx ID', 'Tx Status', 'Tx Amount', 'Card Holder', 'Card Number', 'Description'],
		].map((header) => [...header, 'Customer Notes', 'Ref 2', 'Unheard Of Column']);
		const reader = new ZonedTimeReader('UTC');
		let planted = 0;
		for (const header of layouts) {
			const columns = new ReportColumns(header, reader);
			header.forEach((column, at) => {
				if (gatewayIds.has(column)) return;
				SPELLINGS.forEach((spell, k) => {
					const pan = PANS[(at + k) % PANS.length];
					const values = header.map((name): string => (gatewayIds.has(name) ? '77' : '10.00'));
					values[at] = spell(pan);
					const transaction = maskReportItem({ ...columns.read(values) }, []);
					expect({ column, value: values[at], survivors: survivors(transaction, [pan]) }).toEqual({
						column,
						value: values[at],
						survivors: [],
					});
					planted++;
				});
			});
		}
		expect(planted).toBeGreaterThan(150);
	});

	it('through the node: card numbers in every text a merchant sends (names, addresses, descriptions, its order ID) never reach the output, in any layout', async () => {
		const client = new Client(env.sb);
		const fields = [
			'client_orderid',
			'order_desc',
			'card_printed_name',
			'first_name',
			'last_name',
			'address1',
			'city',
			'state',
			'zip_code',
			'country',
			'phone',
			'email',
			'site_url',
		];
		const planted: string[] = [];
		for (const [k, spell] of SPELLINGS.entries()) {
			const over: Record<string, string> = {};
			fields.forEach((field, at) => {
				const pan = PANS[(at + k * fields.length) % PANS.length];
				planted.push(pan);
				over[field] = field === 'client_orderid' ? `${spell(pan)} #${k}` : spell(pan);
			});
			const sale = await client.sale(over);
			expect({ status: sale.status, type: sale.data?.type }).toEqual({ status: 200, type: 'async-response' });
		}
		const day = (offsetDays: number) =>
			new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 19).replace('T', ' ');
		for (const layout of ['sandbox', 'transactions', 'orders']) {
			await env.sb.admin('POST', `merchants/${MERCHANT.login}/report`, { layout, contentType: 'text/csv' });
			const run = await runNode(env.sb, {
				resource: 'transaction',
				operation: 'getMany',
				createdFrom: day(-2),
				createdTo: day(2),
				returnAll: true,
			});
			expect(run.error).toBeUndefined();
			const items = jsonOf(run);
			expect(items).toHaveLength(SPELLINGS.length);
			expect({ layout, survivors: survivors(items, planted) }).toEqual({ layout, survivors: [] });
			// the planted texts did reach the output (masked), named or under otherColumns
			expect(JSON.stringify(items)).toMatch(/\d{6}\*+\d{4}/);
			if (layout === 'transactions') expect(items.every((item) => item.otherColumns)).toBe(true);
		}
	});
});
