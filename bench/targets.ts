import { TARGETS } from './config';
import { ratio } from './stats';
import type { BulkCreateResult } from './workloads/bulkCreate';
import type { ListAllResult } from './workloads/listAll';
import type { RateLimitedResult } from './workloads/rateLimited';

export interface Target {
	workload: 'listAll' | 'bulkCreate' | 'rateLimited';
	goal: string;
	/** The measured value the goal is about (a ratio or a count). */
	value: number;
	met: boolean;
}

/** The targets of issue 6 against the medians (and, for failures and duplicates, the worst run). */
export function evaluateTargets(list: ListAllResult, bulk: BulkCreateResult, rate: RateLimitedResult): Target[] {
	const listVsRaw = ratio(list.erpNode_s, list.rawClient_s);
	const listVsHttp = ratio(list.erpNode_s, list.httpRequestNode_s);
	const speedup = ratio(bulk.httpRequestNode_s, bulk.erpNode_s);
	const bulkVsRaw = ratio(bulk.erpNode_s, bulk.rawClient_s);
	const rateVsTheory = ratio(rate.erpNode_s, rate.theoreticalMin_s);
	return [
		{
			workload: 'listAll',
			goal: `ERP node (Concurrency ${list.concurrency}) ≤ ${TARGETS.listAllVsRaw}× the raw client's page loop`,
			value: listVsRaw,
			met: listVsRaw <= TARGETS.listAllVsRaw,
		},
		{ workload: 'listAll', goal: 'ERP node no slower than the HTTP Request node (≤ 1×)', value: listVsHttp, met: listVsHttp <= 1 },
		{
			workload: 'bulkCreate',
			goal: `ERP node (Map Automatically) ≥ ${TARGETS.bulkCreateSpeedupVsHttp}× faster than the HTTP Request node's defaults`,
			value: speedup,
			met: speedup >= TARGETS.bulkCreateSpeedupVsHttp,
		},
		{ workload: 'bulkCreate', goal: `ERP node (Map Automatically) ≤ ${TARGETS.bulkCreateVsRaw}× the raw client`, value: bulkVsRaw, met: bulkVsRaw <= TARGETS.bulkCreateVsRaw },
		{ workload: 'rateLimited', goal: 'ERP node: 0 failed items', value: rate.erpNode_failed, met: rate.erpNode_failed === 0 },
		{ workload: 'rateLimited', goal: 'ERP node: 0 duplicates', value: rate.erpNode_duplicates, met: rate.erpNode_duplicates === 0 },
		{
			workload: 'rateLimited',
			goal: `ERP node ≤ ${TARGETS.rateLimitedVsTheory}× the theoretical minimum (items / limit)`,
			value: rateVsTheory,
			met: rateVsTheory <= TARGETS.rateLimitedVsTheory,
		},
	];
}
