import type { Summary } from '../summary';
import type { RemotePollCost } from '../workloads/pollingRemote';
import { count } from './format';

/** The ERP Polling Trigger's cost per poll by size and Trigger On, for docs/speed.md. */
export function pollingSection(polling: NonNullable<Summary['polling']>): string[] {
	const { costs, remote, date, machine } = polling;
	const kb = (bytes: number) => `${(bytes / 1024).toFixed(bytes < 10_240 ? 1 : 0)} kB`;
	return [
		`**ERP Polling Trigger, per poll** (\`npm run bench -- --only polling\`, ${date.slice(0, 10)}, 1-minute load ${machine.loadAvg.start}; ` +
			'in-process against the loopback sandbox: requests and memory depend on the records only, not on n8n; times',
		'are on this 2-core machine). A poll reads every page of the list (100 records a page), plus one lookup per',
		'remembered record the scan did not show; the first poll scans until a scan finds nothing new (twice when',
		'nothing moves). "After changes": 5 contacts created, 5 updated, 2 deleted since the last poll.',
		'',
		'| contacts | Trigger On | first poll: requests, time | poll with no change: requests, time | after changes: requests, reported | memory n8n stores (per contact) |',
		'|---|---|---|---|---|---|',
		...costs.map(
			(c) =>
				`| ${count(c.records)} | ${c.watch} | ${c.baselineRequests}, ${c.baselineMs} ms | ${c.steadyRequests}, ${c.steadyMs} ms | ` +
				`${c.changedRequests}, ${c.changedReported} | ${kb(c.stateBytes)} (${c.stateBytesPerRecord} bytes) |`,
		),
		...(remote ? ['', ...remoteSection(remote)] : []),
	];
}

/** A poll against an ERP 100 ms away, within the budget n8n's durable scheduler gives it. */
function remoteSection(remote: RemotePollCost[]): string[] {
	const [first] = remote;
	const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
	return [
		`**Against an ERP ${first.latencyMs} ms away** (every API request answered ${first.latencyMs} ms late; the node's defaults: Concurrency 5,`,
		`pages of 100, Stock Reads per Poll 500; each poll given a budget of ${s(first.budgetMs)}, what n8n 2.41's durable scheduler gives at its`,
		'45 s default timeout, so the node starts no stock read after 3/4 of it). *Stock Below Threshold* reads the stock from',
		'the product list when it carries it (`stock_total`, found by the first poll from a sample of 20 products, then',
		'one stock read a poll to re-check it); otherwise at most 500 products\' stock a poll, in turn.',
		'',
		'| Trigger On, ERP | records | first poll: time, requests | later polls: slowest, most requests (stock reads) | polls until every product\'s stock was read |',
		'|---|---|---|---|---|',
		...remote.map(
			(r) =>
				`| ${r.case} | ${count(r.records)} | ${s(r.baselineMs)}, ${count(r.baselineRequests)} | ${s(r.laterMaxMs)}, ${count(r.laterMaxRequests)} (${count(r.laterMaxStockReads)}) | ` +
				`${r.pollsToReadEveryProduct === undefined ? '—' : `${r.pollsToReadEveryProduct} (ceil(${count(r.records)} ÷ 500) = ${Math.ceil(r.records / 500)})`} |`,
		),
	];
}
