/**
 * The queue-mode suite (issue 16): n8n main, two workers and a webhook processor with Redis and PostgreSQL,
 * all started by globalSetup as this run's own processes. One test file, its scenarios in order (a worker is
 * killed and main stopped on the way). Writes queue/results.json and docs/queue-mode.md. `npm run test:queue`.
 */
module.exports = {
	rootDir: '..',
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/queue'],
	testMatch: ['**/*.queue.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/queue/tsconfig.json' }],
	},
	globalSetup: '<rootDir>/queue/setup/globalSetup.ts',
	globalTeardown: '<rootDir>/queue/setup/globalTeardown.ts',
	// Booting the cluster (and installing what is missing) happens in globalSetup, which has no timeout.
	testTimeout: 10 * 60_000,
	maxWorkers: 1,
};
