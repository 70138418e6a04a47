import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { Machine } from '../../../bench/machine';
import type { Summary as BenchSummary } from '../../../bench/summary';
import { REPO_ROOT } from '../../../tooling/host/paths';
import type { ClusterOptions, ClusterTimings } from '../../../tooling/host/queue/cluster';
import { counts, paragraphs, type Report, seconds as s, table, withBlocks } from '../../../tooling/host/results';
import type { ImportFigures, killWorkerDuringImport } from '../scenarios/import';
import type { bothTriggersInTheCluster, confirmationInTheCluster, deliveryBurst, eventsWhileMainDown, pollingInTheCluster, sixEvents, TriggerFigures } from '../scenarios/triggers';

type Figures<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>;

export interface QueueResults {
	date: string;
	n8n: string;
	machine: Machine;
	cluster: ClusterTimings & { lock: ClusterOptions['lock'] };
	/** How long the ERP waits for n8n's answer to a delivery, and its retry delays. */
	erpWebhooks: { timeoutMs: number; retryDelaysMs: number[] };
	/** Wall time of each part of the suite. */
	partsMs: Record<string, number>;
	sixEvents: Figures<typeof sixEvents>;
	burst: Figures<typeof deliveryBurst>;
	confirmation: Figures<typeof confirmationInTheCluster>;
	bothTriggers: Figures<typeof bothTriggersInTheCluster>;
	import: ImportFigures;
	rateLimited: ImportFigures;
	workerDeath: Figures<typeof killWorkerDuringImport>;
	mainDown: Figures<typeof eventsWhileMainDown>;
	polling: Figures<typeof pollingInTheCluster>;
	singleProcess: ReturnType<typeof singleProcessFigures>;
}

/** The same work in one n8n process (regular mode, SQLite), from the benchmark's last run (bench/summary.json). */
export function singleProcessFigures() {
	const bench = JSON.parse(readFileSync(path.join(REPO_ROOT, 'bench', 'summary.json'), 'utf8')) as BenchSummary;
	const { bulkCreate, rateLimited } = bench.workloads;
	return {
		date: bench.date,
		bulkCreate: { items: bulkCreate.items, concurrency: bulkCreate.concurrency, seconds: bulkCreate.erpNode_s },
		rateLimited: {
			items: rateLimited.items, limitPerSecond: rateLimited.limit_rps, minimumSeconds: rateLimited.theoreticalMin_s,
			seconds: rateLimited.erpNode_s, failed: rateLimited.erpNode_failed, duplicates: rateLimited.erpNode_duplicates,
		},
	};
}

/** A table of rows given as `{header: cell}`, each cell next to its header; the first row's headers are the table's. */
const tableOf = (...rows: Array<Record<string, unknown>>) => table(Object.keys(rows[0] ?? {}), rows.map((row) => Object.values(row)));

const triggerRow = (run: string, f: TriggerFigures) => ({
	run, deliveries: f.deliveries, retried: f.retriedDeliveries, executions: f.executions, succeeded: f.succeeded, 'per worker': counts(f.perWorker), lost: f.lost, twice: f.twice,
	'worker unrecorded or disputed': f.workerMismatches, 'answer (median / max)': `${s(f.answerMs.median)} / ${s(f.answerMs.max)}`, 'deliveries done': s(f.deliveryMs), 'last execution done': s(f.totalMs),
});

const importRow = (label: string, f: ImportFigures) => ({
	import: label,
	'ERP rate limit': f.rateLimit ? `${f.rateLimit.limit} per ${f.rateLimit.windowMs / 1000} s` : 'none',
	executions: `${f.executions} (${f.succeeded} succeeded, at most ${f.atOnce} at once)`,
	'per worker': counts(f.perWorker),
	'failed items': f.failedItems, 'contacts in the ERP': f.erp.records, missing: f.erp.missing, duplicates: f.erp.duplicates, 'requests to /contacts': f.requests,
	'of them 429': `${f.refused429} (${f.requests > 0 ? ((100 * f.refused429) / f.requests).toFixed(1) : '0.0'}%)`,
	time: `${f.seconds.toFixed(2)} s`,
	'minimum (ratio)': f.minimumSeconds === null ? '—' : `${f.minimumSeconds.toFixed(0)} s (${(f.seconds / f.minimumSeconds).toFixed(2)}×)`,
});

