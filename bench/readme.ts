import { existsSync, readFileSync, writeFileSync } from 'node:fs';

import type { Results } from './results';
import { median, ratio } from './stats';
import type { RateLimitedSample } from './workloads/rateLimited';

const START = '<!-- bench:results:start (written by npm run bench) -->';
const END = '<!-- bench:results:end -->';

const s = (value: number) => `${value.toFixed(2)} s`;
const times = (value: number, base: number) => `${ratio(value, base).toFixed(2)}×`;
const succeeded = (samples: RateLimitedSample[]) => `${samples.filter((sample) => sample.succeeded).length}/${samples.length}`;
const worstMissing = (samples: RateLimitedSample[]) => Math.max(...samples.map((sample) => sample.missing));
const medianRefused = (samples: RateLimitedSample[]) => median(samples.map((sample) => sample.refused));

function resultsBlock(r: Results): string {
	const { listAll, bulkCreate, rateLimited } = r.workloads;
	const m = r.machine;
	return [
		`Run ${r.date.slice(0, 16).replace('T', ' ')} UTC: n8n ${r.n8n} on Node ${m.n8nNode} (bench and sandbox on Node ${m.benchNode}),`,
		`${m.cpu}, ${m.cores} cores, ${m.memory_gb} GB, ${m.os}; 1-minute load ${m.loadAvg.start} at the start, ${m.loadAvg.end ?? '?'} at the end.`,
		`Medians of ${r.runs} runs after a warm-up; contenders alternate.`,
		'',
		`| listAll: ${listAll.records.toLocaleString('en')} contacts | median | vs raw client |`,
		'|---|---|---|',
		`| ERP node (Get Many, Return All), Concurrency ${listAll.concurrency} | ${s(listAll.erpNode_s)} | ${times(listAll.erpNode_s, listAll.rawClient_s)} |`,
		`| ERP node, Concurrency 1 (one page after the other) | ${s(listAll.erpNodeSequential_s)} | ${times(listAll.erpNodeSequential_s, listAll.rawClient_s)} |`,
		`| HTTP Request node (pagination) + Split Out | ${s(listAll.httpRequestNode_s)} | ${times(listAll.httpRequestNode_s, listAll.rawClient_s)} |`,
		`| raw client, one page after the other | ${s(listAll.rawClient_s)} | 1.00× |`,
		`| raw client, ${listAll.concurrency} pages at once | ${s(listAll.rawClientConcurrent_s)} | ${times(listAll.rawClientConcurrent_s, listAll.rawClient_s)} |`,
		'',
		`ERP node by Concurrency (median of 3 runs each): ${Object.entries(listAll.concurrencySweep).map(([c, v]) => `${c}: ${s(v)}`).join(', ')}. ` +
			`Against the raw client at the same ${listAll.concurrency} pages at once, the ERP node takes ${times(listAll.erpNode_s, listAll.rawClientConcurrent_s)}. ` +
			`The sandbox spends ${listAll.sandboxPage_ms} ms of its own on a page of 100 (its Server-Timing, median of 50).`,
		'',
		`n8n's RSS around the ERP node's run: ${r.memory.rssBefore_mb} MB before, ${r.memory.rssPeak_mb} MB at the peak, ${r.memory.rssAfter_mb} MB after ` +
			`(HTTP Request node: ${r.memory.httpRequestNode.before_mb} → ${r.memory.httpRequestNode.peak_mb} → ${r.memory.httpRequestNode.after_mb} MB).`,
		'',
		`| bulkCreate: ${bulkCreate.items.toLocaleString('en')} contacts | median | vs raw client |`,
		'|---|---|---|',
		`| ERP node, Map Automatically, Concurrency ${bulkCreate.concurrency} | ${s(bulkCreate.erpNode_s)} | ${times(bulkCreate.erpNode_s, bulkCreate.rawClient_s)} |`,
		`| ERP node, four fields mapped by expressions, Concurrency ${bulkCreate.concurrency} | ${s(bulkCreate.erpNodeExpressions_s)} | ${times(bulkCreate.erpNodeExpressions_s, bulkCreate.rawClient_s)} |`,
		`| HTTP Request node, defaults | ${s(bulkCreate.httpRequestNode_s)} | ${times(bulkCreate.httpRequestNode_s, bulkCreate.rawClient_s)} |`,
		`| raw client, ${bulkCreate.concurrency} in flight | ${s(bulkCreate.rawClient_s)} | 1.00× |`,
		'',
		`ERP node (Map Automatically) by Concurrency (one run each): ${Object.entries(bulkCreate.concurrencySweep).map(([c, v]) => `${c}: ${s(v)}`).join(', ')}.`,
		'',
		`| rateLimited: ${rateLimited.items.toLocaleString('en')} creates at ${rateLimited.limit_rps}/s (minimum ${s(rateLimited.theoreticalMin_s)}) | median | vs minimum | executions succeeded | failed items | of them not in the ERP | duplicates | 429s (median) |`,
		'|---|---|---|---|---|---|---|---|',
		`| ERP node, Concurrency ${rateLimited.erpNode_concurrency} | ${s(rateLimited.erpNode_s)} | ${times(rateLimited.erpNode_s, rateLimited.theoreticalMin_s)} | ${succeeded(rateLimited.samples.erpNode)} | ${rateLimited.erpNode_failed} | ${worstMissing(rateLimited.samples.erpNode)} | ${rateLimited.erpNode_duplicates} | ${medianRefused(rateLimited.samples.erpNode)} |`,
		`| HTTP Request node, Retry On Fail | ${s(rateLimited.httpRequestNode_s)} | ${times(rateLimited.httpRequestNode_s, rateLimited.theoreticalMin_s)} | ${succeeded(rateLimited.samples.httpRequestNode)} | ${rateLimited.httpRequestNode_failed} | ${worstMissing(rateLimited.samples.httpRequestNode)} | ${rateLimited.httpRequestNode_duplicates} | ${medianRefused(rateLimited.samples.httpRequestNode)} |`,
		'',
		'Failed items, not in the ERP, duplicates: the worst run. A failed execution fails all its items, whatever the ERP holds.',
		'',
		'| target | measured | met |',
		'|---|---|---|',
		...r.targets.map((t) => `| ${t.workload}: ${t.goal} | ${t.value} | ${t.met ? 'yes' : '**no**'} |`),
	].join('\n');
}

/** Replaces the results block of bench/README.md (between its markers), keeping the text around it. */
export function writeReadme(file: string, results: Results): void {
	const block = `${START}\n${resultsBlock(results)}\n${END}`;
	const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
	const start = current.indexOf(START);
	const end = current.indexOf(END);
	const next = start >= 0 && end > start ? `${current.slice(0, start)}${block}${current.slice(end + END.length)}` : `${current}${current ? '\n' : ''}${block}\n`;
	writeFileSync(file, next);
}
