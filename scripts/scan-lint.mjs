// The lint leg of n8n's community-package scanner (@n8n/scan-community-package, installed by
// scripts/install-scanner.sh), run here the way the scanner runs it at verification: its own ESLint
// configuration, inline eslint-disable comments ignored, on the source (package.json, nodes/**,
// credentials/**) and on the packed tarball (its .js files and package.json). The verdict of each leg
// is the scanner's own analyzePackage(); the listing adds the warnings, which the scanner keeps to
// itself when a leg passes.
//   node scripts/scan-lint.mjs [--json] [--source=DIR] [--tarball=FILE|none]
// (defaults: this repository, and a tarball packed from the built package).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TARBALL_PATTERNS = ['**/*.js', 'package.json'];

async function loadScanner() {
	const folder = execFileSync('bash', [join(REPO, 'scripts/install-scanner.sh')], {
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
	})
		.trim()
		.split('\n')
		.pop();
	const entry = join(folder, 'node_modules/@n8n/scan-community-package/scanner/scanner.mjs');
	const fromScanner = createRequire(entry);
	const load = (name) => import(pathToFileURL(fromScanner.resolve(name)).href);
	const [scanner, { ESLint }, glob] = await Promise.all([
		import(pathToFileURL(entry).href),
		load('eslint'),
		load('fast-glob'),
	]);
	const version = fromScanner('../package.json').version;
	return { scanner, ESLint, glob: glob.default ?? glob, version };
}

/** One leg: the scanner's verdict, and every message its configuration produces (errors and warnings). */
async function lintLeg({ scanner, ESLint, glob }, folder, patterns) {
	const verdict = await scanner.analyzePackage(folder, patterns);
	const eslint = new ESLint({
		cwd: folder,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: await scanner.buildScanConfig(),
	});
	const files = glob.sync(patterns, {
		cwd: folder,
		absolute: true,
		ignore: ['node_modules/**', '**/package-lock.json'],
	});
	const results = await eslint.lintFiles(files);
	const messages = results.flatMap((result) =>
		result.messages.map(({ ruleId, severity, message, line }) => ({
			file: relative(folder, result.filePath),
			line,
			rule: ruleId,
			severity: severity === 2 ? 'error' : 'warning',
			message,
		})),
	);
	return { passed: verdict.passed, reason: verdict.message, files: files.length, messages };
}

function packTarball(into) {
	const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', into], { cwd: REPO, encoding: 'utf8' })
		.trim()
		.split('\n')
		.pop();
	return join(into, name);
}

async function main() {
	const args = process.argv.slice(2);
	const option = (name) => args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
	const source = resolve(option('source') ?? REPO);
	// eslint-plugin-n8n-nodes-base lints test fixtures, not packages, under NODE_ENV=test (as set by jest)
	delete process.env.NODE_ENV;
	const work = mkdtempSync(join(tmpdir(), 'card-gateway-scan-'));
	try {
		const loaded = await loadScanner();
		const report = {
			scanner: loaded.version,
			source: await lintLeg(loaded, source, loaded.scanner.SOURCE_FILE_PATTERNS),
		};
		if (option('tarball') !== 'none') {
			const tarball = option('tarball') ? resolve(option('tarball')) : packTarball(work);
			const unpacked = join(work, 'package');
			mkdirSync(unpacked);
			execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);
			report.tarball = await lintLeg(loaded, unpacked, TARBALL_PATTERNS);
		}
		if (args.includes('--json')) process.stdout.write(`${JSON.stringify(report)}\n`);
		else printReport(report);
		process.exitCode = report.source.passed && report.tarball?.passed !== false ? 0 : 1;
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}

function printReport(report) {
	console.log(`@n8n/scan-community-package ${report.scanner}, lint leg`);
	for (const leg of ['source', 'tarball'].filter((name) => report[name])) {
		const { passed, reason, files, messages } = report[leg];
		console.log(
			`${leg}: ${passed ? 'passed' : `FAILED (${reason})`}, ${files} files, ${messages.filter((m) => m.severity === 'error').length} errors, ${messages.filter((m) => m.severity === 'warning').length} warnings`,
		);
		for (const m of messages) console.log(`  ${m.file}:${m.line}  ${m.severity}  ${m.message}  ${m.rule}`);
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
