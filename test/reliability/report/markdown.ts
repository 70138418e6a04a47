import { ACCEPTED_CHANCE, type RetryEvidence, shownChance } from '../faults/chains';
import { SEED_ENV } from '../setup/context';
import { sum } from '../support/batch';
import { confirmationChecks } from '../confirmations/tallyConfirmations';
import { eventsChecks } from '../events/tallyEvents';
import type { ConfirmationScenarioResult } from '../confirmations/runConfirmations';
import type { EventsOnceResult } from '../events/runEventsOnce';
import type { BadInputResult, FaultScenarioResult, ImportScenarioResult, PollingScenarioResult, Results } from './results';
import { paragraphs, type Report, seconds, table, times, verdict, withBlocks } from '../../../tooling/host/results';

const itemsOf = (scenarios: FaultScenarioResult[]) => sum(scenarios, 'itemsAttempted');
const errorTable = (first: string[], rows: unknown[][]) => table([...first, 'error (message — description)', 'items'], rows);
const checkTable = (checks: Array<[string, number]>) => table(['check', 'must be', 'counted'], checks.map(([what, counted]) => [what, 0, counted]));
const ran = <T>(result: T | null, block: (result: T) => string) => (result ? block(result) : 'The scenario did not run.');
const exampleList = (examples: string[]) => examples.length > 0 && examples.map((example) => `- ${example}`).join('\n');

function summaryTable({ faults, imports, polling, confirmations, events, badInputs, tokenLeaks }: Results): string {
	const batches = faults.scenarios.filter((s) => s.records === undefined);
	const returnAll = faults.scenarios.filter((s) => s.records !== undefined);
	const importRuns = imports.scenarios.reduce((n, s) => n + s.runs.length, 0);
	const changes = polling?.changes;
	return table(
		['figure', 'value'],
		[
			['fault scenarios', `${faults.scenarios.length} (${batches.length} batches, ${returnAll.length} Return All)`],
			[
				'items attempted',
				`${faults.itemsAttempted}: ${itemsOf(batches)} input items of the batches, ${itemsOf(returnAll)} of Return All (records read, one output item each, or the one input item of a walk that failed clearly)`,
			],
			['succeeded', faults.succeeded],
			['error items (On Error: Continue)', faults.errorItems],
			['lost (reported OK, not in the ERP)', faults.lost],
			['duplicated (written twice)', faults.duplicated],
			['unresolved creates (error items that say the ERP may have done it)', faults.unresolvedCreates],
			[
				'chance that a scenario where every item must succeed fails by bad luck',
				`${shownChance(faults.chanceOfAnUnluckyFailure)} (the sum over those scenarios; each is designed below ${shownChance(ACCEPTED_CHANCE)})`,
			],
			['imports (Contact › Create or Update)', `${imports.scenarios.length} scenarios, ${importRuns} runs, ${imports.itemsAttempted} items`],
			['imports: succeeded', imports.succeeded],
			['imports: error items', imports.errorItems],
			['imports: lost', imports.lost],
			['imports: duplicated', imports.duplicated],
			['imports: unresolved creates (must be 0: contacts have a key)', imports.unresolvedCreates],
			['imports: POSTs for an e-mail the ERP already held', imports.postsForExistingKeys],
			...(polling && changes
				? [
						['polling trigger: changes made', `${changes.creates + changes.updates + changes.deletes} (${changes.creates} creates, ${changes.updates} updates, ${changes.deletes} deletes)`],
						['polling trigger: polls (under faults, failed)', `${polling.polls} (${polling.pollsUnderFaults}, ${polling.failedPolls})`],
						['polling trigger: items reported', polling.reported],
						['polling trigger: missed', polling.missed],
						['polling trigger: reported twice', polling.twice],
						['polling trigger: wrong', polling.wrong],
					]
				: [['polling trigger', 'not run']]),
			...(confirmations
				? [
						['ERP Trigger confirmation: real deliveries', `${confirmations.real.deliveries} (${confirmations.real.confirmed} confirmed, ${confirmations.real.couldNotConfirm} passed on as could not confirm)`],
						['ERP Trigger confirmation: real ones lost', confirmations.real.lost],
						['ERP Trigger confirmation: forged deliveries', confirmations.forged.deliveries],
						['ERP Trigger confirmation: forged ones on Confirmed', confirmations.forged.confirmed],
						['ERP Trigger confirmation: confirmed twice', confirmations.startedTwice],
					]
				: [['ERP Trigger confirmation', 'not run']]),
			...(events
				? [
						['events acted once: real payments', `${events.real.events} (${events.real.byWebhook} acted on by the ERP Trigger, ${events.real.byPoll} by the poll)`],
						['events acted once: lost', events.real.lost],
						['events acted once: acted twice', events.real.actedTwice],
						['events acted once: forged ones acted on', events.forged.acted],
					]
				: [['events acted once', 'not run']]),
			['hostile inputs tried', badInputs.tried],
			['clear errors', badInputs.clearErrors],
			["of them n8n's own answers (the trigger never ran)", badInputs.cases.filter((c) => c.clear && c.answeredBy === 'n8n').length],
			['crashes', badInputs.crashes],
			['token leaks', tokenLeaks ?? 'not scanned'],
		],
	);
}

