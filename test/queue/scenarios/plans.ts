import type { ImportPlan } from './import';

/**
 * 2,000 contacts as 20 webhook calls of 100 rows, all at once: 20 executions, at most 10 at a time per worker
 * (n8n's default worker concurrency), each creating its 100 contacts (Contact › Create, as the benchmark's one
 * process does) with the node's Concurrency 5.
 */
export const IMPORT_PLAN: ImportPlan = {
	label: 'queue-import',
	executions: 20,
	rowsPerExecution: 100,
	settings: { operation: 'create', concurrency: 5, maxRetries: 5 },
	rateLimit: null,
};

/**
 * The same against an ERP that allows 100 requests per second to the token all workers share: 20 s at the least,
 * with the node's default Max Retries: each worker keeps to its share of the window, so no item runs out of retries.
 */
export const RATE_LIMITED_PLAN: ImportPlan = {
	...IMPORT_PLAN,
	label: 'queue-limited',
	rateLimit: { limit: 100, windowMs: 1000 },
};

/** The rate-limited import with Create or Update, which a user can run again after a failure: the worker-death run. */
export const RERUNNABLE_PLAN: ImportPlan = { ...RATE_LIMITED_PLAN, label: 'queue-rerun', settings: { ...RATE_LIMITED_PLAN.settings, operation: 'upsert' } };
