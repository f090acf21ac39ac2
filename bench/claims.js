'use strict';
// What "Act Once per Key" costs per callback: the node's own claim code (dist/, claims.ts and
// claimStore.ts) against a real n8n's public API and Data Tables (SQLite), side by side with one
// plain request to the same API in the same run. Figures as ratios: these machines are noisy.
const USAGE = `Usage: node bench/claims.js [--quick]
  Starts the pinned n8n (SQLite), claims keys through its public API and prints per-claim times;
  writes bench/out/claims[.quick].json. Needs npm run build.`;
require('./cli').checkArgs(USAGE, { flags: ['--quick'] });

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { N8nInstance, ensureRuntime, REPO } = require('../e2e/n8n');
const { claimKey } = require(path.join(REPO, 'dist/nodes/CardGateway/actions/common/guard/claims'));

const QUICK = process.argv.includes('--quick');
const SEQUENTIAL = QUICK ? 30 : 200;
const RACES = QUICK ? 3 : 10;
const RACERS = 30;

/** The part of n8n's execute context the claim code uses, with n8n's credential authentication done by hand. */
function contextFor(baseUrl, apiKey) {
	return {
		getNode: () => ({ name: 'bench', type: 'n8n-nodes-card-gateway.cardGateway', typeVersion: 1, parameters: {} }),
		getExecutionId: () => 'bench',
		// The gateway credential's control key seals the claim rows (claimSeal.ts).
		getCredentials: async (type) =>
			type === 'cardGatewayApi' ? { controlKey: 'bench-control-key' } : { baseUrl, apiKey, tableName: 'bench_claims' },
		helpers: {
			async httpRequestWithAuthentication(_credential, request) {
				const url = new URL(request.url);
				for (const [name, value] of Object.entries(request.qs ?? {})) url.searchParams.set(name, String(value));
				const response = await fetch(url, {
					method: request.method,
					headers: { 'X-N8N-API-KEY': apiKey, 'content-type': 'application/json' },
					body: request.body === undefined ? undefined : JSON.stringify(request.body),
				});
				const text = await response.text();
				if (!response.ok) throw new Error(`HTTP ${response.status} ${text}`);
				return text ? JSON.parse(text) : undefined;
			},
		},
	};
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function timed(run) {
	const started = process.hrtime.bigint();
	await run();
	return Number(process.hrtime.bigint() - started) / 1e6;
}

async function main() {
	const runtime = await ensureRuntime();
	const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-claims-'));
	const n8n = new N8nInstance({ runtime, userFolder, port: 5796 });
	try {
		await n8n.start();
		const apiKey = await n8n.claimsApiKey();
		const ctx = contextFor(`${n8n.baseUrl}/api/v1`, apiKey);
		await claimKey(ctx, 0, 'warm-up');
		const plain = [];
		const claims = [];
		for (let index = 0; index < SEQUENTIAL; index++) {
			// Side by side: one plain API request, then one claim of a new key.
			plain.push(
				await timed(() =>
					ctx.helpers.httpRequestWithAuthentication('', {
						method: 'GET',
						url: `${n8n.baseUrl}/api/v1/data-tables`,
						qs: { limit: 1 },
					}),
				),
			);
			claims.push(
				await timed(async () => {
					const claim = await claimKey(ctx, 0, `sequential-${index}`);
					if (claim.kind === 'claimed') await claim.settle('moved');
				}),
			);
		}
		const races = [];
		for (let race = 0; race < RACES; race++) {
			let won = 0;
			const ms = await timed(() =>
				Promise.all(
					Array.from({ length: RACERS }, () =>
						claimKey(ctx, 0, `race-${race}`).then((claim) => claim.kind === 'claimed' && won++),
					),
				),
			);
			races.push({ ms, won });
		}
		const result = {
			quick: QUICK,
			sequentialClaims: SEQUENTIAL,
			plainRequestMedianMs: median(plain),
			claimAndSettleMedianMs: median(claims),
			claimToPlainRatio: median(claims) / median(plain),
			races: {
				racers: RACERS,
				runs: RACES,
				medianMs: median(races.map((r) => r.ms)),
				winners: races.map((r) => r.won),
			},
		};
		fs.mkdirSync(path.join(__dirname, 'out'), { recursive: true });
		fs.writeFileSync(
			path.join(__dirname, 'out', `claims${QUICK ? '.quick' : ''}.json`),
			JSON.stringify(result, null, 2),
		);
		process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
	} finally {
		await n8n.stop();
		fs.rmSync(userFolder, { recursive: true, force: true });
	}
}

main().catch((error) => {
	process.stderr.write(`${error.stack || error}\n`);
	process.exit(1);
});
