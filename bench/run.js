'use strict';
// `npm run bench`: runs every benchmark in its own process, one after the other (they would steal
// each other's CPU), then writes bench/RESULTS.md from bench/out/*.json.
//
//   node bench/run.js [--quick] [--report-only] [--skip=signing,inprocess,real-n8n,queue]
require('./cli').checkArgs(
	`Usage: npm run bench [-- <flags>]          (or: node bench/run.js [flags])

Runs every benchmark in its own process, one after the other (signing, inprocess, real-n8n,
queue), then writes bench/RESULTS.md from bench/out/*.json. The full run takes over an hour
(last full run: signing under a minute, in-process about 25 minutes, real n8n about 45; queue
mode several minutes). Needs the built package (npm run build); real-n8n and queue install the
pinned n8n runtime on first use, queue also PostgreSQL and Redis (apt-get when missing).

Flags:
  --quick           smaller runs of every part (fewer runs and items), a smoke test: writes
                    bench/out/*.quick.json and bench/RESULTS.quick.md, never RESULTS.md
  --report-only     run nothing: rewrite bench/RESULTS.md (with --quick: RESULTS.quick.md)
                    from what bench/out/ holds
  --skip=<parts>    comma-separated parts not to run: signing, inprocess, real-n8n, queue
                    (their last saved results still go into the report)
  -h, --help        this text

Each part runs alone too: node bench/<part>.js --help. bench/README.md lists every script.`,
	{
		flags: ['--quick', '--report-only', '--skip='],
		choices: { '--skip=': ['signing', 'inprocess', 'real-n8n', 'queue'] },
	},
);
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { machine, fmt, pct, range, typedIdsSection, moneySection } = require('./common');
const { queueSection } = require('./queue-report');

const QUICK = process.argv.includes('--quick');
const REPORT_ONLY = process.argv.includes('--report-only');
const SKIP = (process.argv.find((a) => a.startsWith('--skip=')) || '--skip=').slice(7).split(',');
const OUT = path.join(__dirname, 'out');
const suffix = QUICK ? '.quick' : '';

function runPart(name) {
	const r = spawnSync(process.execPath, [path.join(__dirname, `${name}.js`), ...(QUICK ? ['--quick'] : [])], {
		stdio: 'inherit',
	});
	if (r.status !== 0) throw new Error(`${name} failed (${r.status ?? r.signal})`);
}

const read = (name) => {
	const file = path.join(OUT, `${name}${suffix}.json`);
	return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined;
};
const mark = (ok) => (ok ? '✅' : '❌');

function triggerTable(t) {
	const L = ['| route | callbacks/s | p50 ms | p99 ms |', '|---|---:|---:|---:|'];
	L.push(`| Card Gateway Trigger | ${range(t.ours)} | ${range(t.oursP50, 1)} | ${range(t.oursP99, 1)} |`);
	L.push(`| Webhook node | ${range(t.stock)} | ${range(t.stockP50, 1)} | ${range(t.stockP99, 1)} |`);
	if (t.stockAuth)
		L.push(
			`| Webhook node, Header Auth | ${range(t.stockAuth)} | ${range(t.stockAuthP50, 1)} | ${range(t.stockAuthP99, 1)} |`,
		);
	if (t.stockJwt)
		L.push(
			`| Webhook node, JWT Auth | ${range(t.stockJwt)} | ${range(t.stockJwtP50, 1)} | ${range(t.stockJwtP99, 1)} |`,
		);
	L.push(`| ratio ours ÷ stock | ${range(t.ratio, 2)} | | |`);
	if (t.ratioVsAuth) L.push(`| ratio ours ÷ stock with Header Auth | ${range(t.ratioVsAuth, 2)} | | |`);
	if (t.ratioVsJwt?.runs) L.push(`| ratio ours ÷ stock with JWT Auth | ${range(t.ratioVsJwt, 2)} | | |`);
	return [...L, ''];
}

