import { ACCEPTED_CHANCE, shownChance } from '../faults/probability';
import type { RetryEvidence } from '../faults/retries';
import { SEED_ENV } from '../setup/seed';
import type { BadInputResult, FaultScenarioResult, Results } from './results';

const cell = (text: unknown) => String(text ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');
const row = (cells: unknown[]) => `| ${cells.map(cell).join(' | ')} |`;
const table = (header: string[], rows: unknown[][]) => [row(header), row(header.map(() => '---')), ...rows.map(row)].join('\n');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const sumOf = (scenarios: FaultScenarioResult[]) => scenarios.reduce((total, s) => total + s.itemsAttempted, 0);
const othersOf = (scenarios: FaultScenarioResult[]) => [...new Set(scenarios.map((s) => s.otherContacts).filter((n) => n !== undefined))].join(' or ') || 'no';
const times = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const answeredByN8n = (cases: BadInputResult[]) =>
	cases
		.filter((c) => c.answeredBy === 'n8n')
		.map((c) => `${c.title}: ${c.actual.httpStatus}`)
		.join('; ');
const verdict = (failures: string[]) => (failures.length === 0 ? 'pass' : `**FAIL**: ${failures.join('; ')}`);

function faultTable(scenarios: FaultScenarioResult[]): string {
	return table(
		['scenario', 'every item must succeed', 'items', 'succeeded', 'error items', 'unresolved creates', 'done despite the error', 'lost', 'duplicated', 'others touched', 'fault struck', 'requests', 'run time', 'result'],
		scenarios.map((s) => [
			`${s.title} (\`${s.id}\`)`,
			s.rule.everyItemSucceeds ? 'yes' : 'no',
			s.counted === 'records' ? `${s.itemsAttempted} records` : s.itemsAttempted,
			s.succeeded,
			s.errorItems,
			s.unresolvedCreates,
			s.committedDespiteError,
			s.lost,
			s.duplicated,
			s.collateral,
			s.faultsStruck,
			s.requestsSent,
			seconds(s.executionMs),
			verdict(s.failures),
		]),
	);
}

function scenarioDetails(s: FaultScenarioResult): string {
	const lines = [`### ${s.title}`, '', `${s.setup}. Settings: \`${JSON.stringify(s.settings)}\`.`, ''];
	lines.push(`Rule: ${s.rule.why}${s.keyed && s.rule.everyItemSucceeds ? '; keyed creates: no item may be left unresolved' : ''}.`, '');
	if (s.arithmetic) lines.push(`Max Retries: ${s.arithmetic.text}.`, '');
	lines.push(`The fault had to strike at least ${times(s.minStruck.count, 'time', 'times')} (${s.minStruck.why}); it struck ${times(s.faultsStruck, 'time', 'times')}.`, '');
	if (s.outcome) lines.push(`Outcome: **${s.outcome}** — ${s.records?.returned} records returned of ${s.records?.inErp} in the ERP.`, '');
	if (s.evidence) lines.push(`Evidence: \`${JSON.stringify(s.evidence)}\`.`, '');
	if (s.retries && s.retries.struckRequests > 0) lines.push(...retryLines(s.retries));
	if (s.errorMessages.length) {
		lines.push(table(['error (message — description)', 'items'], s.errorMessages.map((m) => [m.message, m.items])), '');
	}
	return lines.join('\n');
}

function retryLines(r: RetryEvidence): string[] {
	const methods = Object.entries(r.byMethod)
		.map(([method, m]) => `${method}: ${m.requests} received, ${m.struck} struck, ${m.sentAgain} of them sent again`)
		.join('; ');
	const lines = [
		`Request log: ${r.struckRequests} requests struck, ${r.retried} of them sent again (${methods}); at most ${times(r.mostStrikesOnOneRequest, 'strike', 'strikes')} on one request.`,
		'',
	];
	if (r.waitsBeforeRetry.length) {
		lines.push(
			table(
				['wait before the same request was sent again', 'times', 'min', 'median', 'max'],
				r.waitsBeforeRetry.map((w) => [`retry ${w.retry}`, w.count, `${w.minMs} ms`, `${w.medianMs} ms`, `${w.maxMs} ms`]),
			),
			'',
		);
	}
	return lines;
}

function caseRows(cases: BadInputResult[]): unknown[][] {
	return cases.map((c) => [
		`${c.title} (\`${c.id}\`)`,
		c.area === 'trigger'
			? `${c.answeredBy === 'n8n' ? "n8n's own answer (the trigger never ran): " : ''}${c.actual.httpStatus}: ${c.actual.message}`
			: `${c.actual.message}${c.actual.description ? ` — ${c.actual.description}` : ''}${c.actual.publishRefused ? ` (n8n refused to publish: ${c.actual.publishRefused}; shown: a manual run)` : ''}`,
		[
			c.expected.httpStatus,
			`/${c.expected.field}/`,
			c.expected.fix === null ? "no fix (n8n's own answer)" : `/${c.expected.fix}/`,
			c.expected.requests && `requests ${JSON.stringify(c.expected.requests)}`,
		]
			.filter((part) => part !== undefined)
			.join(', '),
		c.clear ? 'clear' : `**not clear**: ${c.failures.join('; ')}`,
	]);
}

/** docs/reliability.md: what the suite tried and the figures of this run, from results.json. */
export function reliabilityMarkdown(results: Results): string {
	const { faults, badInputs, secretsScan } = results;
	const node = badInputs.cases.filter((c) => c.area === 'node');
	const trigger = badInputs.cases.filter((c) => c.area === 'trigger');
	const batches = faults.scenarios.filter((s) => s.records === undefined);
	const returnAll = faults.scenarios.filter((s) => s.records !== undefined);
	return `# Reliability and hostile input

Generated by \`npm run test:reliability\` on ${results.generatedAt} against n8n ${results.n8nVersion}; the same figures
are in \`reliability/results.json\`. Do not edit: run the suite again.

Random faults seeded with **${results.seed}**: \`${SEED_ENV}=${results.seed} npm run test:reliability\` draws the same faults
for the same requests (the sandbox decides per request, from the seed, the request and how many times it came
before, so the order in which concurrent requests arrive does not matter; a request the machine's load adds,
such as a retry after a timeout nobody planned, shifts only that request's later draws).

The suite starts a real n8n with this package installed as a community package (packed as npm would publish
it) and the sandbox ERP, then drives the ERP node and the ERP Trigger through n8n's own API and webhooks.
*Succeeded* and *error items* are the ERP node's output items in the executions n8n saved: what the node
reported. *Lost*, *duplicated* and *others touched* check those items against the sandbox's own records and
request log: what the ERP really holds and received. *Fault struck* comes from the request log. The API token, the read-only token, the wrong token and the webhook secret are random
for each run, so that any occurrence of one is a leak.

## Summary

${table(
	['figure', 'value'],
	[
		['fault scenarios', `${faults.scenarios.length} (${batches.length} batches, ${returnAll.length} Return All)`],
		[
			'items attempted',
			`${faults.itemsAttempted}: ${sumOf(batches)} input items of the batches, ${sumOf(returnAll)} of Return All (records read, one output item each, or the one input item of a walk that failed clearly)`,
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
		['hostile inputs tried', badInputs.tried],
		['clear errors', badInputs.clearErrors],
		["of them n8n's own answers (the trigger never ran)", badInputs.cases.filter((c) => c.clear && c.answeredBy === 'n8n').length],
		['crashes', badInputs.crashes],
		['token leaks', results.tokenLeaks ?? 'not scanned'],
	],
)}

## Faults

Each scenario sends its items through Webhook → Split Out → ERP (On Error: Continue) in an active workflow while
the sandbox misbehaves. 5xx answers, HTML pages and dropped connections strike writes *after* the ERP committed
them, the case in which a retried create would write twice; 429s strike before. Besides its random faults, the
sandbox can queue a fault for the requests to one record: that is how a 429 comes without Retry-After, or only
some answers come late. The sandbox is reset before each scenario. Per scenario:

- **items**: batches: the input items, each of which must give exactly one output item paired to it. Return All:
  one input item whose output is one item per contact, so the items are the contacts in the ERP; when the
  node fails clearly instead, the item is that one input item (0 succeeded, 1 error item), so that succeeded
  and error items always add up to the items.
- **succeeded / error items**: the ERP node's output items as n8n saved them: records, or errors (On Error:
  Continue).
- **done despite the error**: error items whose write the ERP did commit (its answer was lost). For creates
  the error must then say that the ERP may have done it; these items are not lost, and a rerun after checking
  is the user's call.
- **lost**: items reported OK that the ERP's records do not bear out: a created contact missing or with
  another e-mail, an update without the new value, a read with another record's data, a deleted contact still
  there (for Return All: records of the ERP missing from the output or output with other data).
- **duplicated**: creates: contacts beyond one per input e-mail; updates, reads and deletes: records that
  appeared; Return All: records output twice.
- **others touched**: records no item was about (${othersOf(batches)} extra contacts for updates, reads and deletes; all of them
  for Return All) that changed or disappeared.
- **fault struck**: how often the fault hit, from the sandbox's request log: 429 answers, faulted answers, and
  answers delayed past the node's timeout.
- **every item must succeed**: the suite's rule, not a scenario's flag. A 429 means the ERP did nothing, so the
  node sends any request again; after an unclear failure (5xx, HTML page, dropped connection, timeout) it sends
  reads, updates and deletes again, but never a create, which the ERP may have saved. So every item must succeed
  unless a fault can leave a create unclear: such an item must end as one error item that says the ERP may have
  done it (**unresolved creates**), and every other item must succeed. Creates of a record with a natural key
  (contacts by e-mail, issue 15) are settled by looking the key up, so there every item must succeed and
  unresolved creates must be 0, unless the lookup fails as surely as the create. In every scenario the error
  items must be exactly the requests whose last attempt the fault struck and that nothing settled.
- **Max Retries**: where every item must succeed, it is chosen so that the chance of some request failing all
  its attempts stays below ${shownChance(ACCEPTED_CHANCE)} per run: with p the chance that one attempt is struck, r the Max
  Retries and n the distinct requests of the run (counted per method from the request log: an update made of
  a GET and a PUT counts twice), 1 − (1 − p^(r+1))^n; faults queued for single records strike for certain and
  take their attempts off r. Each scenario below shows its figures.
- **fault struck** must reach a minimum: for random faults half the strikes expected on the items' first
  attempts (the chance of fewer is shown), faults queued for single records all, anything else once. Without
  Retry-After the median waits before the 1st, 2nd, 3rd… retry of a request must grow.

${faultTable(faults.scenarios)}

${faults.scenarios.map(scenarioDetails).join('\n')}
## Hostile input

A case is **clear** when all of its checks hold:

- node cases: the execution ends in error; the error's message plus description match the field pattern and
  the fix pattern; the ERP received exactly the expected requests (none when the node must catch the mistake
  first); no record changed; no crash (an execution n8n marks crashed, a JavaScript error such as TypeError, a
  message with \`undefined\`, \`NaN\` or \`[object Object]\`, or n8n no longer healthy). Each case runs in an
  active workflow; when n8n refuses to publish it (it checks some parameters itself), the case runs the way the
  editor's *Execute workflow* does and that answer is judged.
- trigger cases: the HTTP status is the expected one; the answer matches the field and fix patterns; no
  workflow run started (after all cases, one valid delivery per trigger is sent and awaited; any run carrying a
  case's marker, or carrying none, fails the case); no crash (no answer, a 5xx, or the signs above). n8n answers
  some requests itself before the trigger runs (${answeredByN8n(trigger)}): those answers are n8n's, not
  the package's, are marked so below, and are judged on status and on naming the problem.

### ERP node (${node.filter((c) => c.clear).length} of ${node.length} clear)

${table(['case', 'answer', 'expected', 'judged'], caseRows(node))}

### ERP Trigger (${trigger.filter((c) => c.clear).length} of ${trigger.length} clear)

${table(['case', 'answer', 'expected', 'judged'], caseRows(trigger))}

## Secrets

${
	secretsScan
		? `Searched for each secret: ${Object.entries(secretsScan.searched)
				.map(([place, size]) => `${place} (${size.toLocaleString('en-US')} characters)`)
				.join(', ')}; ${secretsScan.executions} executions. Found: ${
				secretsScan.leaks.length ? secretsScan.leaks.map((l) => `${l.secret} ${l.occurrences}× in ${l.place}`).join(', ') : 'nothing'
			}. The node wrote "[redacted]" ${secretsScan.redactions} times where an ERP answer echoed the token.`
		: 'The scan did not run.'
}
`;
}
