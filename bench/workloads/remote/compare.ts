import { alternate } from '../../alternate';
import { SWEEP_RUNS } from '../../config';
import type { BenchContext } from '../../context';
import { profileRemote, type RemoteProfile } from '../../profile/remote';
import { median, ratio, secondsOf } from '../../stats';
import { sweepConcurrency } from '../../sweep';

/** `floor`: bench/floor's node, the ERP node's requests through n8n's request helper and nothing else. */
export type RemoteContender = 'erpNode' | 'floor' | 'httpRequestNodeBatching' | 'httpRequestNode' | 'rawClient';

export interface RemoteSample {
	seconds: number;
	/** The most requests the sandbox held at once during the run. */
	peakInFlight: number;
	/** The requests it held at once at the median arrival. */
	medianInFlight: number;
}

type Run = () => Promise<RemoteSample>;

export interface RemoteWorkloadResult {
	/** Records read, or items completed, per run. */
	items: number;
	/** API requests per run. */
	requests: number;
	/** The ERP node's fastest Concurrency: also the HTTP Request node's Items per Batch and the raw client's requests at once. */
	concurrency: number;
	erpNode_s: number;
	/** n8n's floor (absent from runs before the floor was measured). */
	floor_s?: number;
	httpRequestNodeBatching_s: number;
	/** The HTTP Request node with its defaults. */
	httpRequestNode_s: number;
	rawClient_s: number;
	ratios: {
		/** The target: at most 1.15. */
		erpNodeVsRawClient: number;
		/** The target: at most 1.15 (absent from runs before the floor was measured). */
		erpNodeVsFloor?: number;
		/** The target: at most 1. */
		erpNodeVsHttpRequestNodeBatching: number;
		/** How many times faster the ERP node is than the HTTP Request node's defaults; the target: at least 8. */
		httpRequestNodeVsErpNode: number;
	};
	/** The most requests the sandbox held at once from each contender, the highest of its runs. */
	peakInFlight: Partial<Record<RemoteContender, number>> & Record<Exclude<RemoteContender, 'floor'>, number>;
	/** The requests the sandbox held at once at the median arrival, the median of each contender's runs (absent from runs before the remote profile). */
	medianInFlight?: Partial<Record<RemoteContender, number>>;
	/** The ERP node's and the floor's CPU in n8n per item, by where it went (absent from runs before the remote profile). */
	profile?: RemoteProfile;
	samples: Partial<Record<RemoteContender, number[]>>;
	/** The ERP node's median seconds at each Concurrency tried, and every run of it. */
	concurrencySweep: Record<string, number>;
	concurrencySweepRuns: Record<string, number[]>;
}

/**
 * Sweeps the ERP node's Concurrency (`erpAt`), then lets the ERP node at the fastest take turns with the other
 * contenders, which `othersAt` sets up for that same number of requests at once.
 */
export async function compareContenders(
	ctx: BenchContext,
	workload: { items: number; requests: number; concurrencies: number[] },
	erpAt: (concurrency: number) => Promise<Run>,
	othersAt: (concurrency: number) => Promise<Record<Exclude<RemoteContender, 'erpNode'>, Run>>,
): Promise<RemoteWorkloadResult> {
	const sweep = await sweepConcurrency(ctx, workload.concurrencies, SWEEP_RUNS, erpAt);
	ctx.log(`  the contenders at ${sweep.best} requests at once`);
	const contenders: Record<RemoteContender, Run> = { erpNode: await erpAt(sweep.best), ...(await othersAt(sweep.best)) };
	const samples = await alternate(contenders, ctx.runs, ctx.log);
	const { runs, medians } = secondsOf(samples);
	const worstPeak = (name: RemoteContender) => Math.max(...samples[name].map((sample) => sample.peakInFlight));
	const typical = (name: RemoteContender) => median(samples[name].map((sample) => sample.medianInFlight));
	const names = Object.keys(contenders) as RemoteContender[];
	ctx.log(`  medians: ${names.map((name) => `${name} ${medians[name].toFixed(3)} s (at once: ${typical(name)}, most ${worstPeak(name)})`).join(', ')}`);
	const profile = await profileRemote(ctx, { erpNode: contenders.erpNode, floor: contenders.floor }, workload.items);
	return {
		items: workload.items,
		requests: workload.requests,
		concurrency: sweep.best,
		erpNode_s: medians.erpNode,
		floor_s: medians.floor,
		httpRequestNodeBatching_s: medians.httpRequestNodeBatching,
		httpRequestNode_s: medians.httpRequestNode,
		rawClient_s: medians.rawClient,
		ratios: {
			erpNodeVsRawClient: ratio(medians.erpNode, medians.rawClient),
			erpNodeVsFloor: ratio(medians.erpNode, medians.floor),
			erpNodeVsHttpRequestNodeBatching: ratio(medians.erpNode, medians.httpRequestNodeBatching),
			httpRequestNodeVsErpNode: ratio(medians.httpRequestNode, medians.erpNode),
		},
		peakInFlight: {
			erpNode: worstPeak('erpNode'),
			floor: worstPeak('floor'),
			httpRequestNodeBatching: worstPeak('httpRequestNodeBatching'),
			httpRequestNode: worstPeak('httpRequestNode'),
			rawClient: worstPeak('rawClient'),
		},
		medianInFlight: Object.fromEntries(names.map((name) => [name, typical(name)])),
		profile,
		samples: runs,
		concurrencySweep: sweep.seconds,
		concurrencySweepRuns: sweep.runs,
	};
}