/** The block `reliability:confirmations`: the run's settings, its counts and its verdict. */
function confirmationBlock(c: ConfirmationScenarioResult): string {
	return paragraphs(
		`Settings: \`${JSON.stringify(c.settings)}\`. This run took **${seconds(c.wallMs)}** (preparing the records included); ` +
			`${c.faultsStruck} API requests were struck by a fault; the trigger sent ${c.requestsPerDelivery} API requests per delivery. ` +
			`${c.resent ?? 0} real deliveries answered other than 2xx on both of the sandbox's attempts were sent again (same id, same bytes), as an ERP that retries would; each counts once.`,
		table(
			['deliveries', 'sent', 'confirmed', 'could not confirm (never confirmed)', 'contradicted', 'unconfirmable', 'on no output', 'first answer 503'],
			[
				['real', c.real.deliveries, c.real.confirmed, c.real.couldNotConfirm, c.real.refused, '', c.real.lost, c.real.answered503],
				['forged', c.forged.deliveries, c.forged.confirmed, c.forged.couldNotConfirm, c.forged.contradicted, c.forged.unconfirmable, c.forged.unseen, ''],
			],
		),
		checkTable(confirmationChecks(c, c.tokenLeaks)),
		`Executions: ${c.executions} (${c.errorExecutions} ended in an error). Result: ${verdict(c.failures)}.`,
		exampleList(c.examples),
	).trimEnd();
}

/** The block `reliability:events`: the run's settings, its counts and its verdict. */
function eventsBlock(e: EventsOnceResult): string {
	return paragraphs(
		`Settings: \`${JSON.stringify(e.settings)}\`. This run took **${seconds(e.wallMs)}** (its own n8n's boot and restart included); ` +
			`${e.faultsStruck} API requests were struck by a fault. Sent again: ${e.sent.replayed} delivered payments replayed with a new timestamp and delivery id, ` +
			`${e.sent.resent} resent with the same id; ${e.sent.heldAnswered} deliveries were answered and held when n8n was killed.`,
		checkTable(eventsChecks(e, e.tokenLeaks)),
		`Payments acted on once: ${e.real.actedOnce} of ${e.real.events}, ${e.real.byWebhook} first reported by the ERP Trigger and ${e.real.byPoll} by the ERP Polling Trigger. ` +
			`The ${e.forged.invoices} forged deliveries cost the ERP ${e.forged.invoices === 0 ? 0 : Math.round((e.forgedReads.total / e.forged.invoices) * 10) / 10} reads each on average, ${e.forgedReads.most} at most (retries of reads the faults struck included). ` +
			`Executions: ${e.executions}. Result: ${verdict(e.failures)}.`,
		exampleList(e.examples),
	).trimEnd();
}

function faultTable(scenarios: FaultScenarioResult[]): string {
	return table(
		['scenario', 'every item must succeed', 'items', 'succeeded', 'error items', 'unresolved creates', 'done despite the error', 'lost', 'duplicated', 'others touched', 'fault struck', 'requests', 'run time', 'result'],
		scenarios.map((s) => [
			`${s.title} (\`${s.id}\`)`,
			s.rule.everyItemSucceeds ? 'yes' : 'no',
			s.counted === 'records' ? `${s.itemsAttempted} records` : s.itemsAttempted,
			s.succeeded, s.errorItems, s.unresolvedCreates, s.committedDespiteError, s.lost, s.duplicated, s.collateral, s.faultsStruck, s.requestsSent,
			seconds(s.executionMs),
			verdict(s.failures),
		]),
	);
}

