import type { Summary } from '../summary';
import { count, RATE_HEADER, RATE_RULE, rateCells, s, sweepLine, times } from './format';

/** The loopback tables: the sandbox answering at once. */
export function loopbackSection(r: Summary): string[] {
	const { listAll, bulkCreate, rateLimited } = r.workloads;
	return [
		'### Loopback: the sandbox answering at once',
		'',
		`| listAll: ${count(listAll.records)} contacts | median | vs raw client |`,
		'|---|---|---|',
		`| ERP node (Get Many, Return All), Concurrency ${listAll.concurrency} | ${s(listAll.erpNode_s)} | ${times(listAll.erpNode_s, listAll.rawClient_s)} |`,
		`| ERP node, Concurrency 1 (one page after the other) | ${s(listAll.erpNodeSequential_s)} | ${times(listAll.erpNodeSequential_s, listAll.rawClient_s)} |`,
		`| HTTP Request node (pagination) + Split Out | ${s(listAll.httpRequestNode_s)} | ${times(listAll.httpRequestNode_s, listAll.rawClient_s)} |`,
		`| raw client, one page after the other | ${s(listAll.rawClient_s)} | 1.00× |`,
		`| raw client, ${listAll.concurrency} pages at once | ${s(listAll.rawClientConcurrent_s)} | ${times(listAll.rawClientConcurrent_s, listAll.rawClient_s)} |`,
		'',
		`ERP node by Concurrency (median of ${r.sweepRuns} runs each, the settings taking turns): ${sweepLine(listAll.concurrencySweep)}. ` +
			`Against the raw client at the same ${listAll.concurrency} pages at once, the ERP node takes ${times(listAll.erpNode_s, listAll.rawClientConcurrent_s)}. ` +
			`The sandbox spends ${listAll.sandboxPage_ms} ms of its own on a page of 100 (its Server-Timing, median of 50).`,
		'',
		`n8n's RSS around the ERP node's run: ${r.memory.rssBefore_mb} MB before, ${r.memory.rssPeak_mb} MB at the peak, ${r.memory.rssAfter_mb} MB after ` +
			`(HTTP Request node: ${r.memory.httpRequestNode.before_mb} → ${r.memory.httpRequestNode.peak_mb} → ${r.memory.httpRequestNode.after_mb} MB).`,
		'',
		`| bulkCreate: ${count(bulkCreate.items)} contacts | median | vs raw client |`,
		'|---|---|---|',
		`| ERP node, Map Automatically, Concurrency ${bulkCreate.concurrency} | ${s(bulkCreate.erpNode_s)} | ${times(bulkCreate.erpNode_s, bulkCreate.rawClient_s)} |`,
		`| ERP node, four fields mapped by expressions, Concurrency ${bulkCreate.concurrency} | ${s(bulkCreate.erpNodeExpressions_s)} | ${times(bulkCreate.erpNodeExpressions_s, bulkCreate.rawClient_s)} |`,
		`| HTTP Request node, defaults | ${s(bulkCreate.httpRequestNode_s)} | ${times(bulkCreate.httpRequestNode_s, bulkCreate.rawClient_s)} |`,
		`| raw client, ${bulkCreate.concurrency} in flight | ${s(bulkCreate.rawClient_s)} | 1.00× |`,
		'',
		`ERP node (Map Automatically) by Concurrency (median of ${r.sweepRuns} runs each, the settings taking turns): ${sweepLine(bulkCreate.concurrencySweep)}.`,
		'',
		`| rateLimited: ${count(rateLimited.items)} creates at ${rateLimited.limit_rps}/s (minimum ${s(rateLimited.theoreticalMin_s)}) ${RATE_HEADER}`,
		RATE_RULE,
		`| ERP node, Concurrency ${rateLimited.erpNode_concurrency} | ${rateCells(rateLimited.rows.erpNode, rateLimited.theoreticalMin_s)} |`,
		`| HTTP Request node, Retry On Fail | ${rateCells(rateLimited.rows.httpRequestNode, rateLimited.theoreticalMin_s)} |`,
		'',
		'Failed items, not in the ERP, duplicates: the worst run. A failed execution fails all its items, whatever the ERP holds.',
	];
}
