import type { Machine } from './machine';
import type { Target } from './targets';
import type { BulkCreateResult } from './workloads/bulkCreate';
import type { ListAllResult, Rss } from './workloads/listAll';
import type { RateLimitedResult } from './workloads/rateLimited';

/** bench/results.json. The field names of issue 6 are read by tooling; the rest is there to check them by. */
export interface Results {
	n8n: string;
	runs: number;
	date: string;
	machine: Machine;
	workloads: {
		listAll: Omit<ListAllResult, 'rss'>;
		bulkCreate: BulkCreateResult;
		rateLimited: RateLimitedResult;
	};
	/** n8n's main process around the ERP node's listAll runs (medians); the HTTP Request node's for comparison. */
	memory: { rssBefore_mb: number; rssAfter_mb: number; rssPeak_mb: number; httpRequestNode: Rss };
	targets: Target[];
}

export function assembleResults(
	n8n: string,
	runs: number,
	machine: Machine,
	list: ListAllResult,
	bulk: BulkCreateResult,
	rate: RateLimitedResult,
	targets: Target[],
): Results {
	const { rss, ...listAll } = list;
	return {
		n8n,
		runs,
		date: new Date().toISOString(),
		machine,
		workloads: { listAll, bulkCreate: bulk, rateLimited: rate },
		memory: {
			rssBefore_mb: rss.erpNode.before_mb,
			rssAfter_mb: rss.erpNode.after_mb,
			rssPeak_mb: rss.erpNode.peak_mb,
			httpRequestNode: rss.httpRequestNode,
		},
		targets,
	};
}
