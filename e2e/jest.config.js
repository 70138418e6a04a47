/**
 * End-to-end tests: a real n8n (installed by scripts/install-n8n.sh) with this package installed as a
 * community package, and the sandbox ERP. One n8n for the whole run (globalSetup), test files one after the
 * other (run with --runInBand). Not part of `npm test`: `npm run test:e2e`, on the n8n N8N_VERSION names (default
 * the tested 2.x version, e2e/host/tested-n8n.json); `npm run test:e2e:matrix` runs it on each tested line. A full run records itself in docs/e2e-results.json.
 */
module.exports = {
	rootDir: '..',
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/e2e'],
	testMatch: ['**/*.e2e.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/e2e/tsconfig.json' }],
	},
	globalSetup: '<rootDir>/e2e/setup/globalSetup.ts',
	globalTeardown: '<rootDir>/e2e/setup/globalTeardown.ts',
	reporters: ['default', '<rootDir>/e2e/setup/outcomeReporter.js'],
	// Booting n8n (and installing it on a fresh machine) happens in globalSetup, which has no timeout.
	testTimeout: 60_000,
	maxWorkers: 1,
};
