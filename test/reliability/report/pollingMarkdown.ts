import { shownChance } from '../faults/probability';
import type { PollingScenarioResult, Results } from './results';
import { seconds, table, verdict } from '../../host/results';

/** The summary rows of the polling scenario. */
export function pollingSummaryRows({ polling }: Results): unknown[][] {
	if (!polling) return [['polling trigger', 'not run']];
	const { changes: c } = polling;
	return [
		['polling trigger: changes made', `${c.creates + c.updates + c.deletes} (${c.creates} creates, ${c.updates} updates, ${c.deletes} deletes)`],
		['polling trigger: polls (under faults, failed)', `${polling.polls} (${polling.pollsUnderFaults}, ${polling.failedPolls})`],
		['polling trigger: items reported', polling.reported],
		['polling trigger: missed', polling.missed],
		['polling trigger: reported twice', polling.twice],
		['polling trigger: wrong', polling.wrong],
	];
}

function workflowTable(p: PollingScenarioResult): string {
	return table(
		['workflow', 'polls', 'under faults', 'failed', 'executions with items', 'items reported', 'missed', 'twice', 'wrong', 'last poll reported'],
		p.workflows.map((w) => [
			`${w.title} (\`${w.key}\`)`,
			w.polls,
			w.pollsUnderFaults,
			w.failedPolls,
			w.executionsWithItems,
			w.reported,
			w.missed,
			w.twice,
			w.wrong,
			w.lastPollItems.join(', ') || '(none)',
		]),
	);
}

/** The polling section of docs/reliability.md. */
export function pollingMarkdown({ polling: p }: Results): string {
	if (!p) return '## Polling trigger\n\nThe scenario did not run.\n';
	const e = p.settings.episodes as Record<string, number>;
	const errors = p.workflows.flatMap((w) => w.errorMessages.map((m) => [w.key, m.message, m.polls]));
	const examples = p.workflows.flatMap((w) => w.examples.map((x) => [w.key, x]));
	return `## Polling trigger

Four active workflows, each an **ERP Polling Trigger** on contacts (Options › *Max Retries* ${String(p.settings.maxRetries)}): *Record Added
or Updated* with *Fields to Watch* \`company\`, polled every minute with page size 100, again with page size 5
(about 60 requests a poll, so that nearly every poll under faults fails), and again with page size 20 and two
*Poll Times* entries that fall on the same second (n8n then starts two polls together every minute, on one
memory); and *Field Becomes a Value*: company becomes \`${String(p.settings.watchedValue)}\` (every minute, page size 50). The sandbox
is reset and seeded with ${p.contacts.baseline} contacts; the workflows are activated (their baseline poll, without faults). Then,
for ${seconds(p.settings.faultyPhaseMs as number)}, the sandbox's seeded random faults strike every API request
(\`${JSON.stringify(p.settings.faults)}\`; struck before the ERP commits, so the scenario sends its own struck writes
again) while changes are made through the API, spread evenly, one contact's changes one right after the other:
${e.create} creates, ${e.createThenUpdate} creates updated at once, ${e.createUpdateDelete} created, updated and deleted, ${e.createThenDelete} created and deleted,
${e.createWithValue} created at the value, ${e.update} company updates, ${e.updateTwice} updated twice, ${e.updateAndBack} changed and changed back, ${e.updateToValue} set to the
value (never left afterwards), ${e.delete} deletes. The faults go off; a sentinel contact (at the value) is created and
awaited until every workflow has reported it (a clean poll has caught up), then a second one, which the next
poll must report alone.

n8n 2.41 refuses poll intervals under a minute, so the test waits: the ${seconds(p.settings.faultyPhaseMs as number)} of changes, then up
to 150 s for each sentinel (the next poll of each workflow, about a minute); this run took **${seconds(p.wallMs)}** from
activation to the second sentinel.

Every item of every execution is judged against the ERP's contacts at the baseline and at the end and the
changes the scenario made:

- **missed**: a contact created that still exists and was never reported as created; a contact whose last
  reported company (baseline, created item, or the last update's \`changes.company.current\`) is not the one the
  ERP holds; an update whose \`previous\` is not the value last reported (a change in between went unreported);
  for the value workflow, a contact that took the value, kept it and was never reported.
- **twice**: a contact reported as created twice, or as created though it was in the baseline; the same company
  reported twice in a row; a contact reported by a poll that began (the item's \`timestamp\`) after its
  deletion; for the value workflow, a contact reported more than once.
- **wrong**: an item about something that did not happen (a value the contact never took, an unknown contact).
- **polls**: the polls n8n began after the baseline (at debug level n8n logs each poll's start with the
  workflow's name); **under faults**: begun while the faults were on. **failed**: n8n 2.41 saves each failed poll as an
  execution with status *error* (the trigger's error after its retries), counted from n8n; a successful poll
  that finds nothing starts no execution. The sandbox's request log shows the faults behind them: of the trigger's ${p.requests.sent} GET requests under
  faults, ${p.requests.struck} were struck and ${p.requests.failedForGood} struck again on their retry (each fails its poll; several can
  strike one poll, and a failing poll may leave a struck request without its retry).
- At least one poll must fail, or the run did not test failed polls. The chance that none fails is at most
  ${shownChance(p.chanceNoPollFails)}: a successful poll reads at least every page of the fewest contacts the ERP held
  (the baseline minus the deletes), each page failing for good with p^(1 + Max Retries), p the chance that a fault
  strikes one attempt.

Changes made: ${p.changes.creates} creates (the 2 sentinels included), ${p.changes.updates} updates, ${p.changes.deletes} deletes; ${p.contacts.final} contacts at
the end. Result: ${verdict(p.failures)}.

${workflowTable(p)}
${errors.length ? `\n${table(['workflow', 'failed poll (error message)', 'polls'], errors)}\n` : ''}${examples.length ? `\n${table(['workflow', 'problem'], examples)}\n` : ''}`;
}
