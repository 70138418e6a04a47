/** The workloads of issues 6 and 17 and how often each contender runs them. */

/** Measured runs per contender after one warm-up run; BENCH_RUNS=1 gives a quick look while developing. */
export const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** Measured runs at each Concurrency of a sweep (the settings take turns, like the contenders). */
export const SWEEP_RUNS = Number(process.env.BENCH_SWEEP_RUNS ?? 3);
/**
 * BENCH_SCALE=0.1 shrinks every workload's records and items to a tenth while developing; such a run, like one
 * limited by BENCH_ONLY, leaves bench/results.json and bench/README.md alone.
 */
export const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const scaled = (count: number) => Math.max(1, Math.round(count * SCALE));

export const LIST_RECORDS = scaled(20_000);
/** listAll: the Concurrency settings (pages read at once) the ERP node is swept over. */
export const LIST_CONCURRENCIES = [1, 2, 4, 8, 16];
/** The ERP node's page size (DEFAULT_PAGE_SIZE in nodes/Erp/transport/paginate.ts), used by every contender. */
export const PAGE_SIZE = 100;

export const BULK_ITEMS = scaled(2_000);
/** bulkCreate: the ERP node is swept over these; the raw client uses the fastest. */
export const BULK_CONCURRENCIES = [1, 5, 10, 25, 50];

export const RATE_LIMIT = { limit: 50, windowMs: 1_000 };
export const RATE_ITEMS = scaled(1_000);
/** As many items in flight as the window admits: when a wait ends, a whole window's worth is ready to go. */
export const RATE_CONCURRENCY = RATE_LIMIT.limit;

/** Issue 17: the sandbox answers every request this much later, as an ERP across the internet would. */
export const REMOTE_LATENCIES_MS = [30, 100];
export const REMOTE = {
	listRecords: scaled(5_000),
	bulkItems: scaled(1_000),
	/** Invoices created, then each sent: two dependent requests per item. */
	mixedItems: scaled(500),
	/** Return All: from one page at a time to every page of the 5,000 at once. */
	listConcurrencies: [1, 5, 10, 25, 50],
	/** Creates: one at a time would take minutes per run at 100 ms, so the sweep starts at 5. */
	writeConcurrencies: [5, 10, 25, 50],
	/** rateLimited runs at this latency only. */
	rateLimitedLatencyMs: 30,
};

/**
 * Which parts run: BENCH_ONLY=remote30,bulkCreate,profile (default: all, the only way results are written);
 * `loopback` stands for its three workloads.
 */
export const LOOPBACK_PARTS = ['listAll', 'bulkCreate', 'rateLimited'] as const;
export const PARTS: string[] = [...LOOPBACK_PARTS, 'profile', ...REMOTE_LATENCIES_MS.map((ms) => `remote${ms}`)];
/** The profile's Concurrency when listAll and bulkCreate did not run before it to find the fastest. */
export const PROFILE_DEFAULT_CONCURRENCY = { listAll: 8, bulkCreate: 5 };
const only = process.env.BENCH_ONLY?.split(',').map((part) => part.trim());
export const ONLY = only ? only.flatMap((part) => (part === 'loopback' ? [...LOOPBACK_PARTS] : [part])) : PARTS;

/** The targets of issues 6 and 17. */
export const TARGETS = {
	listAllVsRaw: 1.2,
	bulkCreateSpeedupVsHttp: 3,
	bulkCreateVsRaw: 1.5,
	rateLimitedVsTheory: 1.15,
	remoteVsRaw: 1.15,
	remoteVsHttpBatching: 1,
	remoteSpeedupVsHttpDefaults: 8,
};
