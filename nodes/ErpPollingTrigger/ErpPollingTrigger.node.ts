import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { ErpClient } from '../shared/transport/client';
import { DEFAULT_PAGE_SIZE, learntPageSize } from '../shared/transport/paginate';
import { DEFAULT_TRANSPORT_OPTIONS } from '../shared/transport/types';
import { pollBudget } from './budget';
import { readConfig, stateKey, type WatchConfig } from './config';
import type { Detected, Observed } from './detect';
import { compare, hasValue } from './detect';
import { toItemJson } from './items';
import { observe } from './observe';
import { properties, SUBTITLE } from './properties';
import { newestMemory, handOver } from './handedOver';
import { changeTokens, loadState, saveState, type PollState } from './state';

/** The workflow and node of each trigger whose poll is running in this process: see poll(). */
const polling = new Set<string>();

const tracksChanges = (config: WatchConfig) => config.triggerOn === 'recordUpdated' || config.triggerOn === 'recordAddedOrUpdated';

const ids = new Intl.Collator('en', { numeric: true });

/** Highest ID first: by number where IDs are numbers, and a list's text IDs (SO-000012) by the numbers in them. */
const byIdDescending = ([a]: [string, unknown], [b]: [string, unknown]) => ids.compare(b, a);

/**
 * Fetch Test Event: what would be reported, from the ERP as it is now, without the memory (never changed here).
 * The most recent record (highest ID) for Record Added / Updated, the most recent one with the value, or the
 * products below their threshold now (up to 10).
 */
function sample(config: WatchConfig, observed: Observed): Detected[] {
	const newestFirst = [...observed.now.entries()].sort(byIdDescending);
	if (config.triggerOn === 'lowStock') {
		return newestFirst
			.filter(([id]) => {
				const stock = observed.stock?.get(id);
				return stock !== undefined && stock.total < stock.threshold;
			})
			.slice(0, 10)
			.map(([id, record]) => ({ kind: 'lowStock', id, record, stock: observed.stock?.get(id) }));
	}
	const match =
		config.triggerOn === 'fieldValue'
			? newestFirst.find(([, record]) => hasValue(record, config))
			: newestFirst[0];
	if (!match) return [];
	const [id, record] = match;
	const kind = config.triggerOn === 'fieldValue' ? 'value' : config.triggerOn === 'recordUpdated' ? 'updated' : 'added';
	return [{ kind, id, record, ...(kind === 'updated' ? { changes: {} } : {}) }];
}

export class ErpPollingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'ERP Polling Trigger',
		name: 'erpPollingTrigger',
		icon: { light: 'file:../Erp/erp.svg', dark: 'file:../Erp/erp.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: SUBTITLE,
		description:
			'Starts the workflow when records change in the ERP, by asking the ERP at each poll time: works without a public URL and catches up after downtime',
		defaults: { name: 'ERP Polling Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'erpApi', required: true }],
		properties,
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const config = readConfig.call(this);
		const budget = pollBudget(this);
		const timestamp = new Date().toISOString();
		const toItems = (detected: Detected[]) => detected.map((d) => ({ json: toItemJson(config, d, timestamp) }));
		// n8n 2.41's durable scheduler abandons a poll past its budget (36 s by default) and backs off by the failure
		// its error declares: a 429 asking for more than half the budget ends the poll with the ERP's wait instead.
		const maxTotalWaitMs = smallest(DEFAULT_TRANSPORT_OPTIONS.maxTotalWaitMs, budget.totalMs === undefined ? undefined : Math.floor(budget.totalMs / 2));
		const clientFor = (pageSize?: number) =>
			ErpClient.create(this, {
				concurrency: config.concurrency,
				maxRetries: config.maxRetries,
				maxTotalWaitMs,
				pageSize: smallest(config.pageSize ?? DEFAULT_PAGE_SIZE, pageSize),
			});

		if (this.getMode() === 'manual') {
			const found = sample(config, await observe(await clientFor(), config, undefined, false, budget));
			return found.length > 0 ? [toItems(found)] : null;
		}

		// n8n 2.41 and 1.123 start a poll at its time even while the previous one still runs (a slow or rate-limited
		// ERP): both would compare with the same memory and report the same records. The later one is skipped. Keyed by
		// workflow and node, not by the memory's object: under durable poll cursors each poll gets a copy of its own.
		const running = `${this.getWorkflow().id ?? ''}\n${this.getNode().id}`;
		if (polling.has(running)) return null;
		polling.add(running);
		const staticData = this.getWorkflowStaticData('node');
		try {
			const key = stateKey(config);
			const previous = newestMemory(running, loadState(staticData, key), key, Date.now());
			const client = await clientFor(previous?.pageSize);
			// The memory is replaced only after the whole poll succeeded: a failed poll changes nothing.
			const observed = await observe(client, config, previous, previous === undefined, budget);
			const tokens = tracksChanges(config) ? changeTokens(config, previous?.fields, observed.now.values()) : undefined;
			const { detected, records, unsaved } = compare(config, previous, observed, tokens);
			const pageSize = smallest(learntPageSize(client), previous?.pageSize);
			const { stockField, stockCursor, missed } = observed;
			const state: PollState = {
				version: 1,
				key,
				...(tokens?.fields ? { fields: tokens.fields } : {}),
				...(pageSize ? { pageSize } : {}),
				...(stockField ? { stockField } : {}),
				...(stockCursor ? { stockCursor } : {}),
				...(missed ? { missed } : {}),
				records,
			};

			// n8n saves a polling trigger's memory only when a poll starts an execution (the activation's poll too, under
			// the classic scheduler; not under durable poll cursors): an execution with no items makes it keep a new
			// baseline, and what this poll learnt that a restart must not lose (see Comparison.unsaved). A found stock field
			// is kept too (else the next poll reads a sample again); the rotation's position is not: a restart going back
			// to the saved one reads some products again, and loses nothing.
			const learnt =
				previous === undefined ||
				unsaved ||
				pageSize !== previous.pageSize ||
				stockField !== previous.stockField ||
				String(tokens?.fields) !== String(previous.fields ?? tokens?.fields);
			const execution = detected.length > 0 ? [toItems(detected)] : learnt ? [[]] : null;
			// Each memory handed over with an execution is one generation on (see handedOver.ts).
			const generation = (previous?.generation ?? 0) + (execution === null ? 0 : 1);
			const next: PollState = { ...state, ...(generation > 0 ? { generation } : {}) };
			saveState(staticData, next);
			// A poll past its budget may have been abandoned by n8n, which then saves nothing of it: not handed over.
			if (execution !== null && !budget.exceeded()) handOver(running, next, Date.now());
			return execution;
		} finally {
			polling.delete(running);
		}
	}
}

/** The smallest of the sizes given. */
function smallest(...sizes: Array<number | undefined>): number | undefined {
	const known = sizes.filter((size): size is number => size !== undefined);
	return known.length > 0 ? Math.min(...known) : undefined;
}
