'use strict';
// Summarises a .cpuprofile (node --cpu-prof): self time by function and by package/file.
//   node bench/profile-top.js <file.cpuprofile> [top=25] [filter-substring]
require('./cli').checkArgs(
	`Usage: node bench/profile-top.js <file.cpuprofile> [top] [filter]

Summarises a .cpuprofile (node --cpu-prof, bench/real-n8n.js --profile): self time by function
and by package or file.

Arguments:
  <file.cpuprofile>   the profile
  [top]               rows per table (default 25)
  [filter]            only functions whose "name file:line" contains this text

Environment:
  BENCH_INCLUSIVE=<name>,…   also print the inclusive time of the functions with these names
                             (recursion counted once)`,
	{ positionals: [1, 3] },
);
const fs = require('node:fs');

const [file, topArg, filter] = process.argv.slice(2);
const top = Number(topArg) || 25;
const prof = JSON.parse(fs.readFileSync(file, 'utf8'));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = prof.timeDeltas;
for (let i = 0; i < prof.samples.length; i++)
	self.set(prof.samples[i], (self.get(prof.samples[i]) || 0) + (dt[i] || 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);

const where = (url) => {
	const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url) || [];
	if (m[1]) return m[1];
	if (url.includes('/dist/')) return `ours:${url.split('/dist/')[1]}`;
	return url ? url.replace(/^.*\//, '') : '(native)';
};
const fnAgg = new Map();
const pkgAgg = new Map();
for (const [id, us] of self) {
	const n = byId.get(id);
	const cf = n.callFrame;
	const key = `${cf.functionName || '(anon)'} ${where(cf.url)}:${cf.lineNumber + 1}`;
	if (filter && !key.includes(filter)) continue;
	fnAgg.set(key, (fnAgg.get(key) || 0) + us);
	const pkg = cf.url ? where(cf.url).replace(/^ours:.*/, 'ours') : cf.functionName;
	pkgAgg.set(pkg, (pkgAgg.get(pkg) || 0) + us);
}
const print = (title, map) => {
	process.stdout.write(`\n${title} (total ${(total / 1e6).toFixed(2)} s sampled)\n`);
	for (const [k, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
		process.stdout.write(
			`${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / 1e3).toFixed(0).padStart(7)} ms  ${k}\n`,
		);
	}
};
print('self time by function', fnAgg);
print('self time by package', pkgAgg);

// Inclusive time of functions whose name matches BENCH_INCLUSIVE (comma-separated), recursion counted once.
if (process.env.BENCH_INCLUSIVE) {
	const names = process.env.BENCH_INCLUSIVE.split(',');
	const parent = new Map();
	for (const n of prof.nodes) for (const c of n.children || []) parent.set(c, n.id);
	const incl = new Map(names.map((name) => [name, 0]));
	for (const [id, us] of self) {
		const seen = new Set();
		for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
			const fn = byId.get(cur).callFrame.functionName;
			if (incl.has(fn) && !seen.has(fn)) {
				seen.add(fn);
				incl.set(fn, incl.get(fn) + us);
			}
		}
	}
	process.stdout.write('\ninclusive time\n');
	for (const [k, us] of incl)
		process.stdout.write(
			`${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / 1e3).toFixed(0).padStart(7)} ms  ${k}\n`,
		);
}
