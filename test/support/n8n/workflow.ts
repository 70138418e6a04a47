import './environment';

import type {
	IConnections,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IVersionedNodeType,
	IWorkflowBase,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeHelpers, Workflow } from 'n8n-workflow';

import { HarnessCredentialsHelper } from './credentials-helper';
import { defaultTypeVersion, HarnessNodeTypes, nodeTypeName } from './node-types';

/** Name of the node that feeds the input items to the node under test (`$('Start')` in expressions). */
export const START_NODE_NAME = 'Start';

/** Passes the items it is started with to its output: the harness's stand-in for a trigger. */
export const startNodeType: INodeType = {
	description: {
		displayName: 'Start',
		name: 'harnessStart',
		group: ['input'],
		version: 1,
		description: 'Emits the test input items',
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
	nodeType: INodeType | IVersionedNodeType;
	parameters: INodeParameters;
	credentialType?: ICredentialType;
	credentials?: ICredentialDataDecryptedObject;
	typeVersion?: number;
	continueOnFail?: boolean;
	webhookId?: string;
	/** The workflow's static data as n8n loads it from the database (polling triggers keep their memory there). */
	staticData?: IDataObject;
}

export interface HarnessWorkflow {
	workflow: Workflow;
	workflowData: IWorkflowBase;
	node: INode;
	start: INode;
	credentialsHelper: HarnessCredentialsHelper;
}

/** The node's name in the workflow: its default name, as when a user adds it. */
function nodeName(nodeType: INodeType | IVersionedNodeType, typeVersion: number): string {
	const { description } = NodeHelpers.getVersionedNodeType(nodeType, typeVersion);
	return description.defaults.name ?? description.displayName;
}

/**
 * A two-node workflow, Start → node under test, with the credential attached to the node the way the editor
 * attaches it. The Workflow constructor fills in parameter defaults, as n8n does when it loads a workflow.
 */
export function buildWorkflow(options: NodeUnderTest): HarnessWorkflow {
	const { nodeType, credentialType } = options;
	if (credentialType === undefined && options.credentials !== undefined) {
		throw new Error('credentials were given without a credentialType');
	}

	const start: INode = {
		id: 'start',
		name: START_NODE_NAME,
		type: nodeTypeName(startNodeType),
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const typeVersion = options.typeVersion ?? defaultTypeVersion(nodeType);
	const node: INode = {
		id: 'node-under-test',
		name: nodeName(nodeType, typeVersion),
		type: nodeTypeName(nodeType),
		typeVersion,
		position: [220, 0],
		parameters: structuredClone(options.parameters),
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		...(options.webhookId ? { webhookId: options.webhookId } : {}),
		...(credentialType
			? { credentials: { [credentialType.name]: { id: '1', name: `${credentialType.displayName} account` } } }
			: {}),
	};
	const connections: IConnections = {
		[start.name]: { main: [[{ node: node.name, type: NodeConnectionTypes.Main, index: 0 }]] },
	};

	const credentialsHelper = new HarnessCredentialsHelper(
		credentialType ? [{ type: credentialType, data: options.credentials ?? {} }] : [],
	);
	const workflow = new Workflow({
		id: 'harness-workflow',
		name: 'Harness',
		nodes: [start, node],
		connections,
		active: false,
		nodeTypes: new HarnessNodeTypes([startNodeType, nodeType]),
		settings: { executionOrder: 'v1' },
		staticData: options.staticData === undefined ? undefined : structuredClone(options.staticData),
	});
	const now = new Date();
	const workflowData: IWorkflowBase = {
		id: workflow.id,
		name: workflow.name ?? 'Harness',
		active: false,
		isArchived: false,
		activeVersionId: null,
		createdAt: now,
		updatedAt: now,
		nodes: [start, node],
		connections,
		settings: workflow.settings,
	};
	return { workflow, workflowData, node: workflow.getNode(node.name) ?? node, start, credentialsHelper };
}
