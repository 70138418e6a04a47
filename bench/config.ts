/** The bench's workloads, their sizes and targets, and how often each contender runs them. */

/** Measured runs per contender after one warm-up run; BENCH_RUNS=1 gives a quick look while developing. */
export const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** Measured runs at each Concurrency of a sweep (the settings take turns, like the contenders). */
export const SWEEP_RUNS = Number(process.env.BENCH_SWEEP_RUNS ?? 3);
/**
 * BENCH_SCALE=0.1 shrinks every workload's records and items to a tenth while developing; such a run, like one
 * limited by BENCH_ONLY, leaves bench/summary.json and bench/README.md alone (its figures go to .runs/bench/).
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

/** Remote ERP: the sandbox answers every request this much later, as an ERP across the internet would. */
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

/** How cost grows with the records read and the items created, on loopback and at 30 ms. */
export const SCALING = {
	latenciesMs: [0, 30],
	listRecords: [1_000, 10_000, 50_000, 100_000].map(scaled),
	createItems: [1_000, 10_000, 50_000].map(scaled),
	/** Measured runs at each size (after one warm-up at the smallest). */
	runs: Number(process.env.BENCH_SCALING_RUNS ?? 3),
	/** Return All at the node's default Concurrency: what a user gets without touching Options. */
	listConcurrency: 5,
	/** Creates at the fastest Concurrency of the remote sweeps: at 5 and 30 ms the answer time alone is 6 ms an item. */
	createConcurrency: 50,
	/** A run is stopped (and the larger sizes of its series not tried) after this long. */
	runLimitS: 300,
	/** A size of a create series is not run when the smaller one's time per item says it would take longer than this. */
	sizeBudgetS: 600,
	/** The per-record time at the largest size may be this many times the one at the smallest above 1,000. */
	flatTolerance: 1.5,
};

/** Return All above the curve, each size tried once, until n8n fails or a try takes longer than its limit. */
export const LIMIT = {
	// Finer steps above 3.2 million, where n8n's heap runs out; the sandbox holds them in the bench's own process.
	records: [200_000, 400_000, 800_000, 1_600_000, 3_200_000, 4_000_000, 4_800_000, 5_600_000, 6_400_000].map(scaled),
	tryLimitS: 300,
	/** `inParts`: this many contacts read by examples/contacts-by-month.json, and in one saved Return All. */
	inPartsRecords: scaled(800_000),
	/** Its read by month is stopped after this long: a sub-workflow run per month since 2020. */
	inPartsLimitS: 1_200,
};

/** The ERP Polling Trigger's cost per poll at these numbers of contacts. */
export const POLLING_RECORDS = [1_000, 10_000].map(scaled);
/**
 * A poll against an ERP this far away, with the budget n8n 2.41's durable scheduler gives a poll at its
 * 45 s default timeout (36 s), at this many contacts (Record Added) and products (Stock Below Threshold).
 */
export const POLLING_REMOTE = {
	latencyMs: 100,
	budgetMs: 36_000,
	contacts: scaled(10_000),
	products: [1_000, 5_000].map(scaled),
};

/**
 * Many runs on one limit: four runs of 250 creates against one limit of 50 requests a second, in one n8n and in
 * queue mode, at the node's defaults (Concurrency 5, Max Retries 5). `beforeCommit`: the code before the one rate
 * controller per ERP.
 */
export const SHARED_LIMIT = {
	rate: { limit: 50, windowMs: 1_000 },
	runs: 4,
	rowsPerRun: scaled(250),
	concurrency: 5,
	maxRetries: 5,
	beforeCommit: 'bf71944',
};

/**
 * Which parts run: BENCH_ONLY=remote30,bulkCreate,profile or `npm run bench -- --only scaling,limit` (default:
 * all); `loopback` stands for its three workloads. A run of every part at full size replaces bench/summary.json;
 * a full-size run of only `scaling`, `inParts`, `limit` and `polling`, or of only the remote parts, replaces their
 * figures in it and keeps the rest.
 */
export const LOOPBACK_PARTS = ['listAll', 'bulkCreate', 'rateLimited'] as const;
/** The parts that may run alone (how cost grows, and the polling trigger's); `limit` runs last, since n8n may not survive it. */
export const GROWTH_PARTS = ['scaling', 'inParts', 'polling', 'limit'] as const;
/** How cost grows (n8n's own limits at scale, about 40 minutes): a run of every other part keeps their dated figures. */
export const KEPT_PARTS = ['scaling', 'inParts', 'limit'] as const;
/** Many runs on one limit: its own n8n and queue-mode cluster (with the package before and after), so it runs alone too. */
export const SHARED_LIMIT_PART = 'sharedLimit';
/** The ERP Trigger's confirmation, in its own n8n, so it runs alone too. */
export const CONFIRM_PART = 'confirm';
export const PARTS: string[] = [...LOOPBACK_PARTS, 'profile', ...REMOTE_LATENCIES_MS.map((ms) => `remote${ms}`), ...GROWTH_PARTS, SHARED_LIMIT_PART, CONFIRM_PART];
/** The profile's Concurrency when listAll and bulkCreate did not run before it to find the fastest. */
export const PROFILE_DEFAULT_CONCURRENCY = { listAll: 8, bulkCreate: 5 };
const onlyArgument = process.argv.indexOf('--only');
const only = (onlyArgument >= 0 ? process.argv[onlyArgument + 1] : process.env.BENCH_ONLY)?.split(',').map((part) => part.trim());
export const ONLY = only ? only.flatMap((part) => (part === 'loopback' ? [...LOOPBACK_PARTS] : [part])) : PARTS;

/** The targets: on loopback, against a remote ERP, against n8n's floor, and for reading in parts. */
export const TARGETS = {
	listAllVsRaw: 1.2,
	bulkCreateSpeedupVsHttp: 3,
	bulkCreateVsRaw: 1.5,
	rateLimitedVsTheory: 1.15,
	remoteVsRaw: 1.15,
	remoteVsHttpBatching: 1,
	remoteSpeedupVsHttpDefaults: 8,
	/** The ERP node against n8n's floor (bench/floor), in every remote workload. */
	remoteVsFloor: 1.15,
	/** Reading in parts (inParts, by month) against one saved Return All of the same contacts. */
	inPartsRssVsReturnAll: 0.6,
	inPartsTimeVsReturnAll: 3,
};

/**
 * The ERP Trigger's confirmation: deliveries confirmed against an ERP `latencyMs` away (`deliveries` per way, one at a time), and a burst
 * of `burst` deliveries: to version 1 (n8n alone), then against `limitRps` requests a second with the trigger's
 * defaults and with a Confirmation Wait of `burstWait` s (500 reads at 50 a second take 10 s). The ERP waits
 * `erpTimeoutMs` for an answer.
 */
export const CONFIRM = { latencyMs: 100, deliveries: 30, burst: 500, limitRps: 50, burstWait: 12, erpTimeoutMs: 30_000, maxRefusedShare: 0.1 };
