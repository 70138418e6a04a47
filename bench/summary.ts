/**
 * bench/summary.json: the figures bench/README.md and docs/speed.md show, with the date and machine of each run, and
 * the targets evaluated from them. A run's every sample is in its raw dump (.runs/bench/, not committed); the summary
 * keeps medians, ratios and the worst run's counts.
 */
import type { ContenderProfile } from './profile/remote';
import type { Growth, Results, Stamped } from './results';
import { median } from './stats';
import { evaluateTargets, type Target } from './targets';
import type { BulkCreateResult } from './workloads/bulkCreate';
import type { ConfirmResult } from './workloads/confirm';
import type { RateContender, RateLimitedResult, RateLimitedSample } from './workloads/rateLimited';
import type { RemoteResult } from './workloads/remote';
import type { RemoteWorkloadResult } from './workloads/remote/compare';
import type { GrowthGap, GrowthPoint, GrowthSeries, ScalingResult } from './workloads/scaling';
import type { SharedLimitResult } from './workloads/sharedLimit';

/** Every run of each contender, and every run at each Concurrency of a sweep: in the raw dump only. */
type Runs = 'samples' | 'concurrencySweepRuns';

/** One contender's runs under a rate limit: the median time and, for what must be 0, the worst run. */
export interface RateRow {
	runs: number;
	succeeded: number;
	median_s: number;
	failed: number;
	missing: number;
	duplicates: number;
	/** 429s, the median run's. */
	refused: number;
}

export type RateSummary = Omit<RateLimitedResult, 'samples'> & {
	rows: Partial<Record<RateContender, RateRow>> & Record<'erpNode' | 'httpRequestNode', RateRow>;
};

export type RemoteWorkloadSummary = Omit<RemoteWorkloadResult, Runs | 'profile'> & {
	profile?: Record<'erpNode' | 'floor', Omit<ContenderProfile, 'functions'>>;
};

export type RemoteSummary = Omit<RemoteResult, 'listAll' | 'bulkCreate' | 'mixed' | 'rateLimited'> & {
	listAll: RemoteWorkloadSummary;
	bulkCreate: RemoteWorkloadSummary;
	mixed: RemoteWorkloadSummary;
	rateLimited?: RateSummary;
};

/** A measured size: its medians, and the lowest and highest 1-minute load at the end of its runs. */
export type PointSummary = Omit<GrowthPoint, 'runs'> & { runLoad: { min: number; max: number } };
export type SeriesSummary = Omit<GrowthSeries, 'points'> & { points: Array<PointSummary | GrowthGap> };
export type ScalingSummary = Stamped<Omit<ScalingResult, 'series'> & { series: SeriesSummary[] }>;

export type GrowthSummary = Omit<Growth, 'scaling'> & { scaling?: ScalingSummary };

export interface Summary extends GrowthSummary {
	n8n: string;
	runs: number;
	sweepRuns: number;
	date: string;
	machine: Results['machine'];
	/** The sandbox answering each request 30 ms and 100 ms late. */
	[remote: `remote${number}`]: RemoteSummary;
	workloads: {
		listAll: Omit<Results['workloads']['listAll'], Runs>;
		bulkCreate: Omit<BulkCreateResult, Runs>;
		rateLimited: RateSummary;
	};
	profile: Results['profile'];
	memory: Results['memory'];
	targets: Target[];
	/** Four runs against one limit, in one n8n and in queue mode, before and after the shared budget. */
	sharedLimit?: SharedLimitResult;
	/** The ERP Trigger's confirmation, its cost per delivery and a burst under a rate limit, with its targets. */
	confirm?: ConfirmResult & { targets: Target[] };
}

export function rateRow(samples: RateLimitedSample[]): RateRow {
	const worst = (field: 'failed' | 'missing' | 'duplicates') => Math.max(...samples.map((sample) => sample[field]));
	return {
		runs: samples.length,
		succeeded: samples.filter((sample) => sample.succeeded).length,
		median_s: median(samples.map((sample) => sample.seconds)),
		failed: worst('failed'),
		missing: worst('missing'),
		duplicates: worst('duplicates'),
		refused: median(samples.map((sample) => sample.refused)),
	};
}

const withoutRuns = <T extends Record<Runs, unknown>>({ samples: _samples, concurrencySweepRuns: _sweepRuns, ...figures }: T) => figures;

function rateSummary({ samples, ...figures }: RateLimitedResult): RateSummary {
	const rows = Object.fromEntries(Object.entries(samples).map(([contender, runs]) => [contender, rateRow(runs)]));
	return { ...figures, rows: rows as RateSummary['rows'] };
}

function remoteWorkloadSummary({ profile, ...result }: RemoteWorkloadResult): RemoteWorkloadSummary {
	const withoutFunctions = ({ functions: _functions, ...rest }: ContenderProfile) => rest;
	const figures = withoutRuns(result);
	return { ...figures, ...(profile && { profile: { erpNode: withoutFunctions(profile.erpNode), floor: withoutFunctions(profile.floor) } }) };
}

export const remoteSummary = ({ listAll, bulkCreate, mixed, rateLimited, ...rest }: RemoteResult): RemoteSummary => ({
	...rest,
	listAll: remoteWorkloadSummary(listAll),
	bulkCreate: remoteWorkloadSummary(bulkCreate),
	mixed: remoteWorkloadSummary(mixed),
	...(rateLimited && { rateLimited: rateSummary(rateLimited) }),
});

function pointSummary(point: GrowthPoint | GrowthGap): PointSummary | GrowthGap {
	if ('notMeasured' in point) return point;
	const { runs, ...figures } = point;
	const loads = runs.map((run) => run.loadAvg1);
	return { ...figures, runLoad: { min: Math.min(...loads), max: Math.max(...loads) } };
}

export const growthSummary = ({ scaling, ...rest }: Growth): GrowthSummary => ({
	...rest,
	...(scaling && { scaling: { ...scaling, series: scaling.series.map((one) => ({ ...one, points: one.points.map(pointSummary) })) } }),
});

/** The remote results in the order of their latencies. */
export const remotesOf = (summary: Summary): RemoteSummary[] =>
	Object.keys(summary)
		.filter((key): key is `remote${number}` => /^remote\d+$/.test(key))
		.map((key) => summary[key])
		.sort((a, b) => a.latency_ms - b.latency_ms);

/** The summary with its targets evaluated again from its figures (a part run alone may have replaced some). */
export const withTargets = (summary: Summary): Summary => ({
	...summary,
	targets: evaluateTargets(summary.workloads, remotesOf(summary), summary.inParts),
});

const rawRemotes = (results: Results): RemoteResult[] =>
	Object.keys(results)
		.filter((key): key is `remote${number}` => /^remote\d+$/.test(key))
		.map((key) => results[key]);

/** The summary of a full run, its targets evaluated. */
export function summarize(results: Results): Summary {
	const { workloads, scaling, limit, inParts, polling } = results;
	return withTargets({
		n8n: results.n8n,
		runs: results.runs,
		sweepRuns: results.sweepRuns,
		date: results.date,
		machine: results.machine,
		...Object.fromEntries(rawRemotes(results).map((remote) => [`remote${remote.latency_ms}`, remoteSummary(remote)])),
		workloads: { listAll: withoutRuns(workloads.listAll), bulkCreate: withoutRuns(workloads.bulkCreate), rateLimited: rateSummary(workloads.rateLimited) },
		profile: results.profile,
		memory: results.memory,
		...growthSummary({ scaling, limit, inParts, polling }),
		targets: [],
	});
}
