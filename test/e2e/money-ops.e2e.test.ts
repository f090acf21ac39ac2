// Issue 25 item 4 in a real n8n (our package installed as a community package) against the sandbox,
// which verifies every signature: Recurring Payment → Charge and Payout → Send by Reference (V4), both
// RSA-signed, and the PAN eligibility checks for the receiving card and for both cards (HMAC-SHA1). One
// webhook workflow (test/e2e/workflows/money-ops.json) runs them in turn on two stored cards and answers
// with every output; the sandbox's ledger says what moved.
import { join } from 'node:path';

import { readWorkflows, startE2eEnvironment, type E2eEnvironment } from '../support/e2e-environment';
import type { LedgerEntry, SandboxRequest } from '../support/harness';
import { scaled } from '../support/time-scale';

const { Client, CARD, CARD2 } = require('../support/sandbox-client');

const RUN = `mo-${Date.now().toString(36)}`;
const WORKFLOW_ID = 'e2eMoneyOps';

type Output = Record<string, string | boolean>;

let env: E2eEnvironment;

beforeAll(
	async () => {
		const workflows = readWorkflows(join(__dirname, 'workflows')).filter((w) => w.id === WORKFLOW_ID);
		expect(workflows).toHaveLength(1);
		env = await startE2eEnvironment({ port: 5775, workflows, publish: [WORKFLOW_ID] });
	},
	scaled(15 * 60_000),
);
afterAll(async () => {
	await env?.stop();
	await require('undici').getGlobalDispatcher().close();
}, scaled(60_000));
/** A stored card made by an independent client (not the node's code): an approved sale, then its card reference. */
async function storedCard(cardNumber: string, role: string): Promise<string> {
	const client = new Client(env.sandbox);
	const sale = await client.sale({ client_orderid: `${RUN}-${role}`, credit_card_number: cardNumber });
	expect(sale.status).toBe(200);
	const reference = await client.followUp('create-card-ref', sale.orderid, `${RUN}-${role}`);
	const id = String(reference.data?.['card-ref-id'] ?? '');
	expect(id).toMatch(/^\d+$/);
	return id;
}

async function ledger(clientOrderId: string): Promise<string[]> {
	const { entries } = await env.admin<{ entries: LedgerEntry[] }>(
		'GET',
		`ledger?client_orderid=${encodeURIComponent(clientOrderId)}`,
	);
	return entries.map((entry) => `${entry.amount} ${entry.currency}`);
}

test(
	'charge a subscription, pay out to a stored card, check both cards for transfers',
	async () => {
		const payerCardRefId = await storedCard(CARD, 'payer');
		const payeeCardRefId = await storedCard(CARD2, 'payee');
		const response = await env.n8n.webhook('e2e-money-ops', {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ prefix: RUN, payerCardRefId, payeeCardRefId }),
		});
		const text = await response.text();
		expect(response.status).toBe(200);
		for (const pan of [CARD, CARD2]) expect(text).not.toContain(pan);
		const out = JSON.parse(text) as Record<string, Output>;

		expect(out.charge).toMatchObject({
			client_orderid: `${RUN}-charge`,
			status: 'approved',
			moneyEffect: 'moved',
			amountCharged: '9.99',
		});
		expect(out.payout).toMatchObject({
			client_orderid: `${RUN}-payout`,
			status: 'approved',
			moneyEffect: 'moved',
			amountPaidOut: '5.00',
			paidTo: `stored card ${payeeCardRefId}`,
		});
		expect(out.eligibilityReceiving).toMatchObject({ client_orderid: `${RUN}-elig-recv` });
		expect(out.eligibilityBoth).toMatchObject({ client_orderid: `${RUN}-elig-both` });
		for (const check of [out.eligibilityReceiving, out.eligibilityBoth]) expect(check.moneyEffect).toBeUndefined();

		expect(await ledger(`${RUN}-charge`)).toEqual(['9.99 USD']);
		expect(await ledger(`${RUN}-payout`)).toEqual(['5.00 USD']);
		expect(await ledger(`${RUN}-elig-recv`)).toEqual([]);
		expect(await ledger(`${RUN}-elig-both`)).toEqual([]);

		// Each reached the sandbox on the path the docs give (the sandbox verified every signature).
		const { requests } = await env.admin<{ requests: SandboxRequest[] }>('GET', 'requests');
		expect(requests.map((request) => request.path)).toEqual(
			expect.arrayContaining([
				'/paynet/api/v4/process-recurring-payment/1001',
				'/paynet/api/v4/payout-by-ref/1001',
				'/paynet/api/v2/pan-eligibility/receive/1001',
				'/paynet/api/v2/pan-eligibility/both/1001',
			]),
		);
	},
	scaled(180_000),
);
