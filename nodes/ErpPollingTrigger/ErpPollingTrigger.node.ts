import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { ErpClient } from '../Erp/transport/client';
import { readConfig, stateKey, type WatchConfig } from './config';
import type { Detected, Observed } from './detect';
import { compare, hasValue } from './detect';
import { toItemJson } from './items';
import { observe } from './observe';
import { properties } from './properties';
import { changeTokens, loadState, saveState } from './state';

const tracksChanges = (config: WatchConfig) => config.triggerOn === 'recordUpdated' || config.triggerOn === 'recordAddedOrUpdated';

/**
 * Fetch Test Event: what would be reported, from the ERP as it is now, without the memory (never changed here).
 * The most recent record (highest ID) for Record Added / Updated, the most recent one with the value, or the
 * products below their threshold now (up to 10).
 */
function sample(config: WatchConfig, observed: Observed): Detected[] {
	const newestFirst = [...observed.now.entries()].sort(([a], [b]) => Number(b) - Number(a));
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
		subtitle: '={{$parameter["triggerOn"] + ": " + $parameter["resource"]}}',
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
		const client = await ErpClient.create(this, { concurrency: config.concurrency, maxRetries: config.maxRetries, pageSize: config.pageSize });
		const timestamp = new Date().toISOString();
		const toItems = (detected: Detected[]) => detected.map((d) => ({ json: toItemJson(config, d, timestamp) }));

		if (this.getMode() === 'manual') {
			const found = sample(config, await observe(client, config, undefined, false));
			return found.length > 0 ? [toItems(found)] : null;
		}

		// The memory is replaced only after the whole poll succeeded: a failed poll changes nothing.
		const staticData = this.getWorkflowStaticData('node');
		const key = stateKey(config);
		const loaded = staticData.erpPoll;
		const previous = loadState(staticData, key);
		const observed = await observe(client, config, previous, previous === undefined);
		// n8n starts a poll at each poll time even while the previous one still runs. If another poll replaced the
		// memory meanwhile, this one started from an outdated memory and would report its changes again: it reports
		// nothing and changes nothing; the next poll catches up.
		if (staticData.erpPoll !== loaded) return null;
		const tokens = tracksChanges(config) ? changeTokens(config, previous?.fields, observed.now.values()) : undefined;
		const { detected, records, rearmed } = compare(config, previous, observed, tokens);
		saveState(staticData, { version: 1, key, ...(tokens?.fields ? { fields: tokens.fields } : {}), records });

		if (detected.length > 0) return [toItems(detected)];
		// n8n saves a polling trigger's memory only when it starts an execution (see Comparison.rearmed): an execution
		// with no items makes it keep a re-armed record.
		return rearmed ? [[]] : null;
	}
}
