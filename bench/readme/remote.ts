import { REMOTE_CATEGORIES } from '../profile/categories';
import { remotesOf, type RemoteSummary, type RemoteWorkloadSummary, type Summary } from '../summary';
import { count, RATE_HEADER, RATE_RULE, rateCells, s, sweepLine } from './format';

const x = (value: number | undefined) => (value === undefined ? '—' : `${value.toFixed(2)}×`);
const maybe = (seconds: number | undefined) => (seconds === undefined ? '—' : s(seconds));
const WORKLOADS = ['listAll', 'bulkCreate', 'mixed'] as const;

function row(label: string, latencyMs: number, w: RemoteWorkloadSummary): string {
	const p = w.peakInFlight;
	return (
		`| ${label} | ${latencyMs} ms | ${s(w.erpNode_s)} | ${maybe(w.floor_s)} | ${s(w.httpRequestNodeBatching_s)} | ${s(w.httpRequestNode_s)} | ${s(w.rawClient_s)} | ` +
		`${x(w.ratios.erpNodeVsFloor)} | ${x(w.ratios.erpNodeVsRawClient)} | ${x(w.ratios.erpNodeVsHttpRequestNodeBatching)} | ${x(w.ratios.httpRequestNodeVsErpNode)} | ` +
		`${w.concurrency}: ${p.erpNode} / ${p.floor ?? '—'} / ${p.httpRequestNodeBatching} / ${p.httpRequestNode} / ${p.rawClient} |`
	);
}

function rows(remote: RemoteSummary): string[] {
	const { latency_ms: ms, listAll, bulkCreate, mixed } = remote;
	return [
		row(`listAll: ${count(listAll.items)} contacts, ${listAll.requests} pages`, ms, listAll),
		row(`bulkCreate: ${count(bulkCreate.items)} contacts`, ms, bulkCreate),
		row(`mixed: ${count(mixed.items)} invoices created, then sent`, ms, mixed),
	];
}

const sweeps = (remote: RemoteSummary): string[] =>
	WORKLOADS.map((name) => `- ${name}, ${remote.latency_ms} ms: ${sweepLine(remote[name].concurrencySweep)}`);

function rateLimitedTable(remote: RemoteSummary): string[] {
	const rate = remote.rateLimited;
	if (!rate) return [];
	const batching = rate.rows.httpRequestNodeBatching;
	return [
		'',
		`| rateLimited at ${rate.latency_ms} ms: ${count(rate.items)} creates at ${rate.limit_rps}/s (minimum ${s(rate.theoreticalMin_s)}) ${RATE_HEADER}`,
		RATE_RULE,
		`| ERP node, Concurrency ${rate.erpNode_concurrency} | ${rateCells(rate.rows.erpNode, rate.theoreticalMin_s)} |`,
		...(batching ? [`| HTTP Request node, Batching ${rate.limit_rps} items per second | ${rateCells(batching, rate.theoreticalMin_s)} |`] : []),
		`| HTTP Request node, Retry On Fail | ${rateCells(rate.rows.httpRequestNode, rate.theoreticalMin_s)} |`,
	];
}

/** When a latency's figures come from a run of their own (`--only remote30,remote100`): its date and machine. */
const ranApart = (remote: RemoteSummary): string[] =>
	remote.date && remote.machine
		? [
				`At ${remote.latency_ms} ms: run ${remote.date.slice(0, 16).replace('T', ' ')} UTC on its own (${remote.machine.cpu}, ${remote.machine.cores} cores; ` +
					`1-minute load ${remote.machine.loadAvg.start} at its start).`,
				'',
			]
		: [];

const ms = (value: number | undefined) => (value === undefined ? '—' : `${value.toFixed(3)}`);

/** Where n8n's CPU goes per item, the ERP node beside the floor, in each workload at one latency. */
function profileTable(remote: RemoteSummary): string[] {
	const profiled = WORKLOADS.filter((name) => remote[name].profile);
	if (!profiled.length) return [];
	const cell = (name: (typeof WORKLOADS)[number], category: string) => {
		const { erpNode, floor } = remote[name].profile!;
		return `${ms(erpNode.perItem_ms[category])} / ${ms(floor.perItem_ms[category])}`;
	};
	const inFlight = (name: (typeof WORKLOADS)[number]) => {
		const { erpNode, floor } = remote[name].profile!;
		return `${erpNode.medianInFlight} (${erpNode.peakInFlight}) / ${floor.medianInFlight} (${floor.peakInFlight})`;
	};
	return [
		'',
		`At ${remote.latency_ms} ms, n8n's main process in ms of CPU per item (a record read, or an item created or created and sent), ERP node / floor, ` +
			'from a V8 CPU profile of 3 more runs of each after the timed ones:',
		'',
		`| | ${profiled.join(' | ')} |`,
		`|---|${profiled.map(() => '---|').join('')}`,
		...REMOTE_CATEGORIES.map(({ name, label }) => `| ${label} | ${profiled.map((w) => cell(w, name)).join(' | ')} |`),
		`| **in all** | ${profiled.map((w) => `**${cell(w, 'total')}**`).join(' | ')} |`,
		`| requests in flight at the median arrival (the most) | ${profiled.map(inFlight).join(' | ')} |`,
	];
}

/**
 * The sandbox answering every request late, as an ERP across the internet does, with n8n's floor beside the ERP
 * node: bench/floor's node making the ERP node's requests through n8n's request helper and nothing else.
 */
export function remoteSection(r: Summary): string[] {
	const remotes = remotesOf(r);
	return [
		`### Remote ERP: every request answered ${remotes.map((remote) => `${remote.latency_ms} ms`).join(' or ')} late`,
		'',
		...remotes.flatMap(ranApart),
		'| workload | answer time | ERP node | n8n\'s floor | HTTP Request node, Batching | HTTP Request node, defaults | raw client | ERP node ÷ floor | ERP node ÷ raw client | ERP node ÷ Batching | defaults ÷ ERP node | requests at once: Concurrency, then the most the sandbox saw (ERP node / floor / Batching / defaults / raw) |',
		'|---|---|---|---|---|---|---|---|---|---|---|---|',
		...remotes.flatMap(rows),
		'',
		`ERP node by Concurrency (median of ${r.sweepRuns} runs each, the settings taking turns; the fastest is the one above):`,
		'',
		...remotes.flatMap(sweeps),
		...remotes.flatMap(profileTable),
		...remotes.flatMap(rateLimitedTable),
	];
}
