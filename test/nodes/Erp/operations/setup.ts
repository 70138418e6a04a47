// Operation tests: the ERP node runs inside n8n-core's WorkflowExecute (in process) against the sandbox ERP.
import type { IDataObject, INodeParameters, ResourceMapperValue } from 'n8n-workflow';

import { ErpApi } from '../../../../credentials/ErpApi.credentials';
import { contactFields } from '../../../../nodes/Erp/actions/contact/fields';
import { employeeFields } from '../../../../nodes/Erp/actions/employee/fields';
import { productFields } from '../../../../nodes/Erp/actions/product/fields';
import { knownColumns } from '../../../../nodes/Erp/actions/shared/columns';
import { Erp } from '../../../../nodes/Erp/Erp.node';
import { runNode } from '../../../../tooling/harness/run-node';
import { erpTool } from '../toolVariant';
import type { RunNodeResult } from '../../../../tooling/harness/run-node';
import { startTestSandbox } from '../../../../tooling/harness/sandbox';
import type { SeedOptions } from '../../../../sandbox/seed';
import type { SandboxOptions } from '../../../../sandbox/server';
import type { TestSandbox } from '../../../../tooling/harness/sandbox';

export { byId } from '../../../../tooling/host/workflows';
export const fromList = (value: unknown) => ({ __rl: true, mode: 'list', value: String(value) });

const FIELDS = { contact: contactFields, product: productFields, employee: employeeFields };

/**
 * The Fields parameter (n8n's resource mapper) as the editor saves it: the mode, the values, and the field list
 * the editor showed (n8n converts each value to its listed type before the node reads it).
 */
export function columns(resource: keyof typeof FIELDS, value: IDataObject | null, mappingMode = 'defineBelow'): ResourceMapperValue {
	return {
		mappingMode,
		value: value as ResourceMapperValue['value'],
		matchingColumns: [],
		schema: knownColumns(FIELDS[resource]),
		attemptToConvertTypes: false,
		convertFieldsToString: false,
	};
}

/** Create (or another operation with Fields) with each field set below. */
export const createWith = (resource: keyof typeof FIELDS, value: IDataObject, extra: INodeParameters = {}, operation = 'create'): INodeParameters => ({
	resource,
	operation,
	columns: columns(resource, value),
	...extra,
});

/** Create (or another operation with Fields) with Map Automatically. */
export const createFromInput = (resource: keyof typeof FIELDS, extra: INodeParameters = {}, operation = 'create'): INodeParameters => ({
	resource,
	operation,
	columns: columns(resource, null, 'autoMapInputData'),
	...extra,
});

export interface RunOptions {
	input?: IDataObject[];
	continueOnFail?: boolean;
	token?: string;
	baseUrl?: string;
	/** Runs n8n's "ERP Tool" variant, as an AI agent or the MCP Server Trigger does (see ../toolVariant). */
	asTool?: boolean;
	/** The node's version as the workflow saved it; default the newest, as for a node the user adds. */
	typeVersion?: number;
}

/** The ERP node inside n8n-core's WorkflowExecute, with its real credential, against an in-process sandbox. */
export interface ErpHarness {
	sandbox: TestSandbox;
	run(parameters: INodeParameters, options?: RunOptions): Promise<RunNodeResult>;
	/** The /api/v1 requests the sandbox saw since the last `mark()`. */
	requests(): Promise<Awaited<ReturnType<TestSandbox['admin']['requests']>>>;
	mark(): Promise<void>;
}

export const jsonOf = (result: RunNodeResult) => result.items.map((item) => item.json);

/**
 * Registers the suite's hooks: one sandbox for the file, emptied (and optionally seeded) before each test,
 * with the request log marked so `requests()` shows only the test's own requests.
 */
export function useErpHarness(seedEachTest?: SeedOptions, sandboxOptions: SandboxOptions = {}): ErpHarness {
	let since = 0;
	const h: ErpHarness = {
		sandbox: undefined as unknown as TestSandbox,
		run: async (parameters, options = {}) =>
			await runNode({
				nodeType: options.asTool ? erpTool() : new Erp(),
				credentialType: new ErpApi(),
				credentials: { baseUrl: options.baseUrl ?? h.sandbox.baseUrl, apiToken: options.token ?? h.sandbox.token },
				parameters,
				input: options.input,
				continueOnFail: options.continueOnFail,
				typeVersion: options.typeVersion,
			}),
		requests: async () => await h.sandbox.admin.requests(since),
		mark: async () => {
			since = await h.sandbox.admin.lastRequestSeq();
		},
	};
	beforeAll(async () => {
		h.sandbox = await startTestSandbox(sandboxOptions);
	});
	afterAll(async () => await h.sandbox.close());
	beforeEach(async () => {
		await h.sandbox.admin.reset();
		if (seedEachTest) await h.sandbox.admin.seed(seedEachTest);
		await h.mark();
	});
	return h;
}
