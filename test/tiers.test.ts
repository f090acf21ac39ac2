// The test tiers of jest.config.js and the one support folder, checked on the import graph:
// - a unit-tier test file reaches nothing that starts a real n8n, a browser or PostgreSQL/Redis;
//   every *.e2e.test.ts file does (otherwise it belongs in the unit tier);
// - test/support/ is the only place for shared test code: everything else under test/ is a test
//   file or a fixture; test/support/ imports no test file and nothing from reliability/, and
//   reliability/ reaches into test/ only through test/support/.
// And on the node's own import graph: no import cycle anywhere in nodes/, and the action pipeline's
// stages (nodes/CardGateway/actions/common/<stage>/) import only earlier stages (STAGES below).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// jest's own glob matcher (a dependency of jest, without types here)
const micromatch = require('micromatch') as {
	isMatch(path: string, patterns: string[], options?: { dot?: boolean }): boolean;
};

const REPO = resolve(__dirname, '..');
const config = require('../jest.config.js') as {
	projects: Array<{ displayName: string; roots: string[]; testMatch: string[]; testPathIgnorePatterns?: string[] }>;
};

/** What starts a real n8n, a browser or a service (a test reaching one of these is in the e2e tier). */
const STARTERS = ['e2e/n8n.js', 'e2e/queue.js', 'e2e/services.js', 'playwright-core'];

const walk = (dir: string): string[] =>
	readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? walk(path) : [path];
	});

const withRoot = (pattern: string) => pattern.replace('<rootDir>', REPO);

/** The test files of a project, as jest.config.js selects them. */
function testsOf(name: string): string[] {
	const project = config.projects.find((p) => p.displayName === name)!;
	const ignored = (project.testPathIgnorePatterns ?? []).map((pattern) => new RegExp(withRoot(pattern)));
	return project.roots
		.flatMap((root) => walk(withRoot(root)))
		.filter(
			(file) =>
				micromatch.isMatch(file, project.testMatch.map(withRoot), { dot: true }) &&
				!ignored.some((pattern) => pattern.test(file)),
		)
		.map((file) => relative(REPO, file))
		.sort();
}

