import type { Machine } from './machine';
import type { ProfileResult } from './profile';
import type { Target } from './targets';
import type { BulkCreateResult } from './workloads/bulkCreate';
import type { InPartsResult } from './workloads/inParts';
import type { LimitResult } from './workloads/limit';
import type { ListAllResult, Rss } from './workloads/listAll';
import type { PollCost } from './workloads/pollingCost';
import type { RemotePollCost } from './workloads/pollingRemote';
import type { RateLimitedResult } from './workloads/rateLimited';
import type { RemoteResult } from './workloads/remote';
import type { ScalingResult } from './workloads/scaling';
import type { SharedLimitResult } from './workloads/sharedLimit';
import type { ConfirmResult } from './workloads/confirm';

/** The loopback workloads of issue 6. */
export interface Loopback {
	listAll: ListAllResult;
	bulkCreate: BulkCreateResult;
	rateLimited: RateLimitedResult;
}

/** Issue 25's parts, each with the date and machine of its own run (they may be run alone). */
type Stamped<T> = T & { date: string; n8n: string; machine: Machine };
export interface Growth {
	/** Return All and Create from 1,000 records up, on loopback and 30 ms away. */
	scaling?: Stamped<ScalingResult>;
	/** Return All above that, until n8n fails. */
	limit?: Stamped<LimitResult>;
	/** The way beyond it: the same contacts read one month at a time in a sub-workflow (an example). */
	inParts?: Stamped<InPartsResult>;
	/**
	 * Issue 22: what one poll of the ERP Polling Trigger costs (requests, time, stored memory); issue 32: a poll against
	 * an ERP 100 ms away within the durable scheduler's budget (absent from runs before it).
	 */
	polling?: Stamped<{ costs: PollCost[]; remote?: RemotePollCost[] }>;
}

/**
 * bench/results.json. The field names of issues 6 and 17 (`remote30`, `remote100`) are read by tooling; the
 * rest is there to check them by.
 */
export interface Results extends Growth {
	n8n: string;
	runs: number;
	/** Runs at each Concurrency of a sweep. */
	sweepRuns: number;
	date: string;
	machine: Machine;
	/** Issue 17: the sandbox answering each request 30 ms and 100 ms late. */
	[remote: `remote${number}`]: RemoteResult;
	workloads: {
		listAll: Omit<ListAllResult, 'rss'>;
		bulkCreate: BulkCreateResult;
		rateLimited: RateLimitedResult;
	};
	/** Where n8n's main process spends its CPU per request of the ERP node on loopback (a V8 CPU profile). */
	profile: ProfileResult;
	/** n8n's main process around the ERP node's listAll runs (medians); the HTTP Request node's for comparison. */
	memory: { rssBefore_mb: number; rssAfter_mb: number; rssPeak_mb: number; httpRequestNode: Rss };
	targets: Target[];
	/** Issue 33: four runs against one limit, in one n8n and in queue mode, before and after the shared budget. */
	sharedLimit?: SharedLimitResult;
	/** Issue 44: the ERP Trigger's confirmation, its cost per delivery and a burst under a rate limit, with its targets. */
	confirm?: ConfirmResult & { targets: Target[] };
}

export function assembleResults(
	head: Pick<Results, 'n8n' | 'runs' | 'sweepRuns' | 'machine'>,
	loopback: Loopback,
	profile: ProfileResult,
	remotes: RemoteResult[],
	targets: Target[],
	growth: Growth,
): Results {
	const { rss, ...listAll } = loopback.listAll;
	return {
		...head,
		date: new Date().toISOString(),
		...Object.fromEntries(remotes.map((remote) => [`remote${remote.latency_ms}`, remote])),
		workloads: { listAll, bulkCreate: loopback.bulkCreate, rateLimited: loopback.rateLimited },
		profile,
		memory: {
			rssBefore_mb: rss.erpNode.before_mb,
			rssAfter_mb: rss.erpNode.after_mb,
			rssPeak_mb: rss.erpNode.peak_mb,
			httpRequestNode: rss.httpRequestNode,
		},
		targets,
		...growth,
	};
}

/** The remote results in the order of their latencies. */
export const remotesOf = (results: Results): RemoteResult[] =>
	Object.keys(results)
		.filter((key): key is `remote${number}` => /^remote\d+$/.test(key))
		.map((key) => results[key])
		.sort((a, b) => a.latency_ms - b.latency_ms);
