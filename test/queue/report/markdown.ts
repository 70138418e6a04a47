import { counts, seconds as s, table, type Report } from '../../host/results';
import type { ImportFigures } from '../scenarios/import';
import type { TriggerFigures } from '../scenarios/trigger';
import type { QueueResults } from './results';

function triggerRow(label: string, f: TriggerFigures): unknown[] {
	const answers = `${s(f.answerMs.median)} / ${s(f.answerMs.max)}`;
	return [label, f.deliveries, f.retriedDeliveries, f.executions, f.succeeded, counts(f.perWorker), f.lost, f.twice, f.workerMismatches, answers, s(f.deliveryMs), s(f.totalMs)];
}

function importRow(label: string, f: ImportFigures): unknown[] {
	return [
		label,
		f.rateLimit ? `${f.rateLimit.limit} per ${f.rateLimit.windowMs / 1000} s` : 'none',
		`${f.executions} (${f.succeeded} succeeded, at most ${f.atOnce} at once)`,
		counts(f.perWorker),
		f.failedItems,
		f.erp.records,
		f.erp.missing,
		f.erp.duplicates,
		f.requests,
		f.refused429,
		`${f.seconds.toFixed(2)} s`,
		f.minimumSeconds === null ? '—' : `${f.minimumSeconds.toFixed(0)} s (${(f.seconds / f.minimumSeconds).toFixed(2)}×)`,
	];
}

const IMPORT_HEADER = ['import', 'ERP rate limit', 'executions', 'per worker', 'failed items', 'contacts in the ERP', 'missing', 'duplicates', 'requests to /contacts', 'of them 429', 'time', 'minimum (ratio)'];

const clusterSection = ({ cluster: c, machine: m, ...r }: QueueResults) => `## The cluster

Run ${r.date.slice(0, 16).replace('T', ' ')} UTC: n8n ${r.n8n} on Node ${m.n8nNode} (suite and sandbox on Node ${m.benchNode}),
${m.cpu}, ${m.cores} cores, ${m.memory_gb} GB, ${m.os}; 1-minute load ${m.loadAvg.start} at the start, ${m.loadAvg.end ?? '?'} at the end.

${table(
	['step', 'time'],
	[
		['install check (n8n cache, Redis and PostgreSQL present)', s(c.installCheckMs)],
		['build and `npm pack`', s(c.buildMs)],
		['Redis and PostgreSQL started (initdb included), side by side', s(c.servicesMs)],
		...Object.entries(c.bootMs).map(([name, ms]) => [`boot of n8n ${name} to \`/healthz/readiness\``, s(ms)]),
		['n8n cluster, from main started to the last process ready (main first, then the others together)', s(c.n8nMs)],
	],
)}

Bull's lock for a running job: ${c.lock.durationMs / 1000} s, renewed every ${c.lock.renewMs / 1000} s, stalled jobs checked every
${c.lock.stalledIntervalMs / 1000} s (n8n's defaults: 60 s, 10 s, 30 s; shorter here only so that a dead worker's executions are given up sooner).
`;

const triggerSection = (r: QueueResults) => `## ERP Trigger through the webhook processor

An active workflow *ERP Trigger (all six events) → Worker*. First each event once, then
${r.burst.deliveries} deliveries ${r.burst.batch} at a time (each batch delivered before the next), the six events in turn.

${table(
	['run', 'deliveries', 'retried', 'executions', 'succeeded', 'per worker', 'lost', 'twice', 'worker unrecorded or disputed', 'answer (median / max)', 'deliveries done', 'last execution done'],
	[triggerRow('six events, one by one', r.sixEvents), triggerRow(`${r.burst.deliveries} deliveries, ${r.burst.batch} at a time`, r.burst)],
)}

Which worker ran each event: ${Object.entries(r.sixEvents.workers).map(([event, worker]) => `${event} → ${worker}`).join(', ')}.

*Answer* is the webhook processor's answer to a delivery's first attempt. The ERP waits ${s(r.erpWebhooks.timeoutMs)} for it and
otherwise sends the delivery again (after ${r.erpWebhooks.retryDelaysMs.map((ms) => s(ms)).join(', ')}), and each delivery n8n receives starts an execution:
the ERP Trigger does not deduplicate by \`X-Erp-Delivery\`, in queue mode as in one process. While this suite was
built, with the sandbox's default of 5 s and the machine shared with other test suites (load 5 to 12), 79 of
200 deliveries were answered too late, sent again, and ran twice. Give the webhook processor CPU of its own, and
make a workflow that must not run twice check the delivery ID.
`;

