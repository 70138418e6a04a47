import { fieldsParameter } from '../../../tooling/host/fields';
import { type ReliabilitySession, scenarioRandom } from '../setup/context';
import { type BatchRun, runBatch, settle, sum } from '../support/batch';
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
	let batch: BatchRun;
	let settled: number;
	try {
		if (faults.length) await queueCreateFaults(session, createFaultPlan(rows.length, faults, scenarioRandom(session.ctx.faultSeed, s.id)));
		batch = await runBatch(session, `${s.id}-run-${run}`, upsertParameters(s), rows);
	} finally {
		settled = await settle(session);
	}
	const after = await session.sandbox.records('contacts');
	const requests = (await session.sandbox.requests(batch.since)).filter((r) => r.seq < settled);
	const tally = tallyImport(rows, batch.items, before, after, requests);
	const { errorMessages, ...counts } = tally;
	const { status, startedAt, stoppedAt } = batch.execution;
	return {
		/** 1 for the first run. */
		run,
		...counts,
		executionStatus: status,
		executionMs: stoppedAt ? Date.parse(stoppedAt) - Date.parse(startedAt) : -1,
		checks: importChecks(s, run, tally, status),
		errorMessages: Object.entries(errorMessages).map(([message, items]) => ({ message, items })).sort((a, b) => b.items - a.items),
	};
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
		succeeded: sum(runs, 'succeeded'),
		errorItems: sum(runs, 'errorItems'),
		created: sum(runs, 'created'),
		updated: sum(runs, 'updated'),
		recovered: sum(runs, 'recovered'),
		unresolvedCreates: sum(runs, 'unresolvedCreates'),
		lost: sum(runs, 'lost'),
		duplicated: runs[runs.length - 1].duplicated,
		postsForExistingKeys: sum(runs, 'postsForExistingKeys'),
		failures: runs.flatMap((r) => r.checks.filter((c) => !c.holds).map((c) => `run ${r.run}: ${c.must}; observed ${c.observed}`)),
	};
}