const scenarioDetails = (s: FaultScenarioResult) =>
	paragraphs(
		`### ${s.title}`,
		`${s.setup}. Settings: \`${JSON.stringify(s.settings)}\`.`,
		`Rule: ${s.rule.why}${s.keyed && s.rule.everyItemSucceeds ? '; keyed creates: no item may be left unresolved' : ''}.`,
		s.arithmetic && `Max Retries: ${s.arithmetic.text}.`,
		`The fault had to strike at least ${times(s.minStruck.count, 'time', 'times')} (${s.minStruck.why}); it struck ${times(s.faultsStruck, 'time', 'times')}.`,
		s.outcome && `Outcome: **${s.outcome}** — ${s.records?.returned} records returned of ${s.records?.inErp} in the ERP.`,
		s.evidence && `Evidence: \`${JSON.stringify(s.evidence)}\`.`,
		...(s.retries && s.retries.struckRequests > 0 ? retryParts(s.retries) : []),
		s.errorMessages.length > 0 && errorTable([], s.errorMessages.map((m) => [m.message, m.items])),
	);

function retryParts(r: RetryEvidence): Array<string | false> {
	const methods = Object.entries(r.byMethod)
		.map(([method, m]) => `${method}: ${m.requests} received, ${m.struck} struck, ${m.sentAgain} of them sent again`)
		.join('; ');
	const waits = r.waitsBeforeRetry.map((w) => [`retry ${w.retry}`, w.count, `${w.minMs} ms`, `${w.medianMs} ms`, `${w.maxMs} ms`]);
	return [
		`Request log: ${r.struckRequests} requests struck, ${r.retried} of them sent again (${methods}); at most ${times(r.mostStrikesOnOneRequest, 'strike', 'strikes')} on one request.`,
		waits.length > 0 && table(['wait before the same request was sent again', 'times', 'min', 'median', 'max'], waits),
	];
}

function importTable(scenarios: ImportScenarioResult[]): string {
	return table(
		['scenario', 'runs', 'items', 'succeeded', 'error items', 'created', 'updated', 'recovered', 'unresolved creates', 'lost', 'duplicated', 'POSTs for an e-mail the ERP held', 'run time', 'result'],
		scenarios.map((s) => [
			`${s.title} (\`${s.id}\`)`,
			s.runs.length, s.itemsAttempted, s.succeeded, s.errorItems, s.created, s.updated, s.recovered, s.unresolvedCreates, s.lost, s.duplicated,
			s.postsForExistingKeys,
			s.runs.map((run) => seconds(run.executionMs)).join(' + '),
			verdict(s.failures),
		]),
	);
}

function importDetails(s: ImportScenarioResult): string {
	const methods = (byMethod: Record<string, number>) => Object.entries(byMethod).map(([method, count]) => `${count} ${method}`);
	const errors = s.runs.flatMap((run) => run.errorMessages.map((m) => [run.run, m.message, m.items]));
	return paragraphs(
		`### ${s.title}`,
		`Settings: \`${JSON.stringify(s.settings)}\`.`,
		table(['run', 'must', 'observed', 'holds'], s.runs.flatMap((run) => run.checks.map((c) => [run.run, c.must, c.observed, c.holds ? 'yes' : '**no**']))),
		`Request log: ${s.runs.map((run) => `run ${run.run}: ${methods(run.requestsByMethod).join(', ')}`).join('; ')}.`,
		errors.length > 0 && errorTable(['run'], errors),
	);
}

function pollingSetup(p: PollingScenarioResult): string {
	const e = p.settings.episodes;
	return paragraphs(
		`Options › *Max Retries* ${p.settings.maxRetries}; the value watched: \`${p.settings.watchedValue}\`; ${p.contacts.baseline} contacts seeded.`,
		`Faults for ${seconds(p.settings.faultyPhaseMs)}: \`${JSON.stringify(p.settings.faults)}\`. ` +
			`Changes made under faults: ${e.create} creates, ${e.createThenUpdate} creates updated at once, ` +
			`${e.createUpdateDelete} created, updated and deleted, ${e.createThenDelete} created and deleted, ${e.createWithValue} created at the value, ` +
			`${e.update} company updates, ${e.updateTwice} updated twice, ${e.updateAndBack} changed and changed back, ` +
			`${e.updateToValue} set to the value (never left afterwards), ${e.delete} deletes.`,
		`This run took **${seconds(p.wallMs)}** from activation to the second sentinel.`,
	).trimEnd();
}

