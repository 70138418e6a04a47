import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { ErpApi } from '../../../credentials/ErpApi.credentials';
import { ErpPollingTrigger } from '../../../nodes/ErpPollingTrigger/ErpPollingTrigger.node';
import { createPoller, type Poller, type Scheduler } from '../../harness';
import { useTestSandbox, type TestSandbox } from '../../harness/sandbox';
import type { SandboxOptions } from '../../../sandbox/server';

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

/** A poll that must succeed: its items (null when it reported nothing). */
export async function pollOk(poller: Poller): Promise<INodeExecutionData[] | null> {
	const { items, error } = await poller.poll();
	if (error) throw error;
	return items;
}
