/**
 * Every test suite, one project each; run them through the npm scripts, which select one:
 * - unit (`npm test`): units, the sandbox against the API document, and the nodes inside n8n-core (in-process);
 * - e2e (`npm run test:e2e`): a real n8n with this package installed, one n8n for the run (its globalSetup);
 * - reliability (`npm run test:reliability`): a real n8n under faults and hostile input, at scale;
 * - queue (`npm run test:queue`): n8n main, two workers and a webhook processor;
 * - editor (`npm run test:editor`): the n8n editor in headless Chromium, with a screenshot of each failure.
 * The real-n8n suites start their processes through tooling/host and run their files one after the other
 * (--runInBand). Each script sets its suite's --testTimeout (booting n8n happens in globalSetup, untimed); a flag
 * after --selectProjects also ends its list, so that `npm test -- <path>` selects files, not projects.
 */

// Far from UTC (UTC+13 in November), so that a date turned into UTC on the way shows up as the day before.
// Set here, before jest starts its workers: a test cannot change the zone of its own process.
process.env.TZ = process.env.TZ || 'Pacific/Auckland';

const ts = { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }] };

/** A suite that runs against processes its globalSetup starts and its globalTeardown stops. */
const realN8n = (name, testMatch) => ({
	displayName: name,
	testEnvironment: 'node',
	transform: ts,
	roots: [`<rootDir>/test/${name}`],
	testMatch: [testMatch],
	globalSetup: `<rootDir>/test/${name}/setup/globalSetup.ts`,
	globalTeardown: '<rootDir>/tooling/host/globalTeardown.ts',
});

module.exports = {
	// Hands e2e's test counts to its globalTeardown (docs/e2e-results.json); a no-op for the other suites.
	reporters: ['default', '<rootDir>/test/e2e/setup/outcomeReporter.js'],
	projects: [
		{
			displayName: 'unit',
			testEnvironment: 'node',
			transform: ts,
			roots: ['<rootDir>/test'],
			testMatch: ['**/*.test.ts'],
			testPathIgnorePatterns: ['\\.(e2e|reliability|queue|editor)\\.test\\.ts$'],
		},
		{ ...realN8n('e2e', '**/*.e2e.test.ts'), globalTeardown: '<rootDir>/test/e2e/setup/globalTeardown.ts' },
		realN8n('reliability', '**/*.reliability.test.ts'),
		realN8n('queue', '**/*.queue.test.ts'),
		{ ...realN8n('editor', '**/*.editor.test.ts'), testEnvironment: '<rootDir>/test/editor/setup/screenshotEnvironment.ts' },
	],
};
