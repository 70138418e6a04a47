import { CONFIRM, TARGETS } from './config';
import { ratio } from './stats';
import type { BulkCreateResult } from './workloads/bulkCreate';
import type { ConfirmResult } from './workloads/confirm';
import type { InPartsResult } from './workloads/inParts';
import type { ListAllResult } from './workloads/listAll';
import type { RateLimitedResult } from './workloads/rateLimited';
import type { RemoteWorkloadResult } from './workloads/remote/compare';

export interface Target {
	/** The workload, prefixed with `remote<ms>` for the remote ones. */
	workload: string;
	goal: string;
	/** The measured value the goal is about (a ratio or a count). */
	value: number;
	met: boolean;
}

/** The figures the targets are about: medians, ratios and the worst run's counts (what the summary keeps). */
type RateFigures = Omit<RateLimitedResult, 'samples'>;
interface LoopbackFigures {
	listAll: Pick<ListAllResult, 'concurrency' | 'erpNode_s' | 'rawClient_s' | 'httpRequestNode_s'>;
	bulkCreate: Pick<BulkCreateResult, 'erpNode_s' | 'rawClient_s' | 'httpRequestNode_s'>;
	rateLimited: RateFigures;
}
type RemoteWorkloadFigures = Pick<RemoteWorkloadResult, 'ratios' | 'concurrency'>;
interface RemoteFigures {
	latency_ms: number;
	listAll: RemoteWorkloadFigures;
	bulkCreate: RemoteWorkloadFigures;
	mixed: RemoteWorkloadFigures;
	rateLimited?: RateFigures;
}

const atMost = (workload: string, goal: string, value: number, limit: number): Target => ({ workload, goal, value, met: value <= limit });

/** Under a rate limit: no item lost or written twice, in any run. */
const rateLimitTargets = (workload: string, rate: RateFigures): Target[] => [
	atMost(workload, 'ERP node: 0 failed items', rate.erpNode_failed, 0),
	atMost(workload, 'ERP node: 0 duplicates', rate.erpNode_duplicates, 0),
];

/** The loopback targets against the medians (and, for failures and duplicates, the worst run). */
function loopbackTargets({ listAll: list, bulkCreate: bulk, rateLimited: rate }: LoopbackFigures): Target[] {
	const speedup = ratio(bulk.httpRequestNode_s, bulk.erpNode_s);
	return [
		atMost('listAll', `ERP node (Concurrency ${list.concurrency}) ≤ ${TARGETS.listAllVsRaw}× the raw client's page loop`, ratio(list.erpNode_s, list.rawClient_s), TARGETS.listAllVsRaw),
		atMost('listAll', 'ERP node no slower than the HTTP Request node (≤ 1×)', ratio(list.erpNode_s, list.httpRequestNode_s), 1),
		{
			workload: 'bulkCreate',
			goal: `ERP node (Map Automatically) ≥ ${TARGETS.bulkCreateSpeedupVsHttp}× faster than the HTTP Request node's defaults`,
			value: speedup,
			met: speedup >= TARGETS.bulkCreateSpeedupVsHttp,
		},
		atMost('bulkCreate', `ERP node (Map Automatically) ≤ ${TARGETS.bulkCreateVsRaw}× the raw client`, ratio(bulk.erpNode_s, bulk.rawClient_s), TARGETS.bulkCreateVsRaw),
		...rateLimitTargets('rateLimited', rate),
		atMost(
			'rateLimited',
			`ERP node ≤ ${TARGETS.rateLimitedVsTheory}× the theoretical minimum (items / limit)`,
			ratio(rate.erpNode_s, rate.theoreticalMin_s),
			TARGETS.rateLimitedVsTheory,
		),
	];
}