const cluster = ({ cluster: c, machine: m, ...r }: QueueResults) =>
	paragraphs(
		`Run ${r.date.slice(0, 16).replace('T', ' ')} UTC: n8n ${r.n8n} on Node ${m.n8nNode} (suite and sandbox on Node ${m.benchNode}),\n` +
			`${m.cpu}, ${m.cores} cores, ${m.memory_gb} GB, ${m.os}; 1-minute load ${m.loadAvg.start} at the start, ${m.loadAvg.end ?? '?'} at the end.`,
		table(
			['step', 'time'],
			[
				['install check (n8n cache, Redis and PostgreSQL present)', s(c.installCheckMs)],
				['build and `npm pack`', s(c.buildMs)],
				['Redis and PostgreSQL started (initdb included), side by side', s(c.servicesMs)],
				...Object.entries(c.bootMs).map(([name, ms]) => [`boot of n8n ${name} to \`/healthz/readiness\``, s(ms)]),
				['n8n cluster, from main started to the last process ready (main first, then the others together)', s(c.n8nMs)],
			],
		),
		`Bull's lock for a running job: ${c.lock.durationMs / 1000} s, renewed every ${c.lock.renewMs / 1000} s, ` +
			`stalled jobs checked every ${c.lock.stalledIntervalMs / 1000} s.`,
	);

const trigger = (r: QueueResults) =>
	paragraphs(
		tableOf(triggerRow('six events, one by one', r.sixEvents), triggerRow(`${r.burst.deliveries} deliveries, ${r.burst.batch} at a time`, r.burst)),
		`Which worker ran each event: ${Object.entries(r.sixEvents.workers).map(([event, worker]) => `${event} → ${worker}`).join(', ')}.`,
		`The ERP waits ${s(r.erpWebhooks.timeoutMs)} for an answer and otherwise sends the delivery again (after ${r.erpWebhooks.retryDelaysMs.map((ms) => s(ms)).join(', ')}).`,
	);

const importBlock = ({ import: plain, rateLimited }: QueueResults) =>
	paragraphs(
		`Concurrency ${plain.settings.concurrency}, Max Retries ${plain.settings.maxRetries}` +
			(rateLimited.settings.maxRetries === plain.settings.maxRetries ? ', both imports.' : `; the rate-limited import: Max Retries ${rateLimited.settings.maxRetries}.`),
		tableOf(importRow('2,000 contacts', plain), importRow('2,000 contacts, rate-limited', rateLimited)),
	);

function workerDeath({ workerDeath: d }: QueueResults): string {
	const held = d.killedChunks.map((c) => `${c.erpHeld} of ${c.rows}`).join(', ');
	return paragraphs(
		`\`${d.victim}\` was killed once the ERP held ${d.contactsAtKill} of the 2,000 contacts.`,
		tableOf(...d.killed.map((k) => ({ execution: k.id, status: k.status, 'node outputs kept': k.nodesKept, 'given up after the kill': s(k.givenUpAfterMs) }))),
		'The message n8n shows on each:',
		[...new Set(d.killed.map((k) => `> ${k.message}`))].join('\n'),
		[
			`- **What the ERP holds**: of the rows of each killed execution, ${held} contacts (written before the kill, once each). ` +
				`In all, ${d.import.erp.records} of the import's 2,000 contacts, ${d.import.erp.duplicates} twice.`,
			`- **The other worker carried on**: \`${d.survivor.name}\` finished ${d.survivor.succeeded} of its ${d.survivor.executions} executions, 0 failed items.`,
			`- **Retry**: n8n's *Retry* on each killed execution (${d.retry.executions} retries): ${counts(d.retry.statuses)}; ` +
				`the ERP received ${d.retry.erpRequests} requests meanwhile.`,
			`- **Sending the rows again**: ${d.resend.succeeded} of ${d.resend.executions} executions succeeded (${counts(d.resend.perWorker)}); ` +
				`per row, ${counts(d.resend.outcomes)}. ` +
				`The ERP then holds every contact (${d.resend.erp.missing} missing) and **${d.resend.erp.duplicates} duplicates**: ` +
				`the ${d.resend.writtenBeforeDeath} contacts the killed executions had written before dying were found by their e-mail and updated, not created again.`,
			`- The killed worker started again in ${s(d.restartBootMs)} and took work again (the main-down part below).`,
		].join('\n'),
	);
}

const mainDown = ({ mainDown: m }: QueueResults) =>
	paragraphs(
		`Main's graceful shutdown took ${s(m.mainStopMs)}; then ${m.contactsCreated} contacts were created.`,
		tableOf({
			deliveries: m.deliveries, 'answered 2xx at the first attempt': m.acceptedFirstTime, 'look-ups the ERP received while main was down': `${m.lookUpsWhileDown} of ${m.contactsCreated}`,
			executions: m.executions, succeeded: m.succeeded, 'per worker': counts(m.perWorker), 'ran entirely while main was down': m.ranWhileDown,
		}),
		`Main started again in ${s(m.mainRestartBootMs)} and listed those executions from the shared database.`,
	);

