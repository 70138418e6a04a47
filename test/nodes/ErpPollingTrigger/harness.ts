import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { ErpApi } from '../../../credentials/ErpApi.credentials';
import { ErpPollingTrigger } from '../../../nodes/ErpPollingTrigger/ErpPollingTrigger.node';
import type { SandboxOptions } from '../../../sandbox/server';
import { createPoller, type Poller, type Scheduler } from '../../../tooling/harness';
import { useTestSandbox, waitFor, type TestSandbox } from '../../../tooling/harness/sandbox';
import { createContact, createOrder } from '../../sandbox/fixtures';

export { createContact, createEmployee, createInvoice, createOrder, createProduct } from '../../sandbox/fixtures';

export interface PollingHarness {
	/** One sandbox for the file, reset before each test. */
	sandbox: TestSandbox;
	/** An ERP Polling Trigger with these parameters, as an active workflow holds it (classic scheduler by default). */
	poller(parameters: INodeParameters, staticData?: IDataObject, scheduler?: Scheduler): Poller;
}

/** The ERP Polling Trigger in n8n-core's PollContext, reading the in-process sandbox (started with `options`) over HTTP. */
export function usePollingHarness(options: SandboxOptions = {}): PollingHarness {
	const sandbox = useTestSandbox(options);
	return {
		sandbox,
		poller: (parameters, staticData, scheduler) =>
			createPoller({
				scheduler,
				nodeType: new ErpPollingTrigger(),
				parameters,
				credentialType: new ErpApi(),
				credentials: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token },
				staticData,
			}),
	};
}

/** The poll's items as `event id` lines, in order (a product.low_stock names its product product_id): what a test compares. */
export function reported(items: INodeExecutionData[] | null): string[] {
	return (items ?? []).map(({ json }) => {
		const data = json.data as IDataObject;
		return `${String(json.event)} ${String(json.event === 'product.low_stock' ? data.product_id : data.id)}`;
	});
}

/** The trigger's memory as the running n8n holds it now (PollState, in the node's static data). */
export function memoryOf(poller: Poller): IDataObject {
	return ((poller.inMemory()['node:ERP Polling Trigger'] as IDataObject | undefined)?.erpPoll ?? {}) as IDataObject;
}

/** The IDs the trigger remembers, in numeric order. */
export const remembered = (poller: Poller): string[] => Object.keys(memoryOf(poller).records as IDataObject).sort((a, b) => Number(a) - Number(b));

/** A poll that must succeed: its items (null when it reported nothing). */
export async function pollOk(poller: Poller): Promise<INodeExecutionData[] | null> {
	const { items, error } = await poller.poll();
	if (error) throw error;
	return items;
}

/** Runs `poll` with the second page of `path` held 1.5 s, and `change` done once the first page was answered. */
export async function withChangeBetweenPages<T>(sandbox: TestSandbox, path: string, poll: () => Promise<T>, change: () => Promise<unknown>): Promise<T> {
	const since = await sandbox.admin.lastRequestSeq();
	await sandbox.admin.queueFault({ match: { method: 'GET', path }, fault: { kind: 'latency', delayMs: 0 } });
	await sandbox.admin.queueFault({ match: { method: 'GET', path }, fault: { kind: 'latency', delayMs: 1_500 } });
	const running = poll();
	await waitFor(async () => (await sandbox.admin.requests(since)).some((r) => r.path === path && r.query.page === '1'));
	await change();
	return await running;
}

/** A list watched for new records: a resource the API document names, or any list (needs the orders extension). */
export interface AddedWatch {
	name: string;
	/** The list's path: where a test queues its faults. */
	path: string;
	parameters: INodeParameters;
	/** What a failed list read says the trigger was doing, e.g. "list the contacts". */
	listing: string;
	/** Adds a record through the ERP's API, and returns the line reported() gives for its report. */
	add(sandbox: TestSandbox): Promise<string>;
}

let orderNumber = 0;

export const ADDED_WATCHES: AddedWatch[] = [
	{
		name: 'contacts',
		path: '/contacts',
		parameters: { triggerOn: 'contact:recordAdded' },
		listing: 'list the contacts',
		add: async (sandbox) => `contact.created ${(await createContact(sandbox.api)).id}`,
	},
	{
		name: 'any list (/orders)',
		path: '/orders',
		parameters: { triggerOn: 'list:recordAdded', listPath: '/orders' },
		listing: 'list the records of /orders',
		add: async (sandbox) => `record.created ${(await createOrder(sandbox.api, { reference: `SO-A${++orderNumber}` })).id}`,
	},
];
