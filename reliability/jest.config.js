// The full reliability run (issue #7): `npm run reliability` → docs/reliability.md.
// Campaign slices with small fixed seeds run inside `npm test` from test/reliability/.
/** @type {import('jest').Config} */
module.exports = {
	rootDir: '..',
	testEnvironment: 'node',
	roots: ['<rootDir>/reliability'],
	testMatch: ['**/reliability/*.run.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'test/tsconfig.json' }] },
	setupFiles: ['<rootDir>/test/support/jest-setup.js'],
	testTimeout: 60 * 60_000,
};
