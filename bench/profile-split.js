'use strict';
// Splits a .cpuprofile of a bulk run into who spent the CPU, by call stack:
//  - ours: frames of our dist/ code (credential included) and what they call outside n8n (node:crypto, URL…);
//  - n8n API <name>: what our code calls in n8n (getNodeParameter, getCredentials, httpRequestWithAuthentication…),
//    named by the outermost n8n frame under our innermost frame;
//  - request helper, async: axios, sockets and HTTP parsing after an await (no frame of ours left on the stack);
//  - engine: n8n-core / n8n-workflow work with no frame of ours (running the node, building the run data);
//  - garbage collector, program; idle is not CPU and is left out.
//
//   node bench/profile-split.js <file.cpuprofile> [items]
const fs = require('node:fs');

const OURS = /\/dist\/(nodes|credentials)\//;
const N8N = /node_modules\/(n8n-core|n8n-workflow|@n8n\/[^/]+|luxon|lodash|jmespath|@n8n_io\/[^/]+)\//;
const HELPER =
	/node_modules\/(axios|follow-redirects|proxy-from-env|form-data|combined-stream|asynckit|mime-types|delayed-stream)\/|^node:(net|_http|http|https|tls|dns|stream|internal\/(streams|http|net|url))|^node:internal\/(streams|http|net|dns)/;

function splitProfile(prof) {
	const byId = new Map(prof.nodes.map((n) => [n.id, n]));
	const parent = new Map();
	for (const n of prof.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
	const stackCache = new Map();
	const categoryOf = (id) => {
		if (stackCache.has(id)) return stackCache.get(id);
		const stack = [];
		for (let cur = id; cur !== undefined; cur = parent.get(cur)) stack.push(byId.get(cur).callFrame);
		const leaf = stack[0];
		let category;
		if (leaf.functionName === '(idle)') category = 'idle';
		else if (leaf.functionName === '(garbage collector)') category = 'garbage collector';
		else if (leaf.functionName === '(program)') category = 'program';
		else {
			const innermostOurs = stack.findIndex((frame) => OURS.test(frame.url));
			if (innermostOurs >= 0) {
				// the outermost n8n frame between our code and the leaf: the API we called
				let api;
				for (let i = innermostOurs - 1; i >= 0; i--) {
					if (N8N.test(stack[i].url)) {
						api = stack[i].functionName || '(anonymous)';
						break;
					}
				}
				category = api ? `n8n API: ${api}` : 'ours';
			} else if (stack.some((frame) => N8N.test(frame.url))) {
				category =
					HELPER.test(leaf.url) || /axios|follow-redirects/.test(leaf.url) ? 'request helper, async' : 'engine';
			} else if (stack.some((frame) => HELPER.test(frame.url))) category = 'request helper, async';
			else category = 'other (node internals, timers)';
		}
		stackCache.set(id, category);
		return category;
	};
	const totals = new Map();
	for (let i = 0; i < prof.samples.length; i++) {
		const category = categoryOf(prof.samples[i]);
		totals.set(category, (totals.get(category) ?? 0) + (prof.timeDeltas[i] ?? 0));
	}
	const busyUs = [...totals].filter(([k]) => k !== 'idle').reduce((sum, [, us]) => sum + us, 0);
	return { totals: Object.fromEntries([...totals].sort((a, b) => b[1] - a[1])), busyUs };
}

function printSplit(title, split, items) {
	process.stdout.write(
		`\n${title}: ${(split.busyUs / 1e3).toFixed(0)} ms busy${items ? `, ${(split.busyUs / 1e3 / items).toFixed(3)} ms per item over ${items} items` : ''}\n`,
	);
	for (const [category, us] of Object.entries(split.totals)) {
		if (category === 'idle') continue;
		process.stdout.write(
			`${((100 * us) / split.busyUs).toFixed(1).padStart(5)} %  ${(us / 1e3).toFixed(0).padStart(6)} ms${items ? `  ${(us / 1e3 / items).toFixed(3).padStart(7)} ms/item` : ''}  ${category}\n`,
		);
	}
}

if (require.main === module) {
	require('./cli').checkArgs(
		`Usage: node bench/profile-split.js <file.cpuprofile> [items]

Splits a .cpuprofile of a bulk run (bench/inprocess.js --profile-cell writes them) by call stack:
ours (our dist/ code and what it calls outside n8n), n8n API <name> (the n8n function our code
called), request helper (async), engine, garbage collector, program.

Arguments:
  <file.cpuprofile>   the profile
  [items]             how many items it covers: adds ms per item`,
		{ positionals: [1, 2] },
	);
	const [file, items] = process.argv.slice(2);
	printSplit(file, splitProfile(JSON.parse(fs.readFileSync(file, 'utf8'))), Number(items) || 0);
}

module.exports = { splitProfile, printSplit };
