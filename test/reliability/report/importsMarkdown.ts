import type { ImportScenarioResult, Results } from './results';
import { paragraphs, seconds, table, verdict } from '../../host/results';

const methods = (run: ImportScenarioResult['runs'][number]) =>
	Object.entries(run.requestsByMethod)
		.map(([method, count]) => `${count} ${method}`)
		.join(', ');

function importTable(scenarios: ImportScenarioResult[]): string {
	return table(
		['scenario', 'runs', 'items', 'succeeded', 'error items', 'created', 'updated', 'recovered', 'unresolved creates', 'lost', 'duplicated', 'POSTs for an e-mail the ERP held', 'run time', 'result'],
		scenarios.map((s) => [
			`${s.title} (\`${s.id}\`)`,
			s.runs.length,
			s.itemsAttempted,
			s.succeeded,
			s.errorItems,
			s.created,
			s.updated,
			s.recovered,
			s.unresolvedCreates,
			s.lost,
			s.duplicated,
			s.postsForExistingKeys,
			s.runs.map((run) => seconds(run.executionMs)).join(' + '),
			verdict(s.failures),
		]),
	);
}

function importDetails(s: ImportScenarioResult): string {
	const errors = s.runs.flatMap((run) => run.errorMessages.map((m) => [run.run, m.message, m.items]));
	return paragraphs(
		`### ${s.title}`,
		`Settings: \`${JSON.stringify(s.settings)}\`.`,
		table(['run', 'must', 'observed', 'holds'], s.runs.flatMap((run) => run.checks.map((c) => [run.run, c.must, c.observed, c.holds ? 'yes' : '**no**']))),
		`Request log: ${s.runs.map((run) => `run ${run.run}: ${methods(run)}`).join('; ')}.`,
		errors.length > 0 && table(['run', 'error (message — description)', 'items'], errors),
	);
}

/** The summary rows of the imports. */
export function importSummaryRows({ imports }: Results): unknown[][] {
	const runs = imports.scenarios.reduce((n, s) => n + s.runs.length, 0);
	return [
		['imports (Contact › Create or Update)', `${imports.scenarios.length} scenarios, ${runs} runs, ${imports.itemsAttempted} items`],
		['imports: succeeded', imports.succeeded],
		['imports: error items', imports.errorItems],
		['imports: lost', imports.lost],
		['imports: duplicated', imports.duplicated],
		['imports: unresolved creates (must be 0: contacts have a key)', imports.unresolvedCreates],
		['imports: POSTs for an e-mail the ERP already held', imports.postsForExistingKeys],
	];
}

/** The imports section of docs/reliability.md. */
export function importsMarkdown({ imports }: Results): string {
	return `## Imports (Create or Update)

Each import sends its rows (first name, last name, e-mail) through Webhook → Split Out → ERP (Contact › Create or
Update, Fields mapped automatically from the input items, On Error: Continue) in an active workflow, on a freshly
reset sandbox. The node looks each row's e-mail up (\`GET /contacts?email=…\`), updates the one contact that has
it (\`GET /contacts/{id}\`, then \`PUT\`), or creates it (\`POST /contacts\`), and says which in \`action\`. A create
whose answer a fault replaced after the ERP saved the contact must be settled by looking the e-mail up again
(the item then says \`recovered: true\`), never by sending it again. Faults on creates are queued in the sandbox
per POST, in an order drawn from the run's seed; lookups are never faulted, so every item can be settled and
every item must succeed: unresolved creates (error items that say the ERP may have done it) must be none.

Every row of a run's table below is a check the suite asserts; *observed* comes from the ERP node's output items
as n8n saved them, the sandbox's records and its request log.

${importTable(imports.scenarios)}

${imports.scenarios.map(importDetails).join('\n')}`;
}
