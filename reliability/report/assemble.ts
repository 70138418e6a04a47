import type { BadInputResult, FaultScenarioResult, Results, SecretsScan } from './results';

const sum = (scenarios: FaultScenarioResult[], field: 'itemsAttempted' | 'succeeded' | 'errorItems' | 'lost' | 'duplicated' | 'unresolvedCreates') =>
	scenarios.reduce((total, scenario) => total + scenario[field], 0);

/** The figures tooling reads: totals over the fault scenarios and the hostile inputs, and the leaks found. */
export function assembleResults(
	n8nVersion: string,
	seed: number,
	scenarios: FaultScenarioResult[],
	cases: BadInputResult[],
	secretsScan: SecretsScan | null,
): Results {
	return {
		generatedAt: new Date().toISOString(),
		n8nVersion,
		seed,
		faults: {
			itemsAttempted: sum(scenarios, 'itemsAttempted'),
			succeeded: sum(scenarios, 'succeeded'),
			errorItems: sum(scenarios, 'errorItems'),
			lost: sum(scenarios, 'lost'),
			duplicated: sum(scenarios, 'duplicated'),
			unresolvedCreates: sum(scenarios, 'unresolvedCreates'),
			chanceOfAnUnluckyFailure: scenarios.reduce((total, s) => total + (s.arithmetic?.chance ?? 0), 0),
			scenarios,
		},
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
