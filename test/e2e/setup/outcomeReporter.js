/**
 * Hands the run's test counts to globalTeardown (same process; Jest calls onRunComplete before globalTeardown),
 * which records them in docs/e2e-results.json. Plain JavaScript: Jest loads reporters without transforming them.
 */
class OutcomeReporter {
	constructor(globalConfig) {
		// A run of some files or some tests (a path or -t pattern) is no full run to record.
		this.partial = Boolean(globalConfig.testPathPattern || globalConfig.testNamePattern);
	}

	onRunComplete(_contexts, results) {
		const { numPassedTests: passed, numFailedTests, numRuntimeErrorTestSuites, numTotalTests: total } = results;
		globalThis.n8nErpE2eOutcome = { partial: this.partial, tests: { passed, failed: numFailedTests + numRuntimeErrorTestSuites, total } };
	}
}

module.exports = OutcomeReporter;