function polling({ polling: p }: QueueResults): string {
	const { publish } = p;
	const ranOn = publish.ranOn.map((name, i) => `${name} (its log; queued by ${publish.queuedBy[i]})`).join(', ');
	return paragraphs(
		tableOf(
			{ step: "published: main's activation poll, the baseline", 'contacts created': '—', executions: `${publish.executions} (${publish.items} items; node run: ${publish.nodesRun.join(', ')})`, 'per worker': ranOn },
			...p.steps.map((step) => ({ step: step.label, 'contacts created': step.contactsCreated, executions: step.executions, 'per worker': counts(step.perWorker) })),
		),
		tableOf({
			contacts: p.contactsCreated, reported: p.reports, lost: p.lost, twice: p.twice,
			executions: `${p.executions} (${p.succeeded} succeeded; ${publish.executions} at publishing, ${p.emptyAfterPublish} more with no items)`,
			"per worker (the steps' executions)": counts(p.perWorker), 'queued in Redis by': counts(p.enqueuedBy),
			'looked up once by their execution': `${p.lookedUpOnce} (twice: ${p.lookedUpTwice})`,
			"list scans / main's polls": `${p.scans} / ${p.mainPolls}`,
			'scans while main was down': `${p.scansWhileMainDown} in ${s(p.mainDownMs)}`,
		}),
		`Main's scans came ${p.scanGapsS.min.toFixed(1)}–${p.scanGapsS.max.toFixed(1)} s apart. Main was down ${s(p.mainDownMs)} and back in ${s(p.mainRestartBootMs)}; ` +
			`the killed worker was started again in ${s(p.workerRestartBootMs)}, before the next step.`,
	);
}

function comparison(r: QueueResults): string {
	const { date, bulkCreate, rateLimited } = r.singleProcess;
	const ratio = (seconds: number, minimum: number) => `${seconds.toFixed(2)} s / ${minimum} s = ${(seconds / minimum).toFixed(2)}×`;
	return paragraphs(
		`Benchmark run ${date.slice(0, 10)}.`,
		table(
			['work', 'one process (benchmark, median)', 'queue mode (this run)'],
			[
				[
					'2,000 contacts created, no rate limit',
					`${bulkCreate.seconds.toFixed(2)} s (one execution, Concurrency ${bulkCreate.concurrency})`,
					`${r.import.seconds.toFixed(2)} s (20 executions of 100 over two workers, Concurrency ${r.import.settings.concurrency} each)`,
				],
				[
					'against the rate limit: time / minimum',
					`${ratio(rateLimited.seconds, rateLimited.minimumSeconds)} (${rateLimited.items} contacts at ${rateLimited.limitPerSecond}/s, one execution)`,
					`${ratio(r.rateLimited.seconds, r.rateLimited.minimumSeconds ?? 1)} (2,000 contacts at ${r.rateLimited.rateLimit?.limit}/s, 20 executions)`,
				],
				['failed items, duplicates under the limit', `${rateLimited.failed}, ${rateLimited.duplicates}`, `${r.rateLimited.failedItems}, ${r.rateLimited.erp.duplicates}`],
			],
		),
	);
}

function confirmation({ confirmation: c }: QueueResults): string {
	return tableOf({
		'real deliveries': c.real, forged: c.forged, 'answered 2xx at once': c.answeredFirstTime, 'answers (all attempts)': counts(c.answers), 'executions (succeeded)': `${c.executions} (${c.succeeded})`,
		'per worker': counts(c.perWorker), 'real ones confirmed': c.realConfirmed, 'forged ones confirmed': c.forgedConfirmed, 'forged ones not confirmed': counts(c.forgedNotConfirmed), 'reads of the records named': c.readBacks,
	}) + (c.couldNotConfirmReasons.length > 0 ? `\n\nAnswered 503 and passed on as could not confirm (${c.couldNotConfirm}): ${c.couldNotConfirmReasons.join('; ')}.` : '');
}

const parts = (r: QueueResults) => `Wall time of each part of this run: ${Object.entries(r.partsMs).map(([name, ms]) => `${name} ${s(ms)}`).join(', ')}.`;

/** The generated blocks of docs/queue-mode.md, from results.json; the prose around them is the document's own. */
export function queueMarkdown(r: QueueResults, doc: string): string {
	const blocks = { cluster, trigger, confirmation, import: importBlock, 'worker-death': workerDeath, 'main-down': mainDown, polling, comparison, parts };
	return withBlocks(doc, Object.fromEntries(Object.entries(blocks).map(([name, block]) => [`queue:${name}`, block(r).trimEnd()])));
}

/** test/queue/results.json (every figure) and docs/queue-mode.md, written after a full run that passed; a partial (jest -t) or failed one writes results.partial.json. */
export const queueReport: Report<QueueResults> = {
	json: 'test/queue/results.json',
	partialJson: 'test/queue/results.partial.json',
	doc: 'docs/queue-mode.md',
	markdown: queueMarkdown,
};