function pollingResults(p: PollingScenarioResult): string {
	const workflows = table(
		['workflow', 'polls', 'under faults', 'failed', 'executions with items', 'items reported', 'missed', 'twice', 'wrong', 'last poll reported'],
		p.workflows.map((w) => [
			`${w.title} (\`${w.key}\`)`,
			w.polls, w.pollsUnderFaults, w.failedPolls, w.executionsWithItems, w.reported, w.missed, w.twice, w.wrong,
			w.lastPollItems.join(', ') || '(none)',
		]),
	);
	const errors = p.workflows.flatMap((w) => w.errorMessages.map((m) => [w.key, m.message, m.polls]));
	const examples = p.workflows.flatMap((w) => w.examples.map((x) => [w.key, x]));
	return paragraphs(
		`Of the trigger's ${p.requests.sent} GET requests under faults, ${p.requests.struck} were struck and ${p.requests.failedForGood} struck again on their retry. ` +
			`The chance that no poll fails was at most ${shownChance(p.chanceNoPollFails)}.`,
		`Changes made: ${p.changes.creates} creates (the 2 sentinels included), ${p.changes.updates} updates, ${p.changes.deletes} deletes; ` +
			`${p.contacts.final} contacts at the end. Result: ${verdict(p.failures)}.`,
		workflows,
		errors.length > 0 && table(['workflow', 'failed poll (error message)', 'polls'], errors),
		examples.length > 0 && table(['workflow', 'problem'], examples),
	).trimEnd();
}

function casesTable(cases: BadInputResult[]): string {
	const rows = cases.map((c) => [
		`${c.title} (\`${c.id}\`)`,
		c.area === 'trigger'
			? `${c.answeredBy === 'n8n' ? "n8n's own answer (the trigger never ran): " : ''}${c.actual.httpStatus}: ${c.actual.message}`
			: `${c.actual.message}${c.actual.description ? ` — ${c.actual.description}` : ''}${c.actual.publishRefused ? ` (n8n refused to publish: ${c.actual.publishRefused}; shown: a manual run)` : ''}`,
		[c.expected.httpStatus, `/${c.expected.field}/`, c.expected.fix === null ? "no fix (n8n's own answer)" : `/${c.expected.fix}/`, c.expected.requests && `requests ${JSON.stringify(c.expected.requests)}`]
			.filter((part) => part !== undefined)
			.join(', '),
		c.clear ? 'clear' : `**not clear**: ${c.failures.join('; ')}`,
	]);
	return `**${cases.filter((c) => c.clear).length} of ${cases.length} clear.**\n\n${table(['case', 'answer', 'expected', 'judged'], rows)}`;
}

function secrets({ secretsScan: scan }: Results): string {
	if (!scan) return 'The scan did not run.';
	const searched = Object.entries(scan.searched).map(([place, size]) => `${place} (${size.toLocaleString('en-US')} characters)`);
	const found = scan.leaks.map((l) => `${l.secret} ${l.occurrences}× in ${l.place}`);
	return (
		`Searched for each secret: ${searched.join(', ')}; ${scan.executions} executions. Found: ${found.join(', ') || 'nothing'}. ` +
		`The node wrote "[redacted]" ${scan.redactions} times where an ERP answer echoed the token.`
	);
}

/** The generated blocks of docs/reliability.md, from results.json; the prose around them is the document's own. */
export function reliabilityMarkdown(results: Results, doc: string): string {
	const { polling, badInputs } = results;
	return withBlocks(doc, {
		'reliability:run':
			`Last full run: ${results.generatedAt}, against n8n ${results.n8nVersion}. ` +
			`Random faults seeded with **${results.seed}**: \`${SEED_ENV}=${results.seed} npm run test:reliability\` draws them again.`,
		'reliability:summary': summaryTable(results),
		'reliability:faults': `${faultTable(results.faults.scenarios)}\n\n${results.faults.scenarios.map(scenarioDetails).join('\n').trimEnd()}`,
		'reliability:imports': `${importTable(results.imports.scenarios)}\n\n${results.imports.scenarios.map(importDetails).join('\n').trimEnd()}`,
		'reliability:polling-setup': ran(polling, pollingSetup),
		'reliability:polling': ran(polling, pollingResults),
		'reliability:confirmations': ran(results.confirmations, confirmationBlock),
		'reliability:events': ran(results.events ?? null, eventsBlock),
		'reliability:node-cases': casesTable(badInputs.cases.filter((c) => c.area === 'node')),
		'reliability:trigger-cases': casesTable(badInputs.cases.filter((c) => c.area === 'trigger')),
		'reliability:secrets': secrets(results),
	});
}

/** test/reliability/results.json (read by tooling) and docs/reliability.md; a partial run (jest -t) writes results.partial.json only. */
export const reliabilityReport: Report<Results> = {
	json: 'test/reliability/results.json',
	partialJson: 'test/reliability/results.partial.json',
	doc: 'docs/reliability.md',
	markdown: reliabilityMarkdown,
};
