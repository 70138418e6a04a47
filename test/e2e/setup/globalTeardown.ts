import { existsSync, readFileSync } from 'node:fs';

import stopStarted from '../../../tooling/host/globalTeardown';
import { n8nLine } from '../../../tooling/host/lines';
import type { Stack } from '../../../tooling/host/stack';
import { recordRun, roundTripsFile, summarize, type E2eRun } from './results';

declare global {
	// Set by outcomeReporter.js, which runs in this process before globalTeardown.
	var n8nErpE2eOutcome: { partial: boolean; tests: E2eRun['tests'] } | undefined;
}

/** Records a full run in docs/e2e-results.json and docs/compatibility.md, then stops n8n and the sandbox (once: after the run, or on a signal). */
export default async function globalTeardown(): Promise<void> {
	const stack = globalThis.n8nErpStarted as Stack | undefined;
	const outcome = globalThis.n8nErpE2eOutcome;
	if (stack && outcome && !outcome.partial) {
		const tripsFile = roundTripsFile(stack.userFolder);
		const samples = existsSync(tripsFile) ? (JSON.parse(readFileSync(tripsFile, 'utf8')) as number[]) : [];
		const { version, nodeVersion } = stack.install;
		recordRun({
			n8n: version,
			line: n8nLine(version).name,
			node: nodeVersion,
			date: new Date().toISOString().slice(0, 10),
			tests: outcome.tests,
			roundTrips: samples.length > 0 ? summarize(samples) : null,
		});
		process.stderr.write(`[e2e] recorded this run of n8n ${version} in docs/e2e-results.json and docs/compatibility.md\n`);
	}
	await stopStarted();
}
