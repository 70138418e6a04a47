import type { Machine } from './machine';
import type { ProfileResult } from './profile';
import type { BulkCreateResult } from './workloads/bulkCreate';
import type { InPartsResult } from './workloads/inParts';
import type { LimitResult } from './workloads/limit';
import type { ListAllResult, Rss } from './workloads/listAll';
import type { PollCost } from './workloads/pollingCost';
import type { RemotePollCost } from './workloads/pollingRemote';
import type { RateLimitedResult } from './workloads/rateLimited';
import type { RemoteResult } from './workloads/remote';
import type { ScalingResult } from './workloads/scaling';

/** The loopback workloads: the sandbox answering at once. */
export interface Loopback {
	listAll: ListAllResult;
	bulkCreate: BulkCreateResult;
	rateLimited: RateLimitedResult;
}

/** A part that may run alone, with the date and machine of its own run. */
export type Stamped<T> = T & { date: string; n8n: string; machine: Machine };

/** How cost grows with the work, and the polling trigger's cost per poll: parts that may run alone. */
export interface Growth {
	/** Return All and Create from 1,000 records up, on loopback and 30 ms away. */
	scaling?: Stamped<ScalingResult>;
	/** Return All above that, until n8n fails. */
	limit?: Stamped<LimitResult>;
	/** The way beyond it: the same contacts read one month at a time in a sub-workflow (an example). */
	inParts?: Stamped<InPartsResult>;
	/** What one poll of the ERP Polling Trigger costs (requests, time, stored memory), on loopback and against an ERP 100 ms away. */
	polling?: Stamped<{ costs: PollCost[]; remote?: RemotePollCost[] }>;
}

/** A full run's every figure, samples included: its raw dump in .runs/bench/ (bench/summary.ts keeps what the docs show). */
export interface Results extends Growth {
	n8n: string;
	runs: number;
	/** Runs at each Concurrency of a sweep. */
	sweepRuns: number;
	date: string;
	machine: Machine;
	/** The sandbox answering each request 30 ms and 100 ms late. */
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
}

export function assembleResults(
	head: Pick<Results, 'n8n' | 'runs' | 'sweepRuns' | 'machine'>,
	loopback: Loopback,
	profile: ProfileResult,
	remotes: RemoteResult[],
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
		...growth,
	};
}
