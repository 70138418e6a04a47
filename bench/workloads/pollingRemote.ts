import type { INodeParameters } from 'n8n-workflow';

import { ErpApi } from '../../credentials/ErpApi.credentials';
import { ErpPollingTrigger } from '../../nodes/ErpPollingTrigger/ErpPollingTrigger.node';
import { SandboxAdmin } from '../../sandbox/adminClient';
import { startSandbox } from '../../sandbox/server';
import type { SeedOptions } from '../../sandbox/seed';
import type { VariantName } from '../../sandbox/variants';
import { createPoller, type Poller } from '../../tooling/harness/run-poll';

/** One ERP Polling Trigger configuration against the sandbox answering every request `latencyMs` late. */
export interface RemotePollCost {
	case: string;
	records: number;
	latencyMs: number;
	/** The budget n8n gives each poll (getPollBudgetMs()): the durable scheduler's at its 45 s default. */
	budgetMs: number;
	baselineMs: number;
	baselineRequests: number;
	/** The later polls measured: the slowest, and the most requests and stock reads one of them sent. */
	laterPolls: number;
	laterMaxMs: number;
	laterMaxRequests: number;
	laterMaxStockReads: number;
	/** Stock read one by one: the polls after the first that it took until every product's stock was read. */
	pollsToReadEveryProduct?: number;
}

interface Case {
	name: string;
	seed: SeedOptions;
	variants: VariantName[];
	parameters: INodeParameters;
	/** Later polls to measure; stock read one by one: until every product was read (at most this many). */
	laterPolls: number;
	readsEveryProduct?: boolean;
}

const LOW_STOCK = { triggerOn: 'product:lowStock', thresholdType: 'field', thresholdField: 'low_stock_threshold' };

function cases(contacts: number, productSizes: number[]): Case[] {
	return [
		{ name: 'Record Added', seed: { contacts }, variants: [], parameters: { triggerOn: 'contact:recordAdded' }, laterPolls: 2 },
		...productSizes.flatMap((products): Case[] => [
			{ name: 'Stock Below Threshold, the list carries stock_total', seed: { products }, variants: [], parameters: LOW_STOCK, laterPolls: 2 },
			{
				name: 'Stock Below Threshold, the list without stock (no-stock-in-list)',
				seed: { products },
				variants: ['no-stock-in-list'],
				parameters: LOW_STOCK,
				laterPolls: 30,
				readsEveryProduct: true,
			},
		]),
	];
}

const STOCK_PATH = /^\/products\/(\d+)\/stock$/;

/**
 * The trigger in-process (n8n-core's PollContext) against the sandbox answering every API request `latencyMs`
 * late, at the node's defaults (Concurrency 5, pages of 100, Stock Reads per Poll 500), each poll with the
 * durable scheduler's budget: what a poll costs against a remote ERP, and whether it fits the deadline.
 */
export async function pollingRemote(contacts: number, productSizes: number[], latencyMs: number, budgetMs: number): Promise<RemotePollCost[]> {
	const results: RemotePollCost[] = [];
	const sandbox = await startSandbox({ rateLimit: null, overdueSweepMs: 0 });
	const admin = new SandboxAdmin(sandbox.url);
	try {
		for (const c of cases(contacts, productSizes)) {
			await admin.reset();
			const seeded = await admin.seed(c.seed);
			const records = seeded.contacts + seeded.products;
			await admin.setVariants(c.variants);
			await admin.setFaults({ latencyMs });
			const trigger: Poller = createPoller({
				nodeType: new ErpPollingTrigger(),
				parameters: c.parameters,
				credentialType: new ErpApi(),
				credentials: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token },
				// The watches as version 1 names them: Resource and Trigger On.
				typeVersion: 1,
			});
			trigger.setPollBudgetMs(budgetMs);
			const measure = async () => {
				const since = await admin.lastRequestSeq();
				const started = performance.now();
				const { error } = await trigger.poll();
				if (error) throw error;
				const ms = Math.round(performance.now() - started);
				const requests = await admin.requests(since);
				const stockRead = requests.flatMap((r) => STOCK_PATH.exec(r.path)?.[1] ?? []);
				return { ms, requests: requests.length, stockRead };
			};
			const baseline = await measure();
			const later = [];
			const unread = new Set(Array.from({ length: records }, (_, i) => String(i + 1)));
			let pollsToReadEveryProduct: number | undefined;
			for (let poll = 1; poll <= c.laterPolls; poll++) {
				const cost = await measure();
				later.push(cost);
				for (const id of cost.stockRead) unread.delete(id);
				if (!c.readsEveryProduct) continue;
				if (unread.size === 0) {
					pollsToReadEveryProduct = poll;
					break;
				}
			}
			results.push({
				case: c.name,
				records,
				latencyMs,
				budgetMs,
				baselineMs: baseline.ms,
				baselineRequests: baseline.requests,
				laterPolls: later.length,
				laterMaxMs: Math.max(...later.map((l) => l.ms)),
				laterMaxRequests: Math.max(...later.map((l) => l.requests)),
				laterMaxStockReads: Math.max(...later.map((l) => l.stockRead.length)),
				...(c.readsEveryProduct ? { pollsToReadEveryProduct } : {}),
			});
		}
	} finally {
		await sandbox.close();
	}
	return results;
}
