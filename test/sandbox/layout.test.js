'use strict';
// The sandbox's source layout (issue 24): the engine's modules say what they are for, import what
// they use without cycles (a CommonJS cycle hands a module a half-built exports object), the command
// table points at handler functions, and the sandbox type-checks (sandbox/tsconfig.json).
const { describe, it, expect } = require('@jest/globals');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { COMMANDS } = require('../../sandbox/commands');
const { scaled } = require('../support/time-scale');

const SANDBOX = path.join(__dirname, '../../sandbox');
const jsFiles = (dir) =>
	fs
		.readdirSync(dir, { withFileTypes: true })
		.flatMap((e) =>
			e.isDirectory() ? jsFiles(path.join(dir, e.name)) : e.name.endsWith('.js') ? [path.join(dir, e.name)] : [],
		);

/** file → the sandbox files it requires (relative requires only). */
function requireGraph() {
	const graph = new Map();
	for (const file of jsFiles(SANDBOX)) {
		const targets = [...fs.readFileSync(file, 'utf8').matchAll(/require\('(\.[^']+)'\)/g)].map((m) => {
			const target = path.resolve(path.dirname(file), m[1]);
			return fs.existsSync(`${target}.js`) ? `${target}.js` : path.join(target, 'index.js');
		});
		graph.set(file, targets);
	}
	return graph;
}

describe('sandbox layout', () => {
	it('every engine module opens with a comment saying what it is for', () => {
		for (const file of jsFiles(path.join(SANDBOX, 'engine'))) {
			const lines = fs
				.readFileSync(file, 'utf8')
				.split('\n')
				.filter((line) => line !== '// @ts-check' && line !== "'use strict';");
			expect([path.basename(file), lines[0].startsWith('// ')]).toEqual([path.basename(file), true]);
		}
	});

	it('no module requires itself through others', () => {
		const graph = requireGraph();
		const cycles = [];
		const state = new Map();
		const visit = (file, stack) => {
			state.set(file, 'open');
			for (const next of graph.get(file) || []) {
				if (state.get(next) === 'open')
					cycles.push([...stack.slice(stack.indexOf(next)), next].map((f) => path.relative(SANDBOX, f)).join(' → '));
				else if (!state.has(next)) visit(next, [...stack, next]);
			}
			state.set(file, 'done');
		};
		for (const file of graph.keys()) if (!state.has(file)) visit(file, [file]);
		expect(cycles).toEqual([]);
	});

	it('every command of the table points at a handler function', () => {
		for (const [key, definition] of Object.entries(COMMANDS)) {
			expect([key, typeof definition.handler, definition.handler.length]).toEqual([key, 'function', 2]);
		}
	});

	it(
		'type-checks (npx tsc -p sandbox)',
		() => {
			const tsc = require.resolve('typescript/bin/tsc');
			let output = '';
			try {
				execFileSync(process.execPath, [tsc, '-p', SANDBOX], { encoding: 'utf8', stdio: 'pipe' });
			} catch (e) {
				output = `${e.stdout || ''}${e.stderr || e.message}`;
			}
			expect(output).toBe('');
		},
		scaled(60000),
	);
});
