/**
 * The reliability suite (issue 7): a real n8n with this package and the sandbox ERP under faults and hostile
 * input, at scale. Writes reliability/results.json and docs/reliability.md. Not part of `npm test`:
 * `npm run test:reliability`. The suite is one test file, its tests in order (the secrets scan comes last); a
 * unit test of its counting runs beside it.
 */
module.exports = {
	rootDir: '..',
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/reliability'],
	testMatch: ['**/*.reliability.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/reliability/tsconfig.json' }],
	},
	globalSetup: '<rootDir>/reliability/setup/globalSetup.ts',
	globalTeardown: '<rootDir>/reliability/setup/globalTeardown.ts',
	// A fault scenario drives 1,000 items through n8n; the Return All one reads 20,000 records.
	testTimeout: 15 * 60_000,
	maxWorkers: 1,
};
