import { remotesOf, type RemoteSummary, type Summary } from '../summary';
import { count, s } from './format';
import { growthSpeedLines } from './growth';
import { pollingSection } from './polling';
import { sharedLimitLines } from './sharedLimit';

/** The figures at one answer time, the ERP node first, then what the user could use instead. */
function remoteRows(remote: RemoteSummary): string[] {
	const ms = remote.latency_ms;
	const cells = (w: RemoteSummary['listAll']) =>
		`${s(w.erpNode_s)} (Concurrency ${w.concurrency}) | ${w.floor_s === undefined ? '—' : s(w.floor_s)} | ${s(w.httpRequestNodeBatching_s)} | ${s(w.httpRequestNode_s)} | ${s(w.rawClient_s)} |`;
	return [
		`| ${ms} ms | Get Many, Return All: ${count(remote.listAll.items)} contacts | ${cells(remote.listAll)}`,
		`| ${ms} ms | Create: ${count(remote.bulkCreate.items)} contacts | ${cells(remote.bulkCreate)}`,
		`| ${ms} ms | ${count(remote.mixed.items)} invoices created, then sent | ${cells(remote.mixed)}`,
	];
}

/** When remote figures come from runs of their own: each one's date and load, which the line above does not give. */
function ranApartLine(remotes: RemoteSummary[]): string[] {
	const apart = remotes.filter((remote) => remote.date && remote.machine);
	if (apart.length === 0) return [];
	const runs = apart.map((remote) => `${remote.latency_ms} ms on ${remote.date?.slice(0, 10)} (1-minute load ${remote.machine?.loadAvg.start} at its start)`);
	return [
		'',
		`The figures at ${runs.join(' and ')} were taken in runs of their own (\`npm run bench -- --only remote<ms>\`, ${apart[0].machine?.cpu}); ` +
			"a load above 1 means other work shared the 2 cores, which slows n8n's contenders most.",
	];
}

/** What the default Concurrency gives beside one request at a time, from the slowest remote's sweeps. */
function defaultConcurrencyLine(remotes: RemoteSummary[], defaultConcurrency: number): string[] {
	const slowest = remotes.at(-1);
	const one = slowest?.listAll.concurrencySweep['1'];
	const read = slowest?.listAll.concurrencySweep[String(defaultConcurrency)];
	const created = slowest?.bulkCreate.concurrencySweep[String(defaultConcurrency)];
	if (!slowest || one === undefined || read === undefined || created === undefined) return [];
	return [
		'',
		`The default *Concurrency* is ${defaultConcurrency}: at ${slowest.latency_ms} ms it read the ${count(slowest.listAll.items)} contacts in ${s(read)} ` +
			`against ${s(one)} one page at a time, and created contacts at ${Math.round(slowest.bulkCreate.items / created)} a second, ` +
			'a pace most rate limits allow. Raise it for large imports when your ERP allows more requests a second.',
	];
}

/** The rate-limited run against a remote ERP: where the HTTP Request node loses items or writes them twice. */
function rateLimitedLine(remotes: RemoteSummary[]): string[] {
	const rate = remotes.find((remote) => remote.rateLimited)?.rateLimited;
	if (!rate) return [];
	const { runs, succeeded } = rate.rows.httpRequestNode;
	const failedRuns = runs - succeeded;
	return [
		'',
		`Under a rate limit of ${rate.limit_rps} requests a second (${rate.latency_ms} ms away), ${count(rate.items)} creates took ${s(rate.erpNode_s)} ` +
			`against a minimum of ${s(rate.theoreticalMin_s)}, with ${rate.erpNode_failed} items failed and ${rate.erpNode_duplicates} written twice ` +
			`in the worst run. The HTTP Request node with *Retry On Fail* failed ${failedRuns} of ${runs} executions and wrote up to ` +
			`${rate.httpRequestNode_duplicates} contacts twice.`,
	];
}

/** docs/speed.md's figures: the remote figures first, then the loopback ones in a line. */
export function speedSection(r: Summary, defaultConcurrency: number): string[] {
	const remotes = remotesOf(r);
	const { listAll, bulkCreate } = r.workloads;
	const met = r.targets.filter((target) => target.met).length;
	return [
		`Measured with \`npm run bench\` on ${r.date.slice(0, 10)} (n8n ${r.n8n}, ${r.machine.cpu}, ${r.machine.cores} cores; medians of ${r.runs} runs), ` +
			'against the sandbox ERP answering every request late, as an ERP across the internet does:',
		'',
		"| answer time | workload | ERP node | n8n's floor: the same requests through n8n's request helper, nothing else | HTTP Request node, Batching at the same requests at once | HTTP Request node, defaults | raw HTTP client at the same requests at once |",
		'|---|---|---|---|---|---|---|',
		...remotes.flatMap(remoteRows),
		...ranApartLine(remotes),
		'',
		"The HTTP Request node's defaults start every item's request at once: fast while the ERP takes them all, " +
			'refused once it applies a rate limit (below).',
		...defaultConcurrencyLine(remotes, defaultConcurrency),
		...rateLimitedLine(remotes),
		'',
		`With the ERP on the same machine (loopback), where n8n's own cost per request dominates: Return All of ${count(listAll.records)} ` +
			`contacts ${s(listAll.erpNode_s)} (HTTP Request node with pagination ${s(listAll.httpRequestNode_s)}), ${count(bulkCreate.items)} creates ` +
			`${s(bulkCreate.erpNode_s)} (HTTP Request node ${s(bulkCreate.httpRequestNode_s)}). ${met} of the ${r.targets.length} targets of ` +
			'the benchmark are met; [bench/README.md](../bench/README.md) has every figure, the method, and a CPU profile explaining the others.',
		...growthSpeedLines(r),
		...sharedLimitLines(r),
		...(r.polling ? ['', ...pollingSection(r.polling)] : []),
	];
}
