// Campaign 4 — callback load on the trigger in a real n8n: genuine callbacks (signed here with the
// merchant's control key, as the gateway signs them) sent through an undici Pool at a fixed
// concurrency. Every one must be acknowledged 200 and start exactly one execution.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';

import { Pool } from 'undici';

import { CONTROL_KEY, Tally, latencySummary, pool, sleep, type CampaignResult } from '../test/support/campaign';

import { WORKFLOWS, type ReliabilityN8n } from './n8n';

const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex');

function callbackQuery(seed: number, index: number): { query: string; clientOrderId: string } {
	const orderid = String(5_000_000 + index);
	const clientOrderId = `rel4-${seed}-${index}`;
	const status = index % 7 === 0 ? 'declined' : 'approved';
	const fields: Record<string, string> = {
		status,
		merchant_order: clientOrderId,
		client_orderid: clientOrderId,
		orderid,
		type: index % 5 === 0 ? 'reversal' : 'sale',
		amount: `${(index % 997) + 1}.${String(index % 100).padStart(2, '0')}`,
		currency: 'USD',
		descriptor: 'CARD GATEWAY SANDBOX',
		error_code: status === 'declined' ? '116' : '',
		error_message: status === 'declined' ? 'Insufficient funds' : '',
		'approval-code': status === 'approved' ? String(100000 + index) : '',
		'last-four-digits': '1111',
		bin: '444455',
		'card-type': 'VISA',
		'processor-tx-id': `PNTEST-${orderid}`,
		control: sha1(`${status}${orderid}${clientOrderId}${CONTROL_KEY}`),
	};
	return { query: new URLSearchParams(fields).toString(), clientOrderId };
}

export async function loadCampaign(
	n8n: ReliabilityN8n,
	{ seed, runs, concurrency }: { seed: number; runs: number; concurrency: number },
): Promise<CampaignResult> {
	const startedAll = Date.now();
	const tally = new Tally([
		'acknowledged 200',
		'executions == callbacks (none lost)',
		'no duplicate execution',
		'executions succeeded',
		'n8n stays healthy',
	]);
	const base = new URL(n8n.callbackUrl('load'));
	const before = (await n8n.count('load')).total;
	const dispatcher = new Pool(base.origin, { connections: concurrency, pipelining: 1 });
	const latencies: number[] = [];
	const sent = new Set<string>();
	const started = performance.now();
	try {
		await pool(concurrency, runs, async (index) => {
			const { query, clientOrderId } = callbackQuery(seed, index);
			sent.add(clientOrderId);
			const t0 = performance.now();
			let status = 0;
			let body = '';
			try {
				const response = await dispatcher.request({ method: 'GET', path: `${base.pathname}?${query}` });
				status = response.statusCode;
				body = await response.body.text();
			} catch (error) {
				body = (error as Error).message;
			}
			latencies.push(performance.now() - t0);
			tally.check(
				'acknowledged 200',
				status === 200 && body === 'OK',
				() => `${clientOrderId}: HTTP ${status} ${body.slice(0, 80)}`,
			);
		});
	} finally {
		await dispatcher.close();
	}
	const elapsedS = (performance.now() - started) / 1000;
	tally.check('n8n stays healthy', await n8n.healthy(), () => 'healthz failed after the load');

	// Wait for every execution to finish (n8n answers first, then runs the workflow).
	// Stops waiting when all are there, or when nothing changed for 30 s (lost ones never arrive).
	let counted = { total: 0, unfinished: 0 };
	let last = '';
	let lastChange = Date.now();
	const deadline = Date.now() + 10 * 60_000;
	do {
		counted = await n8n.count('load');
		if (counted.total - before >= runs && counted.unfinished === 0) break;
		if (JSON.stringify(counted) !== last) {
			last = JSON.stringify(counted);
			lastChange = Date.now();
		} else if (Date.now() - lastChange > 30_000) break;
		await sleep(1000);
	} while (Date.now() < deadline);
	const settledS = (Date.now() - startedAll) / 1000;
	await sleep(1500);
	const executions = (await n8n.executions('load')) as Array<{
		id: string;
		status: string;
		data: {
			resultData: {
				runData: Record<string, Array<{ data: { main: Array<Array<{ json: Record<string, unknown> }>> } }>>;
			};
		};
	}>;
	const seen = new Map<string, number>();
	for (const execution of executions) {
		const json = execution.data?.resultData?.runData?.['Card Gateway Trigger']?.[0]?.data?.main?.[0]?.[0]?.json;
		const id = String(json?.client_orderid ?? '');
		if (sent.has(id)) seen.set(id, (seen.get(id) ?? 0) + 1);
		tally.check(
			'executions succeeded',
			execution.status === 'success',
			() => `execution ${execution.id}: ${execution.status}`,
		);
	}
	for (const id of sent) {
		const count = seen.get(id) ?? 0;
		tally.check('executions == callbacks (none lost)', count >= 1, () => `${id}: no execution`);
		tally.check('no duplicate execution', count <= 1, () => `${id}: ${count} executions`);
	}
	const logFile = n8n.env.n8n.logFile as string;
	const lockTimeouts = existsSync(logFile)
		? (
				readFileSync(logFile, 'utf8').match(
					/LockAcquireTimeoutError: Timeout waiting for lock SqliteWriteConnectionMutex/g,
				) ?? []
			).length
		: 0;
	return {
		id: 'load',
		title: 'Callback load',
		seed,
		cases: runs,
		injected: `${runs} genuine GET callbacks (signed with the merchant control key, unique orderid/client_orderid, 1 in 7 declined, 1 in 5 reversals) at ${concurrency} concurrent through an undici Pool of ${concurrency} connections, to a published trigger (defaults, Confirm With Status Query Off) in workflow ${WORKFLOWS.load.id}`,
		invariants: tally.list(),
		figures: {
			'acknowledged rate': `${(runs / elapsedS).toFixed(0)} callbacks/s (${runs} in ${elapsedS.toFixed(1)} s)`,
			'answer latency p50 / p95 / p99 / max': latencySummary(latencies, 1),
			'all executions finished after': `${settledS.toFixed(1)} s`,
			'executions of the load workflow': executions.length - before,
			'n8n log: SQLite write-lock timeouts (LockAcquireTimeoutError) since n8n started': lockTimeouts,
		},
		wallMs: Date.now() - startedAll,
		outputs: [JSON.stringify(executions)],
	};
}
