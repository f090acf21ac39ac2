'use strict';
// The queue-mode section of bench/RESULTS.md, from bench/out/queue.json (bench/queue.js): CPU per
// callback and per bulk item in each role, what one core of each role sustains, the topology for
// 10, 100 and 1,000 callbacks/s, and queue mode vs one n8n measured side by side.
const { fmt } = require('./common');

/** Keep every process at most this busy: n8n is one event loop per process, and load comes in bursts. */
const TARGET_UTILISATION = 0.6;
const RATES = [10, 100, 1000];
const ROLES = {
	webhook: 'webhook process',
	worker: 'worker (concurrency 10)',
	main: 'main',
	postgres: 'PostgreSQL (all backends)',
	redis: 'Redis',
};

function topology(ms, rate) {
	const processes = (role) => Math.max(1, Math.ceil((rate * ms[role]) / 1000 / TARGET_UTILISATION));
	const cores = (role) => (rate * ms[role]) / 1000 / TARGET_UTILISATION;
	const webhooks = processes('webhook');
	const workers = processes('worker');
	const total = cores('webhook') + cores('worker') + cores('main') + cores('postgres') + cores('redis');
	return {
		rate,
		webhooks,
		workers,
		pgCores: cores('postgres'),
		redisShare: (rate * ms.redis) / 1000,
		connections: (webhooks + workers + 1) * 10,
		total,
	};
}

function queueSection(q) {
	if (!q) return [];
	const L = [];
	const { single, queue } = q;
	const ms = queue.callbacks.cpuMs;
	L.push('## 7. Queue mode: sizing, and queue mode vs one n8n', '');
	L.push(
		`\`node bench/queue.js\` (${q.writtenAt.slice(0, 16).replace('T', ' ')} UTC). One run, one after the other on this machine with the same load generator: **one n8n** (SQLite, regular mode) and **queue mode** (e2e/queue.js: main, 1 webhook process, 1 worker at concurrency 10, PostgreSQL 15, Redis 7; pool 10). ${fmt(queue.callbacks.count)} genuine signed GET callbacks at ${queue.callbacks.inFlight} in flight into the trigger (version 2, confirmation Off, n8n's defaults: every execution saved), after a 100-callback warm-up; then one bulk job of ${fmt(queue.bulk.items)} status queries through the Card Gateway node (Concurrency ${queue.bulk.concurrency}). CPU = utime + stime of each process tree from /proc (task runners and PostgreSQL backends included), from the first callback until every execution has succeeded (main's figure includes the bench polling its API for that). **The machine is shared** (2 cores, other engineers' jobs): 1-minute load average ${fmt(q.machineLoadAtStart[0], 2)} at the start, ${fmt(single.callbacks.loadavg1, 2)} before the one-n8n batch and ${fmt(queue.callbacks.loadavg1, 2)} before the queue batch. Rates depend on that load; CPU per callback much less so.`,
		'',
	);
	L.push('| | one n8n (SQLite) | queue mode | queue ÷ one |', '|---|---:|---:|---:|');
	const row = (label, a, b, digits = 1) =>
		L.push(`| ${label} | ${fmt(a, digits)} | ${fmt(b, digits)} | ${fmt(b / a, 2)} |`);
	row('callbacks acknowledged /s', single.callbacks.ackRate, queue.callbacks.ackRate);
	row('callbacks executed /s (until the last succeeded)', single.callbacks.doneRate, queue.callbacks.doneRate);
	row('answer latency p50 ms', single.callbacks.p50, queue.callbacks.p50, 0);
	row('answer latency p99 ms', single.callbacks.p99, queue.callbacks.p99, 0);
	const sum = (cpu) => Object.values(cpu).reduce((a, b) => a + b, 0);
	row('CPU ms per callback, all processes', sum(single.callbacks.cpuMs), sum(ms));
	row('bulk items /s', single.bulk.rate, queue.bulk.rate, 0);
	row('CPU ms per bulk item, all processes', sum(single.bulk.cpuMs), sum(queue.bulk.cpuMs), 2);
	L.push('');
	L.push('CPU per callback and per bulk item in each role of queue mode, and what one core of that role sustains:', '');
	L.push(
		'| role | CPU ms per callback | callbacks/s per core | CPU ms per bulk item | bulk items/s per core |',
		'|---|---:|---:|---:|---:|',
	);
	for (const [role, label] of Object.entries(ROLES)) {
		L.push(
			`| ${label} | ${fmt(ms[role], 2)} | ${fmt(1000 / ms[role])} | ${fmt(queue.bulk.cpuMs[role], 3)} | ${fmt(1000 / queue.bulk.cpuMs[role])} |`,
		);
	}
	L.push(
		`| one n8n, for comparison | ${fmt(single.callbacks.cpuMs.n8n, 2)} | ${fmt(1000 / single.callbacks.cpuMs.n8n)} | ${fmt(single.bulk.cpuMs.n8n, 3)} | ${fmt(1000 / single.bulk.cpuMs.n8n)} |`,
	);
	L.push('');
	L.push(
		`Topology for a sustained callback rate, on paper from the CPU figures above (trigger only: add your workflow's own nodes to the worker's share), every process at most ${TARGET_UTILISATION * 100} % busy. Each n8n process is one Node.js event loop, so it never uses much more than one core; PostgreSQL uses a core per busy backend; Redis is single-threaded. Connections = (webhook processes + workers + main) × \`DB_POSTGRESDB_POOL_SIZE\` 10: above PostgreSQL's default \`max_connections\` 100, raise it or put PgBouncer in front.`,
		'',
	);
	L.push(
		'| callbacks/s | webhook processes | workers (concurrency 10) | PostgreSQL cores | Redis (share of its one core) | PostgreSQL connections | cores in all |',
		'|---:|---:|---:|---:|---:|---:|---:|',
	);
	for (const t of RATES.map((rate) => topology(ms, rate))) {
		L.push(
			`| ${fmt(t.rate)} | ${t.webhooks} | ${t.workers} | ${fmt(t.pgCores, 1)} | ${fmt(t.redisShare * 100)} % | ${t.connections} | ${fmt(t.total, 1)} |`,
		);
	}
	L.push('');
	return L;
}

module.exports = { queueSection };