/** The targets at one latency: against the raw client, n8n's floor and both ways of using the HTTP Request node. */
function remoteTargets(remote: RemoteFigures): Target[] {
	const prefix = `remote${remote.latency_ms}`;
	const workloads: Array<[string, RemoteWorkloadFigures]> = [
		['listAll', remote.listAll],
		['bulkCreate', remote.bulkCreate],
		['mixed', remote.mixed],
	];
	const targets = workloads.flatMap(([name, result]): Target[] => {
		const { erpNodeVsRawClient, erpNodeVsFloor, erpNodeVsHttpRequestNodeBatching, httpRequestNodeVsErpNode } = result.ratios;
		const at = `at ${result.concurrency} requests at once`;
		const floorGoal = `ERP node ≤ ${TARGETS.remoteVsFloor}× n8n's floor (its requests through n8n's request helper, nothing else) ${at}`;
		return [
			...(name === 'mixed' ? [] : [atMost(`${prefix} ${name}`, `ERP node ≤ ${TARGETS.remoteVsRaw}× the raw client ${at}`, erpNodeVsRawClient, TARGETS.remoteVsRaw)]),
			...(erpNodeVsFloor === undefined ? [] : [atMost(`${prefix} ${name}`, floorGoal, erpNodeVsFloor, TARGETS.remoteVsFloor)]),
			atMost(`${prefix} ${name}`, `ERP node no slower than the HTTP Request node with Batching ${at} (≤ 1×)`, erpNodeVsHttpRequestNodeBatching, TARGETS.remoteVsHttpBatching),
			{
				workload: `${prefix} ${name}`,
				goal: `ERP node ≥ ${TARGETS.remoteSpeedupVsHttpDefaults}× faster than the HTTP Request node's defaults`,
				value: httpRequestNodeVsErpNode,
				met: httpRequestNodeVsErpNode >= TARGETS.remoteSpeedupVsHttpDefaults,
			},
		];
	});
	const rate = remote.rateLimited;
	if (!rate) return targets;
	const vsBatching = ratio(rate.erpNode_s, rate.httpRequestNodeBatching_s ?? Number.NaN);
	return [
		...targets,
		...rateLimitTargets(`${prefix} rateLimited`, rate),
		atMost(`${prefix} rateLimited`, 'ERP node no slower than the HTTP Request node with Batching set to the limit (≤ 1×)', vsBatching, TARGETS.remoteVsHttpBatching),
	];
}

/** Reading in parts beats one saved Return All of the same contacts on memory, within a bounded time. */
function inPartsTargets({ records, byMonth, returnAll }: InPartsResult): Target[] {
	const workload = `inParts ${records.toLocaleString('en-US')} contacts`;
	return [
		atMost(workload, `by month: n8n's peak RSS ≤ ${TARGETS.inPartsRssVsReturnAll}× one saved Return All's`, ratio(byMonth.rssPeak_mb, returnAll.rssPeak_mb), TARGETS.inPartsRssVsReturnAll),
		atMost(workload, `by month: ≤ ${TARGETS.inPartsTimeVsReturnAll}× one saved Return All's time`, ratio(byMonth.seconds, returnAll.seconds), TARGETS.inPartsTimeVsReturnAll),
	];
}

export const evaluateTargets = (loopback: LoopbackFigures, remotes: RemoteFigures[], inParts?: InPartsResult): Target[] => [
	...remotes.flatMap(remoteTargets),
	...loopbackTargets(loopback),
	...(inParts ? inPartsTargets(inParts) : []),
];

/** A burst confirmed at the pace the ERP allows, nothing lost, few refused (sent again by the ERP), none
 * confirmed twice: at the trigger's defaults and with a Confirmation Wait long enough for the burst. */
export const confirmTargets = ({ burstDefault, burst }: ConfirmResult): Target[] =>
	[burstDefault, burst].flatMap((b) => {
		const workload = `confirm burst, Confirmation Wait ${b.confirmationWait === null ? 'default' : `${b.confirmationWait} s`}`;
		return [
			atMost(workload, `${b.deliveries} deliveries at ${b.limit_rps} requests/s: 0 lost`, b.lost, 0),
			atMost(workload, `refused (answered other than 2xx, sent again) ≤ ${CONFIRM.maxRefusedShare * 100}%`, b.refusedShare, CONFIRM.maxRefusedShare),
			atMost(workload, '0 confirmed twice', b.confirmedTwice, 0),
		];
	});
