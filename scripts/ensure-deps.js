'use strict';
// Installs the dependencies (`npm ci`) when node_modules/ lacks what package-lock.json lists, so that
// `npm test` and `npm run demo` work on a fresh clone without an `npm ci` first (it stays the
// documented, optional first step). Node's built-ins only: it runs before anything is required
// from node_modules/.
//
//   node scripts/ensure-deps.js            install when something is missing, else say nothing
//   node scripts/ensure-deps.js --check    only list what is missing (exit 1 if anything is)
//
// "Missing": a package of the lockfile (optional ones and links aside) whose folder has no
// package.json, or another version than the lockfile's. One look per package: under 900 small
// reads, about 0.1 s.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const REPO = path.resolve(__dirname, '..');

/** The lockfile's packages that node_modules/ does not hold as locked: "name (why)". */
function missingDependencies(repo = REPO) {
	const lock = JSON.parse(fs.readFileSync(path.join(repo, 'package-lock.json'), 'utf8'));
	const missing = [];
	for (const [where, entry] of Object.entries(lock.packages ?? {})) {
		// '' is the project itself; optional packages may be left out (another OS or CPU).
		if (!where || entry.optional || entry.devOptional || entry.link) continue;
		let installed;
		try {
			installed = JSON.parse(fs.readFileSync(path.join(repo, where, 'package.json'), 'utf8')).version;
		} catch {
			missing.push(`${where.replace(/^.*node_modules\//, '')} (not installed)`);
			continue;
		}
		if (entry.version && installed !== entry.version)
			missing.push(`${where.replace(/^.*node_modules\//, '')} (${installed} installed, ${entry.version} locked)`);
	}
	return missing;
}

/** Runs `npm ci` when a locked package is missing; throws when that fails. Returns whether it installed. */
function ensureDependencies({ repo = REPO, log = (line) => process.stderr.write(`[deps] ${line}\n`) } = {}) {
	const missing = missingDependencies(repo);
	if (!missing.length) return false;
	if (!fs.existsSync(path.join(repo, 'node_modules'))) {
		log('no node_modules/ yet: installing the dependencies with npm ci (once, about a minute)');
	} else {
		const shown = missing.slice(0, 3).join(', ') + (missing.length > 3 ? ` and ${missing.length - 3} more` : '');
		log(`node_modules/ lacks ${missing.length} package(s) of package-lock.json (${shown}): running npm ci`);
	}
	const began = Date.now();
	// --include=dev: everything here (build, tests, demo) needs the dev dependencies, whatever NODE_ENV says.
	const npm = spawnSync('npm', ['ci', '--include=dev', '--no-audit', '--no-fund'], { cwd: repo, stdio: 'inherit' });
	if (npm.error) throw new Error(`npm ci could not start: ${npm.error.message}`);
	if (npm.status !== 0) throw new Error(`npm ci failed (${npm.status ?? npm.signal}); run it yourself to see why`);
	log(`dependencies installed in ${Math.round((Date.now() - began) / 1000)} s`);
	const still = missingDependencies(repo);
	if (still.length) log(`still missing after npm ci: ${still.slice(0, 3).join(', ')}${still.length > 3 ? ' …' : ''}`);
	return true;
}

if (require.main === module) {
	if (process.argv.includes('--help') || process.argv.includes('-h')) {
		process.stdout.write(
			'Usage: node scripts/ensure-deps.js [--check]\n  Runs `npm ci` when node_modules/ lacks a package of package-lock.json.\n  --check  only list what is missing; exit 1 if anything is\n',
		);
		process.exit(0);
	}
	try {
		if (process.argv.includes('--check')) {
			const missing = missingDependencies();
			for (const line of missing) process.stdout.write(`${line}\n`);
			process.exitCode = missing.length ? 1 : 0;
		} else {
			ensureDependencies();
		}
	} catch (error) {
		process.stderr.write(`[deps] ${error.message}\n`);
		process.exitCode = 1;
	}
}

module.exports = { ensureDependencies, missingDependencies };
