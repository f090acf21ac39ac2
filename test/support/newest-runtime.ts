// The newest n8n 2.x (e2e/n8n-runtime-newest) beside the pinned one: the *.e2e.newest.test.ts files
// run a short subset of the real-n8n tests on it, so that the oldest and the newest supported n8n
// are both proven (docs/n8n-v3.md). They select its runtime for their own test file only (jest gives
// each test file its own process.env) and move their ports by PORT_OFFSET, clear of the pinned
// runs. Without a committed lockfile (the version does not resolve on the registry CI reaches) the
// subset is skipped, saying why.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const REPO = join(__dirname, '../..');
/** The runtime folder: package.json + package-lock.json, installed by scripts/install-runtime.sh. */
export const NEWEST_SPEC = process.env.N8N_NEWEST_SPEC || 'e2e/n8n-runtime-newest';
const specDir = NEWEST_SPEC.startsWith('/') ? NEWEST_SPEC : join(REPO, NEWEST_SPEC);
/** Added to every port of the pinned test the subset repeats. */
export const PORT_OFFSET = 200;

export const newest = {
	version: String(JSON.parse(readFileSync(join(specDir, 'package.json'), 'utf8')).dependencies.n8n),
	locked: existsSync(join(specDir, 'package-lock.json')),
};

/**
 * Points this test file's installs and n8n processes at the newest runtime: e2e/n8n.js's
 * ensureRuntime runs scripts/install-runtime.sh, which reads N8N_RUNTIME_SPEC.
 */
export function useNewestRuntime(): void {
	process.env.N8N_RUNTIME_SPEC = specDir;
	// a folder named for the pinned runtime would be refused by install-runtime.sh anyway
	delete process.env.N8N_RUNTIME;
}

/** e2e-environment.ts with every environment's port moved by PORT_OFFSET (for jest.mock). */
export function onNewestPorts<T extends { startE2eEnvironment: (options: { port: number }) => unknown }>(
	environment: T,
): T {
	return {
		...environment,
		startE2eEnvironment: (options: { port: number }) =>
			environment.startE2eEnvironment({ ...options, port: options.port + PORT_OFFSET }),
	};
}

/** Registers one skipped test that says why the subset does not run. */
export function skipUnlocked(what: string): void {
	test.skip(`${what} on n8n ${newest.version}: skipped, ${NEWEST_SPEC} has no package-lock.json (its tree does not resolve on this registry; docs/n8n-v3.md)`, () =>
		undefined);
}