const SPECIFIER =
	/(?:\bfrom\s+|\bimport\s*\(?\s*|\brequire\s*\(\s*|\bjest\.(?:mock|requireActual)\s*\(\s*)['"]([^'"]+)['"]/g;

function resolveFile(from: string, specifier: string): string | undefined {
	const base = resolve(dirname(join(REPO, from)), specifier);
	for (const candidate of [base, `${base}.ts`, `${base}.js`, join(base, 'index.ts'), join(base, 'index.js')]) {
		if (existsSync(candidate) && statSync(candidate).isFile()) return relative(REPO, candidate);
	}
	return undefined;
}

/** Direct imports of a repository file: other repository files, and package names. */
function importsOf(file: string): string[] {
	if (!/\.(ts|js|mjs)$/.test(file)) return [];
	return [...readFileSync(join(REPO, file), 'utf8').matchAll(SPECIFIER)].flatMap(([, specifier]) => {
		if (!specifier.startsWith('.'))
			return [specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]];
		const target = resolveFile(file, specifier);
		return target ? [target] : [];
	});
}

/** Everything a file reaches through imports (repository files and the packages they name). */
function reach(file: string): Set<string> {
	const seen = new Set<string>();
	const queue = [file];
	while (queue.length) {
		for (const target of importsOf(queue.pop()!)) {
			if (seen.has(target)) continue;
			seen.add(target);
			if (existsSync(join(REPO, target))) queue.push(target);
		}
	}
	return seen;
}

const UNIT = testsOf('unit');
const E2E = testsOf('e2e');
const FAST = testsOf('fast');

test('every test file is in exactly one tier', () => {
	const all = walk(join(REPO, 'test'))
		.map((file) => relative(REPO, file))
		.filter((file) => /\.test\.(ts|js)$/.test(file));
	expect([...UNIT, ...FAST, ...E2E].sort()).toEqual(all.sort());
	expect(UNIT.filter((file) => E2E.includes(file))).toEqual([]);
	expect(E2E.length).toBeGreaterThan(10);
});

test('no unit-tier test reaches a real n8n, a browser or a service', () => {
	const offending = [...UNIT, ...FAST].flatMap((file) =>
		[...reach(file)].filter((target) => STARTERS.includes(target)).map((target) => `${file} → ${target}`),
	);
	expect(offending).toEqual([]);
});

test('every *.e2e.test.ts file starts a real n8n, a browser or a service', () => {
	const idle = E2E.filter(
		(file) => /\.e2e\./.test(file) && ![...reach(file)].some((target) => STARTERS.includes(target)),
	);
	expect(idle).toEqual([]);
});

test('shared test code lives in test/support/ only, and imports flow one way', () => {
	const files = walk(join(REPO, 'test')).map((file) => relative(REPO, file));
	// test/independent/ holds the independent clients in other languages (report_client.py), run by its tests.
	const misplaced = files.filter(
		(file) =>
			!file.startsWith('test/support/') &&
			!/\.test\.(ts|js)$|\.json$/.test(file) &&
			!/^test\/independent\/[^/]+\.py$/.test(file),
	);
	expect(misplaced).toEqual([]);

	const support = files.filter((file) => file.startsWith('test/support/'));
	const supportImports = support.flatMap((file) =>
		importsOf(file)
			.filter((target) => target.startsWith('reliability/') || /\.test\.(ts|js)$/.test(target))
			.map((target) => `${file} → ${target}`),
	);
	expect(supportImports).toEqual([]);

	const campaigns = walk(join(REPO, 'reliability')).map((file) => relative(REPO, file));
	const intoTests = campaigns.flatMap((file) =>
		importsOf(file)
			.filter((target) => target.startsWith('test/') && !target.startsWith('test/support/'))
			.map((target) => `${file} → ${target}`),
	);
	expect(intoTests).toEqual([]);
});

/** The action pipeline's stages, in order, each with the stages it may import (its own too: cycles are checked apart). */
const STAGES: Record<string, readonly string[]> = {
	core: [],
	read: ['core'],
	guard: ['core', 'read'],
	rehearse: ['core', 'read', 'guard'],
	send: ['core', 'read', 'guard'],
	outcome: ['core', 'read', 'guard'],
	pipeline: ['core', 'read', 'guard', 'rehearse', 'send', 'outcome'],
	define: ['core', 'read', 'guard', 'rehearse', 'send', 'outcome', 'pipeline'],
};
const STAGE_ROOT = 'nodes/CardGateway/actions/common/';

const NODE_FILES = walk(join(REPO, 'nodes'))
	.map((file) => relative(REPO, file))
	.filter((file) => file.endsWith('.ts'));

/** The stage a file belongs to ('' for a file of nodes/CardGateway outside the stages, undefined outside nodes/CardGateway). */
function stageOf(file: string): string | undefined {
	if (file.startsWith(STAGE_ROOT)) return file.slice(STAGE_ROOT.length).split('/')[0];
	return file.startsWith('nodes/CardGateway/') ? '' : undefined;
}

/** Every import cycle among the given files, each as the files it passes through (Tarjan's strongly connected components). */
function cyclesOf(files: readonly string[]): string[][] {
	const edges = new Map(files.map((file) => [file, importsOf(file).filter((target) => files.includes(target))]));
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const cycles: string[][] = [];
	const visit = (file: string) => {
		index.set(file, index.size);
		low.set(file, index.get(file)!);
		stack.push(file);
		for (const target of edges.get(file)!) {
			if (!index.has(target)) {
				visit(target);
				low.set(file, Math.min(low.get(file)!, low.get(target)!));
			} else if (stack.includes(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
		}
		if (low.get(file) !== index.get(file)) return;
		const component: string[] = [];
		let member: string;
		do {
			member = stack.pop()!;
			component.push(member);
		} while (member !== file);
		if (component.length > 1 || edges.get(file)!.includes(file)) cycles.push(component.sort());
	};
	for (const file of files) if (!index.has(file)) visit(file);
	return cycles;
}

test('no import cycle anywhere in nodes/', () => {
	expect(cyclesOf(NODE_FILES)).toEqual([]);
});

test("the action pipeline's stages import only earlier stages", () => {
	const stages = new Set(NODE_FILES.map(stageOf).filter((stage): stage is string => !!stage));
	// Every folder under common/ is a stage of the table, and common/ holds no file outside a stage.
	expect([...stages].sort()).toEqual(Object.keys(STAGES).sort());
	const wrongWay = NODE_FILES.filter((file) => stageOf(file)).flatMap((file) => {
		const stage = stageOf(file)!;
		return importsOf(file)
			.filter((target) => {
				const to = stageOf(target);
				return to !== undefined && to !== stage && !STAGES[stage].includes(to);
			})
			.map((target) => `${file} (${stage}) → ${target} (${stageOf(target) || 'outside the stages'})`);
	});
	expect(wrongWay).toEqual([]);
});
