import { counts, paragraphs, type Report, seconds as s, table, withBlocks } from '../../../tooling/host/results';
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
		f.failedItems, f.erp.records, f.erp.missing, f.erp.duplicates, f.requests,
		`${f.refused429} (${f.requests > 0 ? ((100 * f.refused429) / f.requests).toFixed(1) : '0.0'}%)`,
		`${f.seconds.toFixed(2)} s`,
		f.minimumSeconds === null ? '—' : `${f.minimumSeconds.toFixed(0)} s (${(f.seconds / f.minimumSeconds).toFixed(2)}×)`,
	];
}

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
		table(
			['run', 'deliveries', 'retried', 'executions', 'succeeded', 'per worker', 'lost', 'twice', 'worker unrecorded or disputed', 'answer (median / max)', 'deliveries done', 'last execution done'],
			[triggerRow('six events, one by one', r.sixEvents), triggerRow(`${r.burst.deliveries} deliveries, ${r.burst.batch} at a time`, r.burst)],
		),
		`Which worker ran each event: ${Object.entries(r.sixEvents.workers).map(([event, worker]) => `${event} → ${worker}`).join(', ')}.`,
		`The ERP waits ${s(r.erpWebhooks.timeoutMs)} for an answer and otherwise sends the delivery again (after ${r.erpWebhooks.retryDelaysMs.map((ms) => s(ms)).join(', ')}).`,
	);

const importBlock = ({ import: plain, rateLimited }: QueueResults) =>
	paragraphs(
		`Concurrency ${plain.settings.concurrency}, Max Retries ${plain.settings.maxRetries}` +
			(rateLimited.settings.maxRetries === plain.settings.maxRetries ? ', both imports.' : `; the rate-limited import: Max Retries ${rateLimited.settings.maxRetries}.`),
		table(
			['import', 'ERP rate limit', 'executions', 'per worker', 'failed items', 'contacts in the ERP', 'missing', 'duplicates', 'requests to /contacts', 'of them 429', 'time', 'minimum (ratio)'],
			[importRow('2,000 contacts', plain), importRow('2,000 contacts, rate-limited', rateLimited)],
		),
	);

function workerDeath({ workerDeath: d }: QueueResults): string {
	const held = d.killedChunks.map((c) => `${c.erpHeld} of ${c.rows}`).join(', ');
	return paragraphs(
		`\`${d.victim}\` was killed once the ERP held ${d.contactsAtKill} of the 2,000 contacts.`,
		table(['execution', 'status', 'node outputs kept', 'given up after the kill'], d.killed.map((k) => [k.id, k.status, k.nodesKept, s(k.givenUpAfterMs)])),
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
		table(
			['deliveries', 'answered 2xx at the first attempt', 'look-ups the ERP received while main was down', 'executions', 'succeeded', 'per worker', 'ran entirely while main was down'],
			[[m.deliveries, m.acceptedFirstTime, `${m.lookUpsWhileDown} of ${m.contactsCreated}`, m.executions, m.succeeded, counts(m.perWorker), m.ranWhileDown]],
		),
		`Main started again in ${s(m.mainRestartBootMs)} and listed those executions from the shared database.`,
	);

function polling({ polling: p }: QueueResults): string {
	const { publish } = p;
	const ranOn = publish.ranOn.map((name, i) => `${name} (its log; queued by ${publish.queuedBy[i]})`).join(', ');
	return paragraphs(
		table(
			['step', 'contacts created', 'executions', 'per worker'],
			[
				["published: main's activation poll, the baseline", '—', `${publish.executions} (${publish.items} items; node run: ${publish.nodesRun.join(', ')})`, ranOn],
				...p.steps.map((step) => [step.label, step.contactsCreated, step.executions, counts(step.perWorker)]),
			],
		),
		table(
			['contacts', 'reported', 'lost', 'twice', 'executions', "per worker (the steps' executions)", 'queued in Redis by', 'looked up once by their execution', "list scans / main's polls", 'scans while main was down'],
			[
				[
					p.contactsCreated, p.reports, p.lost, p.twice,
					`${p.executions} (${p.succeeded} succeeded; ${publish.executions} at publishing, ${p.emptyAfterPublish} more with no items)`,
					counts(p.perWorker), counts(p.enqueuedBy),
					`${p.lookedUpOnce} (twice: ${p.lookedUpTwice})`,
					`${p.scans} / ${p.mainPolls}`,
					`${p.scansWhileMainDown} in ${s(p.mainDownMs)}`,
				],
			],
		),
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
	if (!c) return 'Not run.';
	return table(
		['real deliveries', 'forged', 'answered 2xx at once', 'answers (all attempts)', 'executions (succeeded)', 'per worker', 'real ones confirmed', 'forged ones confirmed', 'forged ones not confirmed', 'reads of the records named'],
		[[c.real, c.forged, c.answeredFirstTime, counts(c.answers), `${c.executions} (${c.succeeded})`, counts(c.perWorker), c.realConfirmed, c.forgedConfirmed, counts(c.forgedNotConfirmed), c.readBacks]],
	) + (c.couldNotConfirmReasons.length > 0 ? `\n\nAnswered 503 and passed on as could not confirm (${c.couldNotConfirm}): ${c.couldNotConfirmReasons.join('; ')}.` : '');
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
