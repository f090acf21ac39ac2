// The package installed the way n8n's community-package installer installs it (e2e/n8n.js
// installCommunityPackage: dev, peer and optional dependencies dropped, `npm install` in its folder)
// needs nothing at run time but n8n-workflow, which n8n provides, and Node's built-ins: checked on the
// import graph of every shipped file, and by loading every shipped file where n8n-workflow is the
// only package that can be found.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { scaled } from '../support/time-scale';

const { installCommunityPackage, packPackage, REPO } = require('../../e2e/n8n');

const run = promisify(execFile);
const PROVIDED_BY_N8N = ['n8n-workflow'];

let work: string;
let nodesDir: string;
let packageDir: string;

beforeAll(async () => {
	// outside the repository, so that no node_modules folder above it can lend a package
	work = mkdtempSync(join(tmpdir(), 'card-gateway-installed-'));
	nodesDir = join(work, '.n8n/nodes');
	packageDir = await installCommunityPackage(await packPackage(work), nodesDir);
}, scaled(120_000));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function shippedScripts(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : shippedScripts(path);
		return path.endsWith('.js') ? [path] : [];
	});
}

test("n8n's install brings in nothing but the package itself", () => {
	expect(readdirSync(join(nodesDir, 'node_modules'))).toEqual([
		JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).name,
	]);
	expect(readdirSync(packageDir)).not.toContain('node_modules');
	const installed = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
	for (const field of ['devDependencies', 'peerDependencies', 'optionalDependencies'])
		expect(installed).not.toHaveProperty(field);
	expect(installed.dependencies ?? {}).toEqual({});
	expect(JSON.parse(readFileSync(join(nodesDir, 'package.json'), 'utf8')).dependencies).toEqual({
		[installed.name]: installed.version,
	});
});

test('every shipped file imports only n8n-workflow, Node built-ins and shipped files, by literal name', () => {
	const scripts = shippedScripts(join(packageDir, 'dist'));
	expect(scripts.length).toBeGreaterThan(10);
	const offending: string[] = [];
	for (const file of scripts) {
		const source = readFileSync(file, 'utf8');
		const where = relative(packageDir, file);
		if (/\bimport\s*\(/.test(source)) offending.push(`${where}: dynamic import()`);
		for (const [call, quoted] of source.matchAll(/\brequire\s*\(([^)]*)\)/g)) {
			const literal = /^\s*"([^"]+)"\s*$/.exec(quoted)?.[1];
			if (!literal) offending.push(`${where}: ${call}`);
			else if (literal.startsWith('.')) {
				const target = resolve(dirname(file), literal);
				if (![target, `${target}.js`, `${target}.json`].some((candidate) => existsSync(candidate)))
					offending.push(`${where}: ${literal} is not shipped`);
			} else if (!isBuiltin(literal) && !PROVIDED_BY_N8N.includes(literal)) offending.push(`${where}: ${literal}`);
		}
	}
	expect(offending).toEqual([]);
});

test(
	'every shipped file loads, and every node and credential builds its description, with n8n-workflow the only package in reach',
	async () => {
		// n8n puts its own node_modules on NODE_PATH for the packages it loads; here that is a folder
		// holding n8n-workflow alone (the one the repository builds against)
		const host = join(work, 'host-node_modules');
		mkdirSync(host);
		for (const name of PROVIDED_BY_N8N) symlinkSync(dirname(require.resolve(`${name}/package.json`)), join(host, name));
		const scripts = shippedScripts(join(packageDir, 'dist'));
		const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
		const entries = [...manifest.n8n.nodes, ...manifest.n8n.credentials].map((file: string) => join(packageDir, file));
		const probe = `
		const [scripts, entries] = JSON.parse(process.argv[1]);
		for (const file of scripts) require(file);
		let described = 0;
		for (const file of entries) {
			for (const Exported of Object.values(require(file))) {
				const instance = new Exported();
				const description = instance.description ?? instance;
				if (!description.name || !description.displayName) throw new Error(file + ': no name or displayName');
				described++;
			}
		}
		console.log(JSON.stringify({ loaded: scripts.length, described }));
	`;
		const env = { PATH: process.env.PATH, NODE_PATH: host };
		const { stdout } = await run(process.execPath, ['-e', probe, JSON.stringify([scripts, entries])], {
			cwd: work,
			env,
		});
		expect(JSON.parse(stdout)).toEqual({ loaded: scripts.length, described: entries.length });
	},
	scaled(60_000),
);