const importSection = (r: QueueResults) => `## An import spread over the workers

An active workflow *Webhook (answers at once) → Split Out → ERP Contact › Create (Map Automatically, On Error:
Continue, Concurrency ${r.import.settings.concurrency}, Max Retries ${r.import.settings.maxRetries}) → Worker*, called 20 times at once with 100 rows each on the webhook
processor: 20 executions, queued in Redis, run by whichever worker takes them.

${table(IMPORT_HEADER, [importRow('2,000 contacts', r.import), importRow('2,000 contacts, rate-limited', r.rateLimited)])}

The rate limit is the ERP's, per token: every worker sends with the same credential, so all share one window.
Each execution learns the window from \`X-RateLimit-Remaining\` and 429s with \`Retry-After\` and waits; none
knows of the others, so they are refused more often than one execution alone: the rate-limited import runs with Max Retries ${r.rateLimited.settings.maxRetries}
(at 5, one run lost 24 of its 2,000 items to six refusals in a row). With it, no item is lost.
`;

function deathSection({ workerDeath: d }: QueueResults): string {
	const held = d.killedChunks.map((c) => `${c.erpHeld} of ${c.rows}`).join(', ');
	const messages = [...new Set(d.killed.map((k) => `> ${k.message}`))].join('\n');
	return `## A worker killed in the middle of an import

The rate-limited import again, with **Contact › Create or Update** (it looks each e-mail up first, so it can be run
again). Once the ERP held ${d.contactsAtKill} of its 2,000 contacts, \`${d.victim}\` and its task runner got
SIGKILL (no shutdown: a crash, the OOM killer, a lost machine). What n8n did with the executions it was running:

${table(
	['execution', 'status', 'node outputs kept', 'given up after the kill'],
	d.killed.map((k) => [k.id, k.status, k.nodesKept, s(k.givenUpAfterMs)]),
)}

The message n8n shows on each:

${messages}

- **n8n gives them up, and keeps nothing of them.** Bull's lock on each job runs out, n8n runs jobs with
  \`maxStalledCount: 0\`, so a stalled job is failed rather than handed to another worker; the execution is
  saved as failed with the message above (n8n's log: *job stalled more than maxStalledCount*), and its data
  is replaced by that error: no node output, not even the input the webhook received. With the suite's lock
  settings this took the time above; with n8n's defaults (60 s lock, stalled check every 30 s) expect more.
- **What the ERP holds**: of the rows of each killed execution, ${held} contacts (written before the kill, once
  each). In all, ${d.import.erp.records} of the import's 2,000 contacts, ${d.import.erp.duplicates} twice.
- **The other worker carried on**: \`${d.survivor.name}\` finished ${d.survivor.succeeded} of its ${d.survivor.executions} executions, 0 failed items.
- **Retry does not help**: n8n's *Retry* on each killed execution (${d.retry.executions} retries) has nothing to run: ${counts(d.retry.statuses)},
  and the ERP received ${d.retry.erpRequests} requests meanwhile.
- **Sending the rows again** (the source calls the webhook once more with each killed execution's rows; n8n no
  longer has them): ${d.resend.succeeded} of ${d.resend.executions} executions succeeded (${counts(d.resend.perWorker)}); per row, ${counts(d.resend.outcomes)}.
  The ERP then holds every contact (${d.resend.erp.missing} missing) and **${d.resend.erp.duplicates} duplicates**: the ${d.resend.writtenBeforeDeath} contacts the killed
  executions had written before dying were found by their e-mail and updated, not created again.
- With Contact › Create instead, the same re-run creates those contacts a second time: measured while this
  suite was built (before Create or Update existed), 316 duplicates, exactly the 316 contacts written before
  the kill. Use Create or Update (or Create If New) for anything a failure may make you run again.
- The killed worker started again in ${s(d.restartBootMs)} and took work again (the main-down part below).
`;
}

