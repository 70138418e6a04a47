import { sum } from '../support/sum';
import type { BadInputResult, FaultScenarioResult, ImportScenarioResult, PollingScenarioResult, Results, SecretsScan, Totals } from './results';

const totals = (scenarios: Totals[]): Totals => ({
	itemsAttempted: sum(scenarios, 'itemsAttempted'),
	succeeded: sum(scenarios, 'succeeded'),
	errorItems: sum(scenarios, 'errorItems'),
	lost: sum(scenarios, 'lost'),
	duplicated: sum(scenarios, 'duplicated'),
	unresolvedCreates: sum(scenarios, 'unresolvedCreates'),
});

/** The figures tooling reads: totals over the fault scenarios, the imports, the polling trigger and the hostile inputs, and the leaks found. */
export function assembleResults(
	n8nVersion: string,
	seed: number,
	scenarios: FaultScenarioResult[],
	imports: ImportScenarioResult[],
	polling: PollingScenarioResult | null,
	cases: BadInputResult[],
	secretsScan: SecretsScan | null,
): Results {
	return {
		generatedAt: new Date().toISOString(),
		n8nVersion,
		seed,
		faults: {
			...totals(scenarios),
			chanceOfAnUnluckyFailure: scenarios.reduce((total, s) => total + (s.arithmetic?.chance ?? 0), 0),
			scenarios,
		},
		imports: {
			...totals(imports),
			postsForExistingKeys: sum(imports, 'postsForExistingKeys'),
			scenarios: imports,
		},
		polling,
		badInputs: {
			tried: cases.length,
			clearErrors: cases.filter((c) => c.clear).length,
			crashes: cases.filter((c) => c.crash).length,
			cases,
		},
		tokenLeaks: secretsScan ? secretsScan.leaks.reduce((total, leak) => total + leak.occurrences, 0) : null,
		secretsScan,
	};
}