/** The trigger target: ≥ 1.0 × the JWT Auth Webhook node, at an equal or better p99. */
function jwtTarget(t, setting) {
	const p99 = t.oursP99.median <= t.stockJwtP99.median;
	return `| trigger ≥ 1.0 × stock Webhook with JWT Auth at equal or better p99, ${setting} (p99 ${fmt(t.oursP99.median)} vs ${fmt(t.stockJwtP99.median)} ms) | ${fmt(t.ratioVsJwt.median, 2)} | ${mark(t.ratioVsJwt.median >= 1 && p99)} |`;
}

/** A section of the report as it stands now (up to the next section), or nothing. */
function previousSection(heading) {
	const file = path.join(__dirname, QUICK ? 'RESULTS.quick.md' : 'RESULTS.md');
	const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
	const start = text.indexOf(heading);
	if (start < 0) return [];
	const end = text.indexOf('\n## ', start + heading.length);
	return text.slice(start, end < 0 ? undefined : end + 1).split('\n');
}

function report() {
	const m = machine();
	const signing = read('signing');
	const inproc = read('inprocess');
	const real = read('real-n8n');
	const L = [];
	L.push('# Benchmarks', '');
	L.push(
		`Written by \`npm run bench\` (\`node bench/run.js\`${QUICK ? ' --quick' : ''}); re-run it to refresh this file. Benchmarks are not tests: nothing in \`npm test\` depends on a timing.`,
		'',
	);
	L.push(`- Report written: ${m.date.slice(0, 16).replace('T', ' ')} UTC`);
	L.push(`- Machine: ${m.cpu}, ${m.cores} cores, ${m.memGiB} GiB, ${m.os}`);
	L.push(
		`- Bench driver: Node ${m.node}, OpenSSL ${m.openssl}, node-forge ${m.forge}, undici ${m.undici}, n8n-core ${m.n8nCore} (in-process)`,
	);
	if (real)
		L.push(
			`- Real n8n: ${real.n8nVersion} on Node ${real.runtimeNode} (pinned runtime), SQLite, regular mode, task runner internal; successful executions not saved (\`EXECUTIONS_DATA_SAVE_ON_SUCCESS=none\`)`,
		);
	L.push(
		"- Sandbox gateway in a process of its own (`bench/sandbox-process.js`, `verifier: 'node'`), added latency as stated; driver, n8n and sandbox share the cores.",
	);
	L.push(
		`- Every figure: median of ${real?.runs ?? inproc?.runs ?? '?'} runs (min–max); ratios are taken run by run between routes measured back to back, then the median.`,
	);
	const when = (iso) => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : 'unknown');
	const parts = [];
	if (signing) parts.push(`signing ${when(signing.writtenAt)}, ${fmt(signing.wallSecs)} s`);
	if (inproc) parts.push(`in-process ${when(inproc.writtenAt)}, ${fmt(inproc.wallSecs)} s`);
	for (const [name, part] of Object.entries(real?.parts ?? {}))
		parts.push(`real n8n ${name} ${when(part.finishedAt)}${part.secs ? `, ${fmt(part.secs)} s` : ''}`);
	L.push(`- When each part ran (each can be re-run alone): ${parts.join('; ')}`);
	L.push('');

	if (real?.bulk) {
		const rows = real.bulk;
		L.push('## 1–2. Bulk through a real n8n: our node vs Code + HTTP Request', '');
		L.push(
			'Webhook (POST, answers with the last node) → Split Out → route → Summarize (counts the reply types; every item is checked).',
		);
		L.push(
			'**Ours**: Card Gateway node, Options → Concurrency = c. **HTTP batched**: Code node computes `control` (`NODE_FUNCTION_ALLOW_BUILTIN=crypto`), HTTP Request node with Batching = c items every *latency* ms (the HTTP Request node has no concurrency limit: batching fires a batch, sleeps the interval and fires the next without waiting for replies, so this is its rate-equivalent of c in flight). **HTTP default**: the same without batching (every item fired at once).',
		);
		L.push(
			`**Bound** = min(c ÷ latency, what the sandbox alone sustains at that latency and c, measured with a bare client opening a new connection per request, as n8n's request helper does). n8n itself sustains ~${fmt(real.capacity)} items/s for this job on this machine (our node, no latency, c=16): cells above that are CPU-bound in n8n. Items per cell: enough for ≥ 6 s at the lower of bound and that capacity, at least 300, at most 10,000 (scaled down from 10,000: at n8n's ~150 items/s a 10,000-item cell takes over a minute per route and run).`,
		);
		const clamped = real.bulk.find((r) => r.effectiveC !== r.c);
		if (clamped)
			L.push(
				`**The node clamps Concurrency to ${clamped.effectiveC}**: c=${clamped.c} runs at ${clamped.effectiveC} (its bound column still says ${clamped.c} ÷ latency).`,
			);
		L.push('');
		L.push(
			'**Peak in flight** = the most requests of the route the sandbox held at once (received, not yet answered), highest of the runs: what the route really put in flight at the gateway.',
			'',
		);
		L.push(
			'| operation | latency | c | items | bound /s | ours items/s | % of bound | HTTP batched /s | ours ÷ batched | HTTP default /s | ours ÷ default | peak in flight: ours / batched / default |',
		);
		L.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
		const failed = (r, route) => {
			const n = (r.failures ?? []).filter((f) => f.route === route).length;
			return n ? ` ⚠ ${n} of ${real.runs} runs failed` : '';
		};
		for (const r of rows) {
			L.push(
				`| ${r.op} | ${r.latency} ms | ${r.c}${r.effectiveC !== r.c ? ` (→${r.effectiveC})` : ''} | ${fmt(r.items)} | ${fmt(r.bound)} | ${range(r.ours, 1)}${failed(r, 'ours')} | ${pct(r.ofBound)} | ${range(r.httpBatched, 1)}${failed(r, 'httpBatched')} | ${fmt(r.vsBatched.median, 2)} | ${range(r.httpDefault, 1)}${failed(r, 'httpDefault')} | ${fmt(r.vsDefault.median, 2)} | ${r.peakInFlight ? `${r.peakInFlight.ours.max} / ${r.peakInFlight.httpBatched.max} / ${r.peakInFlight.httpDefault.max}` : 'n/a'} |`,
			);
		}
		const messages = [
			...new Set(rows.flatMap((r) => (r.failures ?? []).map((f) => f.message.replace(/\s+/g, ' ').slice(0, 160)))),
		];
		if (messages.length)
			L.push('', `Failed runs (not counted in the medians): ${messages.map((x) => `\`${x}\``).join('; ')}`);
		L.push('');
	}
	if (inproc) {
		L.push('## 3. The same bulk job in process (n8n-core WorkflowExecute, no server)', '');
		L.push(
			`n8n-core ${inproc.n8nCore} engine + the real credential class + our built node, Start → Card Gateway; the sandbox in a process of its own (as a gateway is). Items: enough for ≥ 6 s per cell. **Bound** = min(c ÷ latency, what a bare client sustains against the same sandbox at that latency and c with a new connection per request, as n8n's request helper makes). **Helper alone** = n8n-core's request helper (\`httpRequest\`, which \`httpRequestWithAuthentication\` ends in) sending the same signed requests with the same c, right after each run of ours: no engine, no node, no credential. It is what any node that must send through the helper can reach; the ratio is taken run by run. Compare with the table above to see n8n's own overhead (webhook, Split Out, expression isolate, database, credential decryption per call).`,
			'',
		);
		L.push(
			"**CPU ms/item** = CPU time of the driver process (engine, node, request helper; the sandbox runs apart) over the items, ours and the helper alone. **Without expressions** = the same status queries with the order IDs typed in as constants instead of `{{ $json.cid }}` / `{{ $json.oid }}` (every item asks about one order; a refund may not repeat an order, so that column is empty for it), ÷ the helper of the same run: the node's work without n8n's evaluation of two expressions per item.",
			'',
		);
		L.push(
			'| operation | latency | c | items | bound /s | items/s | % of bound | helper alone /s | ours ÷ helper | % of c ÷ latency | CPU ms/item: ours / helper | without expressions ÷ helper |',
		);
		L.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
		for (const r of inproc.rows) {
			const helper = r.helper ? `${range(r.helper, 1)} | ${fmt(r.vsHelper.median, 2)}` : '— | —';
			const cpu = `${fmt(r.cpuMsPerItem.median, 2)} / ${r.helperCpuMsPerItem ? fmt(r.helperCpuMsPerItem.median, 2) : '—'}`;
			L.push(
				`| ${r.op} | ${r.latency} ms | ${r.c}${r.effectiveC !== r.c ? ` (→${r.effectiveC})` : ''} | ${fmt(r.items)} | ${r.ofBound ? fmt(r.bound) : '—'} | ${range(r.rate, 1)} | ${r.ofBound ? pct(r.ofBound) : '—'} | ${helper} | ${r.ofNominal ? pct(r.ofNominal) : '—'} | ${cpu} | ${r.constantVsHelper ? fmt(r.constantVsHelper.median, 2) : '—'} |`,
			);
		}
		L.push('');
	}
	const typed = read('inprocess-typed');
	if (typed) L.push(...typedIdsSection(typed));
	if (real?.money) L.push(...moneySection(real.money, real.n8nVersion));
	if (signing) {
		L.push('## 4. Signing per request', '');
		L.push(
			`Through the package's own code (dist/), median of ${signing.runs} runs of the mean per call. "Parsed once per execution" is what the node does now; "per item" is what the credential did before (and still does when no parsed key is handed to it).`,
			'',
		);
		L.push('| what | implementation | µs per request |');
		L.push('|---|---|---:|');
		for (const r of signing.rows) L.push(`| ${r.what} | ${r.impl} | ${range(r.us, 1)} |`);
		L.push('');
	}
	if (real?.trigger) {
		const t = real.trigger;
		L.push('## 5. Trigger: callbacks/s and acknowledge latency', '');
		L.push(
			`${fmt(t.n)} signed GET callbacks per run, undici Pool with ${t.concurrency} connections, same n8n: our trigger (version 2, signature check, confirmation Off) vs the stock Webhook node (GET, respond immediately), that node with Header Auth (the same work n8n does for any webhook that reads a credential), and with JWT Auth (n8n's own node verifying an HS256 signature with a credential's secret on every call, a token of its own per callback: the closest peer of our trigger that runs offline). Each accepted callback starts an execution. Each run measures the routes back to back, starting with another route each run.`,
			'',
		);
		L.push(
			"**n8n's defaults** (every webhook, execution and webhook-phase credential read builds a fresh expression isolate):",
			'',
		);
		L.push(...triggerTable(t));
		if (real.triggerLazy) {
			L.push(
				'**The same n8n restarted with `N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true`** (an isolate is built only when an expression is evaluated; none of these routes evaluates one):',
				'',
			);
			L.push(...triggerTable(real.triggerLazy));
		}
	}
	if (real?.memory) {
		L.push('## 6. Memory: peak RSS (VmHWM) of the n8n processes', '');
		L.push(
			'Our node, `transaction/getStatus`, no added latency, c=16, one execution per size, on the n8n that has only run section 5 so far (the bulk runs come after). VmHWM reset (`clear_refs` 5) before each size; "before" is the RSS at that moment.',
			'',
		);
		L.push('| items | items/s | process | RSS before MiB | peak MiB | peak − before, KiB per item |');
		L.push('|---:|---:|---|---:|---:|---:|');
		for (const r of real.memory) {
			for (const p of r.procs)
				L.push(
					`| ${fmt(r.items)} | ${fmt(r.rate)} | ${p.cmd} | ${fmt((p.rssBeforeKiB ?? 0) / 1024)} | ${fmt(p.peakKiB / 1024)} | ${fmt((p.peakKiB - (p.rssBeforeKiB ?? 0)) / r.items, 2)} |`,
				);
		}
		L.push('');
	}

	const queue = read('queue');
	// bench/out is not committed: a checkout without bench/queue.js's results keeps the section it had
	L.push(...(queue ? queueSection(queue) : previousSection('## 7. Queue mode')));
	L.push('## Targets', '');
	const T = [];
	const c16 = real?.bulk?.filter((r) => r.c === 16 && r.latency === 100) ?? [];
	for (const r of c16)
		T.push(`| ${r.op}: c=16, 100 ms ≥ 90 % of the bound (real n8n) | ${pct(r.ofBound)} | ${mark(r.ofBound >= 0.9)} |`);
	for (const r of inproc?.rows?.filter((x) => x.c === 16 && x.latency === 100) ?? []) {
		T.push(
			`| ${r.op}: c=16, 100 ms ≥ 90 % of the bound (in process) | ${pct(r.ofBound)} | ${mark(r.ofBound >= 0.9)} |`,
		);
		if (r.helper)
			T.push(
				`| (${r.op}: n8n-core's request helper alone reaches ${pct(r.helper.median / r.bound)} of the bound; ours ÷ helper) | ${fmt(r.vsHelper.median, 2)} | |`,
			);
	}
	for (const r of real?.bulk ?? []) {
		const inFlight = r.peakInFlight
			? ` (peak in flight: ours ${r.peakInFlight.ours.max}, HTTP ${r.peakInFlight.httpBatched.max})`
			: '';
		T.push(
			`| ${r.op} ${r.latency} ms c=${r.c}: at least HTTP Request batched at the same concurrency (≥ 1.0)${inFlight} | ${fmt(r.vsBatched.median, 2)} | ${mark(r.vsBatched.median >= 1)} |`,
		);
	}
	if (signing)
		T.push(
			`| RSA-4096 signing < 10 % of a 100 ms request | ${pct(signing.shareOf100ms[4096])} | ${mark(signing.shareOf100ms[4096] < 0.1)} |`,
		);
	if (real?.trigger)
		T.push(
			`| trigger ≥ 0.9 × stock Webhook | ${fmt(real.trigger.ratio.median, 2)} | ${mark(real.trigger.ratio.median >= 0.9)} |`,
		);
	if (real?.trigger?.ratioVsAuth)
		T.push(
			`| (trigger ÷ stock Webhook with Header Auth: n8n's credential read on both sides) | ${fmt(real.trigger.ratioVsAuth.median, 2)} | |`,
		);
	if (real?.trigger?.ratioVsJwt?.runs) T.push(jwtTarget(real.trigger, "n8n's defaults"));
	if (real?.triggerLazy?.ratioVsJwt?.runs) T.push(jwtTarget(real.triggerLazy, 'lazy isolates'));
	const oursPeaks = (real?.bulk ?? []).filter((x) => x.peakInFlight);
	if (oursPeaks.length)
		T.push(
			`| ours never has more than Concurrency in flight (every bulk cell) | max ${Math.max(...oursPeaks.map((r) => r.peakInFlight.ours.max / r.effectiveC)).toFixed(2)} × c | ${mark(oursPeaks.every((r) => r.peakInFlight.ours.max <= r.effectiveC))} |`,
		);
	for (const r of inproc?.rows?.filter((x) => x.latency && x.vsHelper) ?? [])
		T.push(
			`| in process, ${r.op} ${r.latency} ms c=${r.c}: ours ÷ helper alone ≥ 0.95 | ${fmt(r.vsHelper.median, 2)} | ${mark(r.vsHelper.median >= 0.95)} |`,
		);
	const mem = real?.memory;
	if (mem?.length > 1) {
		const main = (r) => r.procs[0];
		const first = mem[0];
		const last = mem[mem.length - 1];
		const growth =
			(main(last).peakKiB - main(last).rssBeforeKiB) / Math.max(1, main(first).peakKiB - main(first).rssBeforeKiB);
		T.push(
			`| memory grows no faster than items (n8n main, ${fmt(first.items)} → ${fmt(last.items)} items = ×${fmt(last.items / first.items)}) | ×${fmt(growth, 1)} | ${mark(growth <= last.items / first.items)} |`,
		);
	}
	L.push('| target | measured | |', '|---|---:|---|', ...T, '');
	const notes = path.join(__dirname, 'NOTES.md');
	if (fs.existsSync(notes)) L.push(fs.readFileSync(notes, 'utf8'));
	const file = path.join(__dirname, QUICK ? 'RESULTS.quick.md' : 'RESULTS.md');
	fs.writeFileSync(file, `${L.join('\n')}\n`);
	process.stdout.write(`wrote ${path.relative(process.cwd(), file)}\n`);
}

function main() {
	if (!REPORT_ONLY)
		for (const part of ['signing', 'inprocess', 'real-n8n', 'queue']) if (!SKIP.includes(part)) runPart(part);
	report();
}

main();