const mainDownSection = ({ mainDown: m }: QueueResults) => `## Main down

Main stopped (SIGTERM, its graceful shutdown: ${s(m.mainStopMs)}). Then ${m.contactsCreated} contacts were created through the ERP's
API; the ERP delivered each \`contact.created\` to the webhook processor, and a workflow (ERP Trigger → Worker → ERP Contact › Get)
looked each contact up in the ERP.

${table(
	['deliveries', 'answered 2xx at the first attempt', 'look-ups the ERP received while main was down', 'executions', 'succeeded', 'per worker', 'ran entirely while main was down'],
	[[m.deliveries, m.acceptedFirstTime, `${m.lookUpsWhileDown} of ${m.contactsCreated}`, m.executions, m.succeeded, counts(m.perWorker), m.ranWhileDown]],
)}

Main started again in ${s(m.mainRestartBootMs)} and listed those executions from the shared database.
`;

const pollingSection = ({ polling: p }: QueueResults) => `## ERP Polling Trigger: polls on main, executions on workers

An active workflow *ERP Polling Trigger (contacts, Record Added, every minute) → Worker → ERP Contact › Get*.
Contacts were created through the ERP's API in four steps; after each, the suite waited for the executions that
report them (one poll a minute: up to 75 s each), and at the end for one more poll, which must report nothing.

${table(
	['step', 'contacts created', 'executions', 'per worker'],
	p.steps.map((step) => [step.label, step.contactsCreated, step.executions, counts(step.perWorker)]),
)}

${table(
	['contacts', 'reported', 'lost', 'twice', 'executions', 'per worker', 'queued in Redis by', 'looked up once by their execution', "list scans / main's polls", 'scans while main was down'],
	[
		[
			p.contactsCreated,
			p.reports,
			p.lost,
			p.twice,
			`${p.executions} (${p.succeeded} succeeded)`,
			counts(p.perWorker),
			counts(p.enqueuedBy),
			`${p.lookedUpOnce} (twice: ${p.lookedUpTwice})`,
			`${p.scans} / ${p.mainPolls}`,
			`${p.scansWhileMainDown} in ${s(p.mainDownMs)}`,
		],
	],
)}

**Where polls run.** n8n registers a polling trigger's poll times on the main process only (the leader; with
multi-main, one of them), never on a worker or a webhook processor. At each poll time main calls \`poll()\`, and
when it returns items main saves the trigger's memory (the workflow's static data, in PostgreSQL) and queues an
execution holding those items in Redis; a worker runs the rest of the workflow with them (it does not poll again).
So the ERP's list requests come from main, one scan per poll whatever the number of workers (here: every scan
was one of main's logged polls, ${p.scanGapsS.min.toFixed(1)}–${p.scanGapsS.max.toFixed(1)} s apart), and only the workflow's later nodes scale with the workers.
While main is down nothing polls (here ${s(p.mainDownMs)}, no scan, workers and webhook processor up); the restarted
main's activation poll (main back in ${s(p.mainRestartBootMs)}) reported what was created meanwhile, once. A worker killed between polls
loses nothing: the next poll's execution ran on the other worker (the killed one was started again in ${s(p.workerRestartBootMs)} before the next step).
A worker killed *while running* a polled execution takes that execution with it, as in the import above (n8n keeps
no input of it), and main's memory has already moved past those records: they are not reported again (not measured
here; it follows from the two behaviours measured). After a worker crash, look for failed executions of polling
workflows: their records are still in the ERP, but no poll will report them again.
`;

function comparisonSection(r: QueueResults): string {
	const { bulkCreate, rateLimited } = r.singleProcess;
	return `## Against one n8n process

The benchmark (\`npm run bench\`, run ${r.singleProcess.date.slice(0, 10)}) does the same work in one n8n process (regular mode, SQLite):

${table(
	['work', 'one process (benchmark, median)', 'queue mode (this run)'],
	[
		[
			'2,000 contacts created, no rate limit',
			`${bulkCreate.seconds.toFixed(2)} s (one execution, Concurrency ${bulkCreate.concurrency})`,
			`${r.import.seconds.toFixed(2)} s (20 executions of 100 over two workers, Concurrency ${r.import.settings.concurrency} each)`,
		],
		[
			'against the rate limit: time / minimum',
			`${rateLimited.seconds.toFixed(2)} s / ${rateLimited.minimumSeconds} s = ${(rateLimited.seconds / rateLimited.minimumSeconds).toFixed(2)}× (${rateLimited.items} contacts at ${rateLimited.limitPerSecond}/s, one execution)`,
			`${r.rateLimited.seconds.toFixed(2)} s / ${r.rateLimited.minimumSeconds} s = ${(r.rateLimited.seconds / (r.rateLimited.minimumSeconds ?? 1)).toFixed(2)}× (2,000 contacts at ${r.rateLimited.rateLimit?.limit}/s, 20 executions)`,
		],
		['failed items, duplicates under the limit', `${rateLimited.failed}, ${rateLimited.duplicates}`, `${r.rateLimited.failedItems}, ${r.rateLimited.erp.duplicates}`],
	],
)}

This machine has ${r.machine.cores} cores, shared by PostgreSQL, Redis, four n8n processes with their task runners, the sandbox
and the suite. Queue mode here proves correctness and shows its overheads (a job through Redis, execution data
through PostgreSQL, each webhook call its own execution); it is **not a throughput claim**. Workers add
throughput when each has cores of its own; against a rate-limited ERP nothing beats the limit.
`;
}

