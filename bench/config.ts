/** The workloads of issue 6 and how often each contender runs them. */

/** Measured runs per contender after one warm-up run; BENCH_RUNS=1 gives a quick look while developing. */
export const RUNS = Number(process.env.BENCH_RUNS ?? 5);

export const LIST_RECORDS = 20_000;
/** listAll: the ERP node runs 3 times at each (pages read at once), then its measured runs at the fastest. */
export const LIST_CONCURRENCIES = [1, 2, 4, 8, 16];
/** The ERP node's page size (MAX_PAGE_SIZE in nodes/Erp/transport/paginate.ts), used by every contender. */
export const PAGE_SIZE = 100;

export const BULK_ITEMS = 2_000;
/** bulkCreate: the ERP node runs once at each, then its 5 runs at the fastest; the raw client uses the same. */
export const BULK_CONCURRENCIES = [1, 5, 10, 25, 50];

export const RATE_LIMIT = { limit: 50, windowMs: 1_000 };
export const RATE_ITEMS = 1_000;
/** As many items in flight as the window admits: when a wait ends, a whole window's worth is ready to go. */
export const RATE_CONCURRENCY = RATE_LIMIT.limit;

/** The targets of issue 6. */
export const TARGETS = {
	listAllVsRaw: 1.2,
	bulkCreateSpeedupVsHttp: 3,
	bulkCreateVsRaw: 1.5,
	rateLimitedVsTheory: 1.15,
};
