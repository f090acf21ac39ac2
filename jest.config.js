// Three tiers of tests, as jest projects. `npm test` (and plain `jest`) runs all of them;
// `npm run test:fast` runs the fast tier (`jest --selectProjects fast`),
// `npm run test:unit` runs the unit tier (`jest --selectProjects unit`, one worker per core: its
// tests mostly wait on loopback HTTP), `npm run test:e2e` builds and runs the e2e tier.
//
// How to tell a file's tier: by what it starts (test/tiers.test.ts checks it on the import graph).
// - e2e (the real-n8n tier): a test file that starts a real n8n (e2e/n8n.js, e2e/queue.js:
//   startE2eEnvironment, startReliabilityN8n, N8nInstance, ensureRuntime), the editor in Chromium
//   (playwright-core) or PostgreSQL/Redis (e2e/services.js) is named `*.e2e.test.ts` (a variant of
//   one, `*.e2e.<variant>.test.ts`). test/package/ is here too: it tests the package as shipped (npm
//   pack of dist/, n8n's installer, n8n's scanner from scripts/install-scanner.sh), so it needs
//   `npm run build` first and the scanner installed.
// - fast: test/fast/ only. Each stage of the action pipeline alone, with a fake n8n context and a fake
//   transport (test/support/fake-context.ts): no sandbox process, no n8n-core engine, no network
//   (about 6 s with `npm run test:fast` on a 2-core machine).
// - unit: every other test file. No real n8n, no browser, no services, no build: the node in
//   n8n-core's engine in process, the sandbox gateway over loopback HTTP, the campaign slices of
//   test/reliability/ (about 70 s with `npm run test:unit` on a 2-core machine).
// Code shared by test files (and by the campaigns of reliability/) lives in test/support/ only.
const shared = {
	rootDir: __dirname,
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'test/tsconfig.json' }] },
	setupFiles: ['<rootDir>/test/support/jest-setup.js'],
};

const E2E = ['**/*.e2e.test.ts', '**/*.e2e.*.test.ts', '<rootDir>/test/package/**/*.test.ts'];

/** @type {import('jest').Config} */
module.exports = {
	// A budget bounds a hang, never a verdict: scaled for a loaded machine (TEST_TIME_SCALE, test/support/time-scale.js).
	testTimeout: require('./test/support/time-scale').scaled(60_000),
	projects: [
		{
			...shared,
			displayName: 'unit',
			testMatch: ['**/*.test.ts', '**/*.test.js'],
			testPathIgnorePatterns: ['\\.e2e\\.[^/]*$', '<rootDir>/test/package/', '<rootDir>/test/fast/'],
		},
		{ ...shared, displayName: 'fast', roots: ['<rootDir>/test/fast'], testMatch: ['**/*.test.ts'] },
		{ ...shared, displayName: 'e2e', testMatch: E2E },
	],
};
