import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { Machine } from '../../../bench/machine';
import type { Summary as BenchSummary } from '../../../bench/summary';
import { REPO_ROOT } from '../../../tooling/host/paths';
import type { ClusterOptions, ClusterTimings } from '../../../tooling/host/queue/cluster';
import type { ConfirmationFigures } from '../scenarios/confirmation';
import type { ImportFigures } from '../scenarios/import';
import type { MainDownFigures } from '../scenarios/mainDown';
import type { PollingFigures } from '../scenarios/polling';
import type { TriggerFigures } from '../scenarios/trigger';
import type { WorkerDeathFigures } from '../scenarios/workerDies';

export interface QueueResults {
	date: string;
	n8n: string;
	machine: Machine;
	cluster: ClusterTimings & { lock: ClusterOptions['lock'] };
	/** How long the ERP waits for n8n's answer to a delivery, and its retry delays. */
	erpWebhooks: { timeoutMs: number; retryDelaysMs: number[] };
	/** Wall time of each part of the suite. */
	partsMs: Record<string, number>;
	sixEvents: TriggerFigures & { workers: Record<string, string> };
	burst: TriggerFigures & { batch: number };
	confirmation: ConfirmationFigures;
	import: ImportFigures;
	rateLimited: ImportFigures;
	workerDeath: WorkerDeathFigures;
	mainDown: MainDownFigures;
	polling: PollingFigures;
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
