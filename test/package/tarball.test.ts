// What `npm publish` would ship (npm pack of the built package): what must be in it, what must not,
// and the package.json fields n8n and npm read from it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { scaled } from '../support/time-scale';

const REPO = join(__dirname, '../..');
const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
const runtimePkg = JSON.parse(readFileSync(join(REPO, 'e2e/n8n-runtime/package.json'), 'utf8'));

let files: string[];

beforeAll(() => {
	const [packed] = JSON.parse(
		execFileSync('npm', ['pack', '--dry-run', '--json', '--silent'], { cwd: REPO, encoding: 'utf8' }),
	);
	files = packed.files.map((file: { path: string }) => file.path).sort();
}, scaled(60_000));
test('ships the n8n entry files, their codex files and icons, README, LICENSE and package.json', () => {
	const entries: string[] = [...pkg.n8n.nodes, ...pkg.n8n.credentials];
	const codex = pkg.n8n.nodes.map((file: string) => file.replace(/\.js$/, '.json'));
	expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE.md', ...entries, ...codex]));
	// every `file:` icon the nodes and the credential name resolves to a shipped file
	for (const entry of entries) {
		const icons = iconsOf(entry).map((icon) => posix.join(dirname(entry), icon.replace(/^file:/, '')));
		expect(icons.length).toBeGreaterThan(0);
		expect(files).toEqual(expect.arrayContaining(icons));
	}
});

test('ships every compiled file a shipped file requires', () => {
	for (const file of files.filter((name) => name.endsWith('.js'))) {
		for (const [, target] of readFileSync(join(REPO, file), 'utf8').matchAll(/require\("(\.[^"]+)"\)/g)) {
			const resolved = posix.join(dirname(file), target);
			expect([resolved, `${resolved}.js`, `${resolved}/index.js`].some((candidate) => files.includes(candidate))).toBe(
				true,
			);
		}
	}
});

test('ships nothing but dist/ and the three root files: no build info, no source maps, no sources, no stray package.json', () => {
	expect(files.filter((file) => !file.startsWith('dist/')).sort()).toEqual(['LICENSE.md', 'README.md', 'package.json']);
	const unwanted = files.filter(
		(file) => /\.tsbuildinfo$|\.map$|(?<!\.d)\.ts$/.test(file) || file === 'dist/package.json',
	);
	expect(unwanted).toEqual([]);
	expect(files.every((file) => /\.(js|d\.ts|json|svg|md)$/.test(file))).toBe(true);
});

test('package.json: no entry point that does not exist, no runtime dependencies, what it needs to run and to build', () => {
	expect(pkg.main === undefined || files.includes(pkg.main)).toBe(true);
	expect(pkg.dependencies ?? {}).toEqual({});
	expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
	// runs inside n8n: from the oldest n8n the end-to-end tests run on, on the Node that n8n requires
	expect(pkg.engines.n8n).toBe(`>=${runtimePkg.dependencies.n8n}`);
	const n8nEngines = JSON.parse(readFileSync(join(REPO, 'e2e/n8n-runtime/package-lock.json'), 'utf8')).packages[
		'node_modules/n8n'
	].engines;
	expect(pkg.engines.node).toBe(n8nEngines.node);
	// builds on the Node of this repository's CI; n8n's installer runs `npm install` in the unpacked
	// package, where npm checks devEngines too: it may only warn there
	expect(pkg.devEngines.runtime).toMatchObject({ name: 'node', onFail: 'warn' });
	expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(
		Number(/\d+/.exec(pkg.devEngines.runtime.version)![0]),
	);
});

/** The `file:` icons a built entry declares (a node's description, a credential's own), inherited ones included. */
function iconsOf(entry: string): string[] {
	const icons: string[] = [];
	for (const Exported of Object.values(
		require(join(REPO, entry)) as Record<string, new () => { icon?: unknown; description?: { icon?: unknown } }>,
	)) {
		const instance = new Exported();
		const icon = instance.description?.icon ?? instance.icon;
		for (const value of typeof icon === 'string' ? [icon] : Object.values((icon ?? {}) as Record<string, string>))
			if (String(value).startsWith('file:')) icons.push(String(value));
	}
	return icons;
}
