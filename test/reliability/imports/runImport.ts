import { fieldsParameter } from '../../../tooling/host/fields';
import { type ReliabilitySession, scenarioRandom } from '../setup/context';
import { executionMs, settledBatch, sum, sums } from '../support/batch';
import { faultsOfRun, importChecks, type ImportRow, tallyImport } from './tallyImport';
import { createFaultPlan, type ImportScenario, importTitle, queueCreateFaults } from './scenarios';

/** The rows of run `run` (from 1): the same e-mails every run, the first names changed after the first. */
const rowsOf = (s: ImportScenario, run: number): ImportRow[] =>
	Array.from({ length: s.rows }, (_, i) => ({
		first_name: run === 1 ? `Row${i}` : `Row${i} (run ${run})`,
		last_name: 'Imported',
		email: `${s.id}-${i}@reliability.example`,
	}));

/** Contact › Create or Update with Fields mapped automatically from the input items, as an import sets it up. */
const upsertParameters = (s: ImportScenario) => ({
	resource: 'contact',
	operation: 'upsert',
	columns: fieldsParameter('contact', null, 'autoMapInputData'),
	options: s.options,
});

/** One run of an import: its counts, and the checks it was judged by. */
async function importOnce(session: ReliabilitySession, s: ImportScenario, run: number) {
	const rows = rowsOf(s, run);
	const before = await session.sandbox.records('contacts');
	const faults = faultsOfRun(s, run).map(({ fault }) => fault);
	const random = scenarioRandom(session.ctx.faultSeed, s.id);
	const prepare = async () => faults.length && (await queueCreateFaults(session, createFaultPlan(rows.length, faults, random)));
	const batch = await settledBatch(session, `${s.id}-run-${run}`, upsertParameters(s), rows, 'contacts', { prepare });
	const tally = tallyImport(rows, batch.run.items, before, batch.after, batch.requests);
	const { status } = batch.run.execution;
	/** run: 1 for the first. */
	return { run, ...tally, executionStatus: status, executionMs: executionMs(batch.run.execution), checks: importChecks(s, run, tally, status) };
}

/**
 * Runs one import on a freshly reset sandbox, as often as the scenario says, and judges every run. Totals over
 * all runs: rows imported (rows × runs) and what became of them; duplicated: after the last run, contacts beyond
 * one per row's e-mail.
 */
export async function runImportScenario(session: ReliabilitySession, s: ImportScenario) {
	await session.sandbox.reset();
	if (s.otherContacts) await session.sandbox.seed({ contacts: s.otherContacts });
	const runs: Array<Awaited<ReturnType<typeof importOnce>>> = [];
	for (let run = 1; run <= s.runs; run++) runs.push(await importOnce(session, s, run));
	return {
		id: s.id,
		title: importTitle(s),
		settings: {
			rows: s.rows,
			runs: s.runs,
			otherContacts: s.otherContacts,
			...(s.createFaults ? { createFaults: s.createFaults, seed: session.ctx.faultSeed } : {}),
			nodeOptions: s.options,
		},
		runs,
		itemsAttempted: sum(runs, 'rows'),
		...sums(runs, ['succeeded', 'errorItems', 'created', 'updated', 'recovered', 'unresolvedCreates', 'lost', 'postsForExistingKeys'] as const),
		duplicated: runs[runs.length - 1].duplicated,
		failures: runs.flatMap((r) => r.checks.filter((c) => !c.holds).map((c) => `run ${r.run}: ${c.must}; observed ${c.observed}`)),
	};
}
