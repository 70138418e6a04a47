/** Unit, sandbox-conformance and in-process n8n tests. End-to-end tests (real n8n) have their own config. */

// Far from UTC (UTC+13 in November), so that a date turned into UTC on the way shows up as the day before.
// Set here, before jest starts its workers: a test cannot change the zone of its own process.
process.env.TZ = process.env.TZ || 'Pacific/Auckland';

module.exports = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
	},
	testTimeout: 30000,
};
