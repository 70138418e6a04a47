import './environment';

import { ExternalSecretsProxy, getAdditionalKeys } from 'n8n-core';
import type { ICredentialDataDecryptedObject, ICredentialsHelper, ICredentialType, IDataObject, IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';
import type { INode, INodeExecutionData, INodeParameters, INodeType, INodeTypes, IWorkflowBase, IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import { NodeConnectionTypes, NodeHelpers, UnexpectedError, Workflow } from 'n8n-workflow';

import { name as packageName } from '../../package.json';

/** Name of the node that feeds the input items to the node under test (`$('Start')` in expressions). */
const START_NODE_NAME = 'Start';

/** Passes the items it is started with to its output: the harness's stand-in for a trigger. */
const startNodeType: INodeType = {
	description: {
		displayName: 'Start', name: 'harnessStart', group: ['input'], version: 1, description: 'Emits the test input items',
		defaults: { name: START_NODE_NAME },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	},
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	},
};

/** What every harness entry point needs to place one node in a workflow. */
export interface NodeUnderTest {
	/** An instance of the node, e.g. `new Erp()`. */
	nodeType: INodeType;
	/** The node's parameters as saved; default none (n8n fills in the defaults). */
	parameters?: INodeParameters;
	/** The credential type the node uses, e.g. `new ErpApi()`. */
	credentialType?: ICredentialType;
	/** What the user typed into the credential, e.g. `{ baseUrl, apiToken }`. */
	credentials?: ICredentialDataDecryptedObject;
	/** Default: the node's highest version, as for a node the user adds. */
	typeVersion?: number;
	/** The node setting "On Error: Continue" (`onError: 'continueRegularOutput'`). */
	continueOnFail?: boolean;
	webhookId?: string;
	/** Default 'harness-workflow'. */
	workflowId?: string;
	/** The workflow's static data as n8n loads it from the database (polling triggers keep their memory there). */
	staticData?: IDataObject;
}

export interface HarnessWorkflow {
	workflow: Workflow;
	/** The workflow as n8n saves it. */
	workflowData: IWorkflowBase;
	/** The node under test, with n8n's parameter defaults filled in. */
	node: INode;
	start: INode;
	credentialsHelper: ICredentialsHelper;
}

/** The type name n8n gives a node of this package, e.g. `n8n-nodes-erp.erp`, exactly as users will have it. */
const typeName = (nodeType: INodeType) => `${packageName}.${nodeType.description.name}`;

/** Start → node under test, the credential attached as the editor attaches it; the Workflow constructor fills in parameter defaults, as n8n does loading a workflow. */
export function buildWorkflow(options: NodeUnderTest): HarnessWorkflow {
	const { nodeType, credentialType } = options;
	const { defaults, displayName, version } = nodeType.description;
	const start: INode = { id: 'start', name: START_NODE_NAME, type: typeName(startNodeType), typeVersion: 1, position: [0, 0], parameters: {} };
	const node: INode = {
		id: 'node-under-test',
		name: defaults.name ?? displayName,
		type: typeName(nodeType),
		typeVersion: options.typeVersion ?? Math.max(...[version].flat()),
		position: [220, 0],
		parameters: structuredClone(options.parameters ?? {}),
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		...(options.webhookId ? { webhookId: options.webhookId } : {}),
		...(credentialType ? { credentials: { [credentialType.name]: { id: '1', name: `${credentialType.displayName} account` } } } : {}),
	};

	const types = new Map([startNodeType, nodeType].map((type) => [typeName(type), type]));
	const getByName = (name: string): INodeType => {
		const found = types.get(name);
		if (found === undefined) throw new UnexpectedError(`Unrecognized node type: ${name}`);
		return found;
	};
	const nodeTypes: INodeTypes = { getByName, getByNameAndVersion: getByName, getKnownTypes: () => ({}) };
	const now = new Date();
	const workflowData: IWorkflowBase = {
		id: options.workflowId ?? 'harness-workflow', name: 'Harness', active: false, isArchived: false, activeVersionId: null, createdAt: now, updatedAt: now,
		nodes: [start, node],
		connections: { [start.name]: { main: [[{ node: node.name, type: NodeConnectionTypes.Main, index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
	const staticData = options.staticData === undefined ? undefined : structuredClone(options.staticData);
	const workflow = new Workflow({ ...workflowData, nodeTypes, staticData });
	const loaded = workflow.getNode(node.name) ?? node;
	const credential = credentialType && { type: credentialType, data: options.credentials ?? {} };
	const helper = credentialsHelper(workflow, loaded, credential);
	return { workflow, workflowData, node: loaded, start, credentialsHelper: helper };
}

const unavailable = (feature: string) => (): never => {
	throw new UnexpectedError(`${feature} is not available in the test harness`);
};

/** n8n's CredentialsHelper for the node's one credential, in memory: decrypting applies the type's defaults and resolves expressions, `authenticate` calls the type's. */
function credentialsHelper(workflow: Workflow, node: INode, credential?: { type: ICredentialType; data: ICredentialDataDecryptedObject }): ICredentialsHelper {
	const typeNamed = (name: string): ICredentialType => {
		if (credential?.type.name !== name) throw new UnexpectedError(`The harness was given no credentials of type "${name}"`);
		const { extends: parents, preAuthentication, authenticate } = credential.type;
		if (parents?.length || preAuthentication || (authenticate && typeof authenticate !== 'function')) {
			const unsupported = 'extends others, pre-authenticates or authenticates generically';
			throw new UnexpectedError(`Credential type "${name}" ${unsupported}: the harness does not support it`);
		}
		return credential.type;
	};

	return {
		getParentTypes: () => [],
		isCredentialUsableByNode: () => true,
		getCredentialsProperties: (name) => typeNamed(name).properties,
		preAuthentication: async () => undefined,
		runPreAuthentication: unavailable('Pre-authentication'),
		getCredentials: unavailable('Reading a stored credential'),
		updateCredentials: unavailable('Updating a credential'),
		updateCredentialsOauthTokenData: unavailable('OAuth'),

		async authenticate(credentials, name, requestOptions) {
			const { authenticate } = typeNamed(name);
			const options = requestOptions as IHttpRequestOptions;
			return typeof authenticate === 'function' ? await authenticate(credentials, options) : options;
		},

		async getDecrypted(additionalData, _details, name, mode, executeData, _raw, resolveValues) {
			const { properties } = typeNamed(name);
			const data = NodeHelpers.getNodeParameters(properties, { ...credential?.data } as INodeParameters, true, false, null, null) ?? {};
			const keys = getAdditionalKeys(additionalData, mode, null, { isCredential: true });
			if (resolveValues) {
				const { workflow: running, runExecutionData, runIndex, itemIndex, node: at, connectionInputData } = resolveValues;
				return running.expression.getParameterValue(
					data, runExecutionData, runIndex, itemIndex, at.name, connectionInputData, mode, keys, executeData, false, data,
				) as ICredentialDataDecryptedObject;
			}
			return await workflow.expression.withIsolate(
				async () =>
					workflow.expression.getComplexParameterValue(node, data, mode, keys, undefined, undefined, data) as ICredentialDataDecryptedObject,
			);
		},
	};
}

/** n8n's WorkflowExecuteAdditionalData.getBase() for one node: credentials and URLs, no sub-workflows or task runners. */
export function additionalData({ credentialsHelper }: HarnessWorkflow, instanceUrl = 'http://localhost:5678'): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper,
		externalSecretsProxy: new ExternalSecretsProxy(),
		executeWorkflow: unavailable('Executing a sub-workflow'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: unavailable('A task runner (Code node)'),
		logAiEvent: () => undefined,
		currentNodeExecutionIndex: 0,
		variables: {},
		instanceBaseUrl: `${instanceUrl}/`,
		restApiUrl: `${instanceUrl}/rest`,
		webhookBaseUrl: `${instanceUrl}/webhook`,
		webhookTestBaseUrl: `${instanceUrl}/webhook-test`,
		webhookWaitingBaseUrl: `${instanceUrl}/webhook-waiting`,
		formBaseUrl: `${instanceUrl}/form`,
		formTestBaseUrl: `${instanceUrl}/form-test`,
		formWaitingBaseUrl: `${instanceUrl}/form-waiting`,
		mcpBaseUrl: `${instanceUrl}/mcp`,
		mcpTestBaseUrl: `${instanceUrl}/mcp-test`,
	};
}
