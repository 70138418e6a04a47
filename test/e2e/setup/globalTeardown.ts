import { existsSync, readFileSync } from 'node:fs';

import { n8nLine } from '../../host/lines';
import { roundTripsFile } from './context';
import { recordRun, summarize } from './results';

interface Outcome {
	partial: boolean;
	passed: number;
	failed: number;
	total: number;
}

declare global {
	// Set by outcomeReporter.js, which runs in this process before globalTeardown.
	var n8nErpE2eOutcome: Outcome | undefined;
}

/**
 * Records a full run in docs/e2e-results.json and docs/compatibility.md, then stops n8n (its whole process group)
 * and the sandbox and deletes the user folder unless it was asked for (once: after the run, or on a signal).
 */
export default async function globalTeardown(): Promise<void> {
	const stack = globalThis.n8nErpE2eStack;
	const outcome = globalThis.n8nErpE2eOutcome;
	globalThis.n8nErpE2eStack = undefined;
	if (stack && outcome && !outcome.partial) {
		const tripsFile = roundTripsFile(stack.userFolder);
		const samples = existsSync(tripsFile) ? (JSON.parse(readFileSync(tripsFile, 'utf8')) as number[]) : [];
		const { version, nodeVersion } = stack.install;
		recordRun({
			n8n: version,
			line: n8nLine(version).name,
			node: nodeVersion,
			date: new Date().toISOString().slice(0, 10),
			tests: { passed: outcome.passed, failed: outcome.failed, total: outcome.total },
			roundTrips: samples.length > 0 ? summarize(samples) : null,
		});
		process.stderr.write(`[e2e] recorded this run of n8n ${version} in docs/e2e-results.json and docs/compatibility.md\n`);
	}
	await stack?.stop();
}