/** docs/queue-mode.md: setup, method and the figures of the last full run. */
export const queueMarkdown = (r: QueueResults) => `# n8n queue mode: the package on main, workers and a webhook processor

\`npm run test:queue\` (this file is written by it; numbers below are from its last full run) starts, as processes
of its own on free loopback ports in a temporary folder: Redis and PostgreSQL from the Debian packages
(installed with \`apt-get install -y redis-server postgresql\` when missing and the suite runs as root; otherwise
it stops and names that command), the sandbox ERP, and n8n in queue mode: **main** (\`n8n start\`), **two workers**
(\`n8n worker\`, concurrency 10 each, n8n's default) and **one webhook processor** (\`n8n webhook\`), with one
encryption key, one database, one Redis, each process with its own user folder holding this package in
\`.n8n/nodes/node_modules/n8n-nodes-erp\` (as n8n installs community packages) and its own task-runner broker
port. The ERP posts its events to the webhook processor, never to main. On exit, on failure and on Ctrl-C the
suite stops exactly the processes it started (found by their process groups and a run id in their environment)
and checks that none of them and none of their ports is left. \`npm run test:queue:smoke\` is the smaller run CI
makes.

${[clusterSection, triggerSection, importSection, deathSection, mainDownSection, pollingSection, comparisonSection].map((section) => section(r)).join('\n')}
## How each figure is measured

- **Which worker ran an execution**: the workflows end in a Set node writing \`{{ $env.N8N_ERP_QUEUE_PROCESS }}\`,
  the name each n8n process is started with (\`N8N_BLOCK_ENV_ACCESS_IN_NODE=false\`), so the execution records it;
  the workers' logs (\`Worker started execution N\`) are the second witness, and the only one for an execution
  whose worker died. The two must agree for every finished execution.
- **Deliveries** are the sandbox's own log: attempts and answers per delivery. A retried delivery could start a
  second execution, so every delivery must be answered at its first attempt.
- **Executions** come from the public API of main (\`/api/v1/executions\`, all pages, with data); *lost* and
  *twice* compare the events sent (their name, or a number each delivery carries) with the trigger output of
  the executions.
- **Contacts** are counted in the sandbox's store by the e-mail each row carries: missing and duplicates are
  the ERP's state, never what n8n reports. *Failed items* are the import node's error items (On Error: Continue).
- **Times** run from the first webhook call or event to the last execution's \`stoppedAt\` (n8n's clock, same
  machine). The minimum under a rate limit is contacts / limit: no client can be faster.
- **Which process polled**: main runs with \`N8N_LOG_LEVEL=debug\` and logs each poll (*Poll trigger initiated for
  workflow …*); the ERP's request log holds each list scan (a \`GET /contacts\` of the first page). After the
  activation's baseline the two counts must be equal, and no scan may come while main is down. Each process's
  \`Enqueued execution N\` log line names the process that queued an execution in Redis.
- Boot times run from the process spawned to its \`/healthz/readiness\` answering 200 (workers serve it with
  \`QUEUE_HEALTH_CHECK_ACTIVE=true\`).

Wall time of each part of this run: ${Object.entries(r.partsMs)
	.map(([name, ms]) => `${name} ${s(ms)}`)
	.join(', ')}.
`;

/** test/queue/results.json (every figure) and docs/queue-mode.md (for people), written after a full run only. */
export const queueReport: Report<QueueResults> = { json: 'test/queue/results.json', doc: 'docs/queue-mode.md', markdown: queueMarkdown };
